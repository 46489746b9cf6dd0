"""Log entry bodies: one frozen class per entry kind, with its exact plain form.

Every ``from_plain`` validates types, sizes and (through the crypto package) every point, and
raises :class:`RemoteProtocolError` on any deviation; ``to_plain`` gives the canonical form.
Each kind has a ``LIMIT``: the most bytes an entry of that kind may take, checked before its
body is read (so an oversized entry costs no point validation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import ClassVar, Final, TypeAlias

from crypto import (
    MAX_DECK,
    CryptoError,
    DleqProof,
    Opening,
    Point,
    PublicKeyShare,
    ShuffleProof,
    deck_from_wire,
    deck_to_wire,
)
from crypto import Ciphertext as _Ct

from ._errors import RemoteProtocolError

HASH_BYTES: Final = 32
KEY_BYTES: Final = 32
#: A table's id: 16 random bytes, named by every entry of it (``_messages.TABLE_ID_BYTES``).
TABLE_BYTES: Final = 16
#: The most games a night may hold (a night link's ``number``): bounds a peer's value.
MAX_NIGHT_GAMES: Final = 9999
MAX_NAME: Final = 32
MAX_HANDLE: Final = 2**31 - 1
MAX_SEATS: Final = 64
#: Largest sealed box of a show: a hand's decryption shares (about 150 bytes a card).
MAX_SHOW_BOX: Final = 200 << 10

Plain: TypeAlias = object


# --------------------------------------------------------------------------- field readers


def _bad(what: str, why: str) -> RemoteProtocolError:
    return RemoteProtocolError(f"{what}: {why}")


def _map(value: object, what: str, names: frozenset[str]) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _bad(what, "expected a map")
    if set(value) != names:
        extra, missing = sorted(set(value) - names), sorted(names - set(value))
        raise _bad(what, f"fields differ (unexpected {extra}, missing {missing})")
    return value


def _int(value: object, what: str, lo: int = 0, hi: int = 2**63 - 1) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(what, f"expected an integer in {lo}..{hi}")
    return value


def _bytes(value: object, what: str, size: int | None = None) -> bytes:
    if not isinstance(value, bytes) or (size is not None and len(value) != size):
        raise _bad(what, "expected bytes" + ("" if size is None else f" of length {size}"))
    return value


def _bytes_max(value: object, what: str, most: int) -> bytes:
    if not isinstance(value, bytes) or len(value) > most:
        raise _bad(what, f"expected at most {most} bytes")
    return value


def _str(value: object, what: str, max_len: int = 256) -> str:
    if not isinstance(value, str) or len(value) > max_len:
        raise _bad(what, f"expected a string of at most {max_len} characters")
    return value


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(what, "expected a boolean")
    return value


def _list(value: object, what: str, max_len: int = 4096) -> list[object]:
    if not isinstance(value, list) or len(value) > max_len:
        raise _bad(what, f"expected a list of at most {max_len} items")
    return value


def _crypto(reader: Callable[[], object], what: str) -> object:
    try:
        return reader()
    except CryptoError as exc:
        raise _bad(what, str(exc)) from None


def read_name(value: object) -> str:
    """A player name: 1..32 printable characters, no leading or trailing space."""
    name = _str(value, "name", MAX_NAME)
    if not name or name != name.strip() or not name.isprintable():
        raise _bad("name", "must be 1..32 printable characters without outer spaces")
    return name


# --------------------------------------------------------------------------- entry bodies


#: A seat's decryption shares in one entry: ``(handle, D)`` pairs, proved together by one
#: batched Chaum–Pedersen proof (``crypto.ShareBatch``) over the cards in this order.
HandleShares: TypeAlias = tuple[tuple[int, Point], ...]


def _handle_shares(value: object, what: str) -> HandleShares:
    out = []
    for i, item in enumerate(_list(value, what)):
        pair = _list(item, what, 2)
        if len(pair) != 2:
            raise _bad(what, "each item is [handle, share]")
        handle = _int(pair[0], what + " handle", 0, MAX_HANDLE)
        d = _crypto(lambda p=pair: Point.decode(p[1]), f"{what}[{i}] D")  # type: ignore[misc]
        assert isinstance(d, Point)
        out.append((handle, d))
    handles = [h for h, _ in out]
    if len(set(handles)) != len(handles):
        raise _bad(what, "a handle appears twice")
    return tuple(out)


def _shares_plain(shares: HandleShares) -> list[object]:
    return [[h, d.encode()] for h, d in shares]


def _proof(value: object, what: str, needed: bool) -> DleqProof | None:
    """The batch proof of an entry's shares: present exactly when it carries shares."""
    if value is None:
        if needed:
            raise _bad(what, "shares need their proof")
        return None
    if not needed:
        raise _bad(what, "a proof without shares")
    proof = _crypto(lambda: DleqProof.from_wire(value), what)
    assert isinstance(proof, DleqProof)
    return proof


_NIGHT_FIELDS: Final = frozenset({"first", "after", "digest", "number"})


@dataclass(frozen=True, slots=True)
class NightLink:
    """Where a table stands in a night of games at one table (the ``night`` of its ``open``):
    the id of the night's ``first`` table, the table just finished (``after``) and the
    closing digest every seat of it signed off (``digest``), and this game's ``number`` in
    the night (2 for the second game). The host signs it; each seat checks it against the
    table it has just closed itself."""

    first: bytes
    after: bytes
    digest: bytes
    number: int

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {
            "first": self.first,
            "after": self.after,
            "digest": self.digest,
            "number": self.number,
        }

    @classmethod
    def from_plain(cls, value: object) -> NightLink:
        """Parse strictly (exact fields, sizes, ``number`` in 2..:data:`MAX_NIGHT_GAMES`, the
        second game's ``first`` being its ``after``); raises :class:`RemoteProtocolError`."""
        d = _map(value, "night", _NIGHT_FIELDS)
        link = cls(
            _bytes(d["first"], "night's first table", TABLE_BYTES),
            _bytes(d["after"], "night's previous table", TABLE_BYTES),
            _bytes(d["digest"], "night's closing digest", HASH_BYTES),
            _int(d["number"], "game number in the night", 2, MAX_NIGHT_GAMES),
        )
        if (link.number == 2) != (link.first == link.after):
            raise _bad("night", "the second game follows the first, and only it")
        return link


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Position 0, by the host (seat 0): the game, its options, the seat count, the host's
    name and seal key, and where the table stands in a night (``night``: ``None`` for a
    table that starts one)."""

    KIND: ClassVar[str] = "open"
    LIMIT: ClassVar[int] = 64 << 10
    game: str
    options: dict[str, Plain]
    seats: int
    name: str
    seal: bytes
    night: NightLink | None = None

    def to_plain(self) -> dict[str, object]:
        """Plain form (of an entry of version 4; :func:`body_plain` gives version 3's)."""
        return {
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "name": self.name,
            "seal": self.seal,
            "night": None if self.night is None else self.night.to_plain(),
        }

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> OpenTable:
        """Parse; raises :class:`RemoteProtocolError`. The field set is checked before, by
        the entry's version (:func:`body_fields`): an entry of version 3 has no ``night``."""
        options = d["options"]
        if not isinstance(options, dict):
            raise _bad("open options", "expected a map")
        night = d.get("night")
        return cls(
            _str(d["game"], "game", 64),
            options,
            _int(d["seats"], "seats", 1, MAX_SEATS),
            read_name(d["name"]),
            _bytes(d["seal"], "seal key", KEY_BYTES),
            None if night is None else NightLink.from_plain(night),
        )


@dataclass(frozen=True, slots=True)
class Join:
    """A peer takes the next free seat with its name and per-table seal key."""

    KIND: ClassVar[str] = "join"
    LIMIT: ClassVar[int] = 1 << 10
    name: str
    seal: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"name": self.name, "seal": self.seal}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Join:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(read_name(d["name"]), _bytes(d["seal"], "seal key", KEY_BYTES))


@dataclass(frozen=True, slots=True)
class Start:
    """The host fixes the seats before the table is full."""

    KIND: ClassVar[str] = "start"
    LIMIT: ClassVar[int] = 256

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Start:
        """Parse."""
        return cls()


@dataclass(frozen=True, slots=True)
class Kick:
    """The host removes the peer in ``seat`` before the game starts (the seats after it move
    up one)."""

    KIND: ClassVar[str] = "kick"
    LIMIT: ClassVar[int] = 256
    seat: int

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"seat": self.seat}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Kick:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_int(d["seat"], "kicked seat", 1, MAX_SEATS - 1))


@dataclass(frozen=True, slots=True)
class KeyShareBody:
    """A seat's public key share with its Schnorr proof."""

    KIND: ClassVar[str] = "key"
    LIMIT: ClassVar[int] = 1 << 10
    share: PublicKeyShare

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"share": self.share.to_wire()}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> KeyShareBody:
        """Parse (point validated); raises :class:`RemoteProtocolError`."""
        share = _crypto(lambda: PublicKeyShare.from_wire(d["share"]), "key share")
        assert isinstance(share, PublicKeyShare)
        return cls(share)


@dataclass(frozen=True, slots=True)
class ShuffleBody:
    """A seat's re-encrypted, permuted deck with its proof of shuffle."""

    KIND: ClassVar[str] = "shuffle"
    LIMIT: ClassVar[int] = 1 << 20
    deck: tuple[_Ct, ...]
    proof: ShuffleProof

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"deck": deck_to_wire(self.deck), "proof": self.proof.to_wire()}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> ShuffleBody:
        """Parse (every point validated); raises :class:`RemoteProtocolError`."""
        deck = _crypto(lambda: deck_from_wire(d["deck"]), "shuffle deck")
        assert isinstance(deck, list)
        if not 1 <= len(deck) <= MAX_DECK:
            raise _bad("shuffle deck", "empty")
        proof = _crypto(lambda: ShuffleProof.from_wire(d["proof"], len(deck)), "shuffle proof")
        assert isinstance(proof, ShuffleProof)
        return cls(tuple(deck), proof)


@dataclass(frozen=True, slots=True)
class SharesBody:
    """A seat's decryption shares owed to pending deals and reveals, with one batched proof."""

    KIND: ClassVar[str] = "shares"
    LIMIT: ClassVar[int] = 128 << 10
    shares: HandleShares
    proof: DleqProof

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"shares": _shares_plain(self.shares), "proof": self.proof.to_wire()}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SharesBody:
        """Parse; raises :class:`RemoteProtocolError`."""
        shares = _handle_shares(d["shares"], "shares")
        if not shares:
            raise _bad("shares", "at least one share")
        proof = _proof(d["proof"], "shares proof", True)
        assert proof is not None
        return cls(shares, proof)


@dataclass(frozen=True, slots=True)
class CoinCommit:
    """A seat's commitments to its contribution for each pending joint coin."""

    KIND: ClassVar[str] = "coin_commit"
    LIMIT: ClassVar[int] = 16 << 10
    digests: tuple[bytes, ...]

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"digests": list(self.digests)}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> CoinCommit:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(tuple(_bytes(x, "coin commitment", 32) for x in _list(d["digests"], "coins")))


@dataclass(frozen=True, slots=True)
class CoinOpen:
    """A seat's openings of its coin commitments."""

    KIND: ClassVar[str] = "coin_open"
    LIMIT: ClassVar[int] = 64 << 10
    openings: tuple[Opening, ...]

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"openings": [o.to_wire() for o in self.openings]}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> CoinOpen:
        """Parse; raises :class:`RemoteProtocolError`."""
        out = []
        for item in _list(d["openings"], "coin openings"):
            opening = _crypto(lambda i=item: Opening.from_wire(i), "coin opening")  # type: ignore[misc]
            assert isinstance(opening, Opening)
            out.append(opening)
        return cls(tuple(out))


@dataclass(frozen=True, slots=True)
class Show:
    """The holder's decryption shares of the shown cards, sealed to the recipient alone."""

    KIND: ClassVar[str] = "show"
    LIMIT: ClassVar[int] = 256 << 10
    box: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"box": self.box}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Show:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_bytes_max(d["box"], "show box", MAX_SHOW_BOX))


@dataclass(frozen=True, slots=True)
class ShowAck:
    """The recipient's signed answer to a show: opened (``complaint`` is ``None``), or a
    complaint that publishes its per-table seal secret so everyone can re-open the box."""

    KIND: ClassVar[str] = "show_ack"
    LIMIT: ClassVar[int] = 1 << 10
    complaint: bytes | None

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"complaint": self.complaint}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> ShowAck:
        """Parse; raises :class:`RemoteProtocolError`."""
        c = d["complaint"]
        return cls(None if c is None else _bytes(c, "complaint seal secret", KEY_BYTES))


@dataclass(frozen=True, slots=True)
class MoveBody:
    """A game move, with the author's decryption shares of every card the move reveals (and
    their batched proof)."""

    KIND: ClassVar[str] = "move"
    LIMIT: ClassVar[int] = 64 << 10
    move: Plain
    reveal: HandleShares = ()
    proof: DleqProof | None = None

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        proof = self.proof.to_wire() if self.proof is not None else None
        return {"move": self.move, "reveal": _shares_plain(self.reveal), "proof": proof}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> MoveBody:
        """Parse (the move's own shape is the game's to judge)."""
        reveal = _handle_shares(d["reveal"], "reveal")
        return cls(d["move"], reveal, _proof(d["proof"], "reveal proof", bool(reveal)))


@dataclass(frozen=True, slots=True)
class SealedCommit:
    """The commitment to a sealed move (the game's ``Commit`` status)."""

    KIND: ClassVar[str] = "seal_commit"
    LIMIT: ClassVar[int] = 1 << 10
    digest: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"digest": self.digest}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SealedCommit:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_bytes(d["digest"], "sealed move commitment", 32))


@dataclass(frozen=True, slots=True)
class SealedOpen:
    """The opening of a sealed move (the game's ``Open`` status): salt and encoded move."""

    KIND: ClassVar[str] = "seal_open"
    LIMIT: ClassVar[int] = 80 << 10
    opening: Opening

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"opening": self.opening.to_wire()}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SealedOpen:
        """Parse; raises :class:`RemoteProtocolError`."""
        opening = _crypto(lambda: Opening.from_wire(d["opening"]), "sealed move opening")
        assert isinstance(opening, Opening)
        return cls(opening)


@dataclass(frozen=True, slots=True)
class SealClose:
    """The closer ends a sealed phase: ``missing`` are the seats that handed nothing in."""

    KIND: ClassVar[str] = "seal_close"
    LIMIT: ClassVar[int] = 1 << 10
    missing: tuple[int, ...]

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"missing": list(self.missing)}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SealClose:
        """Parse; raises :class:`RemoteProtocolError`."""
        seats = tuple(
            _int(x, "missing seat", 0, MAX_SEATS - 1)
            for x in _list(d["missing"], "missing seats", MAX_SEATS)
        )
        if not seats or len(set(seats)) != len(seats):
            raise _bad("missing seats", "expected distinct seats, at least one")
        return cls(seats)


@dataclass(frozen=True, slots=True)
class Secrets:
    """The audit: a seat publishes its key share secret and its per-table seal secret."""

    KIND: ClassVar[str] = "secrets"
    LIMIT: ClassVar[int] = 1 << 10
    key: bytes
    seal: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"key": self.key, "seal": self.seal}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Secrets:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_bytes(d["key"], "key secret", 32), _bytes(d["seal"], "seal secret", 32))


@dataclass(frozen=True, slots=True)
class SignOff:
    """A seat signs the audit's closing digest (log head after the audit, and the verdict)."""

    KIND: ClassVar[str] = "signoff"
    LIMIT: ClassVar[int] = 1 << 10
    digest: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"digest": self.digest}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SignOff:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_bytes(d["digest"], "signoff digest", HASH_BYTES))


Body: TypeAlias = (
    OpenTable
    | Join
    | Start
    | Kick
    | KeyShareBody
    | ShuffleBody
    | SharesBody
    | CoinCommit
    | CoinOpen
    | Show
    | ShowAck
    | MoveBody
    | SealedCommit
    | SealedOpen
    | SealClose
    | Secrets
    | SignOff
)
_BODY_FIELDS: Final[dict[str, tuple[type, frozenset[str]]]] = {
    cls.KIND: (cls, frozenset(f.name for f in fields(cls)))
    for cls in (
        OpenTable,
        Join,
        Start,
        Kick,
        KeyShareBody,
        ShuffleBody,
        SharesBody,
        CoinCommit,
        CoinOpen,
        Show,
        ShowAck,
        MoveBody,
        SealedCommit,
        SealedOpen,
        SealClose,
        Secrets,
        SignOff,
    )
}

#: What entries of version 3 lack (before the night link): kind -> the fields it has not.
_V3_LACKS: Final[dict[str, frozenset[str]]] = {"open": frozenset({"night"})}


def body_fields(kind: str, version: int) -> frozenset[str] | None:
    """The exact field set of a ``kind`` body in an entry of ``version`` (3 or 4); ``None``
    for an unknown kind."""
    spec = _BODY_FIELDS.get(kind)
    if spec is None:
        return None
    return spec[1] - _V3_LACKS.get(kind, frozenset()) if version == 3 else spec[1]


def body_plain(body: Body, version: int) -> dict[str, object]:
    """``body``'s plain form in an entry of ``version``: version 3 has no night link (a body
    that holds one cannot be written in it: raises ``ValueError``)."""
    plain = body.to_plain()
    if version == 3:
        for name in _V3_LACKS.get(body.KIND, frozenset()):
            if plain.pop(name) is not None:
                raise ValueError(f"an entry of version 3 has no {name}")
    return plain


#: The most bytes an entry of each kind may take (see each body's ``LIMIT``).
BODY_LIMITS: Final[dict[str, int]] = {
    kind: cls.LIMIT  # type: ignore[attr-defined]
    for kind, (cls, _) in _BODY_FIELDS.items()
}

"""The wire format: frozen message classes and their strict, canonical msgpack forms.

Two layers. A *frame* (:class:`Hello`, :class:`Propose`, :class:`Relay`, :class:`Refuse`) is
what travels between a peer and the host. A *log entry* (:class:`Entry`) is what peers sign:
its canonical encoding is carried as bytes inside a frame, and the signature covers exactly
those bytes. Every map has an exact set of fields; every field has one type; every point is
validated once, here, when an entry is decoded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import ClassVar, Final, TypeAlias

from crypto import (
    MAX_DECK,
    CryptoError,
    DecryptionShare,
    Identity,
    Opening,
    PublicIdentity,
    PublicKeyShare,
    ShuffleProof,
    deck_from_wire,
    deck_to_wire,
)
from crypto import Ciphertext as _Ct

from ._codec import pack, unpack
from ._errors import RemoteProtocolError, VersionMismatchError
from ._frames import MAX_FRAME

#: The protocol version every frame and entry carries; a peer refuses any other.
PROTOCOL_VERSION: Final = 1
TABLE_ID_BYTES: Final = 16
HASH_BYTES: Final = 32
SIG_BYTES: Final = 64
KEY_BYTES: Final = 32
MAX_NAME: Final = 32
MAX_HANDLE: Final = 2**31 - 1
MAX_SEATS: Final = 64
GENESIS_PREV: Final = bytes(HASH_BYTES)
_ENTRY_PURPOSE: Final = "lanparty/table-entry"
_RELAY_PURPOSE: Final = "lanparty/table-relay"

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


def _handle_shares(value: object, what: str) -> tuple[tuple[int, DecryptionShare], ...]:
    out = []
    for item in _list(value, what):
        pair = _list(item, what, 2)
        if len(pair) != 2:
            raise _bad(what, "each item is [handle, share]")
        handle = _int(pair[0], what + " handle", 0, MAX_HANDLE)
        share = _crypto(lambda p=pair: DecryptionShare.from_wire(p[1]), what)  # type: ignore[misc]
        assert isinstance(share, DecryptionShare)
        out.append((handle, share))
    handles = [h for h, _ in out]
    if len(set(handles)) != len(handles):
        raise _bad(what, "a handle appears twice")
    return tuple(out)


def _shares_plain(shares: tuple[tuple[int, DecryptionShare], ...]) -> list[object]:
    return [[h, s.to_wire()] for h, s in shares]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """Position 0, by the host (seat 0): the game, its options, the seat count."""

    KIND: ClassVar[str] = "open"
    game: str
    options: dict[str, Plain]
    seats: int
    name: str
    seal: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {
            "game": self.game,
            "options": self.options,
            "seats": self.seats,
            "name": self.name,
            "seal": self.seal,
        }

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> OpenTable:
        """Parse; raises :class:`RemoteProtocolError`."""
        options = d["options"]
        if not isinstance(options, dict):
            raise _bad("open options", "expected a map")
        return cls(
            _str(d["game"], "game", 64),
            options,
            _int(d["seats"], "seats", 1, MAX_SEATS),
            read_name(d["name"]),
            _bytes(d["seal"], "seal key", KEY_BYTES),
        )


@dataclass(frozen=True, slots=True)
class Join:
    """A peer takes the next free seat with its name and per-table seal key."""

    KIND: ClassVar[str] = "join"
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

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Start:
        """Parse."""
        return cls()


@dataclass(frozen=True, slots=True)
class KeyShareBody:
    """A seat's public key share with its Schnorr proof."""

    KIND: ClassVar[str] = "key"
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
    """A seat's decryption shares (with DLEQ proofs) owed to pending deals and reveals."""

    KIND: ClassVar[str] = "shares"
    shares: tuple[tuple[int, DecryptionShare], ...]

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"shares": _shares_plain(self.shares)}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> SharesBody:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_handle_shares(d["shares"], "shares"))


@dataclass(frozen=True, slots=True)
class CoinCommit:
    """A seat's commitments to its contribution for each pending joint coin."""

    KIND: ClassVar[str] = "coin_commit"
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
    box: bytes

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"box": self.box}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> Show:
        """Parse; raises :class:`RemoteProtocolError`."""
        return cls(_bytes(d["box"], "show box"))


@dataclass(frozen=True, slots=True)
class ShowAck:
    """The recipient's signed answer to a show: opened (``complaint`` is ``None``), or a
    complaint that publishes its per-table seal secret so everyone can re-open the box."""

    KIND: ClassVar[str] = "show_ack"
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
    """A game move, with the author's decryption shares of every card the move reveals."""

    KIND: ClassVar[str] = "move"
    move: Plain
    reveal: tuple[tuple[int, DecryptionShare], ...] = ()

    def to_plain(self) -> dict[str, object]:
        """Plain form."""
        return {"move": self.move, "reveal": _shares_plain(self.reveal)}

    @classmethod
    def from_plain(cls, d: dict[str, object]) -> MoveBody:
        """Parse (the move's own shape is the game's to judge)."""
        return cls(d["move"], _handle_shares(d["reveal"], "reveal"))


@dataclass(frozen=True, slots=True)
class SealedCommit:
    """The commitment to a sealed move (the game's ``Commit`` status)."""

    KIND: ClassVar[str] = "seal_commit"
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
class Secrets:
    """The audit: a seat publishes its key share secret and its per-table seal secret."""

    KIND: ClassVar[str] = "secrets"
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
    | Secrets
    | SignOff
)
_BODY_FIELDS: Final[dict[str, tuple[type, frozenset[str]]]] = {
    cls.KIND: (cls, frozenset(f.name for f in fields(cls)))
    for cls in (
        OpenTable,
        Join,
        Start,
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
        Secrets,
        SignOff,
    )
}


# --------------------------------------------------------------------------- entries

_ENTRY_FIELDS: Final = frozenset({"v", "table", "pos", "prev", "author", "kind", "body"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry: where it belongs (table, position, previous hash), who wrote it, what."""

    table: bytes
    pos: int
    prev: bytes
    author: bytes
    body: Body

    def encode(self) -> bytes:
        """The canonical bytes that the author signs."""
        return pack(
            {
                "v": PROTOCOL_VERSION,
                "table": self.table,
                "pos": self.pos,
                "prev": self.prev,
                "author": self.author,
                "kind": self.body.KIND,
                "body": self.body.to_plain(),
            }
        )


def _check_version(value: object) -> None:
    if type(value) is not int:
        raise RemoteProtocolError("no protocol version")
    if value != PROTOCOL_VERSION:
        raise VersionMismatchError(
            f"incompatible protocol: the peer speaks lanparty protocol version {value}, "
            f"this program speaks version {PROTOCOL_VERSION}"
        )


def decode_entry(raw: bytes) -> Entry:
    """Parse an entry's signed bytes strictly; raises :class:`RemoteProtocolError`."""
    value = unpack(raw, MAX_FRAME)
    if isinstance(value, dict) and "v" in value:
        _check_version(value["v"])
    d = _map(value, "entry", _ENTRY_FIELDS)
    kind = _str(d["kind"], "entry kind", 32)
    spec = _BODY_FIELDS.get(kind)
    if spec is None:
        raise _bad("entry", f"unknown entry kind {kind!r}")
    cls, names = spec
    body_map = _map(d["body"], f"{kind} entry", names)
    body = cls.from_plain(body_map)  # type: ignore[attr-defined]
    return Entry(
        _bytes(d["table"], "table id", TABLE_ID_BYTES),
        _int(d["pos"], "log position"),
        _bytes(d["prev"], "previous hash", HASH_BYTES),
        _bytes(d["author"], "author key", KEY_BYTES),
        body,
    )


def entry_hash(raw: bytes) -> bytes:
    """The hash that the next entry names as ``prev``."""
    return hashlib.blake2b(raw, digest_size=HASH_BYTES, person=b"lp-entry").digest()


@dataclass(frozen=True, slots=True)
class SignedEntry:
    """An entry, its exact signed bytes and its author's Ed25519 signature."""

    raw: bytes
    sig: bytes
    entry: Entry = field(compare=False)

    @property
    def hash(self) -> bytes:
        """See :func:`entry_hash`."""
        return entry_hash(self.raw)

    @classmethod
    def create(cls, identity: Identity, entry: Entry) -> SignedEntry:
        """Encode and sign ``entry`` (whose ``author`` must be ``identity``'s key)."""
        if entry.author != identity.public.raw:
            raise ValueError("an entry is signed by its author")
        raw = entry.encode()
        return cls(raw, identity.sign(_ENTRY_PURPOSE, raw), entry)

    @classmethod
    def parse(cls, raw: bytes, sig: bytes) -> SignedEntry:
        """Decode the entry (signature not yet checked); raises :class:`RemoteProtocolError`."""
        return cls(raw, sig, decode_entry(raw))

    def verify(self) -> None:
        """Check the author's signature; raises :class:`RemoteProtocolError` naming the author
        (as claimed: the one whose key does not sign these bytes)."""
        try:
            PublicIdentity(self.entry.author).verify(_ENTRY_PURPOSE, self.raw, self.sig)
        except CryptoError as exc:
            raise RemoteProtocolError(f"forged or corrupt entry signature ({exc})") from None


def relay_signature(host: Identity, raw: bytes) -> bytes:
    """The host's signature that it sequenced the entry ``raw`` at its position."""
    return host.sign(_RELAY_PURPOSE, entry_hash(raw))


def verify_relay(host: bytes, raw: bytes, seq: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``seq`` is ``host``'s relay signature."""
    try:
        PublicIdentity(host).verify(_RELAY_PURPOSE, entry_hash(raw), seq)
    except CryptoError as exc:
        raise RemoteProtocolError(f"bad relay signature ({exc})") from None


# --------------------------------------------------------------------------- frames


@dataclass(frozen=True, slots=True)
class Hello:
    """Peer → host, first frame: the peer's protocol version (in every frame's ``v``)."""

    TYPE: ClassVar[str] = "hello"


@dataclass(frozen=True, slots=True)
class Propose:
    """Peer → host: an entry the peer authored, for the host to sequence."""

    TYPE: ClassVar[str] = "propose"
    raw: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Relay:
    """Host → peers: an entry sequenced at its position, with the host's relay signature."""

    TYPE: ClassVar[str] = "relay"
    raw: bytes
    sig: bytes
    seq: bytes


@dataclass(frozen=True, slots=True)
class Refuse:
    """Host → one peer: its proposal (``pos``, or -1 for the connection) was refused, why,
    and whether the host will take nothing more from it (``fatal``)."""

    TYPE: ClassVar[str] = "refuse"
    pos: int
    reason: str
    fatal: bool


Message: TypeAlias = Hello | Propose | Relay | Refuse


def encode_message(msg: Message) -> bytes:
    """The canonical payload of a frame."""
    d: dict[str, object] = {"v": PROTOCOL_VERSION, "type": msg.TYPE}
    if isinstance(msg, Propose):
        d.update(entry=msg.raw, sig=msg.sig)
    elif isinstance(msg, Relay):
        d.update(entry=msg.raw, sig=msg.sig, seq=msg.seq)
    elif isinstance(msg, Refuse):
        d.update(pos=msg.pos, reason=msg.reason, fatal=msg.fatal)
    return pack(d)


_FRAME_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "hello": frozenset({"v", "type"}),
    "propose": frozenset({"v", "type", "entry", "sig"}),
    "relay": frozenset({"v", "type", "entry", "sig", "seq"}),
    "refuse": frozenset({"v", "type", "pos", "reason", "fatal"}),
}


def decode_message(payload: bytes) -> Message:
    """Parse a frame's payload strictly (entries stay undecoded bytes).

    Raises :class:`VersionMismatchError` for another protocol version and
    :class:`RemoteProtocolError` for anything malformed or unknown.
    """
    value = unpack(payload, MAX_FRAME)
    if not isinstance(value, dict):
        raise _bad("frame", "expected a map")
    _check_version(value.get("v"))
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in _FRAME_FIELDS:
        raise _bad("frame", f"unknown message type {kind!r}")
    d = _map(value, f"{kind} frame", _FRAME_FIELDS[kind])
    if kind == "hello":
        return Hello()
    if kind == "refuse":
        return Refuse(
            _int(d["pos"], "refused position", -1), _str(d["reason"], "reason", 1024),
            _bool(d["fatal"], "fatal"),
        )  # fmt: skip
    raw = _bytes(d["entry"], "entry")
    sig = _bytes(d["sig"], "signature", SIG_BYTES)
    if kind == "propose":
        return Propose(raw, sig)
    return Relay(raw, sig, _bytes(d["seq"], "relay signature", SIG_BYTES))


def body_kinds() -> tuple[str, ...]:
    """Every entry kind, for documentation and tests."""
    return tuple(_BODY_FIELDS)

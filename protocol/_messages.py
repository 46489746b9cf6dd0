"""The wire format: frozen message classes and their strict, canonical msgpack forms.

Two layers. A *frame* (:class:`Hello`, :class:`Propose`, :class:`Relay`, :class:`Refuse`) is
what travels between a peer and the host. A *log entry* (:class:`Entry`) is what peers sign:
its canonical encoding is carried as bytes inside a frame, and the signature covers exactly
those bytes. Every map has an exact set of fields; every field has one type; every point is
validated once, here, when an entry is decoded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final, TypeAlias

from crypto import CryptoError, Identity, PublicIdentity

from ._bodies import (
    _BODY_FIELDS,
    HASH_BYTES,
    KEY_BYTES,
    Body,
    _bad,
    _bool,
    _bytes,
    _int,
    _map,
    _str,
)
from ._codec import pack, unpack
from ._errors import RemoteProtocolError, VersionMismatchError
from ._frames import MAX_FRAME

#: The protocol version every frame and entry carries; a peer refuses any other.
PROTOCOL_VERSION: Final = 1
TABLE_ID_BYTES: Final = 16
SIG_BYTES: Final = 64
GENESIS_PREV: Final = bytes(HASH_BYTES)
_ENTRY_PURPOSE: Final = "lanparty/table-entry"
_RELAY_PURPOSE: Final = "lanparty/table-relay"


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


@dataclass(frozen=True, slots=True)
class Halt:
    """Host → peers: the table stops here, why, and the seat it blames (-1: none), e.g. a
    peer that vanished or stalled. Peers cannot verify it, but nothing is lost by believing
    it: a host can always stop relaying anyway."""

    TYPE: ClassVar[str] = "halt"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Rejoin:
    """Peer → host, first frame of a new connection after a lost one: the seated peer's key,
    how many log entries it holds (``pos``: the host relays from there), and its signature
    over the table id and ``pos`` (see :func:`rejoin_signature`)."""

    TYPE: ClassVar[str] = "rejoin"
    key: bytes
    pos: int
    sig: bytes


@dataclass(frozen=True, slots=True)
class Leave:
    """Peer → host: this seated peer leaves the table for good (the host halts it at once,
    instead of waiting for it to come back)."""

    TYPE: ClassVar[str] = "leave"


Message: TypeAlias = Hello | Propose | Relay | Refuse | Halt | Rejoin | Leave

_REJOIN_PURPOSE = "rejoin"


def _rejoin_bytes(table: bytes, pos: int) -> bytes:
    return table + pos.to_bytes(8, "big")


def rejoin_signature(identity: Identity, table: bytes, pos: int) -> bytes:
    """A seated peer's signature that it rejoins ``table`` holding ``pos`` entries."""
    return identity.sign(_REJOIN_PURPOSE, _rejoin_bytes(table, pos))


def verify_rejoin(msg: Rejoin, table: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``msg`` is signed by the key it names."""
    try:
        PublicIdentity(msg.key).verify(_REJOIN_PURPOSE, _rejoin_bytes(table, msg.pos), msg.sig)
    except CryptoError as exc:
        raise RemoteProtocolError(f"bad rejoin signature ({exc})") from None


def encode_message(msg: Message) -> bytes:
    """The canonical payload of a frame."""
    d: dict[str, object] = {"v": PROTOCOL_VERSION, "type": msg.TYPE}
    if isinstance(msg, Propose):
        d.update(entry=msg.raw, sig=msg.sig)
    elif isinstance(msg, Relay):
        d.update(entry=msg.raw, sig=msg.sig, seq=msg.seq)
    elif isinstance(msg, Refuse):
        d.update(pos=msg.pos, reason=msg.reason, fatal=msg.fatal)
    elif isinstance(msg, Halt):
        d.update(seat=msg.seat, reason=msg.reason)
    elif isinstance(msg, Rejoin):
        d.update(key=msg.key, pos=msg.pos, sig=msg.sig)
    return pack(d)


_FRAME_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "hello": frozenset({"v", "type"}),
    "propose": frozenset({"v", "type", "entry", "sig"}),
    "relay": frozenset({"v", "type", "entry", "sig", "seq"}),
    "refuse": frozenset({"v", "type", "pos", "reason", "fatal"}),
    "halt": frozenset({"v", "type", "seat", "reason"}),
    "rejoin": frozenset({"v", "type", "key", "pos", "sig"}),
    "leave": frozenset({"v", "type"}),
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
    if kind == "leave":
        return Leave()
    if kind == "rejoin":
        return Rejoin(
            _bytes(d["key"], "rejoining key", KEY_BYTES), _int(d["pos"], "rejoin position"),
            _bytes(d["sig"], "rejoin signature", SIG_BYTES),
        )  # fmt: skip
    if kind == "refuse":
        return Refuse(
            _int(d["pos"], "refused position", -1), _str(d["reason"], "reason", 1024),
            _bool(d["fatal"], "fatal"),
        )  # fmt: skip
    if kind == "halt":
        return Halt(_int(d["seat"], "halted seat", -1, 255), _str(d["reason"], "reason", 1024))
    raw = _bytes(d["entry"], "entry")
    sig = _bytes(d["sig"], "signature", SIG_BYTES)
    if kind == "propose":
        return Propose(raw, sig)
    return Relay(raw, sig, _bytes(d["seq"], "relay signature", SIG_BYTES))


def body_kinds() -> tuple[str, ...]:
    """Every entry kind, for documentation and tests."""
    return tuple(_BODY_FIELDS)

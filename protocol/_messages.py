"""The wire format: frozen message classes and their strict, canonical msgpack forms.

Two layers. A *frame* (:class:`Challenge`, :class:`Hello`, :class:`Watch`, :class:`Offer`,
:class:`Propose`, :class:`Relay`, :class:`Refuse`, :class:`Halt`, :class:`Leave`, and table
talk's :class:`Say` and :class:`SaidLine`) is what travels between a peer and the host.
A *log entry* (:class:`Entry`) is what peers sign: its canonical encoding is carried as bytes
inside a frame, and the signature covers exactly those bytes. Every map has an exact set of
fields; every field has one type; every point is validated once, here, when an entry's body
is decoded (:meth:`EntryHead.entry`: a host reads who wrote an entry before it pays for that).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final, TypeAlias

from crypto import CryptoError, Identity, KnownKeys, PublicIdentity

from ._bodies import (
    _BODY_FIELDS,
    BODY_LIMITS,
    HASH_BYTES,
    KEY_BYTES,
    MAX_NAME,
    MAX_SEATS,
    TABLE_BYTES,
    Body,
    body_fields,
    body_plain,
)
from ._codec import pack, unpack
from ._errors import RemoteProtocolError, VersionMismatchError, clamp, excerpt
from ._fields import _bad, _bool, _bytes, _int, _map, _str
from ._frames import MAX_FRAME

#: The protocol version every frame carries; a peer refuses any other.
#: 2: connections open with the host's challenge, answered by a signed hello (which is also
#: how a seat comes back: version 1's rejoin could be replayed by anyone who saw it).
#: 3: the group is ristretto255 (it was edwards25519's prime-order subgroup).
#: 4: a connection may answer the challenge with ``watch`` instead of a hello (a spectator).
#: 5: log entries of version 3 (coins bound to the log head, declared shapes), so a peer of
#: version 4 is told at its first frame rather than at its first entry.
#: 6: log entries of version 4 (the ``open``'s night link), and table talk (``say`` and
#: ``said`` frames, a ``refuse`` of a line at position -2).
#: 7: the host may ``offer`` the next game of a night on the same connection.
#: 8: the offer's ``free`` seats, and a ``refuse`` at position -3 (a spectator's seat).
#: 9: the challenge says whose table it is (the host's ``key``, the table's ``name``) and
#: whether spectators may ``talk``: a joiner learns its name with no announcement, and a
#: wrong key is told before anything else the host would say.
PROTOCOL_VERSION: Final = 9
#: The version of the signed log entries (and so of a transcript file): unchanged by what
#: only concerns connections, so a transcript stays auditable across protocol versions.
#: 2: every point is a ristretto255 element (version 1: edwards25519), so a transcript of
#: version 1 is refused with its version named, not misread.
#: 3: a joint coin's contribution is bound to the log head it is committed on, and every
#: move, sealed value and option is read against its game's declared shapes.
#: 4: the ``open`` entry has a ``night``: nil, or the link to the table before it in a
#: night of games at one table (``NightLink``).
ENTRY_VERSION: Final = 4
#: The entry versions this program reads: 3 (an ``open`` without ``night``, read as none)
#: and 4. Every entry of a table has its ``open``'s version (``Log.check_place``).
ENTRY_VERSIONS: Final = (3, 4)
TABLE_ID_BYTES: Final = TABLE_BYTES
SIG_BYTES: Final = 64
NONCE_BYTES: Final = 32
GENESIS_PREV: Final = bytes(HASH_BYTES)
#: Largest entry a peer may propose: room is left for what the relay adds around it (the
#: host's relay signature and the frame's fields), so every accepted proposal fits its relay.
MAX_ENTRY: Final = MAX_FRAME - 256
#: A table's name, as the host's challenge (and its mDNS announcement) carries it: at most
#: this many characters, printable, not blank (:func:`table_name_problem`).
MAX_TABLE_NAME: Final = 63
#: The most characters the challenge's ``name`` may have on the wire: a longer one makes
#: the frame malformed; a shorter one that is no good name is dropped by the peer.
_MAX_TABLE_NAME_WIRE: Final = 1024
_ENTRY_PURPOSE: Final = "lanparty/table-entry"
_RELAY_PURPOSE: Final = "lanparty/table-relay"
_HELLO_PURPOSE: Final = "lanparty/hello"
_LEAVE_PURPOSE: Final = "lanparty/leave"


# --------------------------------------------------------------------------- entries

_ENTRY_FIELDS: Final = frozenset({"v", "table", "pos", "prev", "author", "kind", "body"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry: where it belongs (table, position, previous hash), who wrote it, what,
    and its entry version (``v``: :data:`ENTRY_VERSION` for every entry written now; 3 for
    one read from a table of before the night link)."""

    table: bytes
    pos: int
    prev: bytes
    author: bytes
    body: Body
    v: int = ENTRY_VERSION

    def encode(self) -> bytes:
        """The canonical bytes that the author signs. Raises ``ValueError`` for a version
        this program does not read, or a body that version cannot hold."""
        if self.v not in ENTRY_VERSIONS:
            raise ValueError(f"no entry version {self.v}")
        return pack(
            {
                "v": self.v,
                "table": self.table,
                "pos": self.pos,
                "prev": self.prev,
                "author": self.author,
                "kind": self.body.KIND,
                "body": body_plain(self.body, self.v),
            }
        )


def _check_version(value: object, entries: bool = False) -> None:
    """Raise unless ``value`` is our protocol version (``entries``: an entry version we
    read, :data:`ENTRY_VERSIONS`)."""
    if type(value) is not int:
        raise RemoteProtocolError("no protocol version")
    if entries and value not in ENTRY_VERSIONS:
        raise VersionMismatchError(
            f"incompatible log entries: they are of lanparty entry version {value}, this "
            f"program reads version {ENTRY_VERSION} (and {ENTRY_VERSIONS[0]})"
        )
    if not entries and value != PROTOCOL_VERSION:
        raise VersionMismatchError(
            f"incompatible protocol: the peer speaks lanparty protocol version {value}, "
            f"this program speaks version {PROTOCOL_VERSION}"
        )


@dataclass(frozen=True, slots=True)
class EntryHead:
    """An entry read up to its body: where it belongs, who wrote it, its kind, and the body's
    plain map, not yet parsed (parsing a body validates its curve points, which costs), and
    the entry's version (``v``, one of :data:`ENTRY_VERSIONS`)."""

    table: bytes
    pos: int
    prev: bytes
    author: bytes
    kind: str
    body: dict[str, object]
    v: int = ENTRY_VERSION

    def entry(self) -> Entry:
        """The whole entry, its body parsed (every point validated); raises
        :class:`RemoteProtocolError`."""
        cls, _ = _BODY_FIELDS[self.kind]
        body = cls.from_plain(self.body)  # type: ignore[attr-defined]
        return Entry(self.table, self.pos, self.prev, self.author, body, self.v)


def read_head(raw: bytes) -> EntryHead:
    """Decode an entry's signed bytes strictly, all but the body's contents (whose field set
    is checked, as of the entry's version); raises :class:`RemoteProtocolError` (a
    :class:`VersionMismatchError` for a version this program does not read)."""
    value = unpack(raw, MAX_FRAME)
    if isinstance(value, dict) and "v" in value:
        _check_version(value["v"], entries=True)
    d = _map(value, "entry", _ENTRY_FIELDS)
    kind, v = d["kind"], d["v"]
    assert isinstance(v, int)
    names = body_fields(kind, v) if isinstance(kind, str) else None
    if names is None:
        raise _bad("entry", f"unknown entry kind {excerpt(kind)}")
    assert isinstance(kind, str)
    return EntryHead(
        _bytes(d["table"], "table id", TABLE_ID_BYTES),
        _int(d["pos"], "log position"),
        _bytes(d["prev"], "previous hash", HASH_BYTES),
        _bytes(d["author"], "author key", KEY_BYTES),
        kind,
        _map(d["body"], f"{kind} entry", names),
        v,
    )


def decode_entry(raw: bytes) -> Entry:
    """Parse an entry's signed bytes strictly; raises :class:`RemoteProtocolError`."""
    return read_head(raw).entry()


def race_rank(prev: bytes, author: bytes) -> bytes:
    """Where ``author``'s move stands in a race for the position after the entry whose hash
    is ``prev`` (lower wins): a hash nobody can steer or know before that entry exists, so
    every seat is as likely to win a race, and every peer can check who should have."""
    return hashlib.blake2b(prev + author, digest_size=HASH_BYTES, person=b"lp-race").digest()


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

    def verify(self, keys: KnownKeys | None = None) -> None:
        """Check the author's signature; raises :class:`RemoteProtocolError` naming the author
        (as claimed: the one whose key does not sign these bytes). ``keys``: see
        :func:`verify_entry_signature`."""
        verify_entry_signature(self.entry.author, self.raw, self.sig, keys)


def _public(raw: bytes, keys: KnownKeys | None) -> PublicIdentity:
    """The key ``raw``, checked (by ``keys`` once, if given); raises :class:`CryptoError`."""
    return PublicIdentity(raw) if keys is None else keys.get(raw)


def verify_entry_signature(
    author: bytes, raw: bytes, sig: bytes, keys: KnownKeys | None = None
) -> None:
    """Raise :class:`RemoteProtocolError` unless ``sig`` is ``author``'s signature of the
    entry bytes ``raw`` (checked before ``raw`` is decoded, so an unsigned entry costs only
    a hash). ``keys``: the verifying peer's :class:`~crypto.KnownKeys`, so that a key it has
    checked before is not validated again (the signature always is)."""
    try:
        _public(author, keys).verify(_ENTRY_PURPOSE, raw, sig)
    except CryptoError as exc:
        raise RemoteProtocolError(f"forged or corrupt entry signature ({exc})") from None


def relay_signature(host: Identity, raw: bytes) -> bytes:
    """The host's signature that it sequenced the entry ``raw`` at its position."""
    return host.sign(_RELAY_PURPOSE, entry_hash(raw))


def verify_relay(host: bytes, raw: bytes, seq: bytes, keys: KnownKeys | None = None) -> None:
    """Raise :class:`RemoteProtocolError` unless ``seq`` is ``host``'s relay signature
    (``keys``: as for :func:`verify_entry_signature`)."""
    try:
        _public(host, keys).verify(_RELAY_PURPOSE, entry_hash(raw), seq)
    except CryptoError as exc:
        raise RemoteProtocolError(f"bad relay signature ({exc})") from None


# --------------------------------------------------------------------------- frames


def table_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a table (blank, not printable, longer than
    :data:`MAX_TABLE_NAME`), or None if it can."""
    if not name.strip() or not name.isprintable():
        return "a table name is printable text, not empty"
    if len(name) > MAX_TABLE_NAME:
        return f"a table name is at most {MAX_TABLE_NAME} characters"
    return None


@dataclass(frozen=True, slots=True)
class Challenge:
    """Host → peer, the first frame of every connection: a fresh random ``nonce`` that the
    peer's hello (and leave) must sign, so no signed frame of one connection serves on
    another; and how many entries the log holds (``pos``): a peer taking its seat back
    proposes nothing before it holds them all (what it owes before is already logged).

    And the table as its host describes it: the host's identity ``key``, the table's
    ``name`` ("": none given) and whether spectators may ``talk`` there. None of it is
    signed or trusted: the key is a claim (a peer that expects another key leaves at once;
    the table's opening entry proves the key), the name is shown as a peer's string, and
    the host refuses a spectator's line anyway if it said wrong."""

    TYPE: ClassVar[str] = "challenge"
    nonce: bytes
    pos: int
    key: bytes
    name: str = ""
    talk: bool = False


@dataclass(frozen=True, slots=True)
class Hello:
    """Peer → host, the answer to the challenge: the peer's identity ``key``, how many log
    entries it holds (``pos``: the host relays from there), and its signature over the
    connection's nonce and ``pos`` (:func:`hello_signature`). A key that holds a seat is
    that seat coming back (a lost connection, a restarted program)."""

    TYPE: ClassVar[str] = "hello"
    key: bytes
    pos: int
    sig: bytes


@dataclass(frozen=True, slots=True)
class Watch:
    """Spectator → host, the answer to the challenge from someone who only watches: how many
    log entries it holds (``pos``: the host relays from there). It proves no key: a
    spectator holds no seat, signs nothing and is sent only what every seat reads (the
    relays, a halt, a refusal of its own connection)."""

    TYPE: ClassVar[str] = "watch"
    pos: int


@dataclass(frozen=True, slots=True)
class Offer:
    """Host → peer (or spectator), once a table has closed: the next game of the night. The
    next table's ``open`` entry (``raw``, signed by the host: ``sig``; its ``night`` names
    the table just closed) and this connection's challenge at that table (``nonce``). A
    seat answers it with a :class:`Hello` signing ``nonce`` and holding no entry (it stays:
    its join follows) or a :class:`Leave` signing it (it goes); a spectator with a
    :class:`Watch` (it follows the next table) or, where ``free`` is above 0, a
    :class:`Hello` and then a join: it asks for one of the ``free`` seats the host lets
    spectators take (docs/protocol.md, "A spectator takes a free seat"). ``free`` is 0 in
    a seat's offer, and where the host lets no spectator sit."""

    TYPE: ClassVar[str] = "offer"
    raw: bytes
    sig: bytes
    nonce: bytes
    free: int = 0


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
    and whether the host will take nothing more from it (``fatal``: it closes the
    connection). The reason is cut to a short printable line."""

    TYPE: ClassVar[str] = "refuse"
    pos: int
    reason: str
    fatal: bool

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", clamp(self.reason))


@dataclass(frozen=True, slots=True)
class Halt:
    """Host → peers: the table stops here, why, and the seat it blames (-1: none), e.g. a
    peer that vanished or stalled. Peers cannot verify it, but nothing is lost by believing
    it: a host can always stop relaying anyway."""

    TYPE: ClassVar[str] = "halt"
    seat: int
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", clamp(self.reason))


@dataclass(frozen=True, slots=True)
class Leave:
    """Peer → host: this seated peer leaves the table for good (the host halts it at once,
    instead of waiting for it to come back); signed over the connection's nonce."""

    TYPE: ClassVar[str] = "leave"
    sig: bytes


@dataclass(frozen=True, slots=True)
class Say:
    """Peer → host: a line of table talk, not a log entry (``protocol._talk``): its author's
    identity ``key`` (a seat's is its connection's; a spectator's is its own, carried here
    since its ``watch`` proved none), the ``name`` a spectator gives ("" for a seat: the log
    names it), the ``text``, its number ``n`` (strictly increasing per author) and the
    author's signature over the table id, ``n``, ``text`` and ``name``."""

    TYPE: ClassVar[str] = "say"
    key: bytes
    name: str
    text: str
    n: int
    sig: bytes


@dataclass(frozen=True, slots=True)
class SaidLine:
    """Host → seats and spectators: a line of talk the host relays, signed by its
    ``author`` (every receiver checks it against the key of the seat that said it: a host
    cannot put words in a player's mouth); ``name`` as in :class:`Say`."""

    TYPE: ClassVar[str] = "said"
    author: bytes
    name: str
    text: str
    n: int
    sig: bytes


Message: TypeAlias = (
    Challenge | Hello | Watch | Offer | Propose | Relay | Refuse | Halt | Leave | Say | SaidLine
)


def hello_signature(identity: Identity, nonce: bytes, pos: int) -> bytes:
    """A peer's answer to the challenge ``nonce``, holding ``pos`` log entries."""
    return identity.sign(_HELLO_PURPOSE, nonce + pos.to_bytes(8, "big"))


def verify_hello(msg: Hello, nonce: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``msg`` answers ``nonce`` and is signed by
    the key it names (a valid identity key)."""
    try:
        PublicIdentity(msg.key).verify(_HELLO_PURPOSE, nonce + msg.pos.to_bytes(8, "big"), msg.sig)
    except CryptoError as exc:
        raise RemoteProtocolError(f"bad hello signature ({exc})") from None


def leave_signature(identity: Identity, nonce: bytes) -> bytes:
    """A seated peer's signature that it leaves, on the connection of ``nonce``."""
    return identity.sign(_LEAVE_PURPOSE, nonce)


def verify_leave(key: bytes, msg: Leave, nonce: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``key`` signed this leave for ``nonce``."""
    try:
        PublicIdentity(key).verify(_LEAVE_PURPOSE, nonce, msg.sig)
    except CryptoError as exc:
        raise RemoteProtocolError(f"bad leave signature ({exc})") from None


def encode_message(msg: Message) -> bytes:
    """The canonical payload of a frame."""
    d: dict[str, object] = {"v": PROTOCOL_VERSION, "type": msg.TYPE}
    if isinstance(msg, Challenge):
        d.update(nonce=msg.nonce, pos=msg.pos, key=msg.key, name=msg.name, talk=msg.talk)
    elif isinstance(msg, Hello):
        d.update(key=msg.key, pos=msg.pos, sig=msg.sig)
    elif isinstance(msg, Watch):
        d.update(pos=msg.pos)
    elif isinstance(msg, Offer):
        d.update(entry=msg.raw, sig=msg.sig, nonce=msg.nonce, free=msg.free)
    elif isinstance(msg, Propose):
        d.update(entry=msg.raw, sig=msg.sig)
    elif isinstance(msg, Relay):
        d.update(entry=msg.raw, sig=msg.sig, seq=msg.seq)
    elif isinstance(msg, Refuse):
        d.update(pos=msg.pos, reason=msg.reason, fatal=msg.fatal)
    elif isinstance(msg, Halt):
        d.update(seat=msg.seat, reason=msg.reason)
    elif isinstance(msg, Leave):
        d.update(sig=msg.sig)
    elif isinstance(msg, Say):
        d.update(key=msg.key, name=msg.name, text=msg.text, n=msg.n, sig=msg.sig)
    elif isinstance(msg, SaidLine):
        d.update(author=msg.author, name=msg.name, text=msg.text, n=msg.n, sig=msg.sig)
    return pack(d)


_FRAME_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    "challenge": frozenset({"v", "type", "nonce", "pos", "key", "name", "talk"}),
    "hello": frozenset({"v", "type", "key", "pos", "sig"}),
    "watch": frozenset({"v", "type", "pos"}),
    "offer": frozenset({"v", "type", "entry", "sig", "nonce", "free"}),
    "propose": frozenset({"v", "type", "entry", "sig"}),
    "relay": frozenset({"v", "type", "entry", "sig", "seq"}),
    "refuse": frozenset({"v", "type", "pos", "reason", "fatal"}),
    "halt": frozenset({"v", "type", "seat", "reason"}),
    "leave": frozenset({"v", "type", "sig"}),
    "say": frozenset({"v", "type", "key", "name", "text", "n", "sig"}),
    "said": frozenset({"v", "type", "author", "name", "text", "n", "sig"}),
}
_MAX_REASON_WIRE: Final = 1024


def decode_message(payload: bytes) -> Message:
    """Parse a frame's payload strictly (entries stay undecoded bytes).

    Raises :class:`VersionMismatchError` for another protocol version and
    :class:`RemoteProtocolError` for anything malformed or unknown (quoting at most a short
    excerpt of what was sent).
    """
    value = unpack(payload, MAX_FRAME)
    if not isinstance(value, dict):
        raise _bad("frame", "expected a map")
    _check_version(value.get("v"))
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in _FRAME_FIELDS:
        raise _bad("frame", f"unknown message type {excerpt(kind)}")
    d = _map(value, f"{kind} frame", _FRAME_FIELDS[kind])
    if kind == "challenge":
        return Challenge(
            _bytes(d["nonce"], "challenge nonce", NONCE_BYTES), _int(d["pos"], "log length"),
            _bytes(d["key"], "host key", KEY_BYTES),
            _str(d["name"], "table name", _MAX_TABLE_NAME_WIRE), _bool(d["talk"], "talk"),
        )  # fmt: skip
    if kind == "hello":
        return Hello(
            _bytes(d["key"], "hello key", KEY_BYTES), _int(d["pos"], "hello position"),
            _bytes(d["sig"], "hello signature", SIG_BYTES),
        )  # fmt: skip
    if kind == "watch":
        return Watch(_int(d["pos"], "watch position"))
    if kind == "offer":
        raw = d["entry"]
        if isinstance(raw, bytes) and len(raw) > BODY_LIMITS["open"]:
            raise _bad("offer frame", f"an open entry of {len(raw)} bytes")
        return Offer(
            _bytes(raw, "offered entry"), _bytes(d["sig"], "offered entry's signature", SIG_BYTES),
            _bytes(d["nonce"], "offer nonce", NONCE_BYTES),
            _int(d["free"], "free seats offered", 0, MAX_SEATS),
        )  # fmt: skip
    if kind == "leave":
        return Leave(_bytes(d["sig"], "leave signature", SIG_BYTES))
    if kind in ("say", "said"):
        return _talk_frame(kind, d)
    if kind == "refuse":
        return Refuse(
            _int(d["pos"], "refused position", -3),
            _str(d["reason"], "reason", _MAX_REASON_WIRE), _bool(d["fatal"], "fatal"),
        )  # fmt: skip
    if kind == "halt":
        return Halt(
            _int(d["seat"], "halted seat", -1, 255), _str(d["reason"], "reason", _MAX_REASON_WIRE)
        )
    sig = _bytes(d["sig"], "signature", SIG_BYTES)
    if kind == "propose":
        raw = d["entry"]
        if isinstance(raw, bytes) and len(raw) > MAX_ENTRY:
            raise _bad("propose frame", f"an entry of {len(raw)} bytes (at most {MAX_ENTRY})")
        return Propose(_bytes(raw, "entry"), sig)
    return Relay(_bytes(d["entry"], "entry"), sig, _bytes(d["seq"], "relay signature", SIG_BYTES))


def _talk_frame(kind: str, d: dict[str, object]) -> Say | SaidLine:
    """A ``say`` or ``said`` frame's fields, read strictly (their text is judged later,
    where a line too long or with control characters is refused without ending anything:
    ``protocol._talk``); raises :class:`RemoteProtocolError`."""
    key = _bytes(d["key" if kind == "say" else "author"], f"{kind} key", KEY_BYTES)
    name = _str(d["name"], f"{kind} name", MAX_NAME)
    text = _str(d["text"], f"{kind} text", MAX_FRAME)
    n = _int(d["n"], f"{kind} number")
    sig = _bytes(d["sig"], f"{kind} signature", SIG_BYTES)
    return (Say if kind == "say" else SaidLine)(key, name, text, n, sig)


def body_kinds() -> tuple[str, ...]:
    """Every entry kind, for documentation and tests."""
    return tuple(_BODY_FIELDS)

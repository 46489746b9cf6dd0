"""Table talk: lines a seat — or a spectator, where the host allows it — says to the table.

Talk is not a log entry: it changes no transcript, no audit and no replay. A line is a
``say`` frame to the host (:class:`~protocol._messages.Say`), which checks it and relays it
to every seat and spectator as a ``said`` frame (:class:`~protocol._messages.SaidLine`).
Every line is signed by its author (purpose ``lanparty/say``, over the canonical msgpack of
``[table id, n, text, name]``) and numbered (``n`` strictly increases per author), and every
receiver checks it again against the key of the seat that said it, so a host cannot put
words in a player's mouth nor replay an old line.

Bounds, enforced by the host on what it relays and by every receiver on what it shows: a
text of 1 to :data:`MAX_TALK` characters with no space at either end and no control
character; a rate per author (:data:`TALK_BURST` lines at once, then one every
:data:`TALK_EVERY` seconds). What breaks them is refused (a non-fatal ``refuse`` at
:data:`TALK_POS` to its author) or not shown, and nothing ends for it: an honest chatty
player is never disconnected. The protocol reads no clock: the driver tells the time
(``tick``), and gives the first number a program's lines start from (``talk_floor``), so a
restarted program's lines are new too.

A flood never slows the game: each connection keeps its talk apart from its game frames,
sent after them, at most :data:`TALK_QUEUE` lines of it (a slow reader loses the oldest
lines, never a game frame).
"""

from __future__ import annotations

import math
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Iterable
from typing import Final, Protocol

from crypto import CryptoError, Identity, PublicIdentity, fingerprint

from ._bodies import MAX_NAME
from ._codec import pack
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, Said
from ._frames import frame
from ._messages import Refuse, SaidLine, Say, encode_message
from ._roles import Phase
from ._table import Table

__all__ = [
    "HEAR_BURST",
    "MAX_TALK",
    "TALK_BURST",
    "TALK_EVERY",
    "TALK_POS",
    "TALK_QUEUE",
    "Bucket",
    "Hearing",
    "Speaker",
    "TalkConn",
    "TalkControl",
    "Talker",
    "name_ok",
    "refusal",
    "sign_talk",
    "talk_problem",
    "too_fast",
    "verify_talk",
]

#: The most characters a line of talk holds (after stripping: it has no outer space).
MAX_TALK: Final = 200
#: Lines an author may say at once…
TALK_BURST: Final = 5
#: …and then one every this many seconds.
TALK_EVERY: Final = 2.0
#: A receiver's own bound on one author's lines (twice the host's burst: lines come in
#: bunches over a network, and an honest host's relays always fit in it).
HEAR_BURST: Final = 2 * TALK_BURST
#: Lines of talk (and refusals of talk) kept waiting for one connection; beyond it the
#: oldest is dropped. Game frames are never dropped for talk.
TALK_QUEUE: Final = 32
#: The ``pos`` of a :class:`Refuse` that refuses a line of talk (-1 is the connection).
TALK_POS: Final = -2
#: Authors whose last line number a receiver keeps (seats always; spectators' keys beyond
#: it are forgotten, the least recently heard first).
MAX_AUTHORS_HEARD: Final = 256
_PURPOSE: Final = "lanparty/say"


#: Unicode's categories of what a line of talk may not hold: control characters (C0, C1:
#: an escape sequence, a tab, a carriage return) and line or paragraph separators (a line of
#: talk stays one line, whoever shows it how).
_BREAKING: Final = frozenset({"Cc", "Zl", "Zp"})


def talk_problem(text: str) -> str | None:
    """Why ``text`` cannot be a line of talk (its length, a space at either end, a control
    character or a line separator), in English; ``None`` if it can. Format characters (a
    bidi override, a zero-width space) may be said: they are shown escaped."""
    if not text or text != text.strip() or len(text) > MAX_TALK:
        return f"a line of talk is 1 to {MAX_TALK} characters, with no space at either end"
    if any(unicodedata.category(ch) in _BREAKING for ch in text):
        return "a line of talk has no control characters"
    return None


def _signed(table: bytes, n: int, text: str, name: str) -> bytes:
    """What a line's signature covers: the canonical msgpack of its table, number, text and
    name."""
    return pack([table, n, text, name])


def sign_talk(identity: Identity, table: bytes, n: int, text: str, name: str) -> bytes:
    """``identity``'s signature of line ``n`` (``text``, by ``name``: "" for a seat) at
    table ``table``."""
    return identity.sign(_PURPOSE, _signed(table, n, text, name))


def verify_talk(key: bytes, table: bytes, n: int, text: str, name: str, sig: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``sig`` is ``key``'s signature of that
    line at ``table``."""
    try:
        PublicIdentity(key).verify(_PURPOSE, _signed(table, n, text, name), sig)
    except CryptoError as exc:
        raise RemoteProtocolError(f"a line of talk with a bad signature ({exc})") from None


def name_ok(name: str) -> bool:
    """Whether ``name`` may name a spectator who talks: as a player's name, 1 to 32
    printable characters with no space at either end."""
    return 0 < len(name) <= MAX_NAME and name == name.strip() and name.isprintable()


class Bucket:
    """A rate: ``burst`` lines at once, then one every ``every`` seconds, on the driver's
    clock (a clock that goes back is taken as standing still)."""

    __slots__ = ("at", "burst", "every", "tokens")

    def __init__(self, now: float, burst: float = TALK_BURST, every: float = TALK_EVERY) -> None:
        self.burst, self.every = burst, every
        self.tokens, self.at = float(burst), now

    def take(self, now: float) -> float:
        """Take one line now: 0.0 if it may go (it is counted), else how many seconds until
        one may."""
        if now > self.at:
            self.tokens = min(self.burst, self.tokens + (now - self.at) / self.every)
            self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) * self.every


def too_fast(wait: float) -> str:
    """The refusal of a line said too soon (English): how long to wait, in whole seconds."""
    return f"you are talking too fast; wait {max(1, math.ceil(wait))} s"


class Speaker:
    """How one author talks: its key, the name it gives (spectators), the number of its
    last line and its rate."""

    __slots__ = ("bucket", "key", "last", "name")

    def __init__(self, key: bytes, name: str, now: float, floor: int = 0) -> None:
        self.key, self.name = key, name
        self.last = floor - 1  # the number of its last line (the next is higher)
        self.bucket = Bucket(now)

    def line(self, identity: Identity, table: bytes, text: str, now: float) -> Say:
        """Our next line: checked (its text, our rate), numbered and signed. Raises
        :class:`LocalProtocolError` saying why it cannot go (English)."""
        why = talk_problem(text)
        if why is not None:
            raise LocalProtocolError(why)
        wait = self.bucket.take(now)
        if wait:
            raise LocalProtocolError(too_fast(wait))
        self.last += 1
        return Say(self.key, self.name, text, self.last,
                   sign_talk(identity, table, self.last, text, self.name))  # fmt: skip


class Hearing:
    """What a receiver checks of every line the host relays before it is shown: the author
    (a seat's key with no name, or a spectator's key with a valid name), the text's bounds,
    a number higher than the author's last, the signature, and the author's rate
    (:data:`HEAR_BURST`). A line that fails is not shown (:attr:`dropped` counts it);
    nothing else changes."""

    def __init__(self) -> None:
        self.now = 0.0
        self.dropped = 0
        self._heard: OrderedDict[bytes, Speaker] = OrderedDict()

    def hear(self, table: Table, msg: SaidLine) -> Event | None:
        """The :class:`Said` event of ``msg``, or ``None`` if it is not to be shown."""
        tid = table.table_id
        member = table.member(msg.author)
        if (
            tid is None
            or table.phase in (Phase.CLOSED, Phase.STOPPED)
            or (member is not None and msg.name)
            or (member is None and not name_ok(msg.name))
            or talk_problem(msg.text) is not None
        ):
            self.dropped += 1
            return None
        author = self._heard.get(msg.author)
        if author is not None and msg.n <= author.last:
            self.dropped += 1
            return None
        try:
            verify_talk(msg.author, tid, msg.n, msg.text, msg.name, msg.sig)
        except RemoteProtocolError:
            self.dropped += 1
            return None
        if author is None:
            author = Speaker(msg.author, msg.name, self.now)
            author.bucket = Bucket(self.now, HEAR_BURST)
            self._heard[msg.author] = author
            self._forget(table)
        self._heard.move_to_end(msg.author)
        author.last = msg.n
        if author.bucket.take(self.now):
            self.dropped += 1
            return None
        if member is not None:
            return Said(member.seat, member.name, msg.text, member.fingerprint)
        return Said(None, msg.name, msg.text, fingerprint(msg.author))

    def _forget(self, table: Table) -> None:
        """Keep at most :data:`MAX_AUTHORS_HEARD` spectators' records (seats' always)."""
        if len(self._heard) <= MAX_AUTHORS_HEARD + len(table.members):
            return
        for key in self._heard:
            if table.member(key) is None:
                del self._heard[key]
                return


class TalkConn(Protocol):
    """What talk needs of a host's connection: whose it is (a proven key, or a spectator),
    whether it is done, its talk queue and, for a spectator that talked, its record."""

    key: bytes | None
    watching: bool
    closed: bool
    talk: deque[bytes]
    speaker: Speaker | None


class TalkControl:
    """The host's side of talk: a line from a connection is checked (cheapest first: who
    may talk now, the rate, the text, the number, then the signature) and relayed to every
    seat and spectator, or refused to its author alone. Mixed into
    :class:`~protocol._host.Host` (which owns every attribute used here)."""

    identity: Identity
    table: Table
    _events: deque[Event]

    def _talk_conns(self) -> Iterable[TalkConn]:
        """Every connection of the host (its own, mixed in)."""
        raise NotImplementedError

    def _init_talk(self) -> None:
        #: Whether spectators may talk (each under its own key and the name it gives).
        self.spectators_talk = False
        #: The number our own lines start from (a driver sets it from the wall clock, so a
        #: restarted host's lines are new too).
        self.talk_floor = 0
        self._now = 0.0
        self._speakers: dict[bytes, Speaker] = {}  # seated keys (and our own)

    def tick(self, now: float) -> None:
        """The driver's clock (seconds, any origin): talk's rates are counted on it."""
        self._now = now

    def say(self, text: str) -> None:
        """Say ``text`` to the table as its host (a :class:`Said` event here, a ``said``
        frame to every seat and spectator). Raises :class:`LocalProtocolError` saying why
        not (English): the table has ended, the text, our rate."""
        t, me = self.table, self.identity.public.raw
        if t.table_id is None or t.phase in (Phase.CLOSED, Phase.STOPPED):
            raise LocalProtocolError("the table has ended")
        speaker = self._speakers.get(me)
        if speaker is None:
            speaker = self._speakers[me] = Speaker(me, "", self._now, self.talk_floor)
        msg = speaker.line(self.identity, t.table_id, text, self._now)
        self._relay_talk(SaidLine(me, "", msg.text, msg.n, msg.sig))

    def _talk_from(self, c: TalkConn, msg: Say) -> None:
        """A line from connection ``c`` (it said hello, or watches): relayed, or refused to
        it alone (into its talk queue: a flood of refusals is bounded like talk)."""
        why = self._heard_line(c, msg)
        if why is not None:
            c.talk.append(refusal(why))

    def _speaker_of(self, c: TalkConn, msg: Say) -> Speaker | str:
        """Who says ``msg`` on ``c`` (their record), or why they may not talk now."""
        t = self.table
        if t.table_id is None or t.phase in (Phase.CLOSED, Phase.STOPPED):
            return "the table has ended"
        if c.key is not None:
            if t.member(c.key) is None:
                return "only a seated player may talk at this table"
            if msg.key != c.key or msg.name:
                return "a seat talks under its own key, with no name of its own"
            speaker = self._speakers.get(c.key)
            if speaker is None:
                speaker = self._speakers[c.key] = Speaker(c.key, "", self._now)
            return speaker
        if not self.spectators_talk:
            return "spectators may not talk at this table"
        if t.member(msg.key) is not None or not name_ok(msg.name):
            return "a spectator talks under a key and a name of its own (1 to 32 characters)"
        if c.speaker is None:
            c.speaker = Speaker(msg.key, msg.name, self._now)
        elif (c.speaker.key, c.speaker.name) != (msg.key, msg.name):
            return "a spectator talks under one key and one name"
        return c.speaker

    def _heard_line(self, c: TalkConn, msg: Say) -> str | None:
        """Check a line from ``c`` and relay it; the reason it is refused (English), else
        ``None``."""
        speaker = self._speaker_of(c, msg)
        if isinstance(speaker, str):
            return speaker
        wait = speaker.bucket.take(self._now)
        if wait:
            return too_fast(wait)
        why = talk_problem(msg.text)
        if why is not None:
            return why
        if msg.n <= speaker.last:
            return "a line of talk said again (its number is not new)"
        tid = self.table.table_id
        assert tid is not None
        try:
            verify_talk(msg.key, tid, msg.n, msg.text, msg.name, msg.sig)
        except RemoteProtocolError as exc:
            return exc.reason
        speaker.last = msg.n
        self._relay_talk(SaidLine(msg.key, msg.name, msg.text, msg.n, msg.sig))
        return None

    def _relay_talk(self, line: SaidLine) -> None:
        """Relay ``line`` to every seat and spectator (after their game frames), and tell
        it here."""
        data = frame(encode_message(line))
        for c in self._talk_conns():
            if not c.closed and (c.watching or (c.key and self.table.member(c.key))):
                c.talk.append(data)
        member = self.table.member(line.author)
        if member is not None:
            self._events.append(Said(member.seat, member.name, line.text, member.fingerprint))
        else:
            self._events.append(Said(None, line.name, line.text, fingerprint(line.author)))


def refusal(reason: str) -> bytes:
    """The frame that refuses a line of talk to its author (it ends nothing)."""
    return frame(encode_message(Refuse(TALK_POS, reason, False)))


class Talker:
    """A peer's side of talk (a seat's, or a spectator's with a key of its own): its own
    lines, the host's refusals of them, and every line relayed, checked before it is shown
    (:class:`Hearing`). Mixed into :class:`~protocol._peer.Peer` (which owns every attribute
    used here)."""

    table: Table
    stopped: RemoteProtocolError | None
    _out: bytearray
    _nonce: bytes | None
    _events: deque[Event]

    def _init_talker(self) -> None:
        #: The number our lines start from (a driver sets it from the wall clock, so a
        #: restarted program's lines are new too).
        self.talk_floor = 0
        self.hearing = Hearing()
        self._talker: Speaker | None = None

    def _talks_as(self) -> tuple[Identity, str] | None:
        """The identity we sign lines with and the name we give ("" for a seat), or
        ``None`` if we may not talk."""
        raise NotImplementedError

    def tick(self, now: float) -> None:
        """The driver's clock (seconds, any origin): talk's rates are counted on it."""
        self.hearing.now = now

    def talk_fingerprint(self) -> str:
        """The fingerprint of the key our lines are signed with ("" while we may not
        talk)."""
        who = self._talks_as()
        return who[0].public.fingerprint if who is not None else ""

    def say(self, text: str) -> None:
        """Say ``text`` to the table (it is shown, as a :class:`Said` event, once the host
        relays it back; a :class:`TalkRefused` event if it refuses it). Raises
        :class:`LocalProtocolError` saying why it cannot go now (English): we hold no seat
        (or, watching, no key), we are not connected, the table has ended, the text, our
        rate."""
        t, who = self.table, self._talks_as()
        if who is None:
            raise LocalProtocolError("only a seated player may talk at this table")
        if t.table_id is None or self.stopped is not None or t.phase is Phase.CLOSED:
            raise LocalProtocolError("the table has ended" if t.table_id else "not at a table yet")
        if self._nonce is None:
            raise LocalProtocolError("not connected to the table just now")
        identity, name = who
        key = identity.public.raw
        talker = self._talker
        if talker is None or talker.key != key:
            self._talker = talker = Speaker(key, name, self.hearing.now, self.talk_floor)
        talker.name = name
        self._out += frame(encode_message(talker.line(identity, t.table_id, text,
                                                      self.hearing.now)))  # fmt: skip

    def _heard(self, msg: SaidLine) -> None:
        """A line the host relayed: told (a :class:`Said` event) if it passes every check."""
        event = self.hearing.hear(self.table, msg)
        if event is not None:
            self._events.append(event)

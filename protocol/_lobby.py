"""The host's side of who comes in: its connections (:class:`Conn`), the joins it holds for
the person hosting to answer, removing a seat before the game, spectators, and the refusals
each key has earned. Mixed into :class:`~protocol._host.Host` (which owns every attribute
used here).

Every structure here is bounded by what is connected now, by the table's seats, or by a
constant: a connection that ends leaves all of them (:meth:`LobbyControl.close`), so no
number of connections made and closed grows the host.
"""

from __future__ import annotations

import os
from collections import deque

from crypto import Identity, fingerprint

from ._bodies import Kick
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, JoinAsked, JoinWithdrawn
from ._frames import FrameReader, frame
from ._messages import (
    NONCE_BYTES,
    Challenge,
    Propose,
    Refuse,
    SignedEntry,
    Watch,
    encode_message,
    read_head,
    table_name_problem,
)
from ._table import Table
from ._talk import TALK_QUEUE, Speaker

__all__ = ["MAX_KEYS_COUNTED", "SPECTATORS_PER_ORIGIN", "Conn", "LobbyControl", "Request"]

#: Spectators watching at once from one origin (an address): one machine may not hold every
#: place, and each of its spectators costs the host a copy of every relay.
SPECTATORS_PER_ORIGIN = 4
#: Keys with no seat whose refusals are counted at once (seated keys are always counted):
#: beyond it the key counted longest ago is forgotten; a new key needs a new connection
#: and a hello anyway, which the network layer rate-limits.
MAX_KEYS_COUNTED = 256


class Conn:
    """One connection as the protocol sees it: its reader, what waits to be sent (frames,
    often shared with other connections, and table talk apart), the challenge it was sent,
    whose it is (a seat's key, a newcomer's, or a spectator's: no key), and where the driver
    says it comes from (``origin``: an address, or ``None`` if unknown)."""

    __slots__ = ("closed", "expect", "key", "nonce", "origin", "out", "rank", "reader", "sit",
                 "sit_join", "speaker", "talk", "watching")  # fmt: skip

    def __init__(
        self, nonce: bytes, origin: str | None = None, challenge: Challenge | None = None
    ) -> None:
        """A connection whose challenge nonce is ``nonce``; ``challenge`` (of that nonce),
        if given, is queued as its first frame."""
        self.reader = FrameReader()
        self.out: list[bytes] = [frame(encode_message(challenge))] if challenge else []
        self.nonce = nonce
        self.origin = origin
        self.key: bytes | None = None  # set by a valid hello: the peer proved it holds it
        self.closed = False
        self.watching = False  # set by a watch: a spectator, sent the relays and nothing else
        #: A connection of the table before that was offered this one (a night's next
        #: game): the key that sat there (its answer must be that key's), or ``b""`` for a
        #: spectator's; ``None`` for a connection made to this table.
        self.expect: bytes | None = None
        #: Table talk for it (lines, refusals of its own lines), sent after its game frames;
        #: the oldest is dropped past :data:`TALK_QUEUE`, never a game frame.
        self.talk: deque[bytes] = deque(maxlen=TALK_QUEUE)
        self.speaker: Speaker | None = None  # a spectator that talked: its key and name
        #: (A spectator offered a night's next table with seats free for spectators)
        #: ``OFFERED`` until it answers, ``ASKED`` once its hello asked for a seat (its join
        #: then held in ``sit_join``); ``None`` otherwise (protocol._sit).
        self.sit: str | None = None
        self.sit_join: SignedEntry | None = None
        self.rank = 0  # the order it was offered the table in: longest watching first


class Request:
    """A join held for the host's answer: its number, whose key and which name it asks for,
    the connection it came on and the proposal itself."""

    __slots__ = ("conn", "key", "msg", "name", "number")

    def __init__(self, number: int, conn: Conn, key: bytes, name: str, msg: Propose) -> None:
        self.number, self.conn, self.key, self.name, self.msg = number, conn, key, name, msg


class LobbyControl:
    """Connections, joins held for the host's answer, kicks, spectators, refusal counts."""

    identity: Identity
    table: Table
    spectators: int
    spectators_per_origin: int
    spectators_talk: bool
    _conns: dict[int, Conn]
    _next_cid: int
    _relays: list[bytes]
    _held: dict[int, Request]  # request number -> the request, oldest first
    _next_request: int
    _let_in: dict[bytes, str]  # key -> the name the host let it in under
    _banned: set[bytes]
    _refusals: dict[bytes, int]  # key -> proposals refused, most recently counted last
    _events: deque[Event]

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        raise NotImplementedError

    def _proposal(self, c: Conn, msg: Propose) -> None:
        raise NotImplementedError

    def _fatal(self, c: Conn, err: RemoteProtocolError, pos: int) -> RemoteProtocolError:
        raise NotImplementedError

    def _init_lobby(self, spectators: int) -> None:
        self._table_name = ""
        #: How many spectators may watch at once (0: the table takes none).
        self.spectators = spectators
        #: How many of them may watch from one origin (see :meth:`connect`).
        self.spectators_per_origin = SPECTATORS_PER_ORIGIN
        self._conns, self._next_cid = {}, 0
        self._held, self._next_request = {}, 1
        self._let_in, self._banned, self._refusals = {}, set(), {}

    # ------------------------------------------------------------------ connections

    @property
    def table_name(self) -> str:
        """The table's name, said in every challenge ("": none given)."""
        return self._table_name

    @table_name.setter
    def table_name(self, name: str) -> None:
        """Name the table (the connections made from now on are told). Raises
        :class:`LocalProtocolError` for a name no table may have
        (:func:`~protocol._messages.table_name_problem`)."""
        problem = table_name_problem(name) if name else None
        if problem is not None:
            raise LocalProtocolError(f"{problem}: {name!r}")
        self._table_name = name

    def connect(self, origin: str | None = None) -> int:
        """Register a new incoming connection from ``origin`` (its address, as the driver
        knows it: spectators are capped per origin; ``None``: unknown, not capped); returns
        its id, never one used before. Its first frame out, already queued, is a fresh
        challenge that the peer's hello must sign."""
        cid = self._next_cid
        self._next_cid += 1
        nonce = os.urandom(NONCE_BYTES)
        challenge = Challenge(nonce, len(self._relays), self.identity.public.raw,
                              self.table_name, self.spectators_talk)  # fmt: skip
        self._conns[cid] = Conn(nonce, origin, challenge)
        return cid

    def close(self, cid: int) -> None:
        """Forget connection ``cid`` entirely (its peer keeps its seat and may reconnect; a
        join it held for the host's answer is withdrawn). Unknown ids are ignored."""
        c = self._conns.pop(cid, None)
        if c is None:
            return
        c.closed = True
        for number, r in list(self._held.items()):
            if r.conn is c:
                del self._held[number]
                self._events.append(JoinWithdrawn(number, r.name, fingerprint(r.key), None))

    def connections(self) -> int:
        """How many connections are registered (opened and not yet :meth:`close`d)."""
        return len(self._conns)

    def _count_refusal(self, key: bytes) -> int:
        """One more refusal for ``key``, across all its connections; returns its count. Keys
        with no seat beyond :data:`MAX_KEYS_COUNTED` are forgotten, oldest first."""
        n = self._refusals.pop(key, 0) + 1
        self._refusals[key] = n
        if len(self._refusals) > MAX_KEYS_COUNTED + len(self.table.members):
            for k in self._refusals:
                if k != key and self.table.member(k) is None:
                    del self._refusals[k]
                    break
        return n

    # ------------------------------------------------------------------ removing a seat

    def kick(self, seat: int) -> None:
        """Remove the player in ``seat`` before the game starts: every copy drops the seat
        (the later seats move up one), its connection is let go after it is told, and its key
        may not come back to this table. Raises :class:`LocalProtocolError` if not possible."""
        member = self.table.member_at(seat)
        try:
            self._sequence(self.table.entry(Kick(seat)), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None
        assert member is not None
        self._banned.add(member.key)
        for c in self._conns.values():
            if c.key == member.key:
                c.closed = True  # after the kick's relay, queued above

    # ------------------------------------------------------------------ joins held

    def asking(self) -> list[tuple[int, str, str]]:
        """The joins waiting for :meth:`let_in`: ``(request, name, fingerprint)``, oldest
        first."""
        return [(n, r.name, fingerprint(r.key)) for n, r in self._held.items()]

    def awaiting(self, cid: int) -> bool:
        """True while connection ``cid`` waits for the host to answer its join."""
        c = self._conns.get(cid)
        return c is not None and any(r.conn is c for r in self._held.values())

    def let_in(self, request: int) -> None:
        """Take held join number ``request`` (see :attr:`approve_joins`): exactly its key,
        under exactly its name (the same key asking under another name asks anew). Raises
        :class:`LocalProtocolError` if no such request waits."""
        r = self._take(request)
        self._let_in[r.key] = r.name
        c = r.conn
        if c.closed:
            return
        pos = read_head(r.msg.raw).pos
        if pos != len(self.table.log):  # the log moved on while it waited: propose again
            c.out.append(frame(encode_message(Refuse(pos, "let in: join again", False))))
            return
        try:
            self._proposal(c, r.msg)
        except RemoteProtocolError as exc:
            self._fatal(c, exc, -1)

    def turn_away(self, request: int) -> None:
        """Refuse held join number ``request``, and its key, for good. Raises
        :class:`LocalProtocolError` if no such request waits."""
        r = self._take(request)
        self._banned.add(r.key)
        c = r.conn
        c.out.append(frame(encode_message(Refuse(-1, "the host did not let you in", True))))
        c.closed = True

    def _take(self, request: int) -> Request:
        r = self._held.pop(request, None)
        if r is None:
            raise LocalProtocolError(f"no join request {request} is waiting")
        return r

    def _approved(self, key: bytes, name: str) -> bool:
        """True if the host let ``key`` in under ``name``."""
        return key in self._let_in and self._let_in[key] == name

    def _hold(self, c: Conn, key: bytes, msg: Propose, name: str) -> None:
        """Keep a join for the host to answer. The same key asking again under the same name
        is the same request (a stale one proposed again, or on a new connection); under
        another name it is a new request, and the old one is withdrawn: each is told."""
        number = self._next_request
        for old, r in list(self._held.items()):
            if r.key != key:
                continue
            if r.name == name:
                r.conn, r.msg = c, msg
                return
            del self._held[old]
            self._events.append(JoinWithdrawn(old, r.name, fingerprint(key), number))
        self._next_request += 1
        self._held[number] = Request(number, c, key, name, msg)
        self._events.append(JoinAsked(name, fingerprint(key), number))

    # ------------------------------------------------------------------ spectators

    @property
    def watchers(self) -> int:
        """How many spectators are connected now."""
        return sum(1 for c in self._conns.values() if c.watching and not c.closed)

    def watching(self, cid: int) -> bool:
        """True if connection ``cid`` is a spectator's."""
        c = self._conns.get(cid)
        return c is not None and c.watching

    def _watch(self, c: Conn, msg: Watch) -> None:
        """A spectator's answer to the challenge: it is sent the log from ``msg.pos`` on and
        every relay after, unless the table takes no more spectators, in all or from this
        connection's origin (a refusal that says why, and the connection is let go). Raises
        :class:`RemoteProtocolError` for a watch after a hello or a position past the log."""
        if c.key is not None or c.watching:
            raise RemoteProtocolError("a watch after the connection's hello")
        if msg.pos > len(self._relays):
            raise RemoteProtocolError(f"watches holding {msg.pos} entries of {len(self._relays)}")
        here = 0
        if c.origin is not None:
            here = sum(1 for o in self._conns.values()
                       if o.watching and not o.closed and o.origin == c.origin)  # fmt: skip
        if self.watchers >= self.spectators:
            why = ("this table takes no spectators" if self.spectators <= 0 else
                   f"{self.watchers} spectators are watching already (the most this table "
                   "takes)")  # fmt: skip
        elif here >= self.spectators_per_origin:
            why = (f"{here} spectators are watching from your address already (the most "
                   "one address may have)")  # fmt: skip
        else:
            c.watching = True
            c.out.extend(self._relays[msg.pos :])
            return
        c.out.append(frame(encode_message(Refuse(-1, why, True))))
        c.closed = True

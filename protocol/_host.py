"""The host as a sans-IO protocol object: seat 0, and the sequencer of every entry.

It has one connection per peer (:meth:`Host.connect` returns its id), checks every proposed
entry against its own copy, and relays the accepted ones, with its relay signature, to everyone.
A peer that lost its connection may rejoin on a new one; one that leaves makes it halt the table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint

from ._bodies import (
    Join,
    OpenTable,
    Start,
)
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Rejected, Returned, Stopped
from ._frames import FrameReader, frame
from ._messages import (
    TABLE_ID_BYTES,
    Entry,
    Halt,
    Hello,
    Leave,
    Propose,
    Refuse,
    Rejoin,
    Relay,
    SignedEntry,
    decode_message,
    encode_message,
    relay_signature,
    verify_rejoin,
    verify_relay,
)
from ._peer import _Seat
from ._roles import Phase, Private
from ._table import Table
from .contract import Game, Move, Plain


class _Conn:
    __slots__ = ("closed", "hello", "key", "out", "reader")

    def __init__(self) -> None:
        self.reader = FrameReader()
        self.out = bytearray()
        self.key: bytes | None = None
        self.hello = False
        self.closed = False


class Host(_Seat):
    """The peer that opened the table: seat 0, and the sequencer of every entry."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        games: Mapping[str, Game[Any]],
        game: str,
        options: Mapping[str, Plain],
        seats: int,
        *,
        table_id: bytes | None = None,
        key: KeyShare | None = None,
        seal: SealKey | None = None,
        rng: Rng = _SYSTEM_RNG,
    ) -> None:
        """Open a table of ``game`` for ``seats`` players.

        Raises :class:`LocalProtocolError` for an unknown game, bad options or seat count.
        """
        super().__init__()
        self.identity = identity
        self.table = Table(games, Private(identity, key, seal, rng), host_key=identity.public.raw)
        #: Leave our own duties to :meth:`perform_duty` (a network driver flushes first).
        self.defer_duties = False
        self._conns: dict[int, _Conn] = {}
        self._relays: list[bytes] = []
        g = games.get(game)
        if g is None:
            raise LocalProtocolError(f"unknown game {game!r}")
        try:
            full = g.validate_options(options)
        except Exception as exc:
            raise LocalProtocolError(f"bad options: {exc}") from None
        tid = table_id if table_id is not None else os.urandom(TABLE_ID_BYTES)
        me = self.table.me
        assert me is not None
        body = OpenTable(game, dict(full), seats, name, me.seal.public)
        entry = Entry(tid, 0, bytes(32), identity.public.raw, body)
        try:
            self._sequence(SignedEntry.create(identity, entry), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"cannot open the table: {exc.reason}") from None

    @classmethod
    def restore(
        cls,
        identity: Identity,
        games: Mapping[str, Game[Any]],
        relays: list[bytes],
        *,
        key: KeyShare,
        seal: SealKey,
        rng: Rng = _SYSTEM_RNG,
    ) -> Host:
        """The host of a table it ran before its process ended, from the relay frames it had
        sent (:meth:`relays_since`, kept in order) and its own secrets: every entry is checked
        and applied again, then peers may rejoin and play on.

        Raises :class:`LocalProtocolError` if the frames are not this host's table.
        """
        host = cls.__new__(cls)
        _Seat.__init__(host)
        host.identity = identity
        host.table = Table(games, Private(identity, key, seal, rng), host_key=identity.public.raw)
        host.defer_duties = False
        host._conns = {}
        host._relays = []
        reader = FrameReader()
        reader.feed(b"".join(relays))
        try:
            while (payload := reader.next_frame()) is not None:
                msg = decode_message(payload)
                if not isinstance(msg, Relay):
                    raise RemoteProtocolError(f"a {msg.TYPE} frame among the relays")
                verify_relay(identity.public.raw, msg.raw, msg.seq)
                se = SignedEntry.parse(msg.raw, msg.sig)
                host.table.apply(se, msg.seq)  # checked as any peer's, our own included
                host._relays.append(frame(payload))
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"cannot restore the table: {exc}") from None
        if not host._relays:
            raise LocalProtocolError("cannot restore the table: no entries")
        host._events.clear()  # the story so far is not news
        return host

    def relays_since(self, n: int) -> list[bytes]:
        """The relay frames from the ``n``-th on (what :meth:`restore` needs, in order)."""
        return self._relays[n:]

    @property
    def table_id(self) -> bytes:
        """This table's id."""
        tid = self.table.table_id
        assert tid is not None
        return tid

    def connect(self) -> int:
        """Register a new incoming connection; returns its id."""
        cid = len(self._conns)
        self._conns[cid] = _Conn()
        return cid

    def close(self, cid: int) -> None:
        """Forget a connection (its peer keeps its seat and may reconnect)."""
        self._conns[cid].closed = True

    def data_to_send(self, cid: int) -> bytes:
        """Bytes for connection ``cid`` (and clear them)."""
        c = self._conns[cid]
        out = bytes(c.out)
        c.out.clear()
        return out

    def member_of(self, cid: int) -> tuple[int, str] | None:
        """The seat and name of the peer on connection ``cid`` once it has joined, else None."""
        key = self._conns[cid].key
        member = self.table.member(key) if key else None
        return (member.seat, member.name) if member else None

    def halt(self, reason: str, seat: int | None = None) -> None:
        """Stop the table for everyone (a peer vanished or stalled, or we leave): a
        :class:`Halt` frame to every open connection and a :class:`Stopped` event here.
        Does nothing once the table is closed or stopped."""
        t = self.table
        if t.phase in (Phase.CLOSED, Phase.STOPPED):
            return
        member = t.member_at(seat) if seat is not None else None
        err = RemoteProtocolError(reason, culprit=member.fingerprint if member else None, seat=seat)
        t.halt(err)
        self._events.append(Stopped(err))
        halt = frame(encode_message(Halt(-1 if seat is None else seat, reason)))
        for c in self._conns.values():
            if not c.closed and c.hello:
                c.out += halt

    def start(self) -> None:
        """Fix the seats before the table is full; raises :class:`LocalProtocolError`."""
        try:
            self._sequence(self.table.entry(Start()), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None

    def play(self, move: Move) -> None:
        """Make a game move as seat 0; raises :class:`LocalProtocolError` if not allowed."""
        try:
            self._sequence(self.table.entry(self._move_body(move)), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None

    def receive_data(self, cid: int, data: bytes) -> None:
        """Feed bytes from connection ``cid``.

        A bad *entry* is refused (a :class:`Refuse` frame to the sender and a
        :class:`Rejected` event); the game goes on without it. Raises
        :class:`RemoteProtocolError` naming the sender if the stream itself is broken
        (oversized frame, undecodable or unknown message, another protocol version); a
        refusal frame is queued for it and the connection should be closed.
        """
        c = self._conns[cid]
        if c.closed:
            raise LocalProtocolError(f"connection {cid} is closed")
        c.reader.feed(data)
        while True:
            try:
                payload = c.reader.next_frame()
                if payload is None:
                    return
                msg = decode_message(payload)
                if isinstance(msg, Relay | Refuse | Halt):
                    raise RemoteProtocolError(f"a peer sent a {msg.TYPE} frame")
                if isinstance(msg, Rejoin):
                    self._rejoin(c, msg)
                    continue
            except RemoteProtocolError as exc:
                c.out += frame(encode_message(Refuse(-1, exc.reason, True)))
                c.closed = True
                member = self.table.member(c.key) if c.key else None
                raise exc.blame(
                    fingerprint(c.key) if c.key else None, member.seat if member else None
                ) from None
            if isinstance(msg, Hello):
                if not c.hello:
                    c.hello = True
                    for relay in self._relays:
                        c.out += relay
            elif isinstance(msg, Leave):
                member = self.table.member(c.key) if c.key else None
                if member is not None:
                    self.halt(f"{member.name} (seat {member.seat}) left the table", member.seat)
            else:
                assert isinstance(msg, Propose)
                self._proposal(cid, c, msg)

    def _rejoin(self, c: _Conn, msg: Rejoin) -> None:
        """A seated peer back on a new connection: check it, then relay what it lacks.
        Raises :class:`RemoteProtocolError` (the caller refuses and closes)."""
        t = self.table
        member = t.member(msg.key)
        if c.hello or member is None or t.table_id is None:
            raise RemoteProtocolError("a rejoin from a peer that has no seat at this table")
        if msg.pos > len(self._relays):
            raise RemoteProtocolError(f"rejoined holding {msg.pos} entries of {len(t.log)}")
        verify_rejoin(msg, t.table_id)
        c.hello, c.key = True, msg.key
        for relay in self._relays[msg.pos :]:
            c.out += relay
        self._events.append(Returned(member.seat, member.name))

    def connected(self, seat: int) -> bool:
        """True if the peer in ``seat`` has an open connection we know to be its own (it
        joined, rejoined or proposed on it)."""
        member = self.table.member_at(seat)
        return member is not None and any(
            not c.closed and c.key == member.key for c in self._conns.values()
        )

    def _proposal(self, cid: int, c: _Conn, msg: Propose) -> None:
        t = self.table
        sender = fingerprint(c.key) if c.key else f"connection {cid}"
        try:
            se = SignedEntry.parse(msg.raw, msg.sig)
        except RemoteProtocolError as exc:
            return self._reject(c, exc.blame(sender), -1)
        e = se.entry
        pos = e.pos
        try:
            if c.key is not None and e.author != c.key:
                raise RemoteProtocolError("proposed an entry signed by another peer's key")
            se.verify()
            if e.table != t.table_id:
                raise RemoteProtocolError("replayed an entry of another table")
        except RemoteProtocolError as exc:
            return self._reject(c, RemoteProtocolError(exc.reason, culprit=sender, pos=pos), pos)
        if pos < len(t.log):
            ev = t.log.note_conflict(se)
            if ev is not None:
                m = t.member(e.author)
                err = RemoteProtocolError(
                    "signed two different entries for one log position",
                    culprit=ev.culprit, seat=m.seat if m else None, pos=pos,
                    evidence=(ev.first[0], ev.second[0]),
                )  # fmt: skip
                self._events.append(Rejected(err))
            return  # otherwise a benign race: the proposer sees the entry that won
        try:
            self._sequence(se, own=False, sig_checked=True)
        except RemoteProtocolError as exc:
            fatal = isinstance(e.body, Join)
            return self._reject(c, exc, pos, fatal)
        if c.key is None:
            c.key = e.author

    def _reject(self, c: _Conn, err: RemoteProtocolError, pos: int, fatal: bool = False) -> None:
        c.out += frame(encode_message(Refuse(pos, err.reason, fatal)))
        self._events.append(Rejected(err))

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        """Apply an entry to our copy and relay it to every connection; then make and relay
        our own duties (unless ``defer_duties``). Raises :class:`RemoteProtocolError` if the
        entry is refused."""
        self._relay_one(se, own=own, sig_checked=sig_checked)
        if not self.defer_duties:
            while self.perform_duty():
                pass

    def perform_duty(self) -> bool:
        """Make and relay the one entry we owe now (a key share, our shuffle, our shares…);
        False if we owe nothing. With ``defer_duties`` set, a driver calls this after it has
        sent out what was sequenced, so the other peers need not wait for our proofs."""
        body = self.table.duty()
        if body is None:
            return False
        try:
            self._relay_one(self.table.entry(body), own=True, sig_checked=True)
        except RemoteProtocolError as exc:  # our own entry refused by our own rules
            raise RuntimeError(f"bug: the host's own {body.KIND} entry: {exc}") from exc
        return True

    def _relay_one(self, se: SignedEntry, *, own: bool, sig_checked: bool) -> None:
        events = self.table.apply(se, b"", own=own, sig_checked=sig_checked)
        seq = relay_signature(self.identity, se.raw)
        self.table.log.seqs[-1] = seq
        self._events.extend(events)
        data = frame(encode_message(Relay(se.raw, se.sig, seq)))
        self._relays.append(data)
        for c in self._conns.values():
            if c.hello and not c.closed:
                c.out += data

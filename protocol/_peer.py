"""Peers and the host as sans-IO protocol objects: bytes in, events and bytes out.

A :class:`Peer` has one connection (to the host): feed it what arrives with
:meth:`Peer.receive_data`, send what :meth:`Peer.data_to_send` returns, and read
:meth:`Peer.next_event`. The :class:`Host` is a peer too (seat 0) and also the sequencer: it has
one connection per peer (:meth:`Host.connect` returns its id), checks every proposed entry
against its own copy, and relays the accepted ones, with its relay signature, to everyone.
Both fill their entries owed by the protocol (key share, shuffles, shares, ...) by themselves;
the driver only chooses game moves (:meth:`play`).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint

from ._bodies import (
    Join,
    MoveBody,
    OpenTable,
    Start,
)
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, MoveDropped, Refused, Rejected, Returned, Stopped
from ._frames import FrameReader, frame
from ._messages import (
    TABLE_ID_BYTES,
    Entry,
    Halt,
    Hello,
    Leave,
    Message,
    Propose,
    Refuse,
    Rejoin,
    Relay,
    SignedEntry,
    decode_message,
    encode_message,
    rejoin_signature,
    relay_signature,
    verify_rejoin,
    verify_relay,
)
from ._roles import Phase, Private
from ._table import Table
from .contract import Commit, Game, Move, Plain, Status


class _Seat:
    """What a peer and the host share: a table copy, an event queue, the driver's API."""

    table: Table

    def __init__(self) -> None:
        self._events: deque[Event] = deque()

    def next_event(self) -> Event | None:
        """The oldest event not yet taken, or ``None``."""
        return self._events.popleft() if self._events else None

    @property
    def seat(self) -> int | None:
        """Our seat, once seated."""
        return self.table.my_seat

    @property
    def phase(self) -> Phase:
        """Where the table is in its life."""
        return self.table.phase

    def status(self) -> Status | None:
        """The game's status (``None`` outside the game or while a table batch runs)."""
        return self.table.status()

    def may_move(self) -> bool:
        """True if we may send a game move now (our turn, or out of turn where allowed)."""
        seat = self.seat
        return seat is not None and self.table.may_move(seat)

    @property
    def busy(self) -> bool:
        """True while an entry of ours waits for the host (a move now would be refused)."""
        return False

    def legal_moves(self) -> list[Move]:
        """Our legal moves now."""
        return self.table.legal_moves()

    def view(self) -> dict[str, Plain]:
        """Our seat's view of the game (the only thing a UI or bot should read)."""
        game = self.table.game
        if game is None or self.table.state is None:
            return {}
        return game.view(self.table.state, self.seat)

    def transcript(self) -> bytes:
        """The self-contained transcript file of the log so far (see :func:`audit_transcript`)."""
        return self.table.log.transcript()

    def _move_body(self, move: Move) -> Any:
        if isinstance(self.table.status(), Commit):
            return self.table.seal_move(move)
        return self.table.move_body(move)


class Peer(_Seat):
    """A peer that joins a table through its host."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        games: Mapping[str, Game[Any]],
        *,
        key: KeyShare | None = None,
        seal: SealKey | None = None,
        rng: Rng = _SYSTEM_RNG,
        host_key: bytes | None = None,
    ) -> None:
        """``host_key`` pins the host's identity (e.g. from the lobby announcement)."""
        super().__init__()
        self.name = name
        self.table = Table(games, Private(identity, key, seal, rng), host_key=host_key)
        self._reader = FrameReader()
        self._out = bytearray(frame(encode_message(Hello())))
        self._outstanding: SignedEntry | None = None
        self._host: bytes | None = host_key
        self._last_relay: bytes | None = None
        self.stopped: RemoteProtocolError | None = None
        self.refused: str | None = None
        self._resuming = False

    @property
    def busy(self) -> bool:
        """True while an entry of ours waits for the host (a move now would be refused)."""
        return self._outstanding is not None

    def data_to_send(self) -> bytes:
        """Bytes for the host (and clear them)."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the host; handle every complete frame.

        Raises :class:`RemoteProtocolError` naming the host if the stream itself is broken
        (oversized frame, undecodable or unknown message, another protocol version): the
        connection is then useless. A bad *entry* relayed by the host does not raise: it gives
        a :class:`Stopped` event and the table stops where it was.
        """
        self._reader.feed(data)
        while True:
            try:
                payload = self._reader.next_frame()
                if payload is None:
                    break
                msg = decode_message(payload)
            except RemoteProtocolError as exc:
                raise exc.blame(self._host_fp, 0) from None
            self._handle(msg)
        self._act()

    @property
    def _host_fp(self) -> str | None:
        return fingerprint(self._host) if self._host else None

    def reconnect(self) -> None:
        """Start over on a new connection to the same host after the old one was lost.

        Seated, we rejoin: our key, how much of the log we hold (the host relays the rest)
        and our entry still in flight, sent again (a copy the host already sequenced is
        ignored). Not yet seated, we say hello again as at first.
        """
        self._reader = FrameReader()
        t = self.table
        if t.my_seat is None or t.table_id is None or t.me is None:
            self._out = bytearray(frame(encode_message(Hello())))
            self._outstanding = None  # a join in flight is proposed again after the replay
            return
        pos = len(t.log)
        sig = rejoin_signature(t.me.identity, t.table_id, pos)
        self._out = bytearray(frame(encode_message(Rejoin(t.me.identity.public.raw, pos, sig))))
        out = self._outstanding
        if out is not None:
            self._out += frame(encode_message(Propose(out.raw, out.sig)))

    def resume(self, table_id: bytes) -> None:
        """Come back to a table we have a seat at after a restart (built with the same
        identity, key share and seal key): instead of a hello, a signed rejoin that holds no
        entries. The host relays the whole log; we find our seat in it and go on. Until then
        we propose nothing (no second join)."""
        me = self.table.me
        assert me is not None
        sig = rejoin_signature(me.identity, table_id, 0)
        self._out = bytearray(frame(encode_message(Rejoin(me.identity.public.raw, 0, sig))))
        self._resuming = True

    def leave(self) -> None:
        """Tell the host we leave for good (it halts the table at once, naming us)."""
        self._out += frame(encode_message(Leave()))

    def play(self, move: Move) -> None:
        """Propose a game move (or commit a sealed one when the game asks for that).

        Raises :class:`LocalProtocolError` if it is not our move, the move is illegal here, or
        an earlier proposal of ours is still on its way.
        """
        if self._outstanding is not None:
            raise LocalProtocolError("an entry of ours is still waiting for the host")
        self._propose(self.table.entry(self._move_body(move)))

    def _propose(self, se: SignedEntry) -> None:
        self._outstanding = se
        self._out += frame(encode_message(Propose(se.raw, se.sig)))

    def _act(self) -> None:
        """Propose what we owe: our join in the lobby, then every protocol duty."""
        if self._outstanding is not None or self.stopped or self.refused:
            return
        t = self.table
        if not len(t.log):
            return
        if t.my_seat is None:  # outside the lobby the host refuses us, saying why
            if self._resuming:
                return  # our seat is further on in the log being replayed
            assert t.me is not None
            self._propose(t.entry(Join(self.name, t.me.seal.public)))
            return
        body = t.duty()
        if body is not None:
            self._propose(t.entry(body))

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, Refuse):
            # At most one proposal of ours is in flight, and a refusal arrives before any
            # relay of a later position, so a refusal is always about that proposal.
            self._outstanding = None
            self._events.append(Refused(msg.reason, msg.fatal))
            if msg.fatal:
                self.refused = msg.reason
            return
        if isinstance(msg, Halt):
            if self.stopped is None and self.table.phase is not Phase.CLOSED:
                seat = msg.seat if msg.seat >= 0 else None
                member = self.table.member_at(seat) if seat is not None else None
                err = RemoteProtocolError(
                    f"the host stopped the table: {msg.reason}",
                    culprit=member.fingerprint if member else None, seat=seat,
                )  # fmt: skip
                self.table.halt(err)
                self._stop(err)
            return
        if not isinstance(msg, Relay):
            raise RemoteProtocolError(
                f"the host sent a {msg.TYPE} frame", culprit=self._host_fp, seat=0
            )
        if self.stopped is None:
            self._relay(msg)

    def _stop(self, err: RemoteProtocolError) -> None:
        self.stopped = err
        self._events.append(Stopped(err))

    def _relay(self, msg: Relay) -> None:
        t = self.table
        out = self._outstanding
        own = out is not None and out.raw == msg.raw and out.sig == msg.sig
        try:
            se = out if own and out is not None else SignedEntry.parse(msg.raw, msg.sig)
        except RemoteProtocolError as exc:
            return self._stop(exc.blame(self._host_fp, 0, len(t.log)))
        e = se.entry
        if self._host is None and e.pos == 0:
            self._host = e.author
        host = self._host
        evidence = (encode_message(msg),)
        try:
            if host is None:
                raise RemoteProtocolError("the first relayed entry must open the table")
            verify_relay(host, msg.raw, msg.seq)
        except RemoteProtocolError as exc:
            return self._stop(exc.blame(self._host_fp, 0, e.pos))
        if not own:
            try:
                se.verify()
            except RemoteProtocolError as exc:
                return self._stop(self._host_fault(f"relayed a forgery: {exc.reason}", e.pos,
                                                   evidence))  # fmt: skip
        n = len(t.log)
        if e.pos < n:
            if t.log.entries[e.pos].raw == msg.raw:
                return  # a repeated relay: harmless
            prior = encode_message(Relay(t.log.entries[e.pos].raw, t.log.entries[e.pos].sig,
                                         t.log.seqs[e.pos]))  # fmt: skip
            return self._stop(self._host_fault("relayed two different entries", e.pos,
                                               (prior, *evidence)))  # fmt: skip
        if e.pos > n:
            return self._stop(self._host_fault(f"skipped log positions {n}..{e.pos - 1}", e.pos,
                                               evidence))  # fmt: skip
        if e.prev != t.log.head and e.pos > 0:
            prior = encode_message(Relay(t.log.entries[-1].raw, t.log.entries[-1].sig,
                                         t.log.seqs[-1]))  # fmt: skip
            return self._stop(self._host_fault(
                "sequenced an entry that does not follow the entry it sequenced before (a fork)",
                e.pos, (prior, *evidence)))  # fmt: skip
        if t.table_id is not None and e.table != t.table_id:
            return self._stop(self._host_fault("relayed an entry of another table", e.pos,
                                               evidence))  # fmt: skip
        try:
            events = t.apply(se, msg.seq, own=own, sig_checked=True)
        except RemoteProtocolError as exc:
            err = RemoteProtocolError(
                f"{exc.reason} (relayed by the host {self._host_fp})",
                culprit=exc.culprit, seat=exc.seat, pos=exc.pos, evidence=evidence,
            )  # fmt: skip
            return self._stop(err)
        self._events.extend(events)
        if out is not None and not own and out.entry.pos <= e.pos:
            self._outstanding = None
            if isinstance(out.entry.body, MoveBody):
                self._events.append(MoveDropped(out.entry.body.move))  # type: ignore[arg-type]
        elif own:
            self._outstanding = None
        if t.phase is Phase.STOPPED and t.stop_error is not None:
            self.stopped = t.stop_error

    def _host_fault(self, what: str, pos: int, evidence: tuple[bytes, ...]) -> RemoteProtocolError:
        return RemoteProtocolError(
            f"the host {what}", culprit=self._host_fp, seat=0, pos=pos, evidence=evidence
        )


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

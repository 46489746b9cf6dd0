"""Peers as sans-IO protocol objects: bytes in, events and bytes out.

A :class:`Peer` has one connection (to the host): feed it what arrives with
:meth:`Peer.receive_data`, send what :meth:`Peer.data_to_send` returns, and read
:meth:`Peer.next_event`. The host (:mod:`protocol._host`) is a peer too (seat 0) and also the
sequencer. Both fill the entries the protocol owes (key share, shuffles, shares, ...) by
themselves; the driver only chooses game moves (:meth:`play`). ``_Seat`` is what they share.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint

from ._bodies import (
    Join,
    MoveBody,
)
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, MoveDropped, Refused, Stopped
from ._frames import FrameReader, frame
from ._messages import (
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

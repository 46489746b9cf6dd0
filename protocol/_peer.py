"""Peers as sans-IO protocol objects: bytes in, events and bytes out.

A :class:`Peer` has one connection (to the host): feed it what arrives with
:meth:`Peer.receive_data`, send what :meth:`Peer.data_to_send` returns, and read
:meth:`Peer.next_event`. The host (:mod:`protocol._host`) is a peer too (seat 0) and also the
sequencer. Both fill the entries the protocol owes (key share, shuffles, shares, ...) by
themselves; the driver only chooses game moves (:meth:`play`). ``_Seat``
(:mod:`protocol._seat`) is what they share.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint

from ._bodies import (
    Join,
    MoveBody,
)
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import (
    Holding,
    MoveDropped,
    Refused,
    Removed,
    SitRefused,
    Stopped,
    TalkRefused,
)
from ._frames import FrameReader, frame
from ._held import RACING_KINDS, Held
from ._messages import (
    Challenge,
    Halt,
    Hello,
    Leave,
    Message,
    Offer,
    Propose,
    Refuse,
    Relay,
    SaidLine,
    SignedEntry,
    decode_message,
    encode_message,
    hello_signature,
    leave_signature,
    race_rank,
    read_head,
    table_name_problem,
    verify_entry_signature,
    verify_relay,
)
from ._night import NightOffers
from ._roles import PERSONS_CHOICE, Phase, Private
from ._seat import _Seat
from ._sit import SIT_POS
from ._table import Table
from ._talk import TALK_POS, Talker
from .contract import Commit, Game, Move, Turn


class Peer(NightOffers, Talker, _Seat):
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
        sealed: bytes | None = None,
    ) -> None:
        """``host_key`` pins the host's identity (e.g. from the lobby announcement);
        ``sealed`` is a pending sealed move kept from a previous run of this seat (see
        :class:`SealedMove`). Nothing is sent before the host's challenge arrives."""
        super().__init__()
        self.name = name
        self.table = Table(games, Private(identity, key, seal, rng), host_key=host_key)
        if sealed is not None:
            self.table.restore_sealed(sealed)
        self._follow(host_key)

    def _follow(self, host_key: bytes | None) -> None:
        """What following one host's relays takes: the stream's state and our own."""
        self._reader = FrameReader()
        self._out = bytearray()
        self._outstanding: SignedEntry | None = None
        self._host: bytes | None = host_key
        self.stopped: RemoteProtocolError | None = None
        self.refused: str | None = None
        #: Leave our duties to :meth:`perform_duty` (a network driver starts the checks of
        #: what came in first, so our proof runs beside them).
        self.defer_duties = False
        self._nonce: bytes | None = None  # this connection's challenge
        self._catch_up = 0  # entries to hold before proposing anything on this connection
        self._resuming: bytes | None = None  # the table id of a seat being taken back
        self._held: Held | None = None  # what we held before a restart, until checked
        self._leaving = False
        #: The next game of the night the host offers, once this table is over (checked:
        #: :func:`protocol._night.check_offer`), and its opening entry.
        self.offer: Offer | None = None
        self._next_open: SignedEntry | None = None
        #: (A table we were offered) its opening entry: the first relay must be exactly it.
        self._opening: SignedEntry | None = None
        #: (A spectator that asked for a seat: ``Watcher.next_sitter``) why the host refused
        #: it, once it did; we then propose nothing more (see ``Watcher.after_refusal``).
        self.sit_refused: str | None = None
        #: (The same) the key and name it talked with as a spectator, if any.
        self._watched_as: tuple[Identity | None, str] | None = None
        #: What the host's challenge said of its table (nothing of it signed: see
        #: :class:`~protocol._messages.Challenge`): the key it claims to be opened by, the
        #: table's name ("" if none, or one not fit to show: too long, not printable) and
        #: whether spectators may talk there. A night's next table keeps them.
        self.host_claim: bytes | None = None
        self.table_name = ""
        self.spectators_talk = False
        self._init_talker()

    def _welcomed(self, msg: Challenge) -> None:
        """Keep what the challenge ``msg`` says of the table (a bad name is dropped)."""
        self.host_claim = msg.key
        self.table_name = msg.name if table_name_problem(msg.name) is None else ""
        self.spectators_talk = msg.talk

    def carry_talk(self, before: Talker) -> None:
        """As :meth:`Talker.carry_talk`; and what the host said of the table (a night's
        next table is offered with no challenge of its own)."""
        super().carry_talk(before)
        if isinstance(before, Peer):
            self.host_claim, self.table_name = before.host_claim, before.table_name
            self.spectators_talk = before.spectators_talk

    def _talks_as(self) -> tuple[Identity, str] | None:
        """Our identity and no name once we hold a seat (the log names us); else ``None``."""
        me = self.table.me
        return (me.identity, "") if me is not None and self.table.my_seat is not None else None

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
        (oversized frame, undecodable or unknown message, another protocol version, a frame
        out of place): the connection is then useless. A bad *entry* relayed by the host does
        not raise: it gives a :class:`Stopped` event and the table stops where it was.
        """
        self._reader.feed(data)
        while True:
            try:
                payload = self._reader.next_frame()
                if payload is None:
                    break
                msg = decode_message(payload)
                self._handle(msg)
            except RemoteProtocolError as exc:
                raise exc.blame(self._host_fp, 0) from None
        if not self.defer_duties:
            self._act()

    def perform_duty(self) -> bool:
        """Propose what we owe now, if nothing of ours is on its way (with ``defer_duties``
        set, a driver calls this after each input, when it suits it: after starting the
        checks of what came in, say); True if an entry was proposed."""
        before = self._outstanding
        self._act()
        return self._outstanding is not None and self._outstanding is not before

    @property
    def _host_fp(self) -> str | None:
        return fingerprint(self._host) if self._host else None

    def reconnect(self) -> None:
        """Start over on a new connection to the same host after the old one was lost.

        When the new challenge comes we say hello again with how much of the log we hold
        (the host relays the rest); seated, that is our seat coming back, and our entry
        still in flight is sent again (a copy the host already sequenced is ignored). A join
        in flight is dropped: it is proposed again after the replay if still due.
        """
        self._reader = FrameReader()
        self._out = bytearray()
        self._nonce = None
        if self.table.my_seat is None:
            self._outstanding = None

    def resume(self, table_id: bytes, held: bytes | None = None) -> None:
        """Come back to a table we have a seat at after a restart (built with the same
        identity, key share and seal key): our hello holds no entries, the host relays the
        whole log, we find our seat in it and go on. Until we hold the log as it was when
        we connected we propose nothing (no second join, no duty already done). The relays
        must be of table ``table_id``.

        ``held`` is the last :class:`Holding` blob this seat kept: a log that does not hold
        the entry we had applied, or that put another seat's entry where our signed one had
        to go, stops us naming the host (it rolled us back); our signed entry that the host
        never sequenced is proposed again as it was. Raises :class:`LocalProtocolError` if
        ``held`` is damaged."""
        self._resuming = table_id
        if held:
            self._held = Held.from_bytes(held)
            if self._host is None:
                self._host = self._held.host  # the host we held the log from
            elif self._host != self._held.host:
                raise LocalProtocolError("the kept record of the log is of another host")

    def may_move(self) -> bool:
        """True if we may send a game move now (never while we take our seat back and have
        not yet seen the log as we held it)."""
        return self._held is None and super().may_move()

    def leave(self) -> None:
        """Tell the host we leave for good (it halts the table at once, naming us)."""
        self._leaving = True
        self._say_leave()

    def _say_leave(self) -> None:
        me = self.table.me
        if self._leaving and self._nonce is not None and me is not None:
            self._out += frame(encode_message(Leave(leave_signature(me.identity, self._nonce))))

    def _challenged(self, msg: Challenge) -> None:
        """Answer the host's challenge: hello, then what was in flight (and a leave)."""
        if self._nonce is not None:
            raise RemoteProtocolError("the host sent a second challenge on one connection")
        me = self.table.me
        assert me is not None
        self._nonce = msg.nonce
        self._welcomed(msg)
        held = self._held
        if held is not None and msg.pos <= held.applied:
            self._stop(self._host_fault(
                f"rolled this seat back: it offers a log of {msg.pos} entries, and this seat "
                f"held entry {held.applied}, relayed with the host's signature",
                held.applied, (held.to_bytes(),)))  # fmt: skip
            return
        pos = len(self.table.log)
        sig = hello_signature(me.identity, msg.nonce, pos)
        self._out += frame(encode_message(Hello(me.identity.public.raw, pos, sig)))
        if pos < msg.pos:
            self._catch_up = msg.pos
        out = self._outstanding
        if out is not None:
            self._out += frame(encode_message(Propose(out.raw, out.sig)))
        self._say_leave()

    def play(self, move: Move) -> None:
        """Propose a game move, or seal one when the game asks for that (its commitment is
        then proposed, and proposed again if it loses a race, until it is logged).

        Raises :class:`LocalProtocolError` if it is not our move, the move is illegal here, or
        an earlier proposal of ours is still on its way.
        """
        if isinstance(self.table.status(), Commit):
            self._seal(move)
            self._act()
            return
        if self._outstanding is not None:
            raise LocalProtocolError("an entry of ours is still waiting for the host")
        self._propose(self.table.entry(self.table.move_body(move)))

    def close_phase(self) -> None:
        """As the status's ``closer``, end the sealed phase now (the seats still missing hand
        nothing in). Raises :class:`LocalProtocolError` if we may not, or are busy."""
        if self._outstanding is not None:
            raise LocalProtocolError("an entry of ours is still waiting for the host")
        self._propose(self.table.entry(self._close_body()))

    def _propose(self, se: SignedEntry) -> None:
        held = self._held
        if held is not None and (held.signed is None or se.raw != held.signed.raw):
            raise LocalProtocolError("taking our seat back: the log is not yet as we held it")
        self._outstanding = se
        log = self.table.log
        if log.entries and self._host is not None:  # kept before it leaves: see Holding
            held = Held(self._host, len(log) - 1, log.head, log.seqs[-1], se)
            self._events.append(Holding(held.to_bytes()))
        if self._nonce is not None:  # else it goes out right after our hello
            self._out += frame(encode_message(Propose(se.raw, se.sig)))

    def _act(self) -> None:
        """Propose what we owe: our join in the lobby, then every protocol duty."""
        if (self._outstanding is not None or self.stopped or self.refused or self._leaving
                or self.sit_refused):  # fmt: skip
            return
        t = self.table
        if not len(t.log) or self._nonce is None or len(t.log) < self._catch_up:
            return  # not yet answered the challenge, or replaying what was already logged
        held = self._held
        if held is not None:  # taking our seat back: only what we signed before, if due
            if held.signed is not None and len(t.log) == held.signed.entry.pos:
                self._propose(held.signed)
            return
        if t.my_seat is None:  # outside the lobby the host refuses us, saying why
            opening = t.opening
            waits = t.phase is Phase.LOBBY and opening is not None and opening.night is not None
            if self._resuming is not None and not waits:
                return  # our seat is further on in the log being replayed
            # (A night's next table we left before our join was sequenced: the whole log
            # is here and holds no seat of ours, so we propose our join, as we did then.)
            assert t.me is not None
            self._propose(t.entry(Join(self.name, t.me.seal.public)))
            return
        body = t.duty()
        if body is not None:
            self._propose(t.entry(body))

    def _handle(self, msg: Message) -> None:
        if isinstance(msg, Challenge):
            return self._challenged(msg)
        if self._nonce is None:
            raise RemoteProtocolError(f"the host sent a {msg.TYPE} frame before its challenge")
        if isinstance(msg, Offer):
            return self._offered(msg)
        if isinstance(msg, SaidLine):
            return self._heard(msg)
        if isinstance(msg, Refuse):
            if msg.pos == TALK_POS and not msg.fatal:  # a line of ours: nothing else changes
                self._events.append(TalkRefused(msg.reason))
                return
            if msg.pos == SIT_POS and not msg.fatal:
                return self._sit_refusal(msg.reason)
            if msg.fatal and self.table.my_seat is not None:
                # Our seat is still ours: the host hangs up on this connection only, and we
                # come back on a new one with what we had in flight.
                self._events.append(Refused(msg.reason, False))
                return
            # At most one proposal of ours is in flight, and a refusal arrives before any
            # relay of a later position, so a refusal is always about that proposal.
            self._outstanding = None
            self._events.append(Refused(msg.reason, msg.fatal))
            if msg.fatal:
                self.refused = msg.reason
            return
        if isinstance(msg, Halt):
            if self.stopped is None and self.table.phase is not Phase.CLOSED:
                self._stop(self._halted(msg))
            return
        if not isinstance(msg, Relay):
            raise RemoteProtocolError(f"the host sent a {msg.TYPE} frame")
        if self.stopped is None:
            self._relay(msg)

    def next_peer(self, *, key: KeyShare | None = None, seal: SealKey | None = None) -> Peer:
        """We stay for the game offered (:attr:`offer`): a peer for its table, with fresh
        table secrets (``key``, ``seal``: these, to keep them first), whose hello — holding
        no entry, signing the offer's challenge — is queued already; its join follows once
        the table's opening entry is relayed, which must be the one offered. Feed it the
        same stream from here on. Raises :class:`LocalProtocolError` with no offer."""
        offer, opened, me = self.offer, self._next_open, self.table.me
        if offer is None or opened is None or me is None:
            raise LocalProtocolError("no next game is offered")
        nxt = Peer(me.identity, self.name, self.table.games, key=key, seal=seal, rng=me.rng,
                   host_key=self._host)  # fmt: skip
        nxt._opening = opened
        nxt._nonce = offer.nonce
        nxt.carry_talk(self)
        sig = hello_signature(me.identity, offer.nonce, 0)
        nxt._out += frame(encode_message(Hello(me.identity.public.raw, 0, sig)))
        return nxt

    def _sit_refusal(self, reason: str) -> None:
        """The host refused the seat we asked for as a spectator: we ask nothing more and
        say so (:class:`SitRefused`); the driver goes on watching
        (:meth:`Watcher.after_refusal`). Raises :class:`RemoteProtocolError` where we asked for
        no seat, or hold one already."""
        if self._watched_as is None or self.table.my_seat is not None:
            raise RemoteProtocolError("the host refused a seat nobody asked for")
        if self.sit_refused is None:
            self.sit_refused = reason
            self._outstanding = None
            self._events.append(SitRefused(reason))

    def _halted(self, msg: Halt) -> RemoteProtocolError:
        """The host's halt as we can take it. It blames a seat on its word alone: where that
        seat owes a protocol entry (its coin opening, its shares…), the host may as well be
        the one withholding it (it relays every entry), so both are named and neither is
        blamed; otherwise (a seat that left, say) the seat is named as the host says."""
        seat = msg.seat if msg.seat >= 0 else None
        member = self.table.member_at(seat) if seat is not None else None
        reason = f"the host stopped the table: {msg.reason}"
        due = self.table.waiting_on()
        if member is None or due is None or due[0] != member.seat or due[1] in PERSONS_CHOICE:
            return RemoteProtocolError(
                reason, culprit=member.fingerprint if member else None, seat=seat
            )
        return RemoteProtocolError(
            f"{reason}; either {member.name} (seat {member.seat}) or the host withheld it"
        )

    def _checks_done(self) -> None:
        if not self.defer_duties:
            self._act()

    def _check_failed(self, err: RemoteProtocolError) -> None:
        """A shuffle proof checked beside the table failed: we stop, naming its author."""
        self.table.halt(err)
        self._stop(err)

    def _stop(self, err: RemoteProtocolError) -> None:
        """We take nothing more from this host: our table stops here, for ``err``."""
        self.table.halt(err)
        self.stopped = err
        self._events.append(Stopped(err))

    def _relay(self, msg: Relay) -> None:  # noqa: C901
        t = self.table
        out = self._outstanding
        own = out is not None and out.raw == msg.raw and out.sig == msg.sig
        # In order of cost: the entry's head (no curve point), the host's and the author's
        # signatures, and only then its body's points (a forgery costs us two signatures).
        try:
            head = read_head(msg.raw)
        except RemoteProtocolError as exc:
            return self._stop(exc.blame(self._host_fp, 0, len(t.log)))
        if self._host is None and head.pos == 0:
            self._host = head.author
        if head.pos == 0 and self._opening is not None and msg.raw != self._opening.raw:
            return self._stop(self._host_fault("relayed another table than the one it offered",
                                               0, (encode_message(msg),)))  # fmt: skip
        host = self._host
        evidence = (encode_message(msg),)
        try:
            if host is None:
                raise RemoteProtocolError("the first relayed entry must open the table")
            verify_relay(host, msg.raw, msg.seq, t.keys)
        except RemoteProtocolError as exc:
            return self._stop(exc.blame(self._host_fp, 0, head.pos))
        if own and out is not None:
            se = out
        else:
            try:
                verify_entry_signature(head.author, msg.raw, msg.sig, t.keys)
            except RemoteProtocolError as exc:
                return self._stop(self._host_fault(f"relayed a forgery: {exc.reason}", head.pos,
                                                   evidence))  # fmt: skip
            try:
                se = SignedEntry(msg.raw, msg.sig, head.entry())
            except RemoteProtocolError as exc:  # signed by its author, relayed by the host
                member = t.member(head.author)
                err = RemoteProtocolError(
                    f"{exc.reason} (relayed by the host {self._host_fp})",
                    culprit=fingerprint(head.author), seat=member.seat if member else None,
                    pos=head.pos, evidence=evidence,
                )  # fmt: skip
                return self._stop(err)
        e = se.entry
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
        expected = t.table_id if t.table_id is not None else self._resuming
        if expected is not None and e.table != expected:
            return self._stop(self._host_fault("relayed an entry of another table", e.pos,
                                               evidence))  # fmt: skip
        if self._held is not None and (why := self._rolled_back(self._held, se)):
            return self._stop(self._host_fault(why, e.pos, (self._held.to_bytes(), *evidence)))
        st = t.status()
        free = isinstance(st, Turn) and st.free  # moves that commute: no race was drawn
        try:
            events = t.apply(se, msg.seq, own=own, sig_checked=True)
        except RemoteProtocolError as exc:
            err = RemoteProtocolError(
                f"{exc.reason} (relayed by the host {self._host_fp})",
                culprit=exc.culprit, seat=exc.seat, pos=exc.pos, evidence=evidence,
            )  # fmt: skip
            return self._stop(err)
        self._events.extend(events)
        if self._held is not None and len(t.log) >= self._held.until:
            self._held = None  # the log holds all we held: we are back
        if out is not None and not own and out.entry.pos <= e.pos:
            self._outstanding = None
            if isinstance(out.entry.body, MoveBody) and not (free and self._again(out.entry.body)):
                # Lost a race: every peer can check the winner ranks before us. (Where moves
                # commute, arrival decides and favours nobody.)
                fair = free or out.entry.pos != e.pos or race_rank(e.prev, e.author) < race_rank(
                    e.prev, out.entry.author
                )
                self._events.append(MoveDropped(out.entry.body.move, fair))  # type: ignore[arg-type]
        elif own:
            self._outstanding = None
        if t.phase is Phase.STOPPED and t.stop_error is not None:
            self.stopped = t.stop_error
        me = t.me
        if me is not None and any(
            isinstance(ev, Removed) and ev.fingerprint == me.identity.public.fingerprint
            for ev in events
        ):
            self.refused = "the host removed you from the table"
            self._events.append(Refused(self.refused, True))

    def _rolled_back(self, held: Held, se: SignedEntry) -> str | None:
        """Why relaying ``se`` rolls back what we ``held`` before our restart, if it does."""
        e, mine = se.entry, held.signed
        if e.pos == held.applied and se.hash != held.head:
            return (f"rolled this seat back: it relayed another entry at position {e.pos} "
                    "than the one this seat held, relayed with the host's signature")  # fmt: skip
        if mine is None or e.pos != mine.entry.pos or se.raw == mine.raw:
            return None
        if e.author == mine.entry.author or mine.entry.body.KIND in RACING_KINDS:
            return None  # another seat's move (or commitment) may win the position
        return (f"rolled this seat back: it put another entry at position {e.pos}, where this "
                f"seat's own {mine.entry.body.KIND} had to go")  # fmt: skip

    def _again(self, body: MoveBody) -> bool:
        """Propose again a move that lost its position to another seat's where moves commute
        (``Turn.free``), if it is still ours to make; True if it went out again."""
        t = self.table
        st = t.status()
        if not (isinstance(st, Turn) and st.free) or self.stopped:
            return False
        try:
            self._propose(t.entry(t.move_body(body.move)))  # type: ignore[arg-type]
        except LocalProtocolError:
            return False  # no longer legal (the phase moved on): dropped, as a lost race
        return True

    def _host_fault(self, what: str, pos: int, evidence: tuple[bytes, ...]) -> RemoteProtocolError:
        return RemoteProtocolError(
            f"the host {what}", culprit=self._host_fp, seat=0, pos=pos, evidence=evidence
        )

"""The host as a sans-IO protocol object: seat 0, and the sequencer of every entry.

It has one connection per peer (:meth:`Host.connect` returns its id), checks every proposed
entry against its own copy, and relays the accepted ones, with its relay signature, to everyone.
A peer that lost its connection may rejoin on a new one; one that leaves makes it halt the table.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint

from ._bodies import (
    BODY_LIMITS,
    Join,
    NightLink,
    OpenTable,
    Start,
)
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Rejected, Returned, Stopped
from ._frames import FrameReader, frame
from ._lobby import Conn, LobbyControl
from ._messages import (
    TABLE_ID_BYTES,
    Challenge,
    Entry,
    Halt,
    Hello,
    Leave,
    Message,
    Offer,
    Propose,
    Refuse,
    Relay,
    SaidLine,
    Say,
    SignedEntry,
    Watch,
    decode_message,
    encode_message,
    read_head,
    relay_signature,
    verify_entry_signature,
    verify_hello,
    verify_leave,
    verify_relay,
)
from ._night import NightSeating
from ._race import RaceWindow
from ._roles import Phase, Private
from ._seat import _Seat
from ._sit import ASKED, DENIED, SpectatorSeats
from ._table import Table
from ._talk import TalkConn, TalkControl
from .contract import Commit, Game, Move, Plain

#: Proposals a key may have refused, over all its connections, before the host hangs up on
#: each further one: an honest peer has one now and then (a race it lost is not even
#: counted), a hostile one spends our CPU, and coming back on a new connection resets nothing.
MAX_REFUSALS = 16


class Host(NightSeating, SpectatorSeats, LobbyControl, TalkControl, RaceWindow, _Seat):
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
        spectators: int = 16,
        night: NightLink | None = None,
        roster: Sequence[tuple[bytes, str]] = (),
    ) -> None:
        """Open a table of ``game`` for ``seats`` players, and at most ``spectators`` people
        watching at once (0: none); ``night`` links it to the table before it in a night of
        games (``None``: it starts a night), and ``roster`` names the players of that table
        in their seat order (key, name; ours left out): only they may sit here, in that
        order (:meth:`offer` each connection they hold).

        Raises :class:`LocalProtocolError` for an unknown game, bad options or seat count.
        """
        super().__init__()
        self.identity = identity
        self.table = Table(games, Private(identity, key, seal, rng), host_key=identity.public.raw)
        #: Leave our own duties to :meth:`perform_duty` (a network driver flushes first).
        self.defer_duties = False
        #: Hold every join until :meth:`let_in` (a :class:`JoinAsked` event tells of each).
        self.approve_joins = False
        self._init_lobby(spectators)
        if roster and night is None:
            raise LocalProtocolError("a roster of the game before needs the night's link")
        self._init_night(roster)
        self._init_sit()
        self._init_talk()
        self._relays: list[bytes] = []
        self._race: list[tuple[SignedEntry, Conn | None]] = []  # moves for one position
        self._race_pos = -1
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
        body = OpenTable(game, dict(full), seats, name, me.seal.public, night)
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
        sealed: bytes | None = None,
        spectators: int = 16,
    ) -> Host:
        """The host of a table it ran before its process ended, from the relay frames it had
        sent (:meth:`relays_since`, kept in order), its own secrets and its pending sealed
        move, if any (see :class:`SealedMove`): every entry is checked and applied again,
        then peers may rejoin and play on.

        Raises :class:`LocalProtocolError` if the frames are not this host's table.
        """
        host = cls.__new__(cls)
        _Seat.__init__(host)
        host.identity = identity
        host.table = Table(games, Private(identity, key, seal, rng), host_key=identity.public.raw)
        host.defer_duties = False
        host.approve_joins = False
        host._init_lobby(spectators)
        host._init_night(())
        host._init_sit()
        host._init_talk()
        host._relays = []
        host._race, host._race_pos = [], -1
        if sealed is not None:
            host.table.restore_sealed(sealed)
        reader = FrameReader()
        reader.feed(b"".join(relays))
        try:
            while (payload := reader.next_frame()) is not None:
                msg = decode_message(payload)
                if not isinstance(msg, Relay):
                    raise RemoteProtocolError(f"a {msg.TYPE} frame among the relays")
                verify_relay(identity.public.raw, msg.raw, msg.seq, host.table.keys)
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

    def finished(self, cid: int) -> bool:
        """True once the protocol is done with connection ``cid`` (it refused it fatally, its
        seat came back on another connection, or :meth:`close` was called): send what is
        queued for it, then :meth:`close` it."""
        c = self._conns.get(cid)
        return c is None or c.closed

    def chunks_to_send(self, cid: int, talk: bool = True) -> list[bytes]:
        """The frames for connection ``cid`` (and clear them; none once it is closed): its
        game frames, then (unless ``talk`` is False: see :meth:`talk_to_send`) its table
        talk. Relays are shared among connections, not copied: a peer that reads slowly
        costs no more than the log."""
        c = self._conns.get(cid)
        if c is None:
            return []
        out, c.out = c.out, []
        return [*out, *self.talk_to_send(cid)] if talk else out

    def talk_to_send(self, cid: int) -> list[bytes]:
        """The table talk for connection ``cid`` (and clear it): lines said, refusals of its
        own lines. A driver that sends it apart sends it after the game frames, and may drop
        it (the oldest first) for a connection that reads slowly; never a game frame."""
        c = self._conns.get(cid)
        if c is None or not c.talk:
            return []
        talk = list(c.talk)
        c.talk.clear()
        return talk

    def _talk_conns(self) -> Iterable[TalkConn]:
        """Every connection registered now (talk is relayed to the seats' and the
        spectators' among them)."""
        return self._conns.values()

    def data_to_send(self, cid: int) -> bytes:
        """Bytes for connection ``cid`` (and clear them)."""
        return b"".join(self.chunks_to_send(cid))

    def member_of(self, cid: int) -> tuple[int, str] | None:
        """The seat and name of the peer on connection ``cid`` once it has joined, else None
        (also once the connection is closed)."""
        key = self.key_of(cid)
        member = self.table.member(key) if key else None
        return (member.seat, member.name) if member else None

    def key_of(self, cid: int) -> bytes | None:
        """The identity key connection ``cid`` proved with its hello (``None`` before, and
        once the connection is closed)."""
        c = self._conns.get(cid)
        return c.key if c is not None else None

    def seated(self, cid: int) -> bool:
        """True if connection ``cid`` proved it belongs to a seated peer."""
        return self.member_of(cid) is not None

    def fail(self, cid: int, err: RemoteProtocolError) -> RemoteProtocolError:
        """The byte stream of ``cid`` is unusable (a driver found it, e.g. a frame header
        over the limit): queue the fatal refusal, finish the connection, and return ``err``
        naming the peer as far as it is known."""
        return self._fatal(self._conns[cid], err, -1)

    def _fatal(self, c: Conn, err: RemoteProtocolError, pos: int) -> RemoteProtocolError:
        if not c.closed:
            c.out.append(frame(encode_message(Refuse(pos, err.reason, True))))
            c.closed = True
        member = self.table.member(c.key) if c.key else None
        return err.blame(fingerprint(c.key) if c.key else None, member.seat if member else None)

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
            if not c.closed and (c.key is not None or c.watching):
                c.out.append(halt)

    def _checks_done(self) -> None:
        if not self.defer_duties:
            while self.perform_duty():
                pass

    def _check_failed(self, err: RemoteProtocolError) -> None:
        """A proof checked beside the table failed: stop it for everyone, naming the author
        (the entry is in the log already; nothing built on it is opened)."""
        self.halt(err.reason, err.seat)

    def start(self) -> None:
        """Fix the seats before the table is full; raises :class:`LocalProtocolError`."""
        try:
            self._sequence(self.table.entry(Start()), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None

    def play(self, move: Move) -> None:
        """Make a game move as seat 0; raises :class:`LocalProtocolError` if not allowed.
        While moves race for the position, ours waits for :meth:`close_race` like anyone's."""
        if self.busy:
            raise LocalProtocolError("a move of ours is already in the race")
        if isinstance(self.table.status(), Commit):
            self._seal(move)  # its commitment is our duty now
            if not self.defer_duties:
                while self.perform_duty():
                    pass
            return
        se = self.table.entry(self.table.move_body(move))
        if self.table.contested():
            return self._enter_race(se, None)
        try:
            self._sequence(se, own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None

    def close_phase(self) -> None:
        """As the status's ``closer``, end the sealed phase now. Raises
        :class:`LocalProtocolError` if we may not."""
        try:
            self._sequence(self.table.entry(self._close_body()), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None

    def receive_data(self, cid: int, data: bytes) -> None:
        """Feed bytes from connection ``cid``.

        The first frame must be a hello that signs the connection's challenge; every frame
        after it speaks for that key. A bad *entry* from it is refused (a :class:`Refuse`
        frame and a :class:`Rejected` event) and the game goes on without it. Raises
        :class:`RemoteProtocolError` naming the sender if the stream is unusable or the peer
        unauthenticated: an oversized, undecodable or unknown frame, another protocol
        version, a frame before the hello, a forged signature, a malformed entry, too many
        refusals. The fatal refusal is then queued and :meth:`finished` is true: send it and
        close the connection. Nothing here raises anything else for what a peer sends.
        """
        c = self._conns.get(cid)
        if c is None or c.closed:
            raise LocalProtocolError(f"connection {cid} is closed")
        c.reader.feed(data)
        while not c.closed:
            try:
                payload = c.reader.next_frame()
                if payload is None:
                    return
                self._frame(c, decode_message(payload))
            except RemoteProtocolError as exc:
                raise self._fatal(c, exc, -1 if exc.pos is None else exc.pos) from None

    def _frame(self, c: Conn, msg: Message) -> None:
        """One frame from connection ``c``, by its type and where the connection stands.
        Raises :class:`RemoteProtocolError` for a frame it may not send now."""
        if isinstance(msg, Challenge | Relay | Refuse | Halt | Offer | SaidLine):
            raise RemoteProtocolError(f"a peer sent a {msg.TYPE} frame")
        if isinstance(msg, Say) and (c.watching or c.key is not None):
            self._talk_from(c, msg)  # refused to it alone if it may not talk
        elif c.watching and isinstance(msg, Watch) and c.expect == b"":
            self._watch_on(c, msg.pos)  # a spectator follows a night's next table
        elif c.watching and isinstance(msg, Hello):
            self._sit_hello(c, msg)  # a spectator asks for a free seat (protocol._sit)
        elif c.watching and c.sit == ASKED and isinstance(msg, Propose):
            self._proposal(c, msg)  # its join: held for its turn
        elif c.watching and c.sit == DENIED and isinstance(msg, Propose):
            pass  # a join sent before it learnt it was refused: nothing to say
        elif c.watching:
            raise RemoteProtocolError(f"a spectator sent a {msg.TYPE} frame")
        elif isinstance(msg, Hello):
            self._hello(c, msg)
        elif isinstance(msg, Watch):
            self._watch(c, msg)
            if c.expect:  # a player of the game before who only watches this one
                self._night_left(c)
        elif isinstance(msg, Leave) and c.key is None and c.expect:
            self._decline(c, msg)
        elif c.key is None:
            raise RemoteProtocolError(f"a {msg.TYPE} frame before the hello")
        elif isinstance(msg, Propose):
            self._proposal(c, msg)
        elif isinstance(msg, Leave):
            self._leave(c, msg)

    def _hello(self, c: Conn, msg: Hello) -> None:
        """A peer proves its key: a newcomer, or a seat back on a new connection (a lost one,
        or a restarted program), which then replaces any older connection of that seat.
        Raises :class:`RemoteProtocolError` for a bad or second hello."""
        if c.key is not None:
            raise RemoteProtocolError("a second hello on one connection")
        verify_hello(msg, c.nonce)
        self._check_answer_key(c, msg.key)
        t = self.table
        if msg.pos > len(self._relays):
            raise RemoteProtocolError(f"said hello holding {msg.pos} entries of {len(t.log)}")
        member = t.member(msg.key)
        if msg.key in self._banned:
            c.out.append(frame(encode_message(Refuse(-1, "the host removed you from this table",
                                                     True))))  # fmt: skip
            c.closed = True
            return
        if member is None and t.phase is not Phase.LOBBY:
            # Not an offence: someone came late. Spare them (and us) the whole log.
            full = len(t.members) >= t.capacity
            why = (f"the table is full ({t.capacity} of {t.capacity} seats taken)" if full
                   else "the game has started; the table takes no more players")  # fmt: skip
            c.out.append(frame(encode_message(Refuse(-1, why, True))))
            c.closed = True
            return
        for other in self._conns.values():
            if other is not c and other.key == msg.key:
                other.closed = True  # the same key on a newer connection: the old one is dead
        c.key = msg.key
        c.out.extend(self._relays[msg.pos :])
        if member is not None:
            self._events.append(Returned(member.seat, member.name))

    def _leave(self, c: Conn, msg: Leave) -> None:
        """A seated peer leaves for good: halt the table naming it."""
        assert c.key is not None
        verify_leave(c.key, msg, c.nonce)
        member = self.table.member(c.key)
        if member is not None:  # told like everyone else, then let go
            self.halt(f"{member.name} (seat {member.seat}) left the table", member.seat)
        elif c.expect is not None:  # a player of the game before who goes
            self._night_left(c)
        c.closed = True

    def _decline(self, c: Conn, msg: Leave) -> None:
        """A player of the game before answers the offer of this table with a leave, signed
        by the key that sat there over this connection's challenge: it goes."""
        assert c.expect
        verify_leave(c.expect, msg, c.nonce)
        self._night_left(c)
        c.closed = True

    def close(self, cid: int) -> None:
        """Forget connection ``cid`` entirely (its peer keeps its seat and may reconnect; a
        join it held for the host's answer is withdrawn; a player of the game before who
        had not answered the offer of this table on it leaves). Unknown ids are ignored."""
        c = self._conns.get(cid)
        super().close(cid)
        if c is not None and c.expect is not None:
            self._night_left(c)
        if c is not None:
            self._sit_gone(c)

    def connected(self, seat: int) -> bool:
        """True if the peer in ``seat`` has an open connection on which it said hello."""
        member = self.table.member_at(seat)
        return member is not None and any(
            not c.closed and c.key == member.key for c in self._conns.values()
        )

    def _proposal(self, c: Conn, msg: Propose) -> None:
        """Check a proposal in order of cost: the signature of the connection's key over the
        raw bytes, the entry's head (place, kind, size, whether the author may act now),
        only then its body (curve points) and the rules. Raises :class:`RemoteProtocolError`
        for what no honest peer sends; refuses (non-fatally) what an honest one may."""
        t = self.table
        key = c.key
        assert key is not None
        verify_entry_signature(key, msg.raw, msg.sig, t.keys)
        head = read_head(msg.raw)
        if head.author != key:
            raise RemoteProtocolError("proposed an entry signed by another peer's key")
        limit = BODY_LIMITS[head.kind]
        if len(msg.raw) > limit:
            raise RemoteProtocolError(
                f"a {head.kind} entry of {len(msg.raw)} bytes (at most {limit})", pos=head.pos
            )
        pos = head.pos
        member = t.member(key)
        if member is None and head.kind != "join":
            raise RemoteProtocolError("only a join may come from a key with no seat", pos=pos)
        if head.table != t.table_id:
            return self._refuse(c, "replayed an entry of another table", pos)
        if pos < len(t.log):
            ev = t.log.note_conflict(pos, key, msg.raw, msg.sig)
            if ev is not None:
                m = t.member(key)
                err = RemoteProtocolError(
                    "signed two different entries for one log position",
                    culprit=ev.culprit, seat=m.seat if m else None, pos=pos,
                    evidence=(ev.first[0], ev.second[0]),
                )  # fmt: skip
                self._events.append(Rejected(err))
            return  # otherwise a benign race: the proposer sees the entry that won
        if pos > len(t.log):
            return self._refuse(
                c, f"wrong log position {pos} (the next position is {len(t.log)})", pos
            )
        why = t.precheck(member.seat if member else None, head.kind, head.body)
        if why is not None:
            return self._refuse(c, why, pos)
        if head.kind == "move" and t.contested():
            try:
                return self._enter_race(SignedEntry(msg.raw, msg.sig, head.entry()), c)
            except RemoteProtocolError as exc:
                raise RemoteProtocolError(exc.reason, pos=pos) from None
        try:
            se = SignedEntry(msg.raw, msg.sig, head.entry())
        except RemoteProtocolError as exc:
            raise RemoteProtocolError(exc.reason, pos=pos) from None
        body = se.entry.body
        if member is None and isinstance(body, Join) and self._held_join(c, key, msg, se, body):
            return
        try:
            self._sequence(se, own=False, sig_checked=True)
        except RemoteProtocolError as exc:
            if isinstance(se.entry.body, Join):  # full, started, a name taken: final
                self._reject(c, exc, pos, fatal=True)
                c.closed = True
                return
            self._reject(c, exc, pos)

    def _held_join(self, c: Conn, key: bytes, msg: Propose, se: SignedEntry, body: Join) -> bool:
        """Hold a newcomer's join instead of sequencing it now, if the table says so: at a
        night's next table, in the seat order of the game before; with joins to approve,
        until the host answers. True if it is held (or refused)."""
        if self.seat_order:
            self._night_join(c, key, se)
            return True
        if self.approve_joins and not self._approved(key, body.name):
            self._hold(c, key, msg, body.name)  # its name read and checked already
            return True
        return False

    def _refuse(self, c: Conn, reason: str, pos: int) -> None:
        """Refuse a proposal from ``c``'s key (counted for the key; past :data:`MAX_REFUSALS`
        the host hangs up)."""
        assert c.key is not None
        member = self.table.member(c.key)
        err = RemoteProtocolError(
            reason, culprit=fingerprint(c.key), seat=member.seat if member else None, pos=pos
        )
        self._reject(c, err, pos)

    def _reject(self, c: Conn, err: RemoteProtocolError, pos: int, fatal: bool = False) -> None:
        assert c.key is not None  # only a key's proposals are refused
        if self._count_refusal(c.key) > MAX_REFUSALS and not fatal:
            raise RemoteProtocolError(
                f"more than {MAX_REFUSALS} proposals refused; the last: {err.reason}", pos=pos
            )
        c.out.append(frame(encode_message(Refuse(pos, err.reason, fatal))))
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
        # The relay is made before the entry is applied: an entry that would not fit one
        # is refused with the table untouched (its log and its relays never disagree).
        seq = relay_signature(self.identity, se.raw)
        try:
            data = frame(encode_message(Relay(se.raw, se.sig, seq)))
        except LocalProtocolError:
            raise RemoteProtocolError("the entry is too large to relay") from None
        events = self.table.apply(se, seq, own=own, sig_checked=sig_checked)
        self._events.extend(events)
        self._relays.append(data)
        for c in self._conns.values():
            if (c.key is not None or c.watching) and not c.closed:
                c.out.append(data)

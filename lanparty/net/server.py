"""The host's side of the network: one task pair per connection around a :class:`protocol.Host`.

Every byte and every connection is an attacker's until it proves otherwise, so nothing one
connection does can hold up another or end the host:

- **Sending never blocks the table.** What the host sends a connection goes into that
  connection's queue (frames shared with the host's own relay list, so a queue costs no more
  than the log); its own writer task sends it. A connection whose writer makes no progress
  for :data:`SEND_STALL` seconds has fallen behind and is dropped: a seated peer then comes
  back (or not) like any peer whose connection broke.
- **Room for strangers is bounded, room for seats is not** (:mod:`lanparty.net.admission`): a
  connection must say hello within :data:`HELLO_TIMEOUT` seconds, one with no seat may stay
  silent at most :data:`PENDING_IDLE` seconds, and pending connections are capped in all and
  per address, the oldest giving way to the newest, so a seat's reconnection always gets in.
  New connections are rate-limited per address: one over the rate is reset as it is
  accepted (:mod:`lanparty.net.door`), before the protocol sees it. A connection that ends
  leaves every structure here and in the protocol: connecting and closing grows nothing.
- **Spectators never slow the table**: the protocol caps how many watch at once, in all and
  per address; each has its own queue (frames shared with the relay list: at most one
  reference per log entry) and is dropped, not waited for, once a frame of its queue makes no
  progress for :data:`WATCH_STALL` seconds. A spectator is sent its bytes only while no seat
  has any waiting (the seats' relays go first), in slices of :data:`SPECTATOR_SLICE`, through
  a small socket buffer, and within its address's budget (:data:`PULL_BURST` bytes, then
  :data:`PULL_RATE` a second, shared by that address's spectators). A spectator may stay
  silent as long as the table runs.
- **Table talk waits for the game**: each connection's talk is queued apart
  (:mod:`lanparty.net.link`), sent only when none of its game frames waits, and a slow
  reader loses its oldest lines of talk, never a game frame. The protocol's talk rates
  count on the host's clock (``Host.tick``).
- **A bad frame ends one connection, never the host**: the protocol refuses it (a short
  refusal), the connection is closed, and only a bounded record of it is kept.

Seats are the table's business: a seated peer whose connection ends is waited for
(``grace``) or named in a halt; a seat that stalls on a protocol duty is named after
``duty_timeout``. Nothing here decides anything about the game: the protocol object does.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress

import trio

from protocol import Applied, Event, Host, Phase, RaceOpened, RemoteProtocolError, Returned
from protocol._frames import FrameReader, frame

from .admission import Admission, Buckets
from .door import accept
from .link import Link, address_of
from .nightserve import ANSWER_TIME, NextTable, NightServing
from .node import (
    CHUNK,
    DONE_PHASES,
    DUTY_TIMEOUT,
    PERSONS_CHOICE,
    Driver,
    EventSink,
    Notice,
    PhaseTimer,
    Pokable,
    ProofChecks,
    describe,
    drain_events,
    keepalive,
)

__all__ = [
    "ANSWER_TIME",
    "HELLO_TIMEOUT",
    "LINGER",
    "MAX_SEAT_FAULTS",
    "PENDING_IDLE",
    "PULL_BURST",
    "PULL_RATE",
    "RACE_WINDOW",
    "SEND_STALL",
    "SPECTATOR_SLICE",
    "WATCH_STALL",
    "HostServer",
    "NextTable",
]

#: Seconds a new connection has to say hello (a peer answers the challenge at once).
HELLO_TIMEOUT = 10.0
#: Seconds a connection that holds no seat may stay silent before it is closed (a newcomer
#: proposes its join right after its hello).
PENDING_IDLE = 30.0
#: Seconds a connection's queued frames may make no progress before it is dropped (a LAN
#: moves a whole log in well under a second; a peer that reads nothing for this long is gone).
SEND_STALL = 20.0
#: The same for a spectator: nobody waits for one (it may come back and catch up).
WATCH_STALL = 5.0
#: Seconds after an entry is relayed during which moves racing for the next position are
#: collected (a KaTO call, a catch, the next player's move): the winner is then drawn by
#: the protocol's race rank, so being the host, or nearer to it, wins nothing.
RACE_WINDOW = 0.3
#: Seconds a host that finished serving waits for its peers to hang up (see
#: :meth:`HostServer.serve`).
LINGER = 5.0
#: Seconds a departure waits for the proof checks still running (they may name the fault
#: that made the peer leave).
CHECKS_SETTLE = 10.0
#: Connections of one seat the host may refuse for good (each time the seat may come back
#: on a new one) before it halts the table naming that seat.
MAX_SEAT_FAULTS = 5
#: Bytes the spectators of one address may be sent at once (a whole long game's log, or
#: four spectators following a short one from its start)…
PULL_BURST = 1 << 20
#: …and then per second (1 Mbit/s; 7.5 MiB a minute): a spectator that catches up again and
#: again gets no more, and a late one catches up a few MiB of log in seconds.
PULL_RATE = 128 << 10
#: A spectator is sent at most this much at a time, and only while no seat has bytes queued.
SPECTATOR_SLICE = 16 << 10
#: A spectator's socket send buffer (the kernel doubles it): what it may have in flight ahead
#: of a seat's next relay stays small.
_SPECTATOR_SNDBUF = 16 << 10
#: What a host keeps of the connections it refused or dropped (each a short line).
_KEEP = 16


class HostServer(NightServing, Pokable):
    """Serves one table: accepts peers, relays, plays the host's own seat, and halts the
    table (naming the seat) when a seated peer leaves, stalls on a protocol duty, or loses
    its connection and does not come back within ``grace`` seconds (0: halt at once)."""

    def __init__(
        self,
        host: Host,
        driver: Driver,
        sink: EventSink,
        duty_timeout: float = DUTY_TIMEOUT,
        *,
        grace: float = 0.0,
        notice: Notice = lambda text: None,
        journal: Callable[[list[bytes]], None] | None = None,
        admission: Admission | None = None,
        pulls: Buckets | None = None,
        inline_checks: bool = False,
    ) -> None:
        """``admission``: who may connect (:class:`Admission` by default); ``pulls``: what
        each address's spectators may be sent (by default :data:`PULL_BURST` bytes, then
        :data:`PULL_RATE` a second); ``inline_checks``: check proofs in this task, not in
        threads (:class:`lanparty.net.node.ProofChecks`)."""
        super().__init__()
        self.host = host
        host.defer_duties = True
        host.talk_floor = time.time_ns() // 1000  # our lines are newer than a past run's
        self._journal = journal
        #: Relay frames handed to ``journal`` so far.
        self.journaled = 0
        self._driver = driver
        self._sink = sink
        self._duty_timeout = duty_timeout
        self._grace = grace
        self._notice = notice
        self._admission = admission if admission is not None else Admission()  # (it has a len)
        self._back = trio.Event()  # set (and replaced) whenever a seat comes back
        self._hangup = trio.Event()  # set (and replaced) whenever a connection ends
        self._seats_sent = trio.Event()  # set (and replaced) when a seat's queue went out
        self._pulls = pulls if pulls is not None else Buckets(PULL_BURST, PULL_RATE)
        self._refused_from = ""  # the address whose connections were last closed at once
        self._nursery: trio.Nursery | None = None
        self._links: dict[int, Link] = {}
        self._progress = trio.Event()
        self._seen = 0
        self._grew_at = 0.0  # when the log last grew (the race window runs from there)
        self._timer = PhaseTimer()
        self._checks = ProofChecks(host, inline=inline_checks)
        self.done = trio.Event()
        self.seats_fixed = trio.Event()
        #: The seats that left, vanished or stalled, in words (one per halt at most).
        self.vanished: list[str] = []
        #: Connections refused or dropped that held no seat: how many, and the last few why.
        self.turned_away = 0
        self.recent: deque[str] = deque(maxlen=_KEEP)
        self._faults: dict[int, int] = {}  # fatal refusals per seat
        self._halting: tuple[str, int] | None = None
        #: Spectators watching now; ``watchers_changed`` is set (and replaced) on a change.
        self.watchers = 0
        self.watchers_changed = trio.Event()
        self._inline = inline_checks
        #: Connections accepted so far (over the whole night: the next game keeps them).
        self.accepted = 0
        self._next_sid = 0
        self.night = None  # see NightServing.night
        self._night_names: dict[bytes, str] = {}  # the players of the game before, by key
        self._watch_count = 0  # spectators taken so far (a spectator's Link.since)

    # ------------------------------------------------------------------ sending

    async def _flush(self) -> None:
        """Hand what the protocol wants sent to each connection's queue (never waits on a
        peer); finish the connections the protocol is done with."""
        if self._journal is not None:
            # Kept before it is sent: no peer may hold an entry a restarted host lacks.
            frames = self.host.relays_since(self.journaled)
            if frames:
                self._journal(frames)
                self.journaled += len(frames)
        for sid, link in list(self._links.items()):
            cid = link.cid
            link.push(self.host.chunks_to_send(cid, talk=False), self.host.talk_to_send(cid))
            if self._admission.pending(sid) and (self.host.seated(cid) or self.host.watching(cid)):
                self._admission.seated(sid)  # out of the strangers' room: capped elsewhere
            link.seat = self.host.seated(cid)
            if link.seat:
                link.spectator = False  # a spectator that took a free seat: a seat's now
            elif not link.spectator and self.host.watching(cid):
                link.spectator = True
                self._watch_count += 1
                link.since = self._watch_count
                if isinstance(link.stream, trio.SocketStream):
                    with suppress(OSError):
                        link.stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                               _SPECTATOR_SNDBUF)  # fmt: skip
        self._count_watchers()

    def _count_watchers(self) -> None:
        """Keep :attr:`watchers` and tell ``watchers_changed`` of a change."""
        if self.host.watchers != self.watchers:
            self.watchers = self.host.watchers
            self.watchers_changed.set()
            self.watchers_changed = trio.Event()

    async def _writer(self, sid: int, link: Link) -> None:
        """Send ``link``'s queue as it fills (its table talk once no game frame of it waits);
        drop the connection if it stops taking bytes. A spectator's go out a slice at a
        time, each once no seat has frames queued and its address's budget allows."""
        while True:
            while (next_chunk := link.next_chunk()) is not None:
                chunk = next_chunk[0]
                spectator = link.spectator
                patience = WATCH_STALL if spectator else SEND_STALL
                step = SPECTATOR_SLICE if spectator else len(chunk)
                for at in range(0, len(chunk), step):
                    piece = chunk[at : at + step] if spectator else chunk
                    if spectator:
                        await self._spectators_turn(link.address, len(piece))
                    with trio.move_on_after(patience) as stall:
                        try:
                            await link.stream.send_all(piece)
                        except (trio.BrokenResourceError, trio.ClosedResourceError):
                            link.scope.cancel()  # its reader sees the end and reports it
                            return
                    if stall.cancelled_caught:
                        who = "a spectator" if spectator else f"connection {sid}"
                        self._turn_away(f"{who} ({link.address}) stopped reading for "
                                        f"{patience:g} s; dropped")  # fmt: skip
                        link.scope.cancel()
                        return
            link.flushed.set()
            if link.seat:
                self._seats_sent.set()
                self._seats_sent = trio.Event()
            if link.eof and isinstance(link.stream, trio.abc.HalfCloseableStream):
                with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await link.stream.send_eof()
                return
            await link.wake.wait()
            link.wake = trio.Event()

    async def _spectators_turn(self, address: str, size: int) -> None:
        """Wait until no seat has frames queued and ``address``'s spectators may be sent
        ``size`` more bytes (then they are counted)."""
        while True:
            while any(link.seat and not link.flushed.is_set() for link in self._links.values()):
                await self._seats_sent.wait()
            wait = self._pulls.take(address, trio.current_time(), size)
            if not wait:
                return
            await trio.sleep(wait)

    # ------------------------------------------------------------------ the table

    async def after_input(self) -> None:
        """Hand events to the driver, let it act, send what the protocol wants sent."""
        # The host's own move is not echoed back to it, so after a move it may be due to
        # move again at once (a Skip between two players): act until it does not.
        self._checks.start(self.poke)
        drain_events(self.host, self._driver, self._observe)
        while self._driver.act(self.host):
            drain_events(self.host, self._driver, self._observe)
        self._timer.check(self.host, self._nursery, self.poke)
        drain_events(self.host, self._driver, self._observe)
        await self._flush()
        # Our own duties (a shuffle proof takes ~0.1 s) only after what was sequenced is out:
        # the other peers verify it meanwhile instead of waiting for us.
        while self.host.perform_duty():
            drain_events(self.host, self._driver, self._observe)
            while self._driver.act(self.host):
                drain_events(self.host, self._driver, self._observe)
            await self._flush()
            await trio.lowlevel.checkpoint()  # let the writers send it now
        if len(self.host.table.log) != self._seen:
            self._seen = len(self.host.table.log)
            self._progress.set()
        if self.host.table.members and self.host.phase is not Phase.LOBBY:
            if not self.seats_fixed.is_set() and self.host.seat_order and self._nursery:
                self._nursery.start_soon(self._absent)
            self.seats_fixed.set()
        if self.host.phase in DONE_PHASES:
            self.done.set()

    async def halt(self, reason: str, seat: int | None = None) -> None:
        """Stop the table for everyone, tell them why, and finish serving."""
        self.host.halt(reason, seat)
        await self.after_input()

    # ------------------------------------------------------------------ connections

    def _knock(self, address: str) -> bool:
        """May ``address`` open a connection now (:meth:`Admission.knock`)? If not, it is
        counted (a line is kept when the address changes, not for each), and the caller
        closes it at once."""
        if self._admission.knock(address, trio.current_time()):
            return True
        self.turned_away += 1
        if address != self._refused_from:
            self._refused_from = address
            self.recent.append(f"{address}: new connections over its rate closed at once")
        return False

    async def handle(self, stream: trio.abc.Stream) -> None:
        """One peer's connection, from its hello until it closes (the rate of new
        connections from its address is checked first, as for an accepted one). A pending
        connection may push the oldest pending one of the busiest address out (see
        :class:`Admission`); one that arrives after the table's end is closed at once."""
        address = address_of(stream)
        if not self._knock(address):
            await trio.aclose_forcefully(stream)
            return
        await self._serve(stream, address)

    def _start(self, stream: trio.SocketStream, address: str) -> None:
        """Serve an accepted connection from ``address`` in a task of its own."""
        assert self._nursery is not None
        self._nursery.start_soon(self._serve, stream, address)

    async def _serve(self, stream: trio.abc.Stream, address: str) -> None:
        try:
            await self._serve_stream(stream, address)
        finally:
            with trio.CancelScope(shield=True):
                await trio.aclose_forcefully(stream)

    async def _serve_stream(self, stream: trio.abc.Stream, address: str) -> None:
        if self.done.is_set():
            return
        if isinstance(stream, trio.SocketStream):
            keepalive(stream)
        self.accepted += 1
        sid = self._next_sid
        self._next_sid += 1
        link = Link(stream, address, self.host.connect(address))
        self._links[sid] = link
        for old in self._admission.admit(sid, link.address):
            if old in self._links:
                self._turn_away(f"connection {old} ({self._links[old].address}) made "
                                "room for a newer one")  # fmt: skip
                self._links[old].scope.cancel()
        ended = False
        try:
            with link.scope:  # given a deadline at the table's end (see _linger)
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._writer, sid, link)
                    ended = await self._serve_link(sid, link)
                    with trio.move_on_after(SEND_STALL):
                        await link.flushed.wait()  # e.g. a refusal, before we hang up
                    nursery.cancel_scope.cancel()
            ended = ended or link.scope.cancelled_caught
        finally:
            who = self.host.member_of(link.cid)
            del self._links[sid]  # nothing of it is kept, here or in the protocol
            self._admission.forget(sid)
            self.host.close(link.cid)
            self.poke()  # what closing it changed (a request withdrawn) is told at once
            self._count_watchers()
            self._hangup.set()
            self._hangup = trio.Event()
            self._seats_sent.set()  # its queue no longer holds spectators back
            self._seats_sent = trio.Event()
            with trio.CancelScope(shield=True):
                await stream.aclose()
        if ended and who is not None:
            await self._gone(*who)

    def _deadline(self, link: Link, accepted: float) -> float:
        """When a silent connection is let go: a pending one soon, a seated one never."""
        cid = link.cid
        if (self.done.is_set() or self.host.seated(cid) or self.host.awaiting(cid)
                or self.host.watching(cid) or self.host.offered_here(cid)):  # fmt: skip
            # A seat, a newcomer waiting for the host's yes, a spectator, a player of the
            # game before answering the offer of this one (see _answer_time).
            return float("inf")
        if not self._said_hello(cid):
            return accepted + HELLO_TIMEOUT
        return link.last + PENDING_IDLE

    def _said_hello(self, cid: int) -> bool:
        return self.host.key_of(cid) is not None

    async def _serve_link(self, sid: int, link: Link) -> bool:
        """Feed what connection ``cid`` sends, a frame at a time, until it ends; after the
        table's end, only wait for the peer to hang up. Returns True if the connection
        ended by itself (the peer hung up, or fell silent), False if the protocol finished
        it (a refusal) or the table ended."""
        reader = FrameReader()
        accepted = trio.current_time()
        await self.after_input()  # the challenge goes out
        while not self.host.finished(link.cid):
            with trio.move_on_at(self._deadline(link, accepted)) as silent:
                try:
                    data = bytes(await link.stream.receive_some(CHUNK))
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    data = b""
            if silent.cancelled_caught:
                why = "no hello" if not self._said_hello(link.cid) else "silent with no seat"
                self._turn_away(f"connection {sid} ({link.address}): {why}; closed")
                return True
            if self.done.is_set():
                if not data:
                    return False  # the peer hung up after the table's end: all it needed arrived
                continue  # what a peer says after the end changes nothing
            if not data:
                return True
            link.last = trio.current_time()
            reader.feed(data)
            try:
                while (not self.host.finished(link.cid)
                       and (payload := reader.next_frame()) is not None):  # fmt: skip
                    self.host.tick(trio.current_time())  # talk's rates count on our clock
                    self.host.receive_data(link.cid, frame(payload))
                    await self.after_input()
            except RemoteProtocolError as exc:
                if not self.host.finished(link.cid):  # our own reader found it: refuse it too
                    exc = self.host.fail(link.cid, exc)
                self._refused(link.cid, exc)
                if self._halting is not None:
                    await self.halt(*self._halting)
                await self.after_input()  # the refusal goes out before we hang up
                return False
            except Exception as exc:  # a bug: the table stops, named, instead of the host
                await self._internal_error(sid, exc)
                return False
        await self.after_input()
        return False

    def _refused(self, cid: int, exc: RemoteProtocolError) -> None:
        """A connection the protocol refused for good: keep a short record of why; a seat
        refused again and again is halted by name (its program keeps misbehaving)."""
        who = self.host.member_of(cid)
        if who is not None:
            self._notice(f"{who[1]} (seat {who[0]}) was refused: {exc.reason}")
            self._faults[who[0]] = faults = self._faults.get(who[0], 0) + 1
            if faults >= MAX_SEAT_FAULTS:
                self._halting = (f"{who[1]} (seat {who[0]}) was refused {faults} times "
                                 f"for frames no honest program sends", who[0])  # fmt: skip
        elif (name := self._night_names.get(self.host.expected_of(cid) or b"")) is not None:
            self._notice(f"{name} was refused: {exc.reason}")  # a player of the game before
        self._turn_away(str(exc))

    def _turn_away(self, why: str) -> None:
        self.turned_away += 1
        self.recent.append(why[:200])

    async def _internal_error(self, cid: int, exc: Exception) -> None:
        what = f"{type(exc).__name__}: {exc}"[:200]
        self._notice(f"internal error on connection {cid}: {what}")
        await self.halt(f"internal error (a bug) while handling a peer's frame: {what}")

    async def _gone(self, seat: int, name: str) -> None:
        """The connection of the peer in ``seat`` ended: at an unfinished table (and if it
        holds no other connection), wait for it to come back (``grace``), else halt naming
        it."""
        if self.done.is_set() or self.host.phase in DONE_PHASES:
            return
        if self.host.connected(seat):
            return  # it is back already, on a newer connection
        # A peer that found a bad proof leaves at once: the checks still running here name
        # the cheat first (the stop is blamed on the first fault, not on who saw it sooner).
        with trio.move_on_after(CHECKS_SETTLE):
            await self._checks.settled()
        if self.done.is_set() or self.host.phase in DONE_PHASES or self.host.connected(seat):
            return
        if self._grace <= 0 or self._nursery is None:
            self.vanished.append(f"{name} (seat {seat})")
            await self.halt(f"{name} (seat {seat}) left the table", seat)
            return
        self._notice(f"{name} lost the connection; waiting up to {self._grace:g} s "
                     "for them to come back")  # fmt: skip
        self._nursery.start_soon(self._await_return, seat, name)

    async def _await_return(self, seat: int, name: str) -> None:
        with trio.move_on_after(self._grace):
            while not self.host.connected(seat):
                await self._back.wait()
        if self.host.connected(seat) or self.done.is_set() or self.host.phase in DONE_PHASES:
            return
        self.vanished.append(f"{name} (seat {seat})")
        await self.halt(f"{name} (seat {seat}) lost the connection and did not come back "
                        f"within {self._grace:g} s", seat)  # fmt: skip

    def _observe(self, event: Event) -> None:
        if isinstance(event, Applied):
            self._grew_at = trio.current_time()  # before any race for the next position opens
        elif isinstance(event, Returned):
            self._notice(f"{event.name} is back")
            self._back.set()
            self._back = trio.Event()
        elif isinstance(event, RaceOpened) and self._nursery is not None:
            self._nursery.start_soon(self._close_race, event.pos, self._grew_at + RACE_WINDOW)
        self._sink(event)

    async def _close_race(self, pos: int, at: float) -> None:
        """When the race window for ``pos`` has passed, let the protocol draw the winner."""
        await trio.sleep_until(at)
        if self.host.racing() == pos:
            self.host.close_race()
            await self.after_input()

    async def _watchdog(self) -> None:
        """Halt the table if a seat owes a protocol duty for longer than the deadline (this
        table's: a night's next one has a watchdog of its own)."""
        done = self.done
        while not done.is_set():
            with trio.move_on_after(self._duty_timeout) as scope:
                await self._progress.wait()
                self._progress = trio.Event()
            if not scope.cancelled_caught or done.is_set():
                continue
            waiting = self.host.table.waiting_on()
            if waiting is None or waiting[1] in PERSONS_CHOICE or waiting[0] == self.host.seat:
                continue  # nobody hurries a person deciding a move or writing a sealed one
            what = describe(self.host, *waiting)
            self.vanished.append(what)
            await self.halt(f"{what} is more than {self._duty_timeout:g} s late", waiting[0])

    async def serve(self, listeners: list[trio.SocketListener] | None = None) -> None:
        """Accept peers on ``listeners`` (or take streams given to :meth:`handle`) and run
        the table until it closes or stops.

        Then the last frames go out, each connection is half-closed, and the host waits (up
        to ``LINGER`` seconds) for its peers to hang up before it closes its side. The end
        can be seen by one connection's task while another still holds the last sign-off for
        that connection: a connection closed on seeing the end would lose it (and closing a
        socket that holds unread bytes resets the connection, dropping what is in flight).
        """
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self._driver.attach(nursery, self.poke)
            for listener in listeners or ():
                nursery.start_soon(accept, listener, self._knock, self._start)
            nursery.start_soon(self._pokes)
            while True:
                nursery.start_soon(self._watchdog)
                await self.after_input()
                await self.done.wait()
                # Let the last frames (closing sign-off, a halt) reach every peer.
                await self._flush()
                nxt = await self.night() if self.night is not None else None
                if nxt is None:
                    break
                self._switch(nxt)
            await self._linger()
            nursery.cancel_scope.cancel()

    async def _linger(self) -> None:
        """Half-close every connection once its queue is sent and wait for the peers to
        close theirs: each connection's task drains what still arrives, for ``LINGER`` s at
        most."""
        deadline = trio.current_time() + LINGER
        for link in list(self._links.values()):
            link.scope.deadline = deadline
            link.eof = True
            link.wake.set()
        while self._links:
            await self._hangup.wait()

"""The thin trio layer: moves the sans-IO protocol's bytes over TCP streams.

A :class:`protocol.Peer` has one stream to its host (:class:`PeerClient`, here); a
:class:`protocol.Host` serves many (:class:`lanparty.net.server.HostServer`, built on the
pieces here). Incoming bytes are fed
one frame at a time, so the driver sees the seat's view before and after every entry. After
every input each side flushes what the protocol wants to send and lets its driver (a bot, or
the terminal UI's seat) make a move if one is due. A driver may also ask for a turn of its
own (``poke``): a human who typed a move, or a bot whose reaction time ran out.

Failures are noticed and named: a peer whose connection closes or who stalls on a protocol
duty makes the host halt the table for everyone, naming that seat; a peer whose host goes
away stops with :class:`PeerVanished`; a table that waits too long on a duty stops with
:class:`Stalled`. Nothing here decides anything about the game: the protocol object does.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from functools import partial
from typing import Any, Protocol

import trio

from protocol import (
    PERSONS_CHOICE,
    DeferredCheck,
    Event,
    Host,
    LocalProtocolError,
    Peer,
    Phase,
    RemoteProtocolError,
    next_link,
    run_check,
)
from protocol._frames import FrameReader, frame
from protocol.contract import Commit

__all__ = [
    "DUTY_TIMEOUT",
    "PERSONS_CHOICE",
    "Driver",
    "InternalError",
    "NightSeat",
    "PeerClient",
    "PeerVanished",
    "PhaseTimer",
    "Pokable",
    "Stalled",
    "drain_events",
    "keepalive",
    "run_peer",
]

#: Bytes read per receive call.
CHUNK = 1 << 16
DONE_PHASES = (Phase.CLOSED, Phase.STOPPED)
#: Seconds a seat may take for a protocol duty (a shuffle, its shares, a key) before the
#: host halts the table naming it. Moves are a person's to think over: they have no deadline.
DUTY_TIMEOUT = 60.0
_WHAT = {
    "key": "key share", "shuffle": "shuffle", "shares": "decryption shares",
    "coin_commit": "coin commitment", "coin_open": "coin opening", "show": "shown hand",
    "show_ack": "acknowledgement", "seal_commit": "sealed move", "seal_open": "opening",
    "secrets": "audit secrets", "signoff": "sign-off", "move": "move",
}  # fmt: skip


class PeerVanished(Exception):  # noqa: N818 - names what happened, like trio's Cancelled
    """The other side closed the connection before the table closed."""


class Stalled(Exception):  # noqa: N818
    """Nothing arrived for too long while the table waited on a protocol duty."""


class InternalError(Exception):
    """A bug of ours showed while handling a frame: the table stops here, named, instead of
    the program ending in a traceback."""


class Driver(Protocol):
    """What plays a seat: told every event, asked to act after every input."""

    def observe(self, event: Event) -> None:
        """Take one event (in log order)."""
        ...

    def act(self, party: Host | Peer) -> bool:
        """Make at most one move now if one is due; True if a move was made."""
        ...

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Called once the connection runs: ``poke()`` asks for an ``act`` soon."""
        ...


def keepalive(stream: trio.SocketStream) -> None:
    """TCP keepalive, so a peer whose machine vanished is noticed in about 25 s."""
    with suppress(OSError, AttributeError):
        stream.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        stream.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, 10)
        stream.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, 5)
        stream.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, 3)


def describe(party: Host | Peer, seat: int, kind: str) -> str:
    """``"Carl (seat 2)'s shuffle"``: who owes what, in words."""
    member = party.table.member_at(seat)
    who = f"{member.name} (seat {seat})" if member else f"seat {seat}"
    return f"{who}'s {_WHAT.get(kind, kind)}"


EventSink = Callable[[Event], None]


class PhaseTimer:
    """Closes a timed sealed phase when this seat is its closer: ``timer`` seconds after this
    peer saw the phase begin (the closer's clock decides; peers cannot check elapsed time).

    Once due, the close is made at the first input that finds us free (not waiting for an
    entry of ours), and made again if it was lost (a commitment took its log position):
    until the phase has ended, a due close is never forgotten.
    """

    def __init__(self) -> None:
        self._armed: int | None = None  # the phase (its anchor) a timer runs for
        self._due: int | None = None  # the phase whose time is up

    def check(
        self, party: Host | Peer, nursery: trio.Nursery | None, poke: Callable[[], None]
    ) -> None:
        """Start the timer if a timed phase we close has begun; close a phase whose time is
        up if we can now (call after every input)."""
        st = party.status()
        anchor = party.table.anchor
        if anchor is None or not isinstance(st, Commit) or st.closer != party.seat:
            return
        if self._due == anchor:
            if not party.busy:
                with suppress(LocalProtocolError):  # not ours to close any more
                    party.close_phase()
            return
        if nursery is None or anchor == self._armed or st.timer <= 0:
            return
        self._armed = anchor
        nursery.start_soon(self._close, anchor, st.timer, poke)

    async def _close(self, anchor: int, timer: int, poke: Callable[[], None]) -> None:
        await trio.sleep(timer)
        self._due = anchor
        poke()


class ProofChecks:
    """Runs a party's shuffle-proof checks in worker threads (libsodium releases the GIL),
    so the host relays a shuffle and the next shuffler proves on it while it is checked.
    The party opens no card until every check has reported (``protocol._checks``); a
    failed one stops the table naming its author.

    A check's thread starts at once (not when the scheduler next runs a task): the proof
    our own program makes next runs beside it, not after it.
    """

    def __init__(
        self, party: Host | Peer, trusted: frozenset[bytes] = frozenset(), inline: bool = False
    ) -> None:
        """``trusted``: keys whose holder checks every proof for the table (our spawner)
        and our fellow bots: while every seat is one of them, a check is left to the
        spawner (the host: a bad proof stops the table for us too). ``inline``: check in
        this task, not in threads (under a virtual clock, which would jump past a thread
        still at work: the caller that chose the clock says so)."""
        party.defer_checks = True
        self._party = party
        self._trusted = trusted
        self._inline = inline
        self._bug: BaseException | None = None
        self._running = 0
        self._idle = trio.Event()
        self._idle.set()
        #: Checks left to the host so far (it made them).
        self.left_to_host = 0

    async def settled(self) -> None:
        """Return once no check is running in a thread (at once if none is)."""
        await self._idle.wait()

    def start(self, poke: Callable[[], None]) -> None:
        """Start a thread for each check the party queued since the last call; ``poke``
        once each has reported (its outcome may let us act, or stop us). Raises
        :class:`InternalError` if an earlier check crashed (a bug, not a bad proof)."""
        if self._bug is not None:
            raise InternalError(f"internal error (a bug) checking a proof: {self._bug!r}"[:300])
        checks = self._party.take_checks()
        members = self._party.table.members
        if checks and self._trusted and all(m.key in self._trusted for m in members):
            for check in checks:  # the host checks it: ours would be the same work again
                self._party.checked(check, None)
            self.left_to_host += len(checks)
            return
        if checks and self._inline:
            for check in checks:
                self._party.checked(check, run_check(check))
            return
        token = trio.lowlevel.current_trio_token()
        if checks and self._idle.is_set():
            self._idle = trio.Event()
        self._running += len(checks)
        for check in checks:

            def deliver(result: Any, check: DeferredCheck = check) -> None:  # an Outcome
                with suppress(trio.RunFinishedError):  # we left the table meanwhile
                    token.run_sync_soon(self._report, check, result, poke)

            trio.lowlevel.start_thread_soon(partial(run_check, check), deliver)

    def _report(self, check: DeferredCheck, result: Any, poke: Callable[[], None]) -> None:
        self._running -= 1
        if not self._running:
            self._idle.set()
        try:
            error: RemoteProtocolError | None = result.unwrap()
        except Exception as exc:  # a bug in a check, not a bad proof: start() raises it
            self._bug = exc
        else:
            self._party.checked(check, error)
        poke()


def drain_events(party: Host | Peer, driver: Driver, sink: EventSink) -> None:
    """Hand every pending event of ``party`` to the driver, then to ``sink``."""
    while (event := party.next_event()) is not None:
        driver.observe(event)
        sink(event)


class Pokable:
    """A task that runs ``after_input`` whenever ``poke`` was called (from trio code): the
    part of a node that lets its driver ask for a turn."""

    def __init__(self) -> None:
        self._poked = trio.Event()

    def poke(self) -> None:
        """Ask for an ``after_input`` soon (call from trio, e.g. via ``run_sync_soon``)."""
        self._poked.set()

    async def after_input(self) -> None:
        raise NotImplementedError

    async def _pokes(self) -> None:
        while True:
            await self._poked.wait()
            self._poked = trio.Event()
            await self.after_input()


Connect = Callable[[], Awaitable[trio.abc.Stream]]
Notice = Callable[[str], None]


class NightSeat(Protocol):
    """What a seat does between two games of a night (the table layer's part): the game
    that ended is told, the next one offered is answered."""

    def ended(self, party: Peer) -> None:
        """The table of ``party`` ended (closed or stopped): keep and tell what it left."""
        ...

    async def answer(self, party: Peer) -> tuple[Peer, Driver, EventSink] | None:
        """The host offers the next game (``party.offer``): the peer of its table (made
        with ``party.next_peer``), what plays it and where its events go, to stay; ``None``
        to leave."""
        ...

    def refused(self, error: RemoteProtocolError) -> None:
        """The host's offer broke the rules (``error`` names the host): the night ends."""
        ...

    def watch_again(self, party: Peer) -> tuple[Peer, Driver, EventSink]:
        """The host refused the free seat ``party`` asked for as a spectator
        (``party.sit_refused``): the spectator it was (``Watcher.after_refusal``), what shows
        it and where its events go, to watch the same table on."""
        ...


class PeerClient(Pokable):
    """One peer's connection to its host, driven until the table closes or stops.

    With ``connect`` and ``grace`` > 0, a lost connection is not the end: the peer reconnects
    (``Peer.reconnect``: its hello on the new connection takes the seat back) for up to
    ``grace`` seconds, telling ``notice``.
    """

    def __init__(
        self,
        peer: Peer,
        stream: trio.abc.Stream,
        driver: Driver,
        sink: EventSink,
        duty_timeout: float = DUTY_TIMEOUT,
        *,
        connect: Connect | None = None,
        grace: float = 0.0,
        notice: Notice = lambda text: None,
        trusted: frozenset[bytes] = frozenset(),
        inline_checks: bool = False,
        night: NightSeat | None = None,
    ) -> None:
        """``trusted``, ``inline_checks``: see :class:`ProofChecks` (``trusted``: a bot
        started by the host's command); ``night``: once a table ends, wait on the same
        connection for the host's offer of the next game (else the connection ends with
        the table)."""
        super().__init__()
        self.peer = peer
        self._stream = stream
        self._driver = driver
        self._sink = sink
        self._lock = trio.Lock()
        # The host halts a stalling seat after ``duty_timeout``; we give it twice that.
        self._patience = 2 * duty_timeout
        self._connect = connect
        self._grace = grace
        self._notice = notice
        self._leaving = False
        self._scope = trio.CancelScope()
        self._nursery: trio.Nursery | None = None
        self._timer = PhaseTimer()
        self._trusted, self._inline = trusted, inline_checks
        self.proof_checks = ProofChecks(peer, trusted, inline_checks)
        peer.defer_duties = True  # our proof after the checks of what came in have started
        self._night = night
        self._frames = FrameReader()  # what came on the stream, split into frames
        #: Connections made to the host (the first one included): a night plays every
        #: game on the first, unless one was lost and made again.
        self.connects = 1
        peer.talk_floor = time.time_ns() // 1000  # our lines are newer than a past run's

    async def after_input(self) -> None:
        """Hand events to the driver, let it act, send what the protocol wants sent."""
        self.proof_checks.start(self.poke)
        while self.peer.perform_duty():  # our proof, beside the checks just started
            pass
        drain_events(self.peer, self._driver, self._sink)
        while self._driver.act(self.peer):
            drain_events(self.peer, self._driver, self._sink)
        self._timer.check(self.peer, self._nursery, self.poke)
        drain_events(self.peer, self._driver, self._sink)
        async with self._lock:
            data = self.peer.data_to_send()
            if data:
                # A broken connection is noticed (and reported) by the reading side; what
                # was lost is sent again when we come back. A host that stops reading is
                # hung up on after our patience, and so noticed the same way.
                with (
                    suppress(trio.BrokenResourceError, trio.ClosedResourceError),
                    trio.move_on_after(self._patience) as stuck,
                ):
                    await self._stream.send_all(data)
                if stuck.cancelled_caught:
                    await self._stream.aclose()

    def leave(self) -> None:
        """We leave for good (call from trio): tell the host, which halts the table naming
        us; stop waiting for its answer after a moment."""
        self._leaving = True
        if self.peer.phase in DONE_PHASES:  # between two games: nothing to say, we go
            self._scope.cancel()
            return
        self.peer.leave()
        self.poke()
        self._scope.deadline = min(self._scope.deadline, trio.current_time() + 2)

    async def run(self) -> None:
        """Play until the table closes or stops.

        Raises :class:`PeerVanished` if the host goes away first (and, with a grace period,
        does not come back in time), :class:`Stalled` if the table waits on a protocol duty
        for too long, :class:`protocol.RemoteProtocolError` if the host breaks the stream,
        and :class:`InternalError` if a bug of ours showed.
        """
        failure: Exception | None = None
        with self._scope:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self._driver.attach(nursery, self.poke)
                nursery.start_soon(self._pokes)
                try:
                    while True:
                        await self._play()
                        if not await self._next():
                            break
                except (PeerVanished, Stalled, RemoteProtocolError, InternalError) as exc:
                    failure = exc  # raised below, outside the nursery: not in a group
                finally:
                    nursery.cancel_scope.cancel()
                    with trio.CancelScope(shield=True):
                        await self._stream.aclose()
        if failure is not None:
            raise failure

    async def _play(self) -> None:
        """One table, until it closes or stops (coming back after a lost connection)."""
        while True:
            try:
                await self._read()
                return
            except PeerVanished:
                if not self._may_rejoin():
                    raise
                await self._rejoin()

    async def _next(self) -> bool:
        """Between two games of a night: tell the night the table ended, wait for the
        host's offer of the next game (or for the host to end the night: its connection
        ends), and answer it. True if we stay: the next table is ours to play from here."""
        night = self._night
        if night is None:
            return False
        if next_link(self.peer.table) is None or self.peer.refused is not None:
            return False  # it stopped mid-game: there is no next game to this one
        night.ended(self.peer)
        while True:
            try:  # what came already first (the offer may have come with the table's end)
                while self.peer.offer is None and (payload := self._frames.next_frame()):
                    self.peer.receive_data(frame(payload))
            except RemoteProtocolError as exc:
                night.refused(exc)
                return False
            drain_events(self.peer, self._driver, self._sink)
            if self.peer.offer is not None:
                break
            incoming: bytes | bytearray = b""
            with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                incoming = await self._stream.receive_some(CHUNK)
            if not incoming:
                return False  # the host ended the night
            self._frames.feed(bytes(incoming))
        seat = await night.answer(self.peer)
        if seat is None:
            self.peer.decline()
            with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                await self._stream.send_all(self.peer.data_to_send())
            return False
        self._take(seat)
        return True

    async def _frame(self, payload: bytes) -> None:
        """Feed one frame to the peer, then let the driver act and send what is due. Raises
        :class:`RemoteProtocolError` for a broken stream, :class:`InternalError` for a bug."""
        try:
            self.peer.tick(trio.current_time())  # talk's rates count on our clock
            self.peer.receive_data(frame(payload))
        except RemoteProtocolError:
            raise
        except Exception as exc:  # a bug: say so in one line, keep the transcript
            what = f"{type(exc).__name__}: {exc}"[:200]
            raise InternalError(f"internal error (a bug) on a frame: {what}") from exc
        await self.after_input()
        if self.peer.sit_refused is not None and self._night is not None:
            self._take(self._night.watch_again(self.peer))  # no seat for us: we watch on

    def _take(self, seat: tuple[Peer, Driver, EventSink]) -> None:
        """Go on with another peer on this stream (a night's next table, or the spectator
        we were), what drives it and where its events go."""
        self.peer, self._driver, self._sink = seat
        self.peer.defer_duties = True
        self.proof_checks = ProofChecks(self.peer, self._trusted, self._inline)
        self._timer = PhaseTimer()
        if self._nursery is not None:
            self._driver.attach(self._nursery, self.poke)

    def _may_rejoin(self) -> bool:
        return (
            self._connect is not None
            and self._grace > 0
            and not self._leaving
            and self.peer.seat is not None
            and self.peer.phase not in DONE_PHASES
        )

    async def _rejoin(self) -> None:
        """Reconnect within the grace period, or raise :class:`PeerVanished`."""
        assert self._connect is not None
        self._notice(f"Lost the connection to the host; reconnecting (up to {self._grace:g} s)…")
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self._stream.aclose()
        pause = 0.25
        with trio.move_on_after(self._grace):
            while True:
                try:
                    stream = await self._connect()
                except OSError:
                    await trio.sleep(pause)
                    pause = min(pause * 2, 2.0)
                    continue
                async with self._lock:
                    self._stream = stream
                    self._frames = FrameReader()
                    self.connects += 1
                    self.peer.reconnect()
                self._notice("Reconnected: back at the table")
                await self.after_input()
                return
        raise PeerVanished(f"the host vanished and did not come back within {self._grace:g} s")

    async def _read(self) -> None:
        reader = self._frames
        await self.after_input()
        # A fatal refusal (a full table, a taken name): the host takes nothing more from us.
        while self.peer.phase not in DONE_PHASES and self.peer.refused is None:
            # One frame at a time: the driver sees each entry's effect on the view. Frames
            # that came before this table began (with the offer of a night's next game) go
            # first; what comes after its end is left in the reader for the next table.
            while self.peer.phase not in DONE_PHASES and (payload := reader.next_frame()):
                await self._frame(payload)
            if self.peer.phase in DONE_PHASES or self.peer.refused is not None:
                break
            waiting = self.peer.table.waiting_on()
            patience = (
                self._patience if waiting and waiting[1] not in PERSONS_CHOICE else float("inf")
            )
            incoming: bytes | bytearray = b""
            with trio.move_on_after(patience) as scope:
                with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    incoming = await self._stream.receive_some(CHUNK)
            if scope.cancelled_caught and waiting is not None:
                raise Stalled(f"nothing from the host for {patience:g} s while waiting "
                              f"for {describe(self.peer, *waiting)}")  # fmt: skip
            if not incoming:
                raise PeerVanished("the host vanished")
            reader.feed(bytes(incoming))
        # What ended the table may have come from a proof check's thread between two frames
        # (its Stopped event queued, the poke that would hand it on not yet run): hand it on.
        drain_events(self.peer, self._driver, self._sink)


async def run_peer(
    peer: Peer, stream: trio.abc.Stream, driver: Driver, sink: EventSink, *,
    inline_checks: bool = False,
) -> None:  # fmt: skip
    """Play through ``stream`` until the table closes or stops (see :meth:`PeerClient.run`;
    ``inline_checks``: :class:`ProofChecks`)."""
    await PeerClient(peer, stream, driver, sink, inline_checks=inline_checks).run()

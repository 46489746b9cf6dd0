"""The thin trio layer: moves the sans-IO protocol's bytes over TCP streams.

A :class:`protocol.Host` gets one task per incoming connection (:class:`HostServer`); a
:class:`protocol.Peer` one stream to its host (:class:`PeerClient`). Incoming bytes are fed
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

import random
import socket
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Protocol

import trio

from lanparty.games.bots import Bot
from lanparty.trace import Tracer
from protocol import Event, Host, Peer, Phase, RemoteProtocolError, Returned
from protocol._frames import FrameReader, frame
from protocol.contract import Move, Turn

__all__ = [
    "DUTY_TIMEOUT",
    "LINGER",
    "MAX_CONNECTIONS",
    "BotDriver",
    "Driver",
    "HostServer",
    "PeerClient",
    "PeerVanished",
    "Stalled",
    "keepalive",
    "run_peer",
]

#: Bytes read per receive call.
_CHUNK = 1 << 16
_DONE = (Phase.CLOSED, Phase.STOPPED)
#: Connections a host keeps open at once (seats plus a few lobby onlookers).
MAX_CONNECTIONS = 32
#: Seconds a seat may take for a protocol duty (a shuffle, its shares, a key) before the
#: host halts the table naming it. Moves are a person's to think over: they have no deadline.
DUTY_TIMEOUT = 60.0
#: Seconds a host that finished serving waits for its peers to hang up (see
#: :meth:`HostServer.serve`).
LINGER = 5.0
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


class BotDriver:
    """Plays a seat with a bot: at most one decision per table position, only from the view.

    ``react`` seconds is the bot's reaction time while an out-of-turn window is open (a KaTO
    call or catch): it then waits before a catch or its own turn's move, so a person at the
    table has time to call KaTO. A bot's own KaTO call is never delayed. 0: no waiting.
    """

    def __init__(
        self, bot: Bot, seed: int, tracer: Tracer | None = None, react: float = 0.0
    ) -> None:
        self._bot = bot
        self._rng = random.Random(seed)
        self._tracer = tracer or Tracer(None)
        self._react = react
        self._decided_at = -1
        self._armed_at = -1
        self._ripe_at = -1
        self._nursery: trio.Nursery | None = None
        self._poke: Callable[[], None] = lambda: None
        self.position = 0

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Timers for the reaction time run in ``nursery``."""
        self._nursery, self._poke = nursery, poke

    def observe(self, event: Event) -> None:
        """Count events, so each position gets one decision."""
        self.position += 1

    def act(self, party: Host | Peer) -> bool:
        """Make a move if one is due for this seat (out-of-turn moves may be declined);
        returns True if a move was made."""
        if self._decided_at == self.position or party.busy or not party.may_move():
            return False
        status = party.status()
        if not isinstance(status, Turn):
            return False
        legal: list[Move | None] = list(party.legal_moves())
        if not legal:
            return False
        window = bool(status.also)
        if window and self._react > 0 and ("kato",) not in legal and not self._ripe():
            return False
        self._decided_at = self.position
        if status.seat != party.seat:
            legal.append(None)
        move = self._bot.choose(party.view(), legal, self._rng)
        if move is None:
            return False
        self._tracer.record("play", pos=len(party.table.log), seat=party.seat)
        party.play(move)
        return True

    def _ripe(self) -> bool:
        """Has the reaction time passed at this position? Starts the timer if not."""
        if self._ripe_at == self.position:
            return True
        if self._armed_at != self.position and self._nursery is not None:
            self._armed_at = self.position
            self._nursery.start_soon(self._timer, self.position)
        return self._nursery is None

    async def _timer(self, position: int) -> None:
        await trio.sleep(self._react)
        if self.position == position:
            self._ripe_at = position
            self._poke()


EventSink = Callable[[Event], None]


def _drain(party: Host | Peer, driver: Driver, sink: EventSink) -> None:
    while (event := party.next_event()) is not None:
        driver.observe(event)
        sink(event)


class _Pokable:
    """A task that runs ``after_input`` whenever ``poke`` was called (from trio code)."""

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


class PeerClient(_Pokable):
    """One peer's connection to its host, driven until the table closes or stops.

    With ``connect`` and ``grace`` > 0, a lost connection is not the end: the peer reconnects
    (``Peer.reconnect``: a signed rejoin) for up to ``grace`` seconds, telling ``notice``.
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
    ) -> None:
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

    async def after_input(self) -> None:
        """Hand events to the driver, let it act, send what the protocol wants sent."""
        _drain(self.peer, self._driver, self._sink)
        while self._driver.act(self.peer):
            _drain(self.peer, self._driver, self._sink)
        async with self._lock:
            data = self.peer.data_to_send()
            if data:
                # A broken connection is noticed (and reported) by the reading side; what
                # was lost is sent again by the rejoin.
                with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await self._stream.send_all(data)

    def leave(self) -> None:
        """We leave for good (call from trio): tell the host, which halts the table naming
        us; stop waiting for its answer after a moment."""
        self._leaving = True
        self.peer.leave()
        self.poke()
        self._scope.deadline = min(self._scope.deadline, trio.current_time() + 2)

    async def run(self) -> None:
        """Play until the table closes or stops.

        Raises :class:`PeerVanished` if the host goes away first (and, with a grace period,
        does not come back in time), :class:`Stalled` if the table waits on a protocol duty
        for too long, and :class:`protocol.RemoteProtocolError` if the host breaks the stream.
        """
        failure: Exception | None = None
        with self._scope:
            async with trio.open_nursery() as nursery:
                self._driver.attach(nursery, self.poke)
                nursery.start_soon(self._pokes)
                try:
                    while True:
                        try:
                            await self._read()
                            break
                        except PeerVanished:
                            if not self._may_rejoin():
                                raise
                            await self._rejoin()
                except (PeerVanished, Stalled, RemoteProtocolError) as exc:
                    failure = exc  # raised below, outside the nursery: not in a group
                finally:
                    nursery.cancel_scope.cancel()
                    with trio.CancelScope(shield=True):
                        await self._stream.aclose()
        if failure is not None:
            raise failure

    def _may_rejoin(self) -> bool:
        return (
            self._connect is not None
            and self._grace > 0
            and not self._leaving
            and self.peer.seat is not None
            and self.peer.phase not in _DONE
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
                    self.peer.reconnect()
                self._notice("Reconnected: back at the table")
                await self.after_input()
                return
        raise PeerVanished(f"the host vanished and did not come back within {self._grace:g} s")

    async def _read(self) -> None:
        reader = FrameReader()
        await self.after_input()
        # A fatal refusal (a full table, a taken name): the host takes nothing more from us.
        while self.peer.phase not in _DONE and self.peer.refused is None:
            waiting = self.peer.table.waiting_on()
            patience = self._patience if waiting and waiting[1] != "move" else float("inf")
            incoming: bytes | bytearray = b""
            with trio.move_on_after(patience) as scope:
                with suppress(trio.BrokenResourceError):
                    incoming = await self._stream.receive_some(_CHUNK)
            if scope.cancelled_caught and waiting is not None:
                raise Stalled(f"nothing from the host for {patience:g} s while waiting "
                              f"for {describe(self.peer, *waiting)}")  # fmt: skip
            if not incoming:
                raise PeerVanished("the host vanished")
            # One frame at a time: the driver sees each entry's effect on the view.
            reader.feed(bytes(incoming))
            while (payload := reader.next_frame()) is not None:
                self.peer.receive_data(frame(payload))
                await self.after_input()


async def run_peer(peer: Peer, stream: trio.abc.Stream, driver: Driver, sink: EventSink) -> None:
    """Play through ``stream`` until the table closes or stops (see :meth:`PeerClient.run`)."""
    await PeerClient(peer, stream, driver, sink).run()


class _Link:
    """One accepted connection: its stream, the lock its writers share, and the scope its
    task reads in (cut short at the table's end)."""

    __slots__ = ("lock", "scope", "stream")

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.lock = trio.Lock()
        self.scope = trio.CancelScope()


class HostServer(_Pokable):
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
    ) -> None:
        super().__init__()
        self.host = host
        host.defer_duties = True
        self._journal = journal
        #: Relay frames handed to ``journal`` so far.
        self.journaled = 0
        self._driver = driver
        self._sink = sink
        self._duty_timeout = duty_timeout
        self._grace = grace
        self._notice = notice
        self._back = trio.Event()  # set (and replaced) whenever a seat comes back
        self._hangup = trio.Event()  # set (and replaced) whenever a connection ends
        self._nursery: trio.Nursery | None = None
        self._links: dict[int, _Link] = {}
        self._progress = trio.Event()
        self._seen = 0
        self.done = trio.Event()
        self.seats_fixed = trio.Event()
        self.vanished: list[str] = []

    async def _flush(self) -> None:
        if self._journal is not None:
            # Kept before it is sent: no peer may hold an entry a restarted host lacks.
            frames = self.host.relays_since(self.journaled)
            if frames:
                self._journal(frames)
                self.journaled += len(frames)
        for cid, link in list(self._links.items()):
            async with link.lock:
                data = self.host.data_to_send(cid)
                # A broken connection is noticed and reported by its own task.
                if data:
                    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await link.stream.send_all(data)

    async def after_input(self) -> None:
        """Hand events to the driver, let it act, send what the protocol wants sent."""
        # The host's own move is not echoed back to it, so after a move it may be due to
        # move again at once (a Skip between two players): act until it does not.
        _drain(self.host, self._driver, self._observe)
        while self._driver.act(self.host):
            _drain(self.host, self._driver, self._observe)
        await self._flush()
        # Our own duties (a shuffle proof takes ~0.1 s) only after what was sequenced is out:
        # the other peers verify it meanwhile instead of waiting for us.
        while self.host.perform_duty():
            _drain(self.host, self._driver, self._observe)
            while self._driver.act(self.host):
                _drain(self.host, self._driver, self._observe)
            await self._flush()
        if len(self.host.table.log) != self._seen:
            self._seen = len(self.host.table.log)
            self._progress.set()
        if self.host.table.members and self.host.phase is not Phase.LOBBY:
            self.seats_fixed.set()
        if self.host.phase in _DONE:
            self.done.set()

    async def halt(self, reason: str, seat: int | None = None) -> None:
        """Stop the table for everyone, tell them why, and finish serving."""
        self.host.halt(reason, seat)
        await self.after_input()

    async def handle(self, stream: trio.abc.Stream) -> None:
        """One peer's connection, from its hello until it closes. Past ``MAX_CONNECTIONS``
        open at once, a new one is closed at once (a flood cannot exhaust the host), as is
        one that arrives after the table's end."""
        if len(self._links) >= MAX_CONNECTIONS or self.done.is_set():
            await stream.aclose()
            return
        if isinstance(stream, trio.SocketStream):
            keepalive(stream)
        cid = self.host.connect()
        link = self._links[cid] = _Link(stream)
        try:
            with link.scope:  # given a deadline at the table's end (see _linger)
                await self._serve_link(cid, stream)
        finally:
            del self._links[cid]
            self.host.close(cid)
            self._hangup.set()
            self._hangup = trio.Event()
            await stream.aclose()

    async def _serve_link(self, cid: int, stream: trio.abc.Stream) -> None:
        """Feed what connection ``cid`` sends, a frame at a time, until it ends; after the
        table's end, only wait for the peer to hang up."""
        reader = FrameReader()
        await self.after_input()
        while True:
            try:
                data = bytes(await stream.receive_some(_CHUNK))
            except trio.BrokenResourceError:
                data = b""
            if self.done.is_set():
                if not data:
                    return  # the peer hung up after the table's end: all it needed arrived
                continue  # what a peer says after the end changes nothing
            if not data:
                await self._gone(cid)
                return
            reader.feed(data)
            try:
                while (payload := reader.next_frame()) is not None:
                    self.host.receive_data(cid, frame(payload))
                    await self.after_input()
            except RemoteProtocolError as exc:
                self.vanished.append(str(exc))
                await self.after_input()  # the refusal goes out before we hang up
                await self._gone(cid)
                return

    async def _gone(self, cid: int) -> None:
        """A connection ended: if a seated peer lost it at an unfinished table, wait for it
        to come back (``grace``), else halt the table naming it."""
        who = self.host.member_of(cid)
        if who is None or self.done.is_set() or self.host.phase in _DONE:
            return
        seat, name = who
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
        if self.host.connected(seat) or self.done.is_set() or self.host.phase in _DONE:
            return
        self.vanished.append(f"{name} (seat {seat})")
        await self.halt(f"{name} (seat {seat}) lost the connection and did not come back "
                        f"within {self._grace:g} s", seat)  # fmt: skip

    def _observe(self, event: Event) -> None:
        if isinstance(event, Returned):
            self._notice(f"{event.name} is back")
            self._back.set()
            self._back = trio.Event()
        self._sink(event)

    async def _watchdog(self) -> None:
        """Halt the table if a seat owes a protocol duty for longer than the deadline."""
        while not self.done.is_set():
            with trio.move_on_after(self._duty_timeout) as scope:
                await self._progress.wait()
                self._progress = trio.Event()
            if not scope.cancelled_caught:
                continue
            waiting = self.host.table.waiting_on()
            if waiting is None or waiting[1] == "move" or waiting[0] == self.host.seat:
                continue
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
            if listeners is not None:
                nursery.start_soon(trio.serve_listeners, self.handle, listeners)
            nursery.start_soon(self._pokes)
            nursery.start_soon(self._watchdog)
            await self.after_input()
            await self.done.wait()
            # Let the last frames (closing sign-off, a halt) reach every peer.
            await self._flush()
            await self._linger()
            nursery.cancel_scope.cancel()

    async def _linger(self) -> None:
        """Half-close every connection and wait for the peers to close theirs: each
        connection's task drains what still arrives, for ``LINGER`` s at most."""
        deadline = trio.current_time() + LINGER
        for link in list(self._links.values()):
            link.scope.deadline = deadline
            if isinstance(link.stream, trio.abc.HalfCloseableStream):
                async with link.lock:
                    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await link.stream.send_eof()
        while self._links:
            await self._hangup.wait()

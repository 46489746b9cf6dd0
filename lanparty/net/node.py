"""The thin trio layer: moves the sans-IO protocol's bytes over TCP streams.

A :class:`protocol.Host` gets one task per incoming connection; a :class:`protocol.Peer` one
stream to its host. After every input each side flushes what the protocol wants to send and
lets its driver (a bot, or the terminal UI) make a move if one is due. Nothing here decides
anything about the game: the protocol object does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import trio

from lanparty.games.bots import Bot
from lanparty.trace import Tracer
from protocol import Event, Host, Peer, Phase, RemoteProtocolError
from protocol.contract import Move, Turn

#: Bytes read per receive call.
_CHUNK = 1 << 16
_DONE = (Phase.CLOSED, Phase.STOPPED)


class PeerVanished(Exception):  # noqa: N818 - names what happened, like trio's Cancelled
    """The other side closed the connection before the table closed."""


class BotDriver:
    """Plays a seat with a bot: at most one decision per table position, only from the view."""

    def __init__(self, bot: Bot, seed: int, tracer: Tracer | None = None) -> None:
        self._bot = bot
        self._tracer = tracer or Tracer(None)
        self._rng = random.Random(seed)
        self._decided_at = -1
        self.position = 0

    def observe(self, event: Event) -> None:
        """Count applied entries, so each position gets one decision."""
        self.position += 1

    def act(self, party: Host | Peer) -> bool:
        """Make a move if one is due for this seat (out-of-turn moves may be declined);
        returns True if a move was made."""
        if self._decided_at == self.position or not party.may_move():
            return False
        status = party.status()
        if not isinstance(status, Turn):
            return False
        self._decided_at = self.position
        legal: list[Move | None] = list(party.legal_moves())
        if not legal:
            return False
        if status.seat != party.seat:
            legal.append(None)
        move = self._bot.choose(party.view(), legal, self._rng)
        if move is None:
            return False
        self._tracer.record("play", pos=len(party.table.log), seat=party.seat)
        party.play(move)
        return True


EventSink = Callable[[Event], None]


def _drain(party: Host | Peer, driver: Any, sink: EventSink) -> None:
    while (event := party.next_event()) is not None:
        driver.observe(event)
        sink(event)


async def run_peer(peer: Peer, stream: trio.abc.Stream, driver: Any, sink: EventSink) -> None:
    """Play through ``stream`` until the table closes or stops.

    Raises :class:`PeerVanished` if the host goes away first, and
    :class:`protocol.RemoteProtocolError` if the host breaks the stream.
    """
    async with stream:
        while True:
            data = peer.data_to_send()
            if data:
                await stream.send_all(data)
            if peer.phase in _DONE:
                return
            try:
                incoming = await stream.receive_some(_CHUNK)
            except trio.BrokenResourceError:
                incoming = b""
            if not incoming:
                raise PeerVanished("the host closed the connection")
            peer.receive_data(incoming)
            _drain(peer, driver, sink)
            driver.act(peer)


class HostServer:
    """Serves one table: accepts peers, relays, and plays the host's own seat."""

    def __init__(self, host: Host, driver: Any, sink: EventSink) -> None:
        self.host = host
        self._driver = driver
        self._sink = sink
        self._streams: dict[int, tuple[trio.abc.Stream, trio.Lock]] = {}
        self.done = trio.Event()
        self.vanished: list[str] = []

    async def _flush(self) -> None:
        for cid, (stream, lock) in list(self._streams.items()):
            async with lock:
                data = self.host.data_to_send(cid)
                # A broken connection is noticed and reported by its own task.
                if data:
                    with suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                        await stream.send_all(data)

    async def _after_input(self) -> None:
        # The host's own move is not echoed back to it, so after a move it may be due to
        # move again at once (a Skip between two players): act until it does not.
        _drain(self.host, self._driver, self._sink)
        while self._driver.act(self.host):
            _drain(self.host, self._driver, self._sink)
        await self._flush()
        if self.host.phase in _DONE:
            self.done.set()

    async def handle(self, stream: trio.abc.Stream) -> None:
        """One peer's connection, from its hello until it closes."""
        cid = self.host.connect()
        self._streams[cid] = (stream, trio.Lock())
        try:
            await self._after_input()
            while not self.done.is_set():
                try:
                    data = await stream.receive_some(_CHUNK)
                except trio.BrokenResourceError:
                    data = b""
                if not data:
                    if not self.done.is_set():
                        self.vanished.append(f"connection {cid}")
                    return
                try:
                    self.host.receive_data(cid, data)
                except RemoteProtocolError as exc:
                    self._sink_error(exc)
                    return
                await self._after_input()
        finally:
            self._streams.pop(cid, None)
            self.host.close(cid)
            await stream.aclose()

    def _sink_error(self, exc: RemoteProtocolError) -> None:
        self.vanished.append(str(exc))

    async def serve(self, listeners: list[trio.SocketListener]) -> None:
        """Accept peers until the table closes or stops."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, self.handle, listeners)
            await self._after_input()
            await self.done.wait()
            nursery.cancel_scope.cancel()

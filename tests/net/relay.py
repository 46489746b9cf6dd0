"""A TCP relay between a peer and its host, for tests that break a connection mid-game: it
cuts its first connection after a given amount of traffic from the host (both ways at once),
and keeps every frame the peer sends on its second (what a stranger on the path could see)."""

from __future__ import annotations

import trio

from protocol import FrameReader, frame


class Relay:
    """Relays to ``host``:``port``; the first connection is cut after ``cut_after`` bytes
    from the host, later connections pass untouched (their frames from the peer kept in
    ``second`` for the second connection)."""

    def __init__(self, port: int, cut_after: int, host: str = "127.0.0.1") -> None:
        self.host = host
        self.port = port
        self.cut_after = cut_after
        self.connections = 0
        self.cut = trio.Event()
        self.second: list[bytes] = []
        self.recorded = trio.Event()

    async def handle(self, client: trio.SocketStream) -> None:
        self.connections += 1
        n = self.connections
        upstream = await trio.open_tcp_stream(self.host, self.port)
        async with client, upstream, trio.open_nursery() as nursery:

            async def pump(src: trio.abc.Stream, dst: trio.abc.Stream, up: bool) -> None:
                sent, reader = 0, FrameReader()
                try:
                    async for data in src:
                        await dst.send_all(data)
                        sent += len(data)
                        if up and n == 2:
                            reader.feed(data)
                            while (payload := reader.next_frame()) is not None:
                                self.second.append(frame(payload))
                                self.recorded.set()
                        if not up and n == 1 and sent >= self.cut_after:
                            self.cut.set()
                            break  # both ways at once
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                nursery.cancel_scope.cancel()

            nursery.start_soon(pump, upstream, client, False)
            nursery.start_soon(pump, client, upstream, True)

"""One accepted connection as the host's server keeps it (:class:`Link`): its stream, its
peer's address, its send queue and writer state, its id at the table served now, and the
scope its tasks run in."""

from __future__ import annotations

from collections import deque
from contextlib import suppress

import trio

__all__ = ["Link", "peer_address"]


class Link:
    """One accepted connection: its stream, its peer's address, its send queue and writer
    state, and the scope its tasks run in (cut short at the table's end, or to drop it)."""

    __slots__ = (
        "address", "cid", "eof", "flushed", "last", "queue", "scope", "seat", "spectator",
        "stream", "wake",
    )  # fmt: skip

    def __init__(self, stream: trio.abc.Stream, address: str, cid: int) -> None:
        self.stream = stream
        self.address = address
        #: Its id at the table now served (a night's next table gives it a new one; -1: none).
        self.cid = cid
        self.scope = trio.CancelScope()
        self.queue: deque[bytes] = deque()
        self.wake = trio.Event()  # set when the queue grows (or eof is asked for)
        self.flushed = trio.Event()  # set whenever the queue is empty and sent
        self.flushed.set()
        self.eof = False  # half-close once the queue is sent (the table's end)
        self.last = trio.current_time()  # when it last sent us anything
        self.seat = False  # it proved a seat: its frames go before any spectator's
        self.spectator = False  # it watches: sent what the seats leave, within a budget

    def push(self, chunks: list[bytes]) -> None:
        """Queue frames for the writer."""
        if chunks:
            self.queue.extend(chunks)
            self.flushed = trio.Event()
            self.wake.set()


def peer_address(stream: trio.abc.Stream) -> str:
    """The peer's IP address (``"?"`` for a stream that is not a socket, as in tests)."""
    if isinstance(stream, trio.SocketStream):
        with suppress(OSError):
            return str(stream.socket.getpeername()[0])
    return "?"

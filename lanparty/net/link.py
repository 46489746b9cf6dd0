"""One accepted connection at the host, as its writer task sees it: the stream, the peer's
address, what waits to be sent — the game's frames, and table talk apart from them — its
id at the table served now (a night's next table over the same connection gives it a new
one), and the scope its tasks run in (:class:`lanparty.net.server.HostServer` drives it).

Talk never holds a game frame back: it is sent only when no game frame of the connection
waits, and a connection that reads slowly loses its oldest lines of talk past
:data:`TALK_LINES`, never a game frame.
"""

from __future__ import annotations

from collections import deque
from contextlib import suppress

import trio

__all__ = ["TALK_LINES", "Link", "address_of"]

#: Lines of talk (and refusals of talk) one connection may have waiting at the host; past
#: it the oldest is dropped (the protocol keeps as many; see ``protocol._talk``).
TALK_LINES = 32


class Link:
    """One accepted connection: its stream, its peer's address, its send queues and writer
    state, its id at the table served now, and the scope its tasks run in (cut short at the
    table's end, or to drop it)."""

    __slots__ = (
        "address", "cid", "eof", "flushed", "last", "queue", "scope", "seat", "since",
        "spectator", "stream", "talk", "wake",
    )  # fmt: skip

    def __init__(self, stream: trio.abc.Stream, address: str, cid: int = -1) -> None:
        self.stream = stream
        self.address = address
        #: Its id at the table now served (a night's next table gives it a new one; -1: none).
        self.cid = cid
        self.scope = trio.CancelScope()
        self.queue: deque[bytes] = deque()
        self.talk: deque[bytes] = deque(maxlen=TALK_LINES)  # sent when the queue is empty
        self.wake = trio.Event()  # set when a queue grows (or eof is asked for)
        self.flushed = trio.Event()  # set whenever both queues are empty and sent
        self.flushed.set()
        self.eof = False  # half-close once the queues are sent (the table's end)
        self.last = trio.current_time()  # when it last sent us anything
        self.seat = False  # it proved a seat: its frames go before any spectator's
        self.spectator = False  # it watches: sent what the seats leave, within a budget
        #: The order it began watching in (the host's count of spectators taken, over the
        #: night): who watched longest asks first for a seat a night's next table has free.
        self.since = 0

    def push(self, chunks: list[bytes], talk: list[bytes] | None = None) -> None:
        """Queue game frames (and lines of talk, the oldest dropped past
        :data:`TALK_LINES`) for the writer."""
        if talk:
            self.talk.extend(talk)
        if chunks:
            self.queue.extend(chunks)
        if chunks or talk:
            self.flushed = trio.Event()
            self.wake.set()

    def next_chunk(self) -> tuple[bytes, bool] | None:
        """What to send next and whether it is talk: a game frame while any waits, else the
        oldest line of talk; ``None`` when nothing waits."""
        if self.queue:
            return self.queue.popleft(), False
        if self.talk:
            return self.talk.popleft(), True
        return None


def address_of(stream: trio.abc.Stream) -> str:
    """The peer's IP address (``"?"`` for a stream that is not a socket, as in tests)."""
    if isinstance(stream, trio.SocketStream):
        with suppress(OSError):
            return str(stream.socket.getpeername()[0])
    return "?"

"""The host's door: it accepts connections, and resets at once those whose address may not
open one now, without a task, a stream or a protocol object, so that accepting and resetting
is all a churn of connections costs the host (about 8 µs each, measured here)."""

from __future__ import annotations

import errno
import socket
import struct
from collections.abc import Callable
from contextlib import suppress

import trio

__all__ = ["accept"]

#: Closing a socket with a zero linger resets it: no TIME_WAIT is left for a refused one.
_RESET = struct.pack("ii", 1, 0)
#: After resetting connections that came too fast, the door accepts again this much later,
#: so a flood is taken in batches (one wakeup for many, not one each); an honest newcomer
#: waits no longer than this for it.
_BATCH = 0.005
#: Errors of accept() that say the process is out of descriptors or memory for now.
_CAPACITY = {errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS}
#: Errors of accept() about one connection that went away before it was taken.
_ABORTED = {errno.ECONNABORTED, errno.EPROTO, errno.EPERM, errno.ENETDOWN, errno.EHOSTUNREACH}


async def accept(
    listener: trio.SocketListener,
    knock: Callable[[str], bool],
    serve: Callable[[trio.SocketStream, str], object],
) -> None:
    """Accept connections on ``listener`` for good (the listening socket is taken over and
    closed at the end). ``knock(address)`` says whether a connection from ``address`` may
    be served now: if so, ``serve(stream, address)`` is called (it should start a task and
    return), else the connection is reset. Raises ``OSError`` only for an error of the
    listening socket itself."""
    raw = socket.socket(fileno=listener.socket.detach())  # accepted in batches, below
    raw.setblocking(False)
    with raw:
        turn, resetting = 0, False
        while True:
            turn += 1
            if turn % 32 == 0:
                await trio.lowlevel.checkpoint()  # a flood leaves the table its turns
            try:
                conn, peer = raw.accept()
            except BlockingIOError:
                if resetting:  # a flood: take what comes in batches, not one by one
                    resetting = False
                    await trio.sleep(_BATCH)
                else:
                    await trio.lowlevel.wait_readable(raw)
                continue
            except OSError as exc:
                if exc.errno in _CAPACITY:  # out of descriptors: let connections end first
                    await trio.sleep(0.1)
                elif exc.errno not in _ABORTED:
                    raise
                continue
            address = str(peer[0])
            if not knock(address):
                resetting = True
                with suppress(OSError):
                    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
                conn.close()
                continue
            conn.setblocking(False)
            serve(trio.SocketStream(trio.socket.from_stdlib_socket(conn)), address)

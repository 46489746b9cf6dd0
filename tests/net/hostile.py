"""A stranger on the LAN: raw TCP connections to a real host process, speaking whatever bytes
the test chooses (the protocol's own codec builds the well-formed ones), and what the host's
process costs meanwhile (read from /proc)."""

from __future__ import annotations

import contextlib
import itertools
import socket
from collections.abc import Iterator
from pathlib import Path

from crypto import Identity
from protocol import (
    PROTOCOL_VERSION,
    Challenge,
    FrameReader,
    Hello,
    Message,
    decode_message,
    encode_message,
    frame,
    pack,
)
from protocol._messages import hello_signature


def loopback_sources() -> Iterator[str]:
    """Loopback addresses other than 127.0.0.1, round and round: strangers each on an
    address of their own, as on a LAN (the host rate-limits new connections per address)."""
    return itertools.cycle(f"127.0.0.{i}" for i in range(2, 255))


_SOURCES = loopback_sources()


def endpoint_of(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


class Stranger:
    """One raw connection (blocking, with a timeout on every read), from ``source`` (by
    default the next of :func:`loopback_sources`)."""

    def __init__(
        self,
        endpoint: str,
        *,
        rcvbuf: int | None = None,
        timeout: float = 20,
        source: str | None = None,
    ) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf is not None:  # before connecting, so the window starts small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.bind((source or next(_SOURCES), 0))
        self.sock.settimeout(timeout)
        self.sock.connect(endpoint_of(endpoint))
        self.reader = FrameReader(1 << 24)
        self.received = 0

    def send(self, data: bytes) -> None:
        """Send bytes; a host that hung up already is not an error here."""
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.sock.sendall(data)

    def send_payload(self, value: object) -> None:
        """Frame and send a plain value (any shape: the point is what the host makes of it)."""
        self.send(frame(pack(value), 1 << 24))

    def send_message(self, msg: Message) -> None:
        self.send(frame(encode_message(msg)))

    def next_message(self) -> Message | None:
        """The next frame from the host, decoded; ``None`` at the end of the stream."""
        while (payload := self.reader.next_frame()) is None:
            try:
                data = self.sock.recv(1 << 16)
            except ConnectionResetError:
                data = b""
            if not data:
                return None
            self.received += len(data)
            self.reader.feed(data)
        return decode_message(payload)

    def rest(self) -> list[Message]:
        """Every frame until the host hangs up (then our side is closed too)."""
        out = []
        while (msg := self.next_message()) is not None:
            out.append(msg)
        self.close()
        return out

    def hello(self, identity: Identity | None = None) -> Challenge:
        """Read the challenge and answer it as ``identity`` (a fresh one by default)."""
        msg = self.next_message()
        assert isinstance(msg, Challenge), msg
        who = identity or Identity()
        self.send_message(Hello(who.public.raw, 0, hello_signature(who, msg.nonce, 0)))
        return msg

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> Stranger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time process ``pid`` has used so far."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def version_frame(kind: str, **fields: object) -> bytes:
    """A frame of this protocol version with the given fields, well-formed or not."""
    return frame(pack({"v": PROTOCOL_VERSION, "type": kind, **fields}), 1 << 24)

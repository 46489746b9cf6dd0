"""Length-prefixed frames: a 4-byte big-endian length, then that many bytes of payload.

The receiving side refuses a frame whose announced length exceeds the limit as soon as the
header arrives, before buffering its body.
"""

from __future__ import annotations

from typing import Final

from ._errors import LocalProtocolError, RemoteProtocolError

_HEADER: Final = 4
#: Largest frame payload accepted (a 110-card shuffle with its proof is about 30 KiB).
MAX_FRAME: Final = 1 << 20


def frame(payload: bytes, max_size: int = MAX_FRAME) -> bytes:
    """``payload`` with its length prefix; raises :class:`LocalProtocolError` if too large."""
    if len(payload) > max_size:
        raise LocalProtocolError(f"frame of {len(payload)} bytes exceeds the {max_size} limit")
    return len(payload).to_bytes(_HEADER, "big") + payload


class FrameReader:
    """Reassembles frames from a byte stream fed in arbitrary pieces."""

    __slots__ = ("_buf", "_max", "closed")

    def __init__(self, max_size: int = MAX_FRAME) -> None:
        self._buf = bytearray()
        self._max = max_size
        self.closed = False

    def feed(self, data: bytes) -> None:
        """Append bytes received from the stream."""
        if self.closed:
            raise LocalProtocolError("the stream was closed after a framing error")
        self._buf += data

    def next_frame(self) -> bytes | None:
        """The next complete payload, or ``None`` if more bytes are needed.

        Raises :class:`RemoteProtocolError` (and stops reading) when a header announces more
        than the size limit.
        """
        if len(self._buf) < _HEADER:
            return None
        size = int.from_bytes(self._buf[:_HEADER], "big")
        if size > self._max:
            self.closed = True
            self._buf.clear()
            raise RemoteProtocolError(f"frame of {size} bytes exceeds the {self._max} limit")
        if len(self._buf) < _HEADER + size:
            return None
        payload = bytes(self._buf[_HEADER : _HEADER + size])
        del self._buf[: _HEADER + size]
        return payload

    @property
    def pending(self) -> int:
        """Bytes buffered but not yet returned as a frame."""
        return len(self._buf)

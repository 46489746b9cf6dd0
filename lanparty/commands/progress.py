"""A status line for long waits (``demo``, ``audit``): rewritten in place on stderr while it
is a terminal, and wiped when the wait is over; nothing at all when stderr is a file or a
pipe, so scripts and ``--json`` output see no trace of it."""

from __future__ import annotations

import shutil
import sys
import time
from types import TracebackType
from typing import TextIO

from lanparty.text import printable

__all__ = ["Progress"]


class Progress:
    """One line of progress on ``stream`` (default: stderr), only if it is a terminal.

    ``show`` redraws at most every ``every`` seconds (``force`` redraws now); leaving the
    ``with`` block (or ``clear``) wipes the line, so what is printed next starts clean.
    """

    def __init__(self, stream: TextIO | None = None, every: float = 0.1) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self.on = _isatty(self._stream)
        self._every = every
        self._last = -1.0
        self._shown = False

    def show(self, text: str, *, force: bool = False) -> None:
        """Put ``text`` on the status line (cut to the terminal's width)."""
        if not self.on:
            return
        now = time.monotonic()
        if not force and now - self._last < self._every:
            return
        self._last = now
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 10)
        self._stream.write(f"\r{printable(text)[:width]}\x1b[K")
        self._stream.flush()
        self._shown = True

    def clear(self) -> None:
        """Wipe the status line, if one is shown."""
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.clear()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False

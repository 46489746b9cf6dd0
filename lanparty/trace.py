"""Timing trace of one peer process, for ``lanparty bench``.

When ``$LANPARTY_TRACE`` names a directory, each peer appends JSON lines to
``<dir>/<nick>.jsonl``: ``{"ev": ..., "t": ...}`` plus the event's fields. ``t`` is
``time.monotonic()``, which on Linux is one clock for every process of the machine, so the
bench can subtract times recorded by different peers. Events:

- ``start``: the process began (``pid``);
- ``play``: this seat handed a move to the protocol (``pos`` it aims at, ``seat``);
- ``applied``: an entry was applied here (``pos``, ``seat``, ``kind``);
- ``seats``: the seats were fixed; ``over``: the game ended; ``closed``: the table closed
  (``rss_mb``, this process's peak resident memory).

Nothing secret is ever traced: positions, seats, entry kinds and times only.
"""

from __future__ import annotations

import json
import os
import re
import resource
import time
from pathlib import Path
from typing import IO, Any

__all__ = ["Tracer", "peak_rss_mb"]

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def peak_rss_mb() -> float:
    """This process's peak resident set size in MiB (Linux reports KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class Tracer:
    """Appends trace events to a file, or does nothing when tracing is off."""

    def __init__(self, file: IO[str] | None) -> None:
        self._file = file

    @classmethod
    def from_env(cls, nick: str) -> Tracer:
        """A tracer writing to ``$LANPARTY_TRACE/<nick>.jsonl``, or a silent one."""
        folder = os.environ.get("LANPARTY_TRACE")
        if not folder:
            return cls(None)
        Path(folder).mkdir(parents=True, exist_ok=True)
        path = Path(folder) / f"{_SAFE.sub('_', nick) or 'peer'}.jsonl"
        tracer = cls(path.open("a", encoding="utf-8", buffering=1))
        tracer.record("start", pid=os.getpid())
        return tracer

    @property
    def on(self) -> bool:
        """True when events are written somewhere."""
        return self._file is not None

    def record(self, ev: str, **fields: Any) -> None:
        """Write one event stamped with ``time.monotonic()``."""
        if self._file is not None:
            self._file.write(json.dumps({"ev": ev, "t": time.monotonic(), **fields}) + "\n")

    def close(self) -> None:
        """Record ``closed`` with the peak memory and close the file."""
        if self._file is not None:
            self.record("closed", rss_mb=peak_rss_mb())
            self._file.close()
            self._file = None

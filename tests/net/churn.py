"""A stranger churning connections: ``python -m tests.net.churn HOST PORT SOURCE`` opens and
closes TCP connections to HOST:PORT from the address SOURCE, one after another, as fast as it
can (no hello: connect, then reset), until it is terminated. Every 10,000 cycles, and when it
is terminated, it prints one JSON line: how many it made, how many connects failed (by errno)
and how long it took."""

from __future__ import annotations

import json
import signal
import socket
import struct
import sys
import time
from collections import Counter

_RESET = struct.pack("ii", 1, 0)  # close with a reset: no TIME_WAIT left on our side


class Churn:
    """The cycles made so far."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.cycles = 0
        self.failed: Counter[int] = Counter()

    def report(self, *_: object) -> None:
        """Print where it stands."""
        seconds = time.monotonic() - self.started
        line = {"cycles": self.cycles, "failed": dict(self.failed), "seconds": seconds}
        print(json.dumps(line), flush=True)

    def run(self, host: str, port: int, source: str) -> None:
        """Connect and close for good."""
        while True:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
            try:
                sock.bind((source, 0))
                sock.connect((host, port))
            except OSError as exc:
                self.failed[exc.errno or 0] += 1
            finally:
                sock.close()
            self.cycles += 1
            if self.cycles % 10_000 == 0:
                self.report()


def _end(churn: Churn) -> None:
    churn.report()
    raise SystemExit(0)


if __name__ == "__main__":
    churn = Churn()
    signal.signal(signal.SIGTERM, lambda *_: _end(churn))
    churn.run(sys.argv[1], int(sys.argv[2]), sys.argv[3])

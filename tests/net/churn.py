"""A stranger churning connections: ``python -m tests.net.churn HOST PORT N SOURCE`` opens
and closes N TCP connections to HOST:PORT from the address SOURCE, one after another, as fast
as it can (no hello: connect, then reset), and prints one JSON line: how many it made, how
many connects failed (by errno) and how long it took. N of 0 churns until it is killed."""

from __future__ import annotations

import json
import socket
import struct
import sys
import time
from collections import Counter

_RESET = struct.pack("ii", 1, 0)  # close with a reset: no TIME_WAIT left on our side


def churn(host: str, port: int, n: int, source: str) -> dict[str, object]:
    """Open and close ``n`` connections (forever if 0); what happened."""
    started = time.monotonic()
    failed: Counter[int] = Counter()
    done = 0
    while not n or done < n:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
        try:
            sock.bind((source, 0))
            sock.connect((host, port))
        except OSError as exc:
            failed[exc.errno or 0] += 1
        finally:
            sock.close()
        done += 1
    return {"cycles": done, "failed": dict(failed), "seconds": time.monotonic() - started}


if __name__ == "__main__":
    host, port, n, source = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    print(json.dumps(churn(host, port, n, source)), flush=True)

"""Spectators pulling the log for free: ``python -m tests.net.watchflood HOST PORT N`` runs N
connections from this machine, each looping: connect, ``watch`` from position 0, read until
it holds every entry the host had when it connected (or is refused, or hung up on), close,
again. It prints ``pulling`` once the first bytes of a log arrived, then every second (and
when it is terminated) one JSON line: the bytes it asked (watch frames) and received, its
loops and the refusals it got."""

from __future__ import annotations

import json
import signal
import socket
import sys
import threading
import time

from protocol import Challenge, FrameReader, Refuse, Watch, decode_message, encode_message, frame

_lock = threading.Lock()
stats = {"asked": 0, "received": 0, "loops": 0, "refused": 0}


def _add(key: str, n: int) -> None:
    with _lock:
        stats[key] += n


def _pull(host: str, port: int) -> None:
    """One watch from position 0, read to the end of what the host held then."""
    with socket.create_connection((host, port), timeout=10) as sock:
        reader = FrameReader(1 << 24)
        held = -1  # entries the host held when it challenged us
        got = 0
        while held < 0 or got < held:
            payload = reader.next_frame()
            if payload is None:
                data = sock.recv(1 << 16)
                if not data:
                    return
                _add("received", len(data))
                reader.feed(data)
                continue
            msg = decode_message(payload)
            if isinstance(msg, Challenge):
                held = msg.pos
                ask = frame(encode_message(Watch(0)))
                sock.sendall(ask)
                _add("asked", len(ask))
            elif isinstance(msg, Refuse):
                _add("refused", 1)
                return
            else:
                got += 1


def _loop(host: str, port: int) -> None:
    while True:
        try:
            _pull(host, port)
        except OSError:
            time.sleep(0.01)  # reset or refused: at once again, nearly
        _add("loops", 1)


def _report(*_: object) -> None:
    """Print the figures so far and end (on SIGTERM)."""
    with _lock:
        print(json.dumps(stats), flush=True)
    raise SystemExit(0)


if __name__ == "__main__":
    host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    signal.signal(signal.SIGTERM, _report)
    for _ in range(n):
        threading.Thread(target=_loop, args=(host, port), daemon=True).start()
    while not stats["received"]:
        time.sleep(0.01)
    print("pulling", flush=True)  # the first bytes of a log arrived
    while True:
        time.sleep(1)
        with _lock:
            print(json.dumps(stats), flush=True)

"""``lanparty demo``: a whole table of bot processes that find each other over mDNS on
loopback, play to the end and pass the audit; prints the outcome and exits 0 only then."""

from __future__ import annotations

import argparse
import json
import secrets
import subprocess
import sys
import time
from typing import Any

from lanparty.games import get_game
from lanparty.netcmd import reap
from lanparty.outcome import verdict

__all__ = ["run_demo"]


def _demo(args: argparse.Namespace) -> dict[str, Any]:
    name = f"demo-{secrets.token_hex(4)}"
    base = [sys.executable, "-m", "lanparty"]
    start = time.perf_counter()
    host = subprocess.Popen(
        [*base, "host", args.game, "--bot", "--local", "--quiet", "--json", "--seats",
         str(args.players), "--name", name, "--seed", str(args.seed), "--nick", "host-bot",
         "--grace", "0", *(f"--option={o}" for o in getattr(args, "option", []))],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
    )  # fmt: skip
    # Each joiner finds the table by its name over mDNS, and reports by its exit code.
    joiners = [
        subprocess.Popen(
            [
                *base,
                "join",
                name,
                "--bot",
                "--local",
                "--quiet",
                "--timeout",
                "30",
                "--seed",
                str(args.seed + i),
                "--nick",
                f"bot-{i}",
                "--grace",  # all on this machine: a broken connection means the host died
                "0",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        for i in range(1, args.players)
    ]
    try:
        codes = [reap(p, 300) for p in joiners]
        out, _ = host.communicate(timeout=300)
    finally:
        for p in [host, *joiners]:
            if p.poll() is None:
                p.kill()
                p.wait()
    codes.insert(0, host.returncode)
    try:
        summary: dict[str, Any] = json.loads(out.decode() or "{}")
    except ValueError:
        summary = {}
    summary.update(
        {"players": args.players, "wall_s": round(time.perf_counter() - start, 3),
         "exit_codes": codes, "ok": all(c == 0 for c in codes) and summary.get("audit_ok")}
    )  # fmt: skip
    return summary


def run_demo(args: argparse.Namespace) -> int:
    """``lanparty demo``: 0 only if every process finished and the audit passed."""
    get_game(args.game)
    result = _demo(args)
    if args.json:
        print(json.dumps(result))
    elif "names" in result:
        print(f"{args.game}, {args.players} bot processes over mDNS on loopback, "
              f"{result['wall_s']:.1f} s in all")  # fmt: skip
        print(verdict(result))
    else:
        print(f"the demo failed: exit codes {result['exit_codes']}", file=sys.stderr)
    return 0 if result["ok"] else 1

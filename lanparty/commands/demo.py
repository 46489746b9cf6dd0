"""``lanparty demo``: a whole table of bot processes that find each other over mDNS on
loopback, play to the end and pass the audit; prints the outcome and exits 0 only then.

The host keeps the table's transcript; the other bots keep none. While the game runs, a
status line on a terminal's stderr says how far it got (read from the host's trace, see
:mod:`lanparty.trace`); with stderr not a terminal nothing is shown. Ctrl-C ends every
process of the demo (one line, exit status 130).
"""

from __future__ import annotations

import argparse
import json
import secrets
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from lanparty import i18n
from lanparty.commands.common import (
    CliError,
    Command,
    check_table,
    known_game,
    net_errors,
    parse_options,
)
from lanparty.commands.netargs import games_help
from lanparty.commands.progress import Progress
from lanparty.games import get_game
from lanparty.i18n import N_, _, ngettext
from lanparty.interrupt import end_all, lanparty_command, on_interrupt, spawn
from lanparty.table.outcome import verdict

__all__ = ["COMMAND", "run_demo"]

#: Seconds a demo may take before its processes are ended and it fails.
TIMEOUT = 300
_HOST = "host-bot"


class _Watch:
    """How far the host got, from its trace file (``None``: not traced)."""

    def __init__(self, path: Path | None, seats: int) -> None:
        self._path = path
        self._offset = 0
        self._seats = seats
        self.seated = self.moves = 0
        self.fixed = self.over = False

    def poll(self) -> None:
        """Read the events traced since the last call."""
        if self._path is None or not self._path.exists():
            return
        with self._path.open("rb") as f:
            f.seek(self._offset)
            data = f.read()
        done = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._offset += done
        for line in data[:done].splitlines():
            self._see(json.loads(line))

    def _see(self, event: dict[str, Any]) -> None:
        ev, kind = event.get("ev"), event.get("kind")
        if ev == "applied" and kind in ("open", "join"):
            self.seated += 1
        elif ev == "applied" and kind == "move":
            self.moves += 1
        elif ev == "seats":
            self.fixed = True
        elif ev == "over":
            self.over = True

    def status(self) -> str:
        """Where the table is, in a few words."""
        if self.over:
            return _("auditing the game")
        if self.moves:
            return ngettext("playing: {n} move", "playing: {n} moves", self.moves).format(
                n=self.moves
            )
        if self.fixed:
            return _("shuffling and dealing")
        return _("{seated} of {seats} seated").format(seated=self.seated, seats=self._seats)


def _demo(args: argparse.Namespace, progress: Progress) -> dict[str, Any]:
    name = f"demo-{secrets.token_hex(4)}"
    base = lanparty_command()  # never importing from the folder the demo is run in
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lanparty-demo-") as trace:
        env = {"LANPARTY_TRACE": trace} if progress.on else None
        watch = _Watch(Path(trace) / f"{_HOST}.jsonl" if progress.on else None, args.players)
        host = spawn(
            [*base, "host", args.game, "--bot", "--local", "--quiet", "--json", "--no-friends",
             "--seats", str(args.players), "--name", name, "--seed", str(args.seed), "--nick",
             _HOST, "--grace", "0", *(f"--option={o}" for o in getattr(args, "option", []))],
            stdout=subprocess.PIPE, env=env,
        )  # fmt: skip
        # Each joiner finds the table by its name over mDNS, and reports by its exit code;
        # all on this machine: a broken connection means the host died (--grace 0).
        join = [*base, "join", name, "--bot", "--local", "--quiet", "--timeout", "30",
                "--grace", "0", "--no-transcript"]  # fmt: skip
        bots = [[*join, "--seed", str(args.seed + i), "--nick", f"bot-{i}"]
                for i in range(1, args.players)]  # fmt: skip
        joiners = [spawn(cmd, stdout=subprocess.DEVNULL) for cmd in bots]
        procs = [host, *joiners]
        try:
            _wait(procs, watch, progress, args.game)
            out, _err = host.communicate()
        finally:
            end_all(procs)  # those still running: a timeout, or Ctrl-C
    codes = [p.returncode for p in procs]
    try:
        summary: dict[str, Any] = json.loads(out.decode() or "{}")
    except ValueError:
        summary = {}
    summary.update(
        {"players": args.players, "wall_s": round(time.perf_counter() - start, 3),
         "exit_codes": codes, "ok": all(c == 0 for c in codes) and summary.get("audit_ok")}
    )  # fmt: skip
    return summary


def _wait(
    procs: list[subprocess.Popen[bytes]], watch: _Watch, progress: Progress, game: str
) -> None:
    """Wait for every process to end (at most :data:`TIMEOUT` seconds), showing progress."""
    start = time.monotonic()
    while (running := [p for p in procs if p.poll() is None]) and (
        time.monotonic() - start < TIMEOUT
    ):
        watch.poll()
        progress.show(_("demo {game}: {status} · {seconds:.0f} s").format(
            game=game, status=watch.status(), seconds=time.monotonic() - start))  # fmt: skip
        with suppress(subprocess.TimeoutExpired):
            running[0].wait(timeout=0.25)


def run_demo(args: argparse.Namespace) -> int:
    """``lanparty demo``: 0 only if every process finished and the audit passed; raises
    :class:`lanparty.interrupt.Interrupted` on Ctrl-C, once every process has ended."""
    get_game(args.game)
    ended = _("interrupted: the demo's {n} processes were ended").format(n=args.players)
    with on_interrupt(lambda: ended), Progress() as progress:
        result = _demo(args, progress)
    if args.json:
        print(json.dumps(result))
    elif "names" in result:
        print(_("{game}, {n} bot processes over mDNS on loopback, {seconds:.1f} s in all").format(
            game=args.game, n=args.players, seconds=result["wall_s"]))  # fmt: skip
        print(verdict({**result, "transcript": ""}))
        if result.get("transcript"):
            print(_("transcript: {path} (the host's copy; the other bots keep none)").format(
                path=result["transcript"]))  # fmt: skip
    else:
        print(_("the demo failed: exit codes {codes}").format(codes=result["exit_codes"]),
              file=sys.stderr)  # fmt: skip
    return 0 if result["ok"] else 1


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=games_help())
    p.add_argument("--players", type=int, default=4, help=i18n._("bot peers, one process each"))
    p.add_argument("--seed", type=int, default=1, help=i18n._("seed of the bots' choices"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=i18n._("a table option; repeatable"))  # fmt: skip
    p.add_argument("--json", action="store_true", help=i18n._("print the outcome as JSON (with "
                   "rounds_won and races_won per seat)"))  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """``lanparty demo``: check what was typed, then :func:`run_demo`."""
    game = get_game(known_game(args.game))
    if not game.min_seats <= args.players <= game.max_seats:
        raise CliError(i18n._("--players must be {low}..{high} for {game}").format(
            low=game.min_seats, high=game.max_seats, game=args.game))  # fmt: skip
    check_table(args.game, args.players, parse_options(args.game, args.option))
    return run_demo(args)


COMMAND = Command(
    "demo",
    N_("a whole table of bot processes over mDNS on loopback"),
    configure,
    net_errors(run),
)

"""What ``lanparty bench`` measures: real peer processes on loopback, and the figures from
their traces (computed by :mod:`lanparty.bench.traces`).

Every process gets a temporary ``$LANPARTY_HOME`` and ``$LANPARTY_TRACE`` (see
:mod:`lanparty.trace`); ``time.monotonic()`` is one clock for all processes on Linux.

**Discovery** (``discovery_s``, median of ``DISCOVERY_RUNS``): with a browser
(:func:`lanparty.net.discovery.browse` on 127.0.0.1) already running in this process, the
time from just before spawning ``lanparty host GAME --bot --local`` until the browser has
resolved that table. Each host is then stopped with SIGINT (it says goodbye).
``discovery_startup_s`` is the part until the host's trace ``start`` (interpreter, imports).

**A game**: ``lanparty host GAME --bot --local --bots N-1`` with the game's short options
(its plugin's ``short``, e.g. one round; the host spawns N−1 ``lanparty join --bot``
processes). From the traces:

- ``joint_shuffle_s``: the first joint shuffle — every deck of the first batch that shuffles
  any, ``cards`` cards in all (KaTO: its 108) — from when the entry two before the first
  ``shuffle`` was applied at every peer until the last ``shuffle`` of that run (N per deck)
  was applied at every peer (every proof verified everywhere); see :func:`joint_shuffle`.
- ``deal_s``: from that end until the last entry before the first ``move`` (the ``shares``
  entries dealing the hands and turning up the first card) was applied at every peer.
- ``first_deal_s``: from just before the host's process is spawned (what ``lanparty play``
  does on a keypress) until that same entry was applied at the host: the first hand a person
  at seat 0 could see, bots started, keys exchanged, the deck shuffled and dealt.
- ``move_latency_ms_p50``/``_p99`` (nearest rank, over ``moves``): for each ``play`` (a bot
  hands a move for position P to the protocol), the time until the entry at P by that seat
  was applied at every peer. Plays whose position another entry took are ``lost_races``.
- ``round_wall_s``: from the host's trace ``start`` until the last peer saw the game end
  (``over``): joins, keys, coin, shuffle, deal and play. ``game_s`` starts at the host's
  ``seats``; ``table_wall_s`` ends when the last peer closed (audit and sign-off done).
- ``peak_rss_mb``: the largest peak RSS of any peer process; ``peak_rss_mb_per_peer``.

With ``--lan-model``: ``lan_model_joint_shuffle_s``, the joint shuffle as if each peer had a
machine of its own (:mod:`lanparty.bench.model`), from ``lan_model_prove_s`` and
``lan_model_check_s`` measured in this process for the game's first deck.
"""

from __future__ import annotations

import json
import os
import platform
import random
import secrets
import signal
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

import lanparty
from lanparty.bench.traces import (
    HOST,
    EntryLog,
    analyse,
    event_times,
    first_deal_s,
    read_traces,
    rounded,
)
from lanparty.errors import NetError
from lanparty.games import PLUGINS, get_game
from lanparty.games.localdealer import LocalTable
from lanparty.interrupt import child_env, lanparty_command
from lanparty.net.discovery import TableAd, browse
from protocol.contract import Shuffle, TableOps

__all__ = ["DISCOVERY_RUNS", "measure"]

DISCOVERY_RUNS = 3
_GAME_TIMEOUT = 600.0
_SEEN_TIMEOUT = 30.0

# --------------------------------------------------------------------------- processes


def _stop_groups(pids: Sequence[int]) -> None:
    """End the process groups this bench started (each led by a pid in ``pids``) that still
    run: SIGTERM, then SIGKILL after a grace period."""
    alive = [pid for pid in pids if _signal_group(pid, signal.SIGTERM)]
    deadline = time.monotonic() + 3
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in alive if _signal_group(pid, 0)]
    for pid in alive:
        _signal_group(pid, signal.SIGKILL)


def _signal_group(pid: int, sig: int) -> bool:
    """Send ``sig`` to the process group ``pid`` leads; False if the group is gone."""
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def _env(base: Path, trace: Path) -> dict[str, str]:
    root = str(Path(lanparty.__file__).resolve().parent.parent)
    path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
    trace.mkdir(parents=True, exist_ok=True)
    return child_env({"LANPARTY_HOME": str(base / "home"), "LANPARTY_TRACE": str(trace),
                      "PYTHONPATH": path})  # fmt: skip


def _host_cmd(game: str, players: int, name: str, nick: str, *extra: str) -> list[str]:
    return lanparty_command("host", game, "--bot", "--local", "--quiet", "--seats",
                            str(players), "--name", name, "--nick", nick, *extra)  # fmt: skip


@dataclass
class _Discovery:
    samples: list[float] = field(default_factory=list)
    startup: list[float] = field(default_factory=list)
    error: str = ""


async def _discover(game: str, players: int, base: Path, procs: list[int]) -> _Discovery:
    """Time ``DISCOVERY_RUNS`` hosts from spawn until this process's browser sees each; stops
    at the first failure (``error``): raising inside the browser's nursery would wrap it."""
    out, trace = _Discovery(), base / "discovery"
    env = _env(base, trace)
    async with browse("127.0.0.1") as lobby:
        for i in range(DISCOVERY_RUNS):
            name, nick = f"bench-{secrets.token_hex(4)}", f"disc-{i}"
            errfile = base / f"{nick}.err"
            with errfile.open("wb") as err:
                t0 = time.monotonic()
                try:
                    proc = await trio.lowlevel.open_process(
                        _host_cmd(game, players, name, nick), env=env, stdin=subprocess.DEVNULL,
                        stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                    )  # fmt: skip
                except OSError as exc:
                    out.error = f"cannot start a host process: {exc}"
                    return out
                procs.append(proc.pid)
                seen = None
                try:
                    with trio.move_on_after(_SEEN_TIMEOUT):
                        async with trio.open_nursery() as nursery:
                            nursery.start_soon(_cancel_on_exit, proc, nursery.cancel_scope)
                            await lobby.wait_for(_listing(name))
                            seen = time.monotonic()
                            nursery.cancel_scope.cancel()
                finally:
                    with trio.CancelScope(shield=True):
                        await _interrupt(proc)
            if seen is None:
                tail = errfile.read_text(errors="replace").strip()[-200:]
                out.error = (f"table {name!r} not seen within {_SEEN_TIMEOUT:g} s (host exit "
                             f"{proc.returncode}) {tail}").strip()  # fmt: skip
                return out
            out.samples.append(seen - t0)
            out.startup.extend(t - t0 for t in event_times(read_traces(trace), "start", nick)[:1])
    return out


def _listing(name: str) -> Callable[[Mapping[str, TableAd]], bool]:
    return lambda tables: any(t.name == name for t in tables.values())


async def _cancel_on_exit(proc: trio.Process, scope: trio.CancelScope) -> None:
    await proc.wait()
    scope.cancel()


def _run_trio(fn: Any, *args: Any) -> Any:
    """``trio.run``, re-raising a Ctrl-C that a nursery wrapped in an exception group bare."""
    try:
        return trio.run(fn, *args)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from None
        raise


async def _interrupt(proc: trio.Process) -> None:
    """Stop a host as Ctrl-C would (it withdraws its table), killing it if it lingers."""
    if proc.returncode is None:
        with suppress(ProcessLookupError):
            proc.send_signal(signal.SIGINT)
        with trio.move_on_after(5):
            await proc.wait()
    if proc.returncode is None:
        _signal_group(proc.pid, signal.SIGKILL)
        await proc.wait()


def _game(
    game: str, players: int, base: Path, procs: list[int]
) -> tuple[dict[str, Any], Path, float]:
    """Play one traced short game (the plugin's ``short`` options); returns the host's JSON
    summary, the trace folder and when the host was spawned."""
    trace = base / "game"
    short = [f"--option={k}={str(v).lower()}" for k, v in PLUGINS[game].short.items()]
    cmd = _host_cmd(game, players, f"bench-{secrets.token_hex(4)}", HOST, "--bots",
                    str(players - 1), *short, "--seed", "1", "--json",
                    "--react", "0")  # machine speed, not a person's reactions  # fmt: skip
    spawned = time.monotonic()
    proc = subprocess.Popen(cmd, env=_env(base, trace), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    procs.append(proc.pid)
    try:
        out, err = proc.communicate(timeout=_GAME_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise NetError(f"the game did not finish within {_GAME_TIMEOUT:g} s") from None
    lines = out.decode(errors="replace").strip().splitlines()
    try:
        summary: dict[str, Any] = json.loads(lines[-1])
    except (IndexError, ValueError):
        tail = err.decode(errors="replace").strip()[-300:]
        raise NetError(f"the host printed no summary (exit {proc.returncode}): {tail}") from None
    return summary, trace, spawned


# --------------------------------------------------------------------------- the game's figures


def _cards(game: str, players: int) -> int:
    """How many cards (or tiles) the game's first joint shuffle holds: every deck shuffled in
    the first batch that shuffles any (a batch shuffles all its decks first, one run of
    ``shuffle`` entries: what ``joint_shuffle_s`` times). Requests before it, a coin say, are
    fulfilled by a seeded local dealer; 0 if the game shuffles nothing."""
    g = get_game(game)
    table = LocalTable(g, players, g.validate_options(dict(PLUGINS[game].short)),
                       random.Random(0))  # fmt: skip
    for _ in range(64):
        status = g.status(table.state)
        if not isinstance(status, TableOps):
            return 0
        decks = [r for r in status.requests if isinstance(r, Shuffle)]
        if decks:
            return sum(len(r.cards) for r in decks)
        table.resolve_one()
    return 0


def measure(players: int, game: str) -> dict[str, Any]:
    """Run the discovery timings and one traced game of ``game``; every figure in one
    dict."""
    procs: list[int] = []
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    if ignored:  # children would inherit it (a background job of a script), and the
        # discovery hosts are stopped with SIGINT so that they withdraw their tables
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with tempfile.TemporaryDirectory(prefix="lanparty-bench-") as tmp:
            base = Path(tmp)
            disc: _Discovery = _run_trio(_discover, game, players, base, procs)
            if disc.error:
                raise NetError(f"discovery: {disc.error}")
            summary, trace, spawned = _game(game, players, base, procs)
            traces = read_traces(trace)
            figures = analyse(traces, HOST)
            figures["first_deal_s"] = rounded(
                first_deal_s(EntryLog.from_traces(traces), spawned), 3
            )
    finally:
        _stop_groups(procs)
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
    return {
        "game": game,
        "players": players,
        "cards": _cards(game, players),
        "python": platform.python_version(),
        "trio": trio.__version__,
        "cpu_count": os.cpu_count(),
        "discovery_s": round(statistics.median(disc.samples), 3),
        "discovery_samples_s": [round(s, 3) for s in disc.samples],
        "discovery_startup_s": round(statistics.median(disc.startup), 3) if disc.startup else None,
        **figures,
        "audit_ok": bool(summary.get("audit_ok")),
        "winners": summary.get("winners", []),
        "stopped": summary.get("stopped", ""),
    }

"""A stranger churning connections against real host processes (issue 20): 60,000 connects and
closes (no hello) during a bot game once grew a host by 27.5 MB and made a 4.8 s game take
30 s, because every connection stayed in the host's table for good and every relay walked
them all. Closed connections now leave every structure, and new connections are rate-limited
per address (one over the rate is reset as it is accepted): the churned host keeps its size
and its pace, and a seat on another address comes back through the churn.

The quiet game is played at the same time as the churned one, on the same machine, with the
same workload (Unanimo: a fixed number of cards, so of entries): both share whatever else the
machine is doing, and the churn client's own CPU (the attacker's, another machine's on a real
LAN) slows both alike. What differs is what the churned host itself does and keeps."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import trio

from .hostile import rss_kib
from .procs import Procs, table

ROOT = Path(__file__).resolve().parents[2]
CYCLES = 60_000
CARDS = "80"  # Unanimo cards: a game long enough to hold the whole churn


async def _churn(endpoint: str, n: int, source: str) -> trio.Process:
    """The churn client (``tests/net/churn.py``)."""
    host, _, port = endpoint.rpartition(":")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    argv = [sys.executable, "-m", "tests.net.churn", host, port, str(n), source]
    return await trio.lowlevel.open_process(argv, cwd=ROOT, env=env, stdout=-1)


async def _peak_rss(pid: int, into: dict[int, int]) -> None:
    """Keep the highest resident size of process ``pid`` (KiB) until it ends."""
    while True:
        try:
            into[pid] = max(into.get(pid, 0), rss_kib(pid))
        except (OSError, AssertionError):
            return  # it ended
        await trio.sleep(0.02)


async def _unanimo_host(t: Procs, who: str) -> tuple[str, int]:
    proc = await t.start(who, "host", "unanimo", "--bot", "--local", "--bots", "3", "--react",
                         "0", "--option", f"cards={CARDS}", "--json", "--nick", "hugo",
                         "--name", f"{who} {os.getpid()}")  # fmt: skip
    line = await t.until(who, "table ")
    return line.split(" on ")[1].split(" ")[0], proc.pid


def _game_s(result: dict[str, object]) -> float:
    """Seconds from the seats being fixed to the table closed, as the host measured them."""
    times = result["times_s"]
    assert isinstance(times, dict)
    return float(times["closed"]) - float(times["seated"])


async def test_60000_connects_and_closes_leave_the_host_its_size_and_its_pace(
    tmp_path: Path,
) -> None:
    peaks: dict[int, int] = {}
    async with table(tmp_path, timeout=240) as t:
        _, quiet_pid = await _unanimo_host(t, "quiet")
        endpoint, churned_pid = await _unanimo_host(t, "churned")
        churn = await _churn(endpoint, CYCLES, "127.0.0.2")
        t.nursery.start_soon(_peak_rss, quiet_pid, peaks)
        t.nursery.start_soon(_peak_rss, churned_pid, peaks)
        try:
            assert churn.stdout is not None
            report = json.loads(b"".join([chunk async for chunk in churn.stdout]))
            assert await churn.wait() == 0
        finally:
            if churn.returncode is None:
                churn.kill()
                await churn.wait()
        # The whole churn happened while the churned game was being played.
        assert not any("game over" in x for x in t.err["churned"]), "the game ended first"
        quiet, churned = await t.result("quiet"), await t.result("churned")
    for r in (quiet, churned):
        assert r["audit_ok"] and not r["stopped"], r
    assert report["cycles"] == CYCLES and not report["failed"], report
    grown = peaks[churned_pid] - peaks[quiet_pid]
    ratio = _game_s(churned) / _game_s(quiet)
    print(f"churn: {CYCLES} cycles in {report['seconds']:.1f} s; host peak RSS "
          f"{peaks[quiet_pid] / 1024:.1f} MiB quiet, {peaks[churned_pid] / 1024:.1f} MiB "
          f"churned ({grown:+d} KiB); game {_game_s(quiet):.2f} s quiet, "
          f"{_game_s(churned):.2f} s churned (x{ratio:.2f})")  # fmt: skip
    assert grown < 5 * 1024, f"the churned host grew {grown} KiB more than the quiet one"
    assert ratio < 1.5, f"the churned game took {ratio:.2f} times as long"


async def test_a_seat_on_another_address_comes_back_through_a_churn(tmp_path: Path) -> None:
    """A seat killed mid-game takes its seat back (``join --resume``) while a stranger churns
    connections as fast as it can: the stranger's address is over its rate, the seat's is
    not."""
    async with table(tmp_path) as t:
        endpoint = await t.host("--seats", "3", "--grace", "60", "--react", "0")
        churn = await _churn(endpoint, 0, "127.0.0.2")
        try:
            for nick in ("ann", "bob"):
                await t.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick,
                              "--json")  # fmt: skip
            await t.until("bob", "seats fixed")
            t.procs["bob"].send_signal(signal.SIGKILL)
            await t.procs["bob"].wait()
            await t.start("bob2", "join", "--bot", "--resume", "--json", home="bob")
            await t.until("host", "bob is back")
            results = [await t.result(who) for who in ("host", "ann", "bob2")]
        finally:
            churn.kill()
            await churn.wait()
    for r in results:
        assert r["audit_ok"] and not r["stopped"], r

"""A stranger churning connections against real host processes (issue 20): 60,000 connects and
closes (no hello) during a bot game once grew a host by 27.5 MB and made a 4.8 s game take
30 s, because every connection stayed in the host's table for good and every relay walked
them all. Closed connections now leave every structure, and new connections are rate-limited
per address (one over the rate is reset as it is accepted): the churned host keeps its size
and its pace, and a seat on another address comes back through the churn.

The quiet game is played at the same time as the churned one, on the same machine, with the
same workload (Unanimo: a fixed number of cards, so of entries): both share whatever else the
machine is doing, and the churn client's own CPU (the attacker's, another machine's on a real
LAN; it runs at the lowest priority) slows both alike. What differs is what the churned host
itself does and keeps. The churn begins while both tables wait for their players, and their
bots are started once it has made 60,000 cycles; it goes on all game, so the game is played
under it whatever the machine's speed, and the host's size is read after all of them."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import trio

from .hostile import rss_kib
from .procs import Procs, table

ROOT = Path(__file__).resolve().parents[2]
CYCLES = 60_000
CARDS = "40"  # Unanimo cards: every game the same number of entries


async def _churn(endpoint: str, source: str, *, reports: bool = True) -> trio.Process:
    """The churn client (``tests/net/churn.py``) from ``source``, at the lowest CPU priority
    (it stands for another machine); its reports on its stdout (if ``reports``)."""
    host, _, port = endpoint.rpartition(":")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    argv = ["nice", "-n", "19", sys.executable, "-m", "tests.net.churn", host, port, source]
    out = subprocess.PIPE if reports else subprocess.DEVNULL
    return await trio.lowlevel.open_process(argv, cwd=ROOT, env=env, stdout=out)


async def _reports(
    proc: trio.Process, into: list[dict[str, object]], box: list[trio.Event]
) -> None:
    """Each JSON line ``proc`` prints, as it comes; ``box[0]`` is set (and replaced) on each."""
    assert proc.stdout is not None
    buffer = b""
    async for chunk in proc.stdout:
        *lines, buffer = (buffer + chunk).split(b"\n")
        for line in lines:
            into.append(json.loads(line))
            box[0].set()
            box[0] = trio.Event()


async def _stop(proc: trio.Process) -> None:
    """Terminate ``proc`` (it reports, then ends); kill it if it does not."""
    if proc.returncode is None:
        proc.terminate()
        with trio.move_on_after(10):
            await proc.wait()
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


async def _peak_rss(pid: int, into: dict[int, int]) -> None:
    """Keep the highest resident size of process ``pid`` (KiB) until it ends."""
    while True:
        try:
            into[pid] = max(into.get(pid, 0), rss_kib(pid))
        except (OSError, AssertionError):
            return  # it ended
        await trio.sleep(0.02)


async def _unanimo_host(t: Procs, who: str) -> tuple[str, int]:
    """A Unanimo host of four seats waiting for its three bots; its HOST:PORT and pid."""
    proc = await t.start(who, "host", "unanimo", "--bot", "--local", "--seats", "4", "--react",
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
    """The churn starts while both tables wait for their players and goes on all game: their
    bots are started once it has made 60,000 cycles."""
    peaks: dict[int, int] = {}
    reports: list[dict[str, object]] = []
    box = [trio.Event()]
    async with table(tmp_path, timeout=240) as t:
        tables = dict([await _unanimo_host(t, "quiet"), await _unanimo_host(t, "churned")])
        endpoints = list(tables)
        for pid in tables.values():
            t.nursery.start_soon(_peak_rss, pid, peaks)
        churn = await _churn(endpoints[1], "127.0.0.2")
        t.nursery.start_soon(_reports, churn, reports, box)
        try:
            while not reports or int(reports[-1]["cycles"]) < CYCLES:  # type: ignore[call-overload]
                await box[0].wait()
            before = reports[-1]
            for i in range(3):
                for who, endpoint in zip(("quiet", "churned"), endpoints, strict=True):
                    await t.start(f"{who}{i}", "join", "--bot", "--connect", endpoint, "--nick",
                                  f"bot{i}", "--react", "0", "--json", "--quiet")  # fmt: skip
            churned = await t.result("churned")
            quiet = await t.result("quiet")
        finally:
            await _stop(churn)
    for r in (quiet, churned):
        assert r["audit_ok"] and not r["stopped"], r
    # Every one of the 60,000 reached the host: a connect can only fail as reset by it.
    assert set(before["failed"]) <= {str(errno.ECONNRESET)}, before  # type: ignore[arg-type]
    assert int(reports[-1]["cycles"]) > int(before["cycles"])  # type: ignore[call-overload]
    quiet_pid, churned_pid = tables.values()
    grown = peaks[churned_pid] - peaks[quiet_pid]
    ratio = _game_s(churned) / _game_s(quiet)
    quiet_mib, churned_mib = peaks[quiet_pid] / 1024, peaks[churned_pid] / 1024
    print(f"churn: {before['cycles']} cycles in {before['seconds']:.1f} s before the game, "
          f"{reports[-1]['cycles']} by its end; host peak RSS {quiet_mib:.1f} MiB quiet, "
          f"{churned_mib:.1f} MiB churned ({grown:+d} KiB); game {_game_s(quiet):.2f} s "
          f"quiet, {_game_s(churned):.2f} s churned (x{ratio:.2f})")  # fmt: skip
    assert grown < 5 * 1024, f"the churned host grew {grown} KiB more than the quiet one"
    assert ratio < 1.5, f"the churned game took {ratio:.2f} times as long"


async def test_a_seat_on_another_address_comes_back_through_a_churn(tmp_path: Path) -> None:
    """A seat killed mid-game takes its seat back (``join --resume``) while a stranger churns
    connections as fast as it can: the stranger's address is over its rate, the seat's is
    not."""
    async with table(tmp_path) as t:
        endpoint = await t.host("--seats", "3", "--grace", "60", "--react", "0")
        churn = await _churn(endpoint, "127.0.0.2", reports=False)
        try:
            for nick in ("ann", "bob"):
                await t.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick,
                              "--json")  # fmt: skip
            await t.until("bob", "seats fixed")
            bob = await t.restart("bob")
            results = [await t.result(who) for who in ("host", "ann", bob)]
        finally:
            churn.kill()
            await churn.wait()
    for r in results:
        assert r["audit_ok"] and not r["stopped"], r

"""Spectators pulling the log for free, on a slow link (issue 20): 16 connections from one
address looping on ``watch`` from position 0 once made a host send 69 MB for 44 kB asked, and
on a 20 Mbit/s link a 5 s game took 27–36 s. Now one address holds at most a few spectators,
reconnects at the connection rate, is sent at most its byte budget, and only what the seats'
relays leave of the link.

Two identical tables play at once, each host on its own link shaped to 20 Mbit/s both ways
(``tc tbf``) in namespaces of this test: one is left alone, the other gets the 16 spectators
from a fourth namespace. The workload is fixed (Unanimo: a fixed number of cards), and both
tables share the machine, so what differs is what the spectators cost the watched table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from tests.net import netns

from .procs import Procs, table

pytestmark = pytest.mark.netns

ROOT = Path(__file__).resolve().parents[2]
RATE = "20mbit"
CARDS = "40"
WATCHERS = 16


@pytest.fixture
def lan() -> Iterator[netns.Lan]:
    """Two hosts' machines, one for their bots, one for the spectators; torn down whatever
    happens (their links' shaping goes with them)."""
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    if subprocess.run(["tc", "-V"], capture_output=True, check=False).returncode != 0:
        pytest.skip("link shaping needs the `tc` command (iproute2)")
    with netns.bridged_lan(4, subnet="10.77.214", prefix="lpf") as four:
        for i, host in enumerate(four.hosts[:2], start=1):
            # Both ways: the host's own interface out, its bridge port in.
            for ns, dev in ((host.netns, host.interface), (four.bridge_netns, f"vb{i}")):
                subprocess.run(["tc", "-n", ns, "qdisc", "add", "dev", dev, "root", "tbf",
                                "rate", RATE, "burst", "16kb", "latency", "50ms"],
                               check=True, capture_output=True)  # fmt: skip
        yield four


async def _host(t: Procs, name: str, host: netns.NetHost) -> str:
    """A Unanimo host on ``host``'s shaped link; its HOST:PORT."""
    await t.start(name, "host", "unanimo", "--bot", "--interface", host.interface, "--seats",
                  "4", "--react", "0", "--option", f"cards={CARDS}", "--json", "--nick", name,
                  "--name", f"{name} {os.getpid()}", netns=host.netns)  # fmt: skip
    line = await t.until(name, "table ")
    return line.split(" on ")[1].split(" ")[0]


async def _bots(t: Procs, tables: dict[str, str], bots: netns.NetHost) -> None:
    """Three bot players at each table, all from ``bots``, started side by side."""
    for i in range(3):
        for name, endpoint in tables.items():
            await t.start(f"{name}{i}", "join", "--bot", "--connect", endpoint, "--nick",
                          f"bot{i}", "--react", "0", "--json", "--quiet",
                          netns=bots.netns)  # fmt: skip


def _game_s(result: dict[str, object]) -> float:
    """Seconds from the seats being fixed to the table closed, as the host measured them."""
    times = result["times_s"]
    assert isinstance(times, dict)
    return float(times["closed"]) - float(times["seated"])


async def _lines(proc: trio.Process, into: list[str], pulling: trio.Event) -> None:
    """Every line ``proc`` prints, as it comes; ``pulling`` is set on the first."""
    assert proc.stdout is not None
    buffer = b""
    async for chunk in proc.stdout:
        *lines, buffer = (buffer + chunk).split(b"\n")
        into.extend(line.decode() for line in lines)
        if into:
            pulling.set()


async def test_16_spectators_pulling_the_log_do_not_slow_the_table(
    lan: netns.Lan, tmp_path: Path
) -> None:
    quiet_host, watched_host, bots, outsider = lan.hosts
    lines: list[str] = []
    async with table(tmp_path, timeout=240) as t:
        tables = {"watched": await _host(t, "watched", watched_host),
                  "quiet": await _host(t, "quiet", quiet_host)}  # fmt: skip
        ip, _, port = tables["watched"].rpartition(":")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
        flood = await trio.lowlevel.open_process(
            ["ip", "netns", "exec", outsider.netns, "nice", "-n", "19", sys.executable, "-m",
             "tests.net.watchflood", ip, port, str(WATCHERS)],
            cwd=ROOT, env=env, stdout=-1,
        )  # fmt: skip
        pulling = trio.Event()
        t.nursery.start_soon(_lines, flood, lines, pulling)
        try:
            await pulling.wait()  # the spectators pull before the first seat sits down
            await _bots(t, tables, bots)
            watched, quiet = await t.result("watched"), await t.result("quiet")
        finally:
            flood.terminate()  # it says how much it pulled, then ends
            with trio.move_on_after(10):
                await flood.wait()
            if flood.returncode is None:
                flood.kill()
                await flood.wait()
    for r in (watched, quiet):
        assert r["audit_ok"] and not r["stopped"], r
    pulled = json.loads(lines[-1])
    ratio = _game_s(watched) / _game_s(quiet)
    print(f"spectators: {pulled}; game {_game_s(quiet):.2f} s alone, {_game_s(watched):.2f} s "
          f"watched (x{ratio:.2f})")  # fmt: skip
    assert pulled["loops"] > WATCHERS, pulled  # they kept pulling all game
    assert ratio < 1.5, f"the watched game took {ratio:.2f} times as long"

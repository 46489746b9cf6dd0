"""Three hosts in three network namespaces on one bridge: the joiners find the table by mDNS
alone (no ``--connect``), and the three bot peers play a whole KaTO game and pass the audit;
two hosts open tables of one name, and the third sees two tables."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

import pytest

from tests.net import netns

pytestmark = pytest.mark.netns

LANPARTY = [sys.executable, "-m", "lanparty"]
GAME_TIMEOUT = 180.0  # seconds for the whole game; it takes about 5-10 s


@pytest.fixture
def lan() -> Iterator[netns.Lan]:
    """Three bridged hosts, torn down (processes killed, namespaces deleted) whatever happens."""
    reason = netns.unavailable()
    if reason:
        pytest.skip(reason)
    with netns.bridged_lan(3) as three:
        yield three


def _env(home: Path) -> dict[str, str]:
    home.mkdir()
    return {**os.environ, "LANPARTY_HOME": str(home)}


def _wait(procs: dict[str, subprocess.Popen[Any]], logs: Path, timeout: float) -> dict[str, int]:
    """Exit codes of ``procs``, waiting at most ``timeout`` s in all; fails with their logs."""
    deadline = time.monotonic() + timeout
    codes: dict[str, int] = {}
    for who, proc in procs.items():
        try:
            codes[who] = proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pytest.fail(f"{who} still running after {timeout:g} s\n" + _logs(logs, procs))
    return codes


def _logs(logs: Path, procs: dict[str, Any]) -> str:
    return "\n".join(
        f"--- {who} {kind}:\n{(logs / f'{who}.{kind}').read_text(errors='replace')}"
        for who in procs
        for kind in ("out", "err")
    )


def test_peers_in_three_namespaces_find_the_table_by_mdns_and_play(
    lan: netns.Lan, tmp_path: Path
) -> None:
    h1, h2, h3 = lan.hosts
    table = f"netns kato {os.getpid()}"
    nicks = {"host": "ana", "join2": "bo", "join3": "cy"}
    homes = {who: tmp_path / who for who in nicks}
    envs = {who: _env(home) for who, home in homes.items()}
    logs = tmp_path / "logs"
    logs.mkdir()

    def start(who: str, host: netns.NetHost, argv: list[str]) -> subprocess.Popen[Any]:
        with (logs / f"{who}.out").open("wb") as out, (logs / f"{who}.err").open("wb") as err:
            return lan.popen(host, [*LANPARTY, *argv, "--nick", nicks[who]],
                             stdout=out, stderr=err, env=envs[who])  # fmt: skip

    host_argv = ["host", "kato", "--bot", "--interface", h1.interface, "--seats", "3",
                 "--name", table, "--option", "rounds=1", "--json", "--quiet"]  # fmt: skip
    procs = {"host": start("host", h1, host_argv)}

    # The table is advertised until its seats are fixed: another host's `list` sees it, with
    # the address of host 1's interface. Each `list` listens 3 s; retry while the host starts.
    seen: list[dict[str, Any]] = []
    for _ in range(10):
        list_argv = [*LANPARTY, "list", "--interface", h2.interface, "--json", "--timeout", "3"]
        listing = lan.run(h2, list_argv, 60, capture_output=True, text=True, env=envs["join2"])
        assert listing.returncode == 0, listing.stderr
        seen = [t for t in json.loads(listing.stdout) if t["name"] == table]
        if seen or procs["host"].poll() is not None:
            break
    assert seen, "the table was never seen from another namespace\n" + _logs(logs, procs)
    assert (seen[0]["address"], seen[0]["seats"], seen[0]["free"]) == (h1.ip, 3, 2)
    assert seen[0]["host"] == "ana"

    for who, host in (("join2", h2), ("join3", h3)):
        join_argv = ["join", table, "--bot", "--interface", host.interface,
                     "--timeout", "30", "--quiet", "--json"]  # fmt: skip
        procs[who] = start(who, host, join_argv)

    codes = _wait(procs, logs, GAME_TIMEOUT)
    assert codes == {who: 0 for who in procs}, _logs(logs, procs)

    results = {who: json.loads((logs / f"{who}.out").read_text().splitlines()[-1])
               for who in procs}  # fmt: skip
    assert results["host"]["audit_ok"] is True
    assert sorted(results["host"]["names"]) == ["ana", "bo", "cy"]
    for who in ("join2", "join3"):
        assert results[who]["audit_ok"] is True
        assert results[who]["names"] == results["host"]["names"]
        assert results[who]["scores"] == results["host"]["scores"]

    transcripts = {}
    for who, home in homes.items():
        saved = sorted((home / "transcripts").glob("*.lptx"))
        assert len(saved) == 1, f"{who} saved {saved}"
        transcripts[who] = saved[0].read_bytes()
    assert transcripts["host"] == transcripts["join2"] == transcripts["join3"]

    for who in procs:
        assert "Traceback" not in (logs / f"{who}.err").read_text(), _logs(logs, procs)


class _Driver:
    """A :mod:`tests.net.adverts` process in one host's namespace: JSON lines in and out."""

    def __init__(self, lan: netns.Lan, host: netns.NetHost, err: Path, *flags: str) -> None:
        self.host = host
        with err.open("wb") as log:
            self.proc = lan.popen(host, [sys.executable, "-m", "tests.net.adverts", host.ip,
                                         *flags], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=log)  # fmt: skip
        self.err = err
        self.lines: list[dict[str, Any]] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def close(self) -> None:
        """End its input (it withdraws its tables and exits; killed if it does not) and
        close its pipes."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with suppress(BrokenPipeError):
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(timeout=10)
        self.proc.stdout.close()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._queue.put(json.loads(line))
        self._queue.put(None)  # the process ended

    def send(self, **command: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command).encode() + b"\n")
        self.proc.stdin.flush()

    def until(self, done: Any, what: str, deadline: float) -> list[dict[str, Any]]:
        """Every line so far, once ``done(lines)`` holds; fails at ``deadline`` (monotonic)
        or if the process ends first, naming ``what`` it waited for."""
        while not done(self.lines):
            try:
                line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                pytest.fail(f"{self.host.netns}: no {what}\n{self.err.read_text()[-3000:]}")
            self.lines.append(line)
        return self.lines


def _of(lines: list[dict[str, Any]], kind: str, name: str) -> list[dict[str, Any]]:
    return [line for line in lines if line.get(kind) == name]


#: Two tables of one name, this many times on the LAN (BATCH names at once, each twice).
REPEATS, BATCH = 20, 10
STEP = 60.0  # seconds each step of a round may take at most (a few on a quiet machine)
FP1, FP2 = "7QXM-K2PA-93TD-HB0R", "8QXM-K2PA-93TD-HB0R"


def _listed(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The tables a browser's lines leave listed, by instance."""
    seen: dict[str, dict[str, Any]] = {}
    for line in lines:
        if "seen" in line:
            seen[line["seen"]["instance"]] = line["seen"]
        elif "gone" in line:
            seen.pop(line["gone"], None)
    return seen


@pytest.mark.parametrize("at_once", [False, True], ids=["one-after-the-other", "at-once"])
def test_two_tables_of_one_name_on_two_hosts_are_two_tables(
    lan: netns.Lan, tmp_path: Path, at_once: bool
) -> None:
    """Hosts 1 and 2 each open a table of one name (one after the other, or at once); host 3
    sees two tables of that name, each with its key and its host's address; the host that
    announced second was told so at once, and each hears the other; `lanparty list` on host 3
    lists both and `lanparty join NAME` asks which."""
    h1, h2, h3 = lan.hosts
    with ExitStack() as stack:
        drivers = [_Driver(lan, h, tmp_path / f"{h.interface}.err", *flags)
                   for h, flags in ((h1, ()), (h2, ()), (h3, ("--browse",)))]  # fmt: skip
        for driver in drivers:
            stack.callback(driver.close)
        _rounds(lan, tmp_path, *drivers, at_once=at_once)


def _rounds(lan: netns.Lan, tmp_path: Path, one: _Driver, two: _Driver, seer: _Driver, *,
            at_once: bool) -> None:  # fmt: skip
    """REPEATS names, BATCH at a time, each announced by host 1 and host 2. Each step has
    its own generous deadline (a busy machine slows the commands of the last round)."""
    for first in range(0, REPEATS, BATCH):
        names = [f"Dup {os.getpid()}-{k}-{at_once}" for k in range(first, first + BATCH)]
        _one_round(one, two, seer, names, at_once, time.monotonic() + STEP)
        if first + BATCH >= REPEATS:  # the last round, still announced: the commands
            _list_and_join(lan, seer.host, tmp_path, names[0])
        for driver in (one, two):
            for name in names:
                driver.send(withdraw=name)
        seer.until(lambda ls, ns=names: not any(t["name"] in ns for t in _listed(ls).values()),
                   "goodbyes", time.monotonic() + STEP)  # fmt: skip


def _one_round(one: _Driver, two: _Driver, seer: _Driver, names: list[str], at_once: bool,
               deadline: float) -> None:  # fmt: skip
    """Each name announced by ``one`` (FP1), then by ``two`` (FP2), or by both at once."""

    def announced(lines: list[dict[str, Any]]) -> bool:
        return all(_of(lines, "announced", n) for n in names)

    for driver, fp in ((one, FP1), (two, FP2)):
        for name in names:
            driver.send(announce={"name": name, "game": "kato", "seats": 3, "free": 2,
                                  "proto": 1, "fingerprint": fp, "host": "ana",
                                  "port": 40000})  # fmt: skip
        if not at_once:  # the second host starts once the first has announced them all
            one.until(announced, "announcements", deadline)
    for driver in (one, two):
        driver.until(announced, "announcements", deadline)
    for name in names:
        [a] = _of(one.lines, "announced", name)
        [b] = _of(two.lines, "announced", name)
        assert a["instance"] != b["instance"]
        if at_once:  # the one announced second had heard the first by then
            assert a["name_taken"] or b["name_taken"], (a, b)
        else:
            assert b["name_taken"] and b["namesakes"] == [FP1], b
    # Each host hears the other's table (the first one too, once the second appears).
    for driver, other in ((one, FP2), (two, FP1)):

        def heard(lines: list[dict[str, Any]], other: str = other) -> bool:
            return all(any(h["other"] == other for h in _of(lines, "heard", n)) for n in names)

        driver.until(heard, "namesake heard", deadline)
    h1, h2 = one.host, two.host

    def both(lines: list[dict[str, Any]]) -> bool:
        listed = _listed(lines).values()
        return all({(t["fingerprint"], t["address"]) for t in listed if t["name"] == n}
                   == {(FP1, h1.ip), (FP2, h2.ip)} for n in names)  # fmt: skip

    seer.until(both, "two tables of each name seen from host 3", deadline)


def _list_and_join(lan: netns.Lan, host: netns.NetHost, tmp_path: Path, name: str) -> None:
    """On ``host``: `lanparty list` shows both tables of ``name``, `lanparty join NAME`
    names both and picks neither."""
    env = _env(tmp_path / "cli")
    where = ["--interface", host.interface]
    listing = lan.popen(host, [*LANPARTY, "list", *where, "--json", "--timeout", "3"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)  # fmt: skip
    join = lan.popen(host, [*LANPARTY, "join", name, "--bot", *where, "--timeout", "10"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)  # fmt: skip
    out, err = listing.communicate(timeout=60)
    assert listing.returncode == 0, err
    listed = {(t["fingerprint"], t["address"]) for t in json.loads(out) if t["name"] == name}
    assert listed == {(FP1, "10.77.213.1"), (FP2, "10.77.213.2")}
    _, err = join.communicate(timeout=60)
    text = err.decode()
    assert join.returncode == 2 and "Traceback" not in text, text
    assert f"2 open tables are called {name!r}: " in text
    assert FP1 in text and FP2 in text and "--host-key FINGERPRINT" in text

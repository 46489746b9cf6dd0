"""Three hosts in three network namespaces on one bridge: the joiners find the table by mDNS
alone (no ``--connect``), and the three bot peers play a whole KaTO game and pass the audit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
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

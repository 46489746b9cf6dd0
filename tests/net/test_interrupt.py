"""Ctrl-C at real processes: one line on stderr, exit status 130, and every process the
command started has ended (checked in /proc). A terminal sends SIGINT to its foreground
process group, so the command under test runs in a session of its own and the signal goes to
that group, as a terminal would send it."""

from __future__ import annotations

import os
import pwd
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from .conftest import Table

T = TypeVar("T")
DEADLINE = 30.0


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended meanwhile
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def _threads(pid: int) -> int:
    try:
        return len(list(Path(f"/proc/{pid}/task").iterdir()))
    except OSError:
        return 0


def _until(probe: Callable[[], T | None], what: str) -> T:
    """Poll ``probe`` until it gives something; fail after :data:`DEADLINE` seconds."""
    end = time.monotonic() + DEADLINE
    while (found := probe()) is None:
        if time.monotonic() > end:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)  # a short pause between polls, not a wait for anything
    return found


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    # A shell without job control starts a background job (``pytest &``) with SIGINT
    # ignored, and an ignored signal stays ignored across exec: the commands under test would
    # never see the Ctrl-C sent to them. A terminal's foreground job has it at its default,
    # so the processes started here do too (a handler, unlike SIG_IGN, is reset by exec).
    before = signal.getsignal(signal.SIGINT)
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    procs: list[subprocess.Popen[str]] = []
    yield procs
    if before is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def _start(procs: list[subprocess.Popen[str]], home: Path, *args: str,
           env: dict[str, str] | None = None) -> subprocess.Popen[str]:  # fmt: skip
    """``lanparty ARGS`` in a session (and process group) of its own, as a shell runs a
    foreground job."""
    environ = {**(os.environ if env is None else env), "LANPARTY_HOME": str(home)}
    proc = subprocess.Popen([sys.executable, "-m", "lanparty", *args], env=environ, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    procs.append(proc)
    return proc


def _ctrl_c(proc: subprocess.Popen[str]) -> None:
    """What a terminal does on Ctrl-C: SIGINT to the foreground process group."""
    os.killpg(proc.pid, signal.SIGINT)


def test_ctrl_c_ends_a_demo_and_every_process_of_it(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    demo = _start(started, tmp_path, "demo", "kato", "--players", "3")
    peers = _until(lambda: _children(demo.pid) if len(_children(demo.pid)) == 3 else None,
                   "the demo's three peer processes")  # fmt: skip
    _until(lambda: True if all(_threads(p) > 1 for p in peers) else None, "the peers to run")
    _ctrl_c(demo)
    out, err = demo.communicate(timeout=DEADLINE)
    assert demo.returncode == 130
    assert out == ""
    assert err == "lanparty demo: interrupted: the demo's 3 processes were ended\n"
    assert not [p for p in peers if _alive(p)]


def _login() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return "player"


def test_ctrl_c_at_a_headless_host_stops_its_table_and_ends_its_bots(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    # No $USER nor $LOGNAME: the host is still named after the login, not "you" or "player".
    env = {k: v for k, v in os.environ.items() if k not in ("USER", "LOGNAME", "LNAME")}
    host = _start(started, tmp_path, "host", "kato", "--bot", "--local", "--seats", "3",
                  "--bots", "2", "--grace", "30", env=env)  # fmt: skip
    assert host.stderr is not None
    first = host.stderr.readline()
    assert first.startswith(f'table "{_login()}\'s kato" on 127.0.0.1:'), first
    for line in host.stderr:
        if line.startswith("seats fixed"):  # the game is under way
            break
    bots = _children(host.pid)
    assert len(bots) == 2
    _ctrl_c(host)
    out, err = host.communicate(timeout=DEADLINE)
    assert host.returncode == 130 and out == ""
    saved = list((tmp_path / "transcripts").glob("*.lptx"))
    assert len(saved) == 1  # the host's: the bots it started keep none
    assert err == ("lanparty host: interrupted: the table stopped for everyone; "
                   f"transcript saved: {saved[0]}\n")  # fmt: skip
    assert not [p for p in bots if _alive(p)]
    # The table was halted for them, not dropped: each bot was told who left.
    logs = [p.read_text() for p in (tmp_path / "logs").glob("*.log")]
    assert len(logs) == 2 and all(f"{_login()} (the host) left the table" in log for log in logs)


def test_ctrl_c_at_a_headless_peer_leaves_the_table_at_once(table: Table) -> None:
    endpoint = table.host("--seats", "2", "--grace", "60")
    table.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann")
    table.until("ann", "seats fixed")
    table.procs["ann"].send_signal(signal.SIGINT)
    code, out, err = table.finish("ann")
    assert code == 130 and out == ""
    [saved] = table.transcripts("ann")
    assert err == f"lanparty join: interrupted: you left the table; transcript saved: {saved}\n"
    # The host hears that ann left (it does not wait 60 s for her to come back).
    code, _, err = table.finish("host")
    assert code == 1 and "ann (seat 1) left the table" in err, err


def test_ctrl_c_while_listing_tables_ends_in_one_line(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    listing = _start(started, tmp_path, "list", "--local", "--timeout", "60")
    _until(lambda: True if _threads(listing.pid) > 1 else None, "the browser to run")
    _ctrl_c(listing)
    out, err = listing.communicate(timeout=DEADLINE)
    assert (listing.returncode, out, err) == (130, "", "lanparty list: interrupted\n")

"""The lobby (``lanparty`` with no command) in a tmux pane: tables on loopback appear and
disappear live, and the player joins one from there and plays at it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SLOW = 60.0  # a table to appear, fill, shuffle and deal


@pytest.fixture
def procs() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def _lanparty(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "LANPARTY_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "lanparty", *args], env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip


def test_tables_come_and_go_live_and_one_is_joined(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    name = f"night-{os.getpid()}"
    (tmp_path / "lobby").mkdir()
    pane = Pane(tmp_path / "lobby", f"cd {REPO} && LANPARTY_HOME={tmp_path / 'lobby'} "
                f"{sys.executable} -m lanparty --local --nick Zed", "tmux-256color")  # fmt: skip
    try:
        pane.wait_text("lanparty lobby")
        # A table that fills up: it appears, then withdraws once its seats are fixed.
        table = ["kato", "--bot", "--local", "--seats", "2", "--option", "rounds=1"]
        procs.append(_lanparty(tmp_path / "h1", "host", *table, "--name", f"{name}-full",
                               "--nick", "h1"))  # fmt: skip
        pane.wait(lambda: f"'{name}-full': kato, 1 of 2 seated" in pane.screen(),
                  "the first table", SLOW)  # fmt: skip
        procs.append(_lanparty(tmp_path / "j1", "join", f"{name}-full", "--bot", "--local",
                               "--nick", "j1"))  # fmt: skip
        pane.wait(lambda: f"'{name}-full' is gone" in pane.screen(), "its goodbye", SLOW)
        # A table with a seat for us.
        host = _lanparty(tmp_path / "h2", "host", *table, "--name", name, "--json", "--nick", "h2")
        procs.append(host)
        pane.wait(lambda: f"'{name}': kato, 1 of 2 seated" in pane.screen(), "the table", SLOW)
        line = next(x for x in pane.screen().splitlines() if f"'{name}': kato" in x)
        number = line.split("new table ")[1].split(":")[0]
        pane.type(f"join {number}")
        pane.wait(lambda: "Your hand:" in pane.screen(), "the deal at the joined table", SLOW)
        assert "Zed (you)" in pane.screen()
        pane.type("quit")
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
        out, err = host.communicate(timeout=60)
        assert host.returncode == 1 and "Traceback" not in err
        assert "Zed (seat 1) left the table" in out
    finally:
        pane.kill()

"""The lobby's full screen in a tmux pane, as a person sees it: at 80×24 the header, the
tables list and the input line; a table appearing and going away changes the list in place
(nothing scrolls into the terminal); help opens over the lobby and closes with Esc, the
events kept; a resize from 120×40 to 80×24 and back draws it again with no row twice; and
with no terminal (a pipe) the lobby is line by line."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SLOW = 60.0  # a table to appear on the network, or to fill and withdraw


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


def _lobby(tmp: Path, columns: int, rows: int) -> Pane:
    home = tmp / "lobby"
    home.mkdir()
    return Pane(home, f"cd {REPO} && LANPARTY_HOME={home} LANPARTY_LANG=en {sys.executable} "
                "-m lanparty --local --nick Zed", "tmux-256color", columns, rows)  # fmt: skip


def _host(tmp: Path, name: str, seats: int = 2) -> subprocess.Popen[str]:
    return _lanparty(tmp / name, "host", "kato", "--bot", "--local", "--seats", str(seats),
                     "--name", name, "--nick", "ana", "--option", "rounds=1")  # fmt: skip


def _row(name: str) -> re.Pattern[str]:
    """The tables region's row of the table called ``name``: number, name, game, seats."""
    return re.compile(rf"^ +\d+  {re.escape(name)}  +kato  +1 of 2  +ana \[", re.M)


def test_the_lobby_at_80x24_and_a_table_coming_and_going_in_place(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    name = f"come-go-{os.getpid()}"
    pane = _lobby(tmp_path, 80, 24)
    try:
        pane.wait_text("lanparty lobby · lo (127.0.0.1) · you: Zed")
        screen = pane.screen().rstrip("\n").split("\n")
        assert len(screen) == 24
        assert screen[0].startswith(" lanparty lobby · lo (127.0.0.1) · you: Zed")
        assert re.search(r" {4}\d+ tables?$", screen[0].rstrip())  # the count at the right
        assert screen[1].startswith("─ tables ")
        assert screen[-2].startswith("lobby>")
        assert screen[-1].rstrip().endswith("you: Zed · Tab · help · quit")
        procs.append(_host(tmp_path, name))
        pane.wait(lambda: _row(name).search(pane.tables()) is not None, "its row", SLOW)
        titles = pane.tables().splitlines()[0]
        row = next(line for line in pane.tables().splitlines() if f" {name} " in line)
        assert titles.index(" table ") + 1 == row.index(name)  # under its column's title
        assert "127.0.0.1:" in pane.tables()  # its address, under the name at 80 columns
        pane.wait_story(f"'{name}': kato, 1 of 2 seated, host ana [")
        # A guest fills it: the table withdraws, its row goes; the event says so.
        procs.append(_lanparty(tmp_path / "bo", "join", name, "--bot", "--local", "--nick",
                               "Bo"))  # fmt: skip
        pane.wait(lambda: f" {name} " not in pane.tables(), "its row gone", SLOW)
        pane.wait_story(f"'{name}' is gone (full or closed)")
        # All of it in place: the terminal kept no copy of the lobby's rows.
        assert pane.history().count("lanparty lobby · lo (127.0.0.1)") == 1
        pane.keys("C-d")
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


def test_help_opens_over_the_lobby_and_esc_closes_it_keeping_the_events(
    tmp_path: Path,
) -> None:
    pane = _lobby(tmp_path, 80, 24)
    try:
        pane.wait_text("lobby>")
        pane.type("name Ann")
        told = "From now on you join and host as Ann."
        pane.wait(lambda: told in pane.story(), "the name taken")
        pane.type("help")
        pane.wait_text("lanparty lobby · help")
        page = pane.page()
        assert "  host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]" in page
        assert "e.g. host kato 4 2 hard" in page and "host kato 4 2 hard,easy" in page
        assert "(now: Ann)" in page
        assert "lobby>" not in pane.screen()  # the page is over the input line
        pane.keys("Escape")
        pane.wait_text("lobby>")
        assert "lanparty lobby · help" not in pane.screen()
        # The events are back, the newest at the bottom (other programs' tables on loopback
        # may have pushed ours up meanwhile: the story keeps every line).
        pane.wait(lambda: _newest(pane) in pane.screen(), "the newest event on screen")
        pane.keys("?")  # on an empty line, as at a table
        pane.wait_text("lanparty lobby · help")
        pane.keys("q")
        pane.wait_text("lobby>")
        # The menu floats over the events; Esc closes it, as it closes help. ("ho" first:
        # other programs' tables on loopback would fill a bare Tab's menu with "join N".)
        pane.keys("ho")
        pane.wait(lambda: pane.screen().rstrip().splitlines()[-2].rstrip() == "lobby> ho",
                  "ho typed")  # fmt: skip
        pane.keys("Tab")
        pane.wait(lambda: "host unicorns" in pane.screen(), "the menu")
        pane.keys("Escape")
        pane.wait(lambda: "host unicorns" not in pane.screen(), "the menu closed by Esc")
        pane.keys("C-u")
        pane.wait(lambda: pane.screen().rstrip().splitlines()[-2].rstrip() == "lobby>",
                  "the line cleared")  # fmt: skip
        pane.type("quit")
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


def _newest(pane: Pane) -> str:
    """The start of the newest line of the lobby's events (as the story file has it)."""
    lines = [line.strip() for line in pane.story().splitlines() if line.strip()]
    return lines[-1][:40] if lines else "\0"


def _settled(pane: Pane, columns: int, rows: int) -> str:
    """Resize the terminal and wait until the screen is drawn whole for it (two looks
    alike, the events' rule at the right edge); that screen."""
    pane.tmux("resize-window", "-t", "lp", "-x", str(columns), "-y", str(rows))
    seen = [""]

    def drawn() -> bool:
        before, seen[0] = seen[0], pane.screen()
        lines = seen[0].rstrip("\n").split("\n")
        rule = [line for line in lines if line.startswith("─ events ")]
        return (seen[0] == before and len(lines) == rows and len(rule) == 1
                and len(rule[0].rstrip()) == columns)  # fmt: skip

    pane.wait(drawn, f"the lobby at {columns}x{rows}")
    return seen[0]


def _mine(screen: str, name: str) -> list[str]:
    """The rows of ``screen`` that are the lobby's own, whatever other programs on loopback
    open or close meanwhile: the header, our table's row, the input and status lines (the
    count of tables masked; runs of spaces as one gap: other tables' names and hosts set
    the columns' widths)."""
    lines = [re.sub(r"  +", "  ", re.sub(r" +\d+ tables?\b", " N tables", line.rstrip()))
             for line in screen.rstrip("\n").split("\n")]  # fmt: skip
    events = next(i for i, line in enumerate(lines) if line.startswith("─ events "))
    return [lines[0], *(line for line in lines[1:events] if f" {name} " in line), *lines[-2:]]


def test_a_resize_from_120x40_to_80x24_and_back_leaves_no_row_twice(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    name = f"resize-{os.getpid()}"
    pane = _lobby(tmp_path, 120, 40)
    try:
        procs.append(_host(tmp_path, name))
        pane.wait(lambda: _row(name).search(pane.tables()) is not None, "its row", SLOW)
        wide = _settled(pane, 120, 40)
        narrow = _settled(pane, 80, 24)
        again = _settled(pane, 120, 40)
        for screen, width in ((wide, 120), (narrow, 80), (again, 120)):
            # No row twice: the lobby's own rows once each (other tables on loopback, of
            # other tests, may look alike: theirs are not counted).
            assert all(len(line) <= width for line in screen.splitlines())
            assert screen.count("lanparty lobby · lo (127.0.0.1)") == 1
            assert screen.count("lobby>") == 1
            assert len(_row(name).findall(screen)) == 1, screen
        assert _mine(again, name) == _mine(wide, name)
        pane.keys("C-c")
        assert pane.exit_code() == 130
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


def test_without_a_terminal_the_lobby_is_line_by_line(tmp_path: Path) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path), "LANPARTY_LANG": "en"}
    proc = subprocess.run([sys.executable, "-m", "lanparty", "--local", "--nick", "Zed"],
                          input="help\nname Bo\nfly\nquit\n", capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "lanparty lobby"
    assert "  host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]" in lines
    assert "  play GAME [BOTS] [LEVEL[,LEVEL...]]" in lines
    assert any("play kato 2 hard,easy: a hard bot and an easy one" in line for line in lines)
    assert any("open a table of your own, e.g. host kato 4 2 hard" in line for line in lines)
    assert "From now on you join and host as Bo." in lines
    assert "unknown command 'fly' (type help, or press Tab)" in lines
    assert "\x1b" not in proc.stdout  # no screen drawn

"""The lobby (``lanparty`` with no command) in a tmux pane: tables on loopback appear and
disappear live, and the player joins one from there and plays at it. What happened is read in
the events (the story file, whole lines), the tables in the lobby's tables region."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .tmux import REPO, Pane, last_line

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SLOW = 60.0  # a table to appear, fill, shuffle and deal


def _number(pane: Pane, name: str) -> str:
    """The number the lobby's tables region shows beside the table called ``name``."""
    found = re.search(rf"^ +(\d+)  {re.escape(name)}  ", pane.tables(), re.M)
    assert found is not None, pane.screen()
    return found.group(1)


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
        pane.wait(lambda: f"'{name}-full': kato, 1 of 2 seated" in pane.story(),
                  "the first table", SLOW)  # fmt: skip
        pane.wait(lambda: f"{name}-full" in pane.tables(), "its row in the list")
        procs.append(_lanparty(tmp_path / "j1", "join", f"{name}-full", "--bot", "--local",
                               "--nick", "j1"))  # fmt: skip
        pane.wait(lambda: f"'{name}-full' is gone" in pane.story(), "its goodbye", SLOW)
        pane.wait(lambda: f"{name}-full" not in pane.tables(), "its row gone from the list")
        # A table with a seat for us.
        host = _lanparty(tmp_path / "h2", "host", *table, "--name", name, "--json", "--nick", "h2")
        procs.append(host)
        pane.wait(lambda: f"'{name}': kato, 1 of 2 seated" in pane.story(), "the table", SLOW)
        pane.wait(lambda: re.search(rf" {name}  +kato  +1 of 2 ", pane.tables()) is not None,
                  "its row in the list")  # fmt: skip
        pane.type(f"join {_number(pane, name)}")
        pane.wait(lambda: "Your hand:" in pane.screen() and "Zed (you)" in pane.screen(),
                  "the deal at the joined table", SLOW)  # fmt: skip (one look: the board)
        pane.type("quit")
        pane.wait_text("leave the table? the game stops for everyone (y/N)>")
        pane.type("y")
        # Leaving a table joined from the lobby is being back in the lobby.
        pane.wait_text("Back in the lobby: looking for tables on lo (127.0.0.1)")
        out, err = host.communicate(timeout=60)
        assert host.returncode == 1 and "Traceback" not in err
        assert "Zed (seat 1) left the table" in out
        assert not (tmp_path / "lobby" / "rc").exists()  # the program still runs
        pane.type("help")  # over the lobby
        pane.wait_text("open a table of your own, e.g. host kato 4 2 hard")
        # Ctrl-C in the lobby (its help open or not) ends the program: one line, status 130.
        pane.keys("C-c")
        assert pane.exit_code() == 130
        assert "Traceback" not in pane.history()
        assert last_line(pane) == "lanparty lobby: interrupted"
    finally:
        pane.kill()


def test_a_person_whose_program_died_resumes_from_the_lobby(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    name = f"resume-{os.getpid()}"
    home = tmp_path / "zed"
    home.mkdir()
    host = _lanparty(tmp_path / "h", "host", "kato", "--bot", "--local", "--seats", "2",
                     "--name", name, "--option", "rounds=1", "--option", "first=host",
                     "--json", "--nick", "h", "--grace", "60")  # fmt: skip
    procs.append(host)
    (tmp_path / "p1").mkdir()
    (tmp_path / "p2").mkdir()
    join = f"{sys.executable} -m lanparty join {name} --local --nick Zed"
    first = Pane(tmp_path / "p1", f"cd {REPO} && LANPARTY_HOME={home} {join}", "tmux-256color")
    try:
        first.wait(lambda: "Your hand:" in first.screen(), "the deal", SLOW)
        first.wait(lambda: "your move" in first.screen(), "Zed's turn", SLOW)
        # The program dies on Zed's turn (not a quit: no goodbye is sent).
        subprocess.run(["pkill", "-KILL", "-f", f"^{join}"], check=True)  # python, not tmux
        first.exit_code()
    finally:
        first.kill()
    lobby_cmd = f"{sys.executable} -m lanparty --local"
    lobby = Pane(tmp_path / "p2", f"cd {REPO} && LANPARTY_HOME={home} {lobby_cmd}", "tmux-256color")
    try:
        lobby.wait_story("may still be waiting for you: type resume")
        assert "Your seat as Zed at table" in lobby.screen()
        assert "resume: your seat as Zed at table" in lobby.tables()
        lobby.type("resume")
        lobby.wait(lambda: "Your hand:" in lobby.screen(), "the seat taken back", SLOW)
        # Still Zed's turn, and the screen says so by itself, once the seat has checked the
        # log it replayed: no key needs pressing (it once stayed "waiting>" until one was).
        lobby.wait(lambda: "your move" in lobby.screen(), "Zed asked to move", SLOW)
        lobby.type("quit")
        lobby.wait_text("(y/N)>")
        lobby.type("y")
        lobby.wait_text("Back in the lobby")
        lobby.type("quit")
        assert lobby.exit_code() == 0
        assert "Traceback" not in lobby.history(), lobby.history()
        out, err = host.communicate(timeout=60)
        assert "Zed is back" in err and "Zed (seat 1) left the table" in out
        assert not list((home / "seats").glob("*.json"))  # nothing left to resume
    finally:
        lobby.kill()


def _lobby(tmp: Path, nick: str) -> Pane:
    home = tmp / nick
    home.mkdir()
    return Pane(home, f"cd {REPO} && LANPARTY_HOME={home} {sys.executable} -m lanparty "
                f"--local --nick {nick}", "tmux-256color")  # fmt: skip


def _until(proc: subprocess.Popen[str], text: str) -> str:
    """Read ``proc``'s stderr line by line until one contains ``text``; that line."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if text in line:
            return line
    raise AssertionError(f"the process ended without saying {text!r}")


def test_help_reads_as_lines_and_host_game_seats_opens_a_table(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    nick = f"Zed{os.getpid()}"  # the table is "Zed…'s kato": no other test run's
    pane = _lobby(tmp_path, nick)
    try:
        pane.wait_text("lanparty lobby")
        pane.type("help")
        pane.wait_text("open a table of your own, e.g. host kato 4 2 hard")
        assert "\\n" not in pane.screen()
        pane.keys("Escape")  # help closes: the input line is back
        pane.wait_text("lobby>")
        pane.type("host kato 2")  # as the README shows it
        pane.wait_text("is open on 127.0.0.1:")
        guest = _lanparty(tmp_path / "bo", "join", f"{nick}'s kato", "--bot", "--local",
                          "--nick", "Bo")  # fmt: skip
        procs.append(guest)
        pane.wait(lambda: "Bo joined (seat 1)" in pane.screen(), "a guest found by name", SLOW)
        pane.type("quit")
        pane.wait_text("leave the table? the game stops for everyone (y/N)>")
        pane.type("y")
        pane.wait_text("Back in the lobby")
        pane.wait_text("· Tab · help · quit")  # its bottom line: the lobby's prompt is up
        pane.keys("C-d")  # Ctrl-D in the lobby: quit
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


def test_two_tables_of_one_name_are_two_entries_and_join_name_asks_which(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    name = f"Dup-{os.getpid()}"
    pane = _lobby(tmp_path, "Zed")
    table = ["host", "kato", "--bot", "--local", "--seats", "3", "--name", name]
    try:
        pane.wait_text("lanparty lobby")
        keys: dict[str, str] = {}
        for nick in ("h1", "h2"):  # one after the other, as two friends would
            procs.append(_lanparty(tmp_path / nick, *table, "--nick", nick))
            keys[nick] = _until(procs[-1], "host key ").split("host key ")[1].strip()
            shown = f"'{name}': kato, 1 of 3 seated, host {nick} [{keys[nick]}]"
            pane.wait(lambda s=shown: s in pane.story(), f"{nick}'s table", SLOW)
            pane.wait(lambda n=nick: f"{n} [{keys[n]}]" in pane.tables(), f"{nick}'s row")
        numbers = {nick: pane.story().split(f"host {nick} [")[0].rsplit("new table ", 1)[1]
                   .split(":")[0] for nick in keys}  # fmt: skip
        pane.wait_story(f"2 tables are called '{name}' ({numbers['h1']}, {numbers['h2']}): "
                        "tell them apart by the host key")  # fmt: skip
        pane.type(f"join {name}")
        pane.wait_story(f"2 tables are called '{name}' ({numbers['h1']}: host h1 [{keys['h1']}]")
        pane.wait_story("join N with the number of the one whose host key you know")
        pane.type(f"join {numbers['h2']}")
        _until(procs[1], "seat 1: Zed joined")
        # The table's screen opens once Zed's seat is taken (as Zed's program sees it).
        pane.wait_text("Zed joined (seat 1)")
        pane.keys("C-c")
        pane.wait_text("leave the table? the game stops for everyone (y/N)>")
        pane.keys("C-c")  # a second Ctrl-C at a table from the lobby ends the program
        assert pane.exit_code() == 130
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


def test_a_seat_whose_table_has_stopped_is_forgotten_saying_why(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    """Bo's program died at a table whose host has since gone (nobody listens at its
    address): the lobby says so and forgets the seat, instead of offering it forever."""
    home = tmp_path / "zed"
    home.mkdir()
    host = _lanparty(tmp_path / "h", "host", "kato", "--bot", "--local", "--seats", "2",
                     "--name", f"gone-{os.getpid()}", "--grace", "60", "--nick", "h")  # fmt: skip
    procs.append(host)
    endpoint = _until(host, "table ").split(" on ")[1].split(" ")[0]
    bo = _lanparty(home, "join", "--bot", "--connect", endpoint, "--nick", "Bo", "--grace", "60")
    procs.append(bo)
    _until(bo, "seats fixed")  # Bo holds its seat, kept on disk
    bo.kill()  # its program dies: its seat is kept for --resume
    bo.communicate()
    host.kill()  # and the host's too: nobody listens at the table's address any more
    host.communicate()
    [kept] = list((home / "seats").glob("*.json"))
    table = kept.name[:12]
    pane = Pane(home, f"cd {REPO} && LANPARTY_HOME={home} {sys.executable} -m lanparty "
                "--local --nick Zed", "tmux-256color")  # fmt: skip
    try:
        pane.wait_text(f"Your seat as Bo at table {table}")
        pane.wait(lambda: f"the table {table}… where you sat as Bo has stopped (nobody answers "
                  f"at {endpoint} any more): your seat is forgotten" in pane.story(),
                  "the seat to be forgotten", SLOW)  # fmt: skip
        assert not list((home / "seats").glob("*"))
        pane.wait(lambda: "resume:" not in pane.tables(), "the seat gone from the list")
        pane.type("resume")
        pane.wait_text("no seat to resume")
        pane.type("quit")
        assert pane.exit_code() == 0 and "Traceback" not in pane.history()
    finally:
        pane.kill()


def test_a_name_taken_is_asked_again_in_place_and_name_changes_it_in_the_lobby(
    tmp_path: Path, procs: list[subprocess.Popen[str]]
) -> None:
    """Zed joins a table where Zed is taken: asked for another name there and then, Zed
    joins as Zoe; back in the lobby Zoe is the name; ``name`` changes it for the next one,
    and nothing was kept of the refused join."""
    name = f"taken-{os.getpid()}"
    pane = _lobby(tmp_path, "Zed")
    try:
        pane.wait_text("You join and host as Zed (name NEW to change it).")
        host = _lanparty(tmp_path / "h", "host", "kato", "--bot", "--local", "--seats", "3",
                         "--name", name, "--nick", "zed", "--option", "rounds=1")  # fmt: skip
        procs.append(host)
        pane.wait(lambda: f"'{name}': kato, 1 of 3 seated" in pane.story(), "the table", SLOW)
        pane.wait(lambda: f" {name}  " in pane.tables(), "its row in the list")
        pane.type(f"join {_number(pane, name)}")
        pane.wait_text("Zed is taken at this table; another name:")
        pane.type("Zoe")
        pane.wait(lambda: "Zoe joined (seat 1)" in pane.screen(), "Zoe at the table", SLOW)
        assert not list((tmp_path / "Zed" / "transcripts").glob("*"))  # the refusal kept none
        pane.type("quit")
        pane.wait_text("(y/N)>")
        pane.type("y")
        pane.wait_text("Back in the lobby")
        pane.wait_text("You join and host as Zoe (name NEW to change it).")
        pane.type("name Ann B")
        pane.wait_text("From now on you join and host as Ann B.")
        pane.wait_text("you: Ann B · Tab · help · quit")
        pane.type("quit")
        assert pane.exit_code() == 0 and "Traceback" not in pane.history()
    finally:
        pane.kill()

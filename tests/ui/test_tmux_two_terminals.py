"""One person, two terminals, one data directory (the normal way to try lanparty alone): the
second terminal gets a seat of its own — its own one-off key and the name ``NAME 2`` — and
the game starts. No ``$USER``: names come from the login name, not from a placeholder."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import sys
from pathlib import Path

import pytest

from lanparty.store import load_identity

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SLOW = 60.0  # the table found, filled, shuffled and dealt
_KEY = r"[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}"
_DEALT = "Round 1: the cards are shuffled and dealt"


def _login() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return "player"


def _terminal(tmp: Path, name: str, home: Path, *args: str) -> Pane:
    """A terminal with no $USER nor $LOGNAME, running ``lanparty ARGS`` on ``home``."""
    (tmp / name).mkdir()
    env = f"env -u USER -u LOGNAME -u LNAME LANPARTY_HOME={home}"
    command = " ".join([sys.executable, "-m", "lanparty", *args])
    return Pane(tmp / name, f"cd {REPO} && {env} {command}", "tmux-256color")


def test_two_terminals_of_one_person_sit_at_one_table(tmp_path: Path) -> None:
    home, me, table = tmp_path / "home", _login(), f"night-{os.getpid()}"
    first = _terminal(tmp_path, "first", home, "host", "kato", "--local", "--seats", "2",
                      "--option", "rounds=1", "--name", table)  # fmt: skip
    second: Pane | None = None
    try:
        first.wait_text(f"Table '{table}' is open on 127.0.0.1:")
        host_key = re.search(rf"your key ({_KEY})", first.screen())
        assert host_key is not None
        assert f"{me} joined (seat 0)" in first.screen()
        second = _terminal(tmp_path, "second", home, "join", table, "--local")
        for pane in (first, second):  # the game starts: both are seated and dealt a hand
            pane.wait(lambda p=pane: _DEALT in p.story(), "the first deal", SLOW)
            assert f"Seats: {me}, {me} 2." in pane.story()
        joined = re.search(rf"{me} 2 joined \(seat 1\)  key ({_KEY})", first.story())
        assert joined is not None, first.story()
        assert joined[1] != host_key[1]  # a seat of its own, with a key of its own
        # The persistent key is the first terminal's: the fingerprint friends know.
        assert load_identity(home).public.fingerprint == host_key[1]
        first.type("quit")
        first.wait_text("(y/N)>")
        first.type("y")
        assert first.exit_code() == 0
        second.wait(lambda: f"{me} (the host) left the table" in second.story(), "the end")
        second.wait_text("the end: Enter leaves>")  # what stopped the table, until a key
        assert "The table stopped before the end of the game." in second.screen()
        assert "Final scores" not in second.screen()  # a stopped table has no result
        second.keys("Enter")
        assert second.exit_code() == 0
        # Said before the table's screen opened, and still on the terminal after it.
        said = second.joined()
        assert f"this one signs with a one-off key, {joined[1]}" in said
        assert "Traceback" not in first.history() + second.history()
    finally:
        first.kill()
        if second is not None:
            second.kill()


def test_play_names_the_player_after_the_login(tmp_path: Path) -> None:
    pane = _terminal(tmp_path, "play", tmp_path / "home", "play", "kato", "--offline")
    try:
        pane.wait_text("Your hand:")
        pane.wait_text(f"{_login()} (you)")
        pane.keys("C-d")
        pane.wait_text("(y/N)>")
        pane.keys("C-d")
        assert pane.exit_code() == 0
    finally:
        pane.kill()

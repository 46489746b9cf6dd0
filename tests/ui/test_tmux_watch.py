"""A spectator in a tmux pane (``lanparty watch NAME``), the way a friend would follow a table
from another terminal: a person hosts KaTO in one pane, a bot process sits down, and the
spectator's pane shows the board (both players, their card counts, the top card) with no
hand, the story as it happens, and the end when the host leaves."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .tmux import Pane, lanparty_pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0


def test_a_spectator_follows_a_table_without_seeing_a_hand(
    panes: dict[str, Pane], tmp_path: Path
) -> None:
    name = f"'watched {os.getpid()}'"
    args = ("--seats", "2", "--nick", "Hugo", "--option", "rounds=1", "--name", name)
    host = panes["host"] = lanparty_pane(tmp_path / "host", "host", "kato", "--local", *args)
    host.wait_text("is open on 127.0.0.1:")
    found = re.search(r"is open on (127\.0\.0\.1:\d+)", host.screen())
    assert found is not None
    spectator = panes["spectator"] = lanparty_pane(tmp_path / "spectator", "watch", name, "--local")
    spectator.wait(lambda: "Hugo joined (seat 0)" in spectator.story(), "the log so far",
                   SETUP_DEADLINE)  # fmt: skip
    spectator.wait_text("watching>")  # the prompt is drawn a moment after the log
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path / "ann")}
    bot = subprocess.Popen(
        [sys.executable, "-m", "lanparty", "join", "--bot", "--connect", found[1], "--nick", "Ann",
         "--grace", "0"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        host.wait(lambda: "Your hand:" in host.screen(), "the deal", SETUP_DEADLINE)
        board = ("Top:", "Hugo", "Ann", "cards")
        spectator.wait(lambda: all(x in spectator.screen() for x in board), "the board",
                       SETUP_DEADLINE)  # fmt: skip
        seen = spectator.screen() + spectator.story()
        assert "Your hand:" not in seen and "(you)" not in seen and "Traceback" not in seen
        # A spectator makes no move: it is told so, and nothing is sent (a card's number
        # is no exception: spectators hold no cards).
        spectator.type("draw")
        spectator.wait_text("you are watching: a spectator makes no move")
        spectator.type("play 1")
        spectator.wait(lambda: spectator.story().count("a spectator makes no move") == 2,
                       "told again")  # fmt: skip
        assert "numbered" not in spectator.story()
        # A second spectator leaves at once: leaving stops nothing, so nothing is asked.
        other = panes["other"] = lanparty_pane(tmp_path / "other", "watch", name, "--local")
        other.wait_text("watching>")
        other.type("quit")
        assert other.exit_code() == 0
        assert "(y/N)" not in other.story() and "stops for everyone" not in other.story()
        assert "Ann" in host.screen() and "Hugo (the host) left" not in spectator.story()
        # The host leaves: the spectator is told, sees the end, and keeps the transcript.
        host.type("quit")
        host.wait_text("(y/N)>")
        host.type("y")
        spectator.wait(lambda: "Hugo (the host) left the table" in spectator.story(),
                       "the end of the table")  # fmt: skip
        spectator.wait_text("the end: Enter leaves>")
        spectator.keys("Enter")
        assert spectator.exit_code() == 0
        assert "transcript saved:" in spectator.joined()
        assert host.exit_code() == 0
    finally:
        if bot.poll() is None:
            bot.kill()
        bot.communicate()

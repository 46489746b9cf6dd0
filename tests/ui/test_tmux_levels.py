"""End to end, a level for each bot (issue 25): ``lanparty play --bots 2 --level hard,easy``
in a tmux pane. The players' list on the board says each bot's level ("Bea (bot, hard)"),
offline and at a real table on loopback, where the lines of the table filling say it too."""

from __future__ import annotations

import shutil
from collections.abc import Callable

import pytest

from .tmux import Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0  # the table fills and the first deal is shuffled, proved and dealt


def _rows(screen: str) -> list[str]:
    """The board's rows that list a player (a name, then cards and points)."""
    return [line.strip(" ▶") for line in screen.splitlines() if " pts" in line]


def test_the_offline_board_lists_each_bot_with_its_level(start: Callable[..., Pane]) -> None:
    pane = start("play", "kato", "--offline", "--bots", "2", "--level", "hard,easy",
                 "--think", "0.05", "--seed", "7", "--nick", "ann")  # fmt: skip
    pane.wait_text("Your hand:")
    rows = _rows(pane.board())
    assert [row.split("  ")[0] for row in rows] == ["ann (you)", "Bea (bot, hard)",
                                                    "Carl (bot, easy)"]  # fmt: skip
    story = pane.story()
    assert "Bea plays" in story or "Bea draws" in story  # the story names them as they are
    assert "(bot," not in story
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "kato against 2 bots (hard, easy), seed 7" in pane.history()


def test_a_networked_table_lists_each_bot_with_its_level(start: Callable[..., Pane]) -> None:
    pane = start("play", "kato", "--bots", "2", "--level", "hard,easy", "--think", "0.05",
                 "--nick", "Ann")  # fmt: skip
    board = ("Your hand:", "Top:", "Ann (you)", "Bea (bot, hard)", "Carl (bot, easy)")
    pane.wait(lambda: all(x in pane.screen() for x in board), "the first deal", SETUP_DEADLINE)
    story = pane.story()
    # While the table filled: each bot as it joined, and the seats once fixed.
    assert "Ann joined (seat 0)" in story
    assert "Bea (bot, hard) joined (seat " in story and "Carl (bot, easy) joined (seat " in story
    seats = next(line for line in story.splitlines() if "Seats: " in line)
    assert "Bea (bot, hard)" in seats and "Carl (bot, easy)" in seats
    pane.type("quit")
    pane.wait_text("leave the table? the game stops for everyone (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()

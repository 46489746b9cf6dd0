"""The completion menu floats over the story, just above the input line, whatever its
number of entries: one entry too (prompt-toolkit put a menu that fits below the cursor
there, over the status line), at 80×24 and at 120×40; and in the lobby."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

PROMPT = "your move> "


def _rows(screen: str, *texts: str) -> list[int]:
    """The rows of ``screen`` that hold any of ``texts``."""
    return [i for i, row in enumerate(screen.splitlines()) if any(t in row for t in texts)]


def _menu_over_input(pane: Pane, typed: str, entries: list[str], prompt: str) -> None:
    """Type ``typed`` (no Enter): the menu's ``entries`` are shown, each on a row of its
    own, the last just above the input line, none below it; then the line is cleared."""
    pane.keys("-l", typed)
    screen = pane.still(
        lambda s: prompt + typed in s and all(e in s for e in entries), f"the menu of {typed!r}"
    )
    lines = screen.splitlines()
    (line,) = _rows(screen, prompt + typed)
    shown = _rows(screen, *entries)
    assert len(shown) == len(entries), screen
    assert max(shown) == line - 1, screen  # the menu ends on the row above the input line
    assert line == len(lines) - 2, screen  # and the status line is still under it
    pane.keys("Escape", "C-u")
    pane.still(lambda s: not _rows(s, *entries) and prompt + typed not in s, "the menu closed")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_a_menu_of_any_length_floats_over_the_story(tmp_path: Path, size: tuple[int, int]) -> None:
    command = f"{sys.executable} -m lanparty play kato --offline --bots 2 --seed 7 --nick ann"
    pane = Pane(tmp_path, f"cd {REPO} && {command}", "tmux-256color", *size)
    try:
        pane.wait_text(PROMPT.strip())
        _menu_over_input(pane, "he", ["list the commands"], PROMPT)  # one entry
        _menu_over_input(pane, "dr", ["draw a card"], PROMPT)
        every = ["draw a card", "list the commands", "show the rules", "leave the game"]
        pane.keys("Tab")  # every command
        screen = pane.still(lambda s: all(e in s for e in every), "the whole menu")
        (line,) = _rows(screen, PROMPT.strip())
        assert max(_rows(screen, *every)) < line, screen
        pane.keys("Escape")
        pane.type("quit")
        pane.wait_text("(y/N)>")
        pane.type("y")
        assert pane.exit_code() == 0
    finally:
        pane.kill()


def test_the_lobbys_menu_of_one_entry_floats_over_its_events(tmp_path: Path) -> None:
    home = tmp_path / "lobby"
    home.mkdir()
    command = f"LANPARTY_HOME={home} LANPARTY_LANG=en {sys.executable} -m lanparty --local"
    pane = Pane(home, f"cd {REPO} && {command} --nick Zed", "tmux-256color", 80, 24)
    try:
        pane.wait_text("lobby>")
        _menu_over_input(pane, "host unic", ["host unicorns"], "lobby> ")
        pane.type("quit")
        assert pane.exit_code() == 0
    finally:
        pane.kill()

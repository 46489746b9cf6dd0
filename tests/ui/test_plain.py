"""The table as plain lines (``--plain``, or whenever the input or the output is not a
terminal): one line per event, commands read a line at a time, no screen drawn."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from .plainsession import ARGS, play_plain, typed_game
from .tmux import REPO, Pane


def test_a_pipe_gets_one_line_per_event_to_the_end_of_thetyped_game() -> None:
    typed, told = typed_game()
    done = play_plain(["help", "scores", "dance", *typed])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "\x1b" not in out  # no screen: no escape sequence at all
    lines = out.splitlines()
    assert [line[2:] for line in lines if line.startswith("· ")] == told  # the whole story
    assert "your move>" in lines  # each question on a line of its own
    assert "Your hand:" in lines  # the board and the hand before a move is asked
    assert "  play N            play card N, e.g. play 3" in lines  # help, printed
    # The game's score sheet so far, not the final scores.
    assert "Score sheet   Total" in lines and "Bea               0" in lines
    assert "unknown command 'dance' (type help, or press Tab)" in lines
    assert re.search(r"^Final scores$", out, re.M) and re.search(r"wins the game!$", out, re.M)
    assert "Traceback" not in done.stderr


def test_the_end_of_the_input_leaves_the_table() -> None:
    done = play_plain(["play 1"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("Bye.")


def test_quit_asks_first_in_plain_lines_too() -> None:
    done = play_plain(["quit", "n", "quit", "y", "play 1"])
    lines = done.stdout.splitlines()
    assert lines.count("leave the game? (y/N)>") == 2 and "Playing on." in lines
    assert lines[-1] == "Bye." and done.returncode == 0


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_plain_on_a_terminal_prints_lines_and_takes_no_screen(tmp_path: Path) -> None:
    command = " ".join([sys.executable, "-m", "lanparty", *ARGS, "--plain"])
    pane = Pane(tmp_path, f"cd {REPO} && {command}", "tmux-256color")
    try:
        pane.wait_text("your move>")
        pane.type("draw")
        pane.wait_text("· You draw a card")
        pane.type("quit")
        pane.wait_text("leave the game? (y/N)>")
        pane.type("y")
        assert pane.exit_code() == 0
        history = pane.history()  # everything stayed in the terminal, line by line
        assert "· The coin picks " in history and "draw\n" in history and "Bye." in history
        assert "─ story" not in history and "Tab: moves" not in history
    finally:
        pane.kill()


def test_the_question_comes_back_after_a_line_that_moves_nothing() -> None:
    # help, the rules, the score sheet and a refusal print lines and move no game: each is
    # followed by the question again (a screen reader's user is left with no prompt else),
    # without the board printed again.
    done = play_plain(["help", "rules", "scores", "dance", "quit", "y"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    asked = [i for i, line in enumerate(lines) if line == "your move>"]
    assert len(asked) == 5, done.stdout  # the first question, then once after each line
    quit_asked = lines.index("leave the game? (y/N)>")
    assert asked[-1] < quit_asked
    assert lines[asked[1] - 1] != "your move>" and lines.count("Your hand:") == 1
    assert lines[asked[4] - 1] == "unknown command 'dance' (type help, or press Tab)"

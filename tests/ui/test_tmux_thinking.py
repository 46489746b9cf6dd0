"""``lanparty play --offline --level hard``: while a hard bot thinks (here given 20 s a move,
so that its thought lasts long enough to be seen), the screen says who is thinking and keeps
answering: help opens over the table and closes, and ``quit`` leaves at once (issue 25)."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

THINKING = "is thinking…"


def test_the_screen_answers_while_a_hard_bot_thinks(tmp_path: Path) -> None:
    command = (f"{sys.executable} -m lanparty play kato --offline --level hard --think 20 "
               "--bots 3 --seed 5 --nick ann")  # fmt: skip
    pane = Pane(tmp_path, f"cd {REPO} && {command}", "tmux-256color", 80, 24)
    try:
        pane.wait(lambda: THINKING in pane.screen() or "your move>" in pane.screen(), "a turn")
        if THINKING not in pane.screen():  # ours first: a move, then the bots think
            pane.type("draw")
        pane.wait_text(THINKING)
        status = pane.screen().splitlines()[-1]
        assert status.rstrip().endswith(THINKING) and any(
            f"{bot} {THINKING}" in status for bot in ("Bea", "Carl", "Dora")
        ), status
        pane.keys("F1")  # help, while the bot is still thinking
        screen = pane.still(lambda s: "Esc or q: close" in s and THINKING in s, "help")
        assert "Commands (Tab completes):" in screen
        pane.keys("Escape")
        pane.still(lambda s: "Esc or q: close" not in s and THINKING in s, "help closed")
        pane.type("quit")  # and leaving: asked, and gone at once, mid-thought
        pane.wait(lambda: "(y/N)>" in pane.screen() and THINKING in pane.screen(), "asked")
        pane.type("y")
        left = time.monotonic()
        assert pane.exit_code() == 0
        assert time.monotonic() - left < 5  # no waiting for the search to end
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()

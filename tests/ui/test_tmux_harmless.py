"""Strings a peer chose, shown harmlessly in a real terminal (issue 24): a person joins, in a
tmux pane, a table whose host is hostile (``hostile_host.py``). Its talk carries a bidi
override and a zero-width space (shown escaped), escape sequences that would retitle the
window, clear the screen and colour what follows (never shown: every receiver refuses a line
of talk with control characters, and a spectator's name made of them), and its halt's
reason is those escape sequences (shown as text). The window's title is unchanged, the story
is still on the screen, nothing is coloured. The person's own line (``"TEXT``, completed
like any command) goes round the table and back."""

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

SETUP_DEADLINE = 60.0  # the joiner sits down, keys, the shuffle and the deal


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path / "eve")}
    proc = subprocess.Popen([sys.executable, "-m", "tests.ui.hostile_host"], cwd=REPO, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        yield proc, int(proc.stdout.readline())
    finally:
        proc.kill()
        proc.communicate()


def test_a_hostile_hosts_strings_are_shown_as_text(
    tmp_path: Path, hostile: tuple[subprocess.Popen[str], int]
) -> None:
    proc, port = hostile
    home = tmp_path / "ann"
    home.mkdir()
    command = (f"cd {REPO} && LANPARTY_HOME={home} {sys.executable} -m lanparty join "
               f"--connect 127.0.0.1:{port} --nick Ann --grace 0")  # fmt: skip
    pane = Pane(tmp_path, command, "tmux-256color")
    try:
        title = pane.tmux("display-message", "-p", "-t", "lp", "#{pane_title}")
        pane.wait(lambda: "Eve: good luck" in pane.story(), "the host's talk", SETUP_DEADLINE)
        story = pane.story()
        assert "Eve: bidi \\u202eevil\\u202c zero\\u200bwidth" in story  # escaped, as text
        assert "pwned" not in story and "Zed" not in story  # refused by this receiver
        pane.wait_text("Eve: good luck")
        pane.keys("s", "a")  # Tab completes talk like any command
        pane.wait_text("say something to the table")
        pane.keys("C-u")
        pane.type('"hi Eve')  # the short form: said to the table, shown when relayed back
        pane.wait(lambda: "Ann: hi Eve" in pane.story(), "our own line, relayed")
        assert proc.stdin is not None
        proc.stdin.write("halt\n")
        proc.stdin.flush()
        shown = "\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred"
        pane.wait(lambda: shown in pane.screen(), "the halt's reason, as text", SETUP_DEADLINE)
        screen = pane.screen()
        assert "Eve: good luck" in screen  # nothing cleared the screen
        assert pane.tmux("display-message", "-p", "-t", "lp", "#{pane_title}") == title
        coloured = pane.tmux("capture-pane", "-p", "-e", "-t", "lp")
        lines = [row for row in coloured.splitlines() if shown in row]
        assert lines and all("\x1b[31m" not in row.split(shown)[1] for row in lines)  # not red
        pane.keys("Enter")
        assert pane.exit_code() == 0
        assert shown in pane.joined()  # the end left on the terminal says it as text too
    finally:
        pane.kill()

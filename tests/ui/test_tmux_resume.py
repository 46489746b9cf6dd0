"""A player whose program was killed on their turn comes back with ``join --resume``: the
full-screen table asks for the move at once, with no key pressed (it said ``waiting>``
until a key was pressed: the seat is taken back with no event of the table's)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0


def _programs(text: str) -> list[int]:
    """The Python processes whose command line holds ``text`` (not the shell running them)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].decode(errors="replace").endswith(Path(sys.executable).name) and \
                text in b" ".join(argv).decode(errors="replace"):  # fmt: skip
            found.append(int(entry.name))
    return found


def _asked(pane: Pane) -> str:
    """The prompt on the screen (the row over the status line)."""
    rows = pane.screen().rstrip("\n").split("\n")
    return rows[-2].rstrip() if len(rows) > 1 else ""


def test_resumed_on_your_turn_asks_at_once(tmp_path: Path) -> None:
    name = f"resume-{os.getpid()}"
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path / "hal")}
    host = subprocess.Popen(
        [sys.executable, "-m", "lanparty", "host", "kato", "--bot", "--local", "--seats", "2",
         "--name", name, "--nick", "Hal", "--option", "rounds=1"],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    lanparty = f"{sys.executable} -m lanparty"
    first = f"{lanparty} join {name} --local --nick Bo"
    again = f"{lanparty} join --resume --local"
    pane = Pane(tmp_path, f"cd {REPO} && {first}; {again}", "tmux-256color",
                env=f"LANPARTY_HOME={tmp_path / 'bo'}")  # fmt: skip
    try:
        pane.wait(lambda: "Your hand:" in pane.screen() and _asked(pane) not in ("", "waiting>"),
                  "our turn", SETUP_DEADLINE)  # fmt: skip
        asked = _asked(pane)
        (program,) = _programs(first)
        os.kill(program, signal.SIGKILL)  # on our turn, as a crash would
        pane.wait(lambda: bool(_programs(again)), "the resumed seat", SETUP_DEADLINE)
        # Asked again with no key pressed.
        pane.wait(lambda: "Your hand:" in pane.screen() and _asked(pane) == asked,
                  f"{asked!r} again", 30)  # fmt: skip
        pane.type("quit")
        pane.wait_text("leave the table? the game stops for everyone (y/N)>")
        pane.type("y")
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()
        if host.poll() is None:
            host.kill()
        host.communicate()

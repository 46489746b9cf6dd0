"""A tmux pane driven like a person would: keys in, screen out (for the end-to-end UI tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEADLINE = 10.0  # seconds for any expected text to show up
#: The prompt at the end of a game: a player's, and the one of whoever may choose the night's
#: next game (a host, an offline player).
THE_END = "the end: Enter leaves>"
NIGHT_END = "again, next GAME, or Enter to end the night>"
LOOK = 0.1
"""Seconds a wait goes without a look when the program writes nothing to its terminal (a
file it writes, its exit)."""


class Pane:
    """One tmux server on a private socket, one session running one command (``columns``
    × ``rows``). The program's story is also written to a file (``$LANPARTY_STORY``):
    :meth:`story` reads it whole, whatever the story pane shows now.

    Everything the program writes to its terminal is also piped by tmux to a file
    (``pipe-pane``): a wait looks at the screen again when the program has written
    something (:meth:`pause`), not every few milliseconds (each look is a ``tmux`` process
    of its own), and at least every :data:`LOOK` seconds for what no output announces."""

    def __init__(self, tmp: Path, command: str, term: str, columns: int = 100,
                 rows: int = 30, env: str = "") -> None:  # fmt: skip
        self.socket = f"lanparty-test-{os.getpid()}-{tmp.name}"
        self.rc_file = tmp / "rc"
        self.story_file = tmp / "story.txt"
        conf = tmp / "tmux.conf"
        conf.write_text(
            "set -g remain-on-exit on\nset -g status off\nset -g history-limit 5000\n"
            f"set -g default-terminal {term}\n"
        )
        story = f"export LANPARTY_STORY={self.story_file} {env}"
        shell = f"{story}; {command}; echo $? > {self.rc_file}"
        start = ["tmux", "-L", self.socket, "-f", str(conf), "new-session", "-d", "-x",
                 str(columns), "-y", str(rows), "-s", "lp", shell]  # fmt: skip
        for _attempt in range(3):
            proc = subprocess.run(start, capture_output=True, text=True, timeout=10)
            # A tmux server now and then dies as it starts on a busy machine (before it runs
            # the command): start it again; anything else is a failure.
            if proc.returncode == 0 or "server exited unexpectedly" not in proc.stderr:
                break
        assert proc.returncode == 0, proc.stderr
        self.out_file = tmp / "pane.out"
        self.tmux("pipe-pane", "-o", "-t", "lp", f"cat >> {self.out_file}")

    def written(self) -> int:
        """How many bytes the program has written to its terminal so far (as tmux piped
        them): take it before a look at the screen, and :meth:`pause` after it."""
        try:
            return self.out_file.stat().st_size
        except FileNotFoundError:
            return 0

    def pause(self, since: int, most: float | None = None, least: float = 0.02) -> None:
        """Wait until the program has written more than ``since`` bytes to its terminal
        (see :meth:`written`), or ``most`` seconds (:data:`LOOK` if not given); at least
        ``least`` seconds, however much it writes."""
        pause_any([(self, since)], most, least)

    def tmux(self, *args: str) -> str:
        proc = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "lp")

    def history(self) -> str:
        """What the terminal holds: the screen (the table's, while it runs) and, once the
        program has left the full screen, what it printed before and after."""
        return self.tmux("capture-pane", "-p", "-t", "lp", "-S", "-", "-E", "-")

    def story(self) -> str:
        """Every line of the table's story so far, as told (a line each, not wrapped)."""
        return self.story_file.read_text(encoding="utf-8") if self.story_file.exists() else ""

    def log(self) -> list[str]:
        """The game's log lines in the story, without their ``"· "``."""
        return [line[2:].rstrip() for line in self.story().splitlines() if line.startswith("· ")]

    def wait_story(self, text: str, deadline: float = DEADLINE) -> None:
        """Wait until ``text`` has been told in the story."""
        self.wait(lambda: text in self.story(), f"{text!r} in the story", deadline)

    def joined(self) -> str:
        """The whole history with lines the terminal wrapped joined again."""
        return self.tmux("capture-pane", "-p", "-J", "-t", "lp", "-S", "-", "-E", "-")

    def board(self) -> str:
        """The board region on the screen (see :func:`board_of`), once tmux holds a whole
        redraw (:meth:`still`): a look in the middle of one read half of a changed row."""
        return board_of(self.still(lambda _screen: True, "a still screen"))

    def tables(self) -> str:
        """The lobby's tables region on the screen now (see :func:`tables_of`)."""
        return tables_of(self.screen())

    def page(self) -> str:
        """The page open over the table (help, the rules, the score sheet), read whole: its
        rows inside the frame, paged down (PgDn) to its end, joined with newlines."""
        rows: list[str] = []
        while True:
            screen = self.still(lambda s: "Esc or q: close" in s, "the page's footer")
            shown = [line.rstrip()[1:-1].rstrip() for line in screen.splitlines()
                     if line.startswith("│") and line.rstrip().endswith("│")]  # fmt: skip
            overlap = next((n for n in range(min(len(rows), len(shown)), 0, -1)
                            if rows[-n:] == shown[:n]), 0)  # fmt: skip
            rows += shown[overlap:]
            if "↓ more" not in screen:
                return "\n".join(rows)
            self.keys("PageDown")
            self.wait(lambda s=screen: self.screen() != s, "the next page")

    def still(self, ready: Callable[[str], bool], what: str) -> str:
        """The screen once ``ready(screen)`` and two looks in a row see the same screen: a
        big redraw (a page over the table) reaches tmux in pieces, and a look in between would
        read half of the old page and half of the new."""
        last = ""
        end = time.monotonic() + DEADLINE
        while True:
            since = self.written()
            screen = self.screen()
            if screen == last and ready(screen):
                return screen
            if time.monotonic() > end:
                pytest.fail(f"timed out waiting for {what}; screen:\n{screen}")
            last = screen
            if ready(screen):
                time.sleep(0.02)  # a second look shortly: is the screen still?
            else:
                self.pause(since)  # not yet: until the program writes again

    def keys(self, *keys: str) -> None:
        self._send(*keys)

    def type(self, text: str) -> None:
        self._send("-l", text)
        self.keys("Enter")

    def _send(self, *args: str) -> None:
        """Keys to the program; none if it has just ended (a dead pane takes no keys: the
        game may end, another player's move, between a look at the screen and typing)."""
        proc = subprocess.run(["tmux", "-L", self.socket, "send-keys", "-t", "lp", *args],
                              capture_output=True, text=True, timeout=10)  # fmt: skip
        if proc.returncode != 0 and not self.rc_file.exists():
            raise AssertionError(proc.stderr)

    def wait(self, ready: Callable[[], bool], what: str, deadline: float = DEADLINE) -> None:
        """Poll until ``ready()``; fail with the screen after ``deadline`` seconds."""
        end = time.monotonic() + deadline
        while True:
            since = self.written()
            if ready():
                return
            if time.monotonic() > end:
                pytest.fail(f"timed out waiting for {what}; screen:\n{self.screen()}")
            self.pause(since)

    def wait_text(self, text: str) -> None:
        self.wait(lambda: text in self.screen(), repr(text))

    def exit_code(self) -> int:
        self.wait(self.rc_file.exists, "the program to exit")
        self.wait(lambda: self.rc_file.read_text().strip() != "", "the exit code")
        return int(self.rc_file.read_text())

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


def lanparty_pane(folder: Path, *args: str) -> Pane:
    """``lanparty ARGS`` in a pane of its own, with ``folder`` (made now) as its data folder."""
    folder.mkdir()
    command = " ".join([sys.executable, "-m", "lanparty", *args])
    return Pane(folder, f"cd {REPO} && LANPARTY_HOME={folder} {command}", "tmux-256color")


def pause_any(
    marks: list[tuple[Pane, int]], most: float | None = None, least: float = 0.02
) -> None:
    """Wait until one of the panes' programs has written more than its mark (``(pane,
    pane.written())`` taken before looking at them), or ``most`` seconds (:data:`LOOK`);
    at least ``least`` seconds, so that a program that writes all the time (a clock, a
    status line) is not looked at more often than a poll every ``least`` seconds would."""
    end = time.monotonic() + (LOOK if most is None else most)
    time.sleep(least)
    while all(p.written() == since for p, since in marks) and time.monotonic() < end:
        time.sleep(0.005)  # looks at files' sizes: no process, next to nothing


def board_of(screen: str) -> str:
    """The board region of ``screen`` (a capture): the rows under the header down to the
    story's rule (a terminal under 140 columns; the rule's title in any language)."""
    lines = screen.splitlines()[1:]
    end = next((i for i, line in enumerate(lines) if line.startswith("─ ")), len(lines))
    return "\n".join(lines[:end]) + "\n"


def tables_of(screen: str) -> str:
    """The lobby's tables region of ``screen`` (a capture): the rows under its rule (the
    first one, in any language) down to the events' rule."""
    lines = screen.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("─ ")]
    if not rules:
        return ""
    end = rules[1] if len(rules) > 1 else len(lines)
    return "\n".join(lines[rules[0] + 1 : end]) + "\n"


def last_line(pane: Pane) -> str:
    """The last line the program printed, as printed (tmux's "Pane is dead" left out)."""
    lines = [line.rstrip() for line in pane.joined().splitlines()]
    return [line for line in lines if line and not line.startswith("Pane is dead")][-1]

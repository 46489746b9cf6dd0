"""The full-screen table of every game in a real terminal (tmux), from its first question to
its end, at 80×24 and 120×40 (and once at 150 columns, the story beside the board).

Each game is played offline with a fixed seed by a person who types what a heuristic
player would (an in-process twin with the same seed says what that is and what the program
must show). At its start, in a turn, in a sealed phase and at the end, the screen is read at
each size: the header names the game, the board region holds exactly the board the game
draws for that size (whole: never cut), the input line asks what the twin is asked, and the
story has told exactly the twin's story. The screens are kept as text goldens a reviewer can
read (``tests/ui/goldens/GAME.txt``; ``LANPARTY_UPDATE_GOLDENS=1`` rewrites them). Along the
way: a resize from 120×40 to 80×24 and back draws the same screen again (no row twice), the
story pane scrolls back to the game's first line, help opens over the table and closes with
Esc leaving everything as it was (and lists no host's command at an offline table), and with
``NO_COLOR`` no colour reaches the terminal.
"""

from __future__ import annotations

import difflib
import os
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lanparty.commands.common import parse_options
from lanparty.games.bots import bots_for
from lanparty.games.screens import STORY_COLUMNS, WIDE
from lanparty.table.local import BOT_NAMES, LocalTable
from lanparty.ui.handing import current_editor
from lanparty.ui.layout import draw_board, game_title
from protocol.contract import Commit

from .tmux import NIGHT_END, REPO, Pane, board_of

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

GOLDENS = Path(__file__).parent / "goldens"
UPDATE = os.environ.get("LANPARTY_UPDATE_GOLDENS") == "1"
SIZES = ((80, 24), (120, 40))
BESIDE = (150, 40)  # the story in a column of its own
END = NIGHT_END  # an offline game: the night may go on


@dataclass(frozen=True)
class Setup:
    bots: int
    seed: int
    options: tuple[str, ...] = ()
    env: str = ""


GAMES = {
    "kato": Setup(2, 7, ("rounds=1", "hand_size=3"), env="NO_COLOR=1"),
    "unikato": Setup(1, 1, ("rounds=1",)),
    "unanimo": Setup(3, 1, ("cards=1",)),
    "unicorns": Setup(2, 1),
}


def colours(raw: str) -> set[str]:
    """The colour parameters of the SGR sequences in ``raw`` (tmux's resets to the default
    colours, 39 and 49, are not colours)."""
    found = set()
    for params in re.findall(r"\x1b\[([0-9;]*)m", raw):
        for p in params.split(";"):
            if p and p not in ("39", "49") and int(p) in {*range(30, 49), *range(90, 108)}:
                found.add(p)
    return found


@dataclass
class Twin:
    """The table the program builds, and the person's choices (a heuristic player's)."""

    game: str
    setup: Setup
    table: LocalTable = field(init=False)
    told: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        kind = bots_for(self.game)["heuristic"]
        names = ["ann", *BOT_NAMES[: self.setup.bots]]
        options = parse_options(self.game, list(self.setup.options))
        self.table = LocalTable(self.game, names, [None, *(kind() for _ in names[1:])],
                                options, self.setup.seed)  # fmt: skip
        self.me, self.rng = kind(), random.Random(0)

    def step(self) -> bool:
        """Let the bots play; True once the game is over. The story so far in ``told``."""
        self.table.advance()
        self.told += self.table.take_log()
        return self.table.over()

    def choose(self) -> str:
        """What the person types now ("" for Enter: an out-of-turn chance let go); the move
        is made at the twin."""
        t = self.table
        legal = t.legal_moves()
        move = self.me.choose(t.view(), [*legal, None] if t.can_decline() else legal, self.rng)
        if move is None:
            t.decline()
            return ""
        command = t.screen.command_for(move, t.view())[0]
        t.submit(move)
        return command

    def board(self, columns: int, rows: int) -> list[str]:
        """The board region the program must show now, at ``columns`` × ``rows`` (a reading
        drawn whole, as it stands once its animation is over)."""
        t = self.table
        still = getattr(t.screen, "still", None)
        session: Any = t
        if still is not None:
            session = SimpleNamespace(
                screen=still(), view=t.view, names=t.names, legal_moves=t.legal_moves,
                may_move=t.may_move, game_name=t.game_name,
            )  # fmt: skip
        drawn = draw_board(session, columns, rows, "", current_editor(t))
        return _lines("".join(text for _s, text in drawn))

    def ending(self) -> list[str]:
        t = self.table
        return _lines("".join(text for _s, text in t.screen.final(t.view(), t.names)))


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def region(screen: str, columns: int) -> list[str]:
    """The board region of ``screen``: under the header, above the story (beside it from
    :data:`WIDE` columns)."""
    if columns < WIDE:
        return _lines(board_of(screen))
    rows = screen.splitlines()[1:-2]
    return _lines("\n".join(row[: columns - STORY_COLUMNS - 1] for row in rows))


def settled(pane: Pane, columns: int, rows: int) -> str:
    """Resize the terminal and wait until the screen is drawn whole for it (two looks
    alike); that screen."""
    pane.tmux("resize-window", "-t", "lp", "-x", str(columns), "-y", str(rows))
    seen = [""]

    def drawn() -> bool:
        before, seen[0] = seen[0], pane.screen()
        lines = seen[0].rstrip("\n").split("\n")
        rule = [line for line in lines if "─ story " in line]  # it ends at the right edge
        return (seen[0] == before and len(lines) == rows and len(rule) == 1
                and len(rule[0].rstrip()) == columns)  # fmt: skip

    pane.wait(drawn, f"the screen at {columns}x{rows}")
    return seen[0]


def mask(screen: str) -> str:
    """What varies from run to run, masked: a countdown's digits."""
    return re.sub(r"\b\d+:\d\d left\b", "m:ss left", screen)


class Shots:
    """The screens taken, in order, as the golden file holds them."""

    def __init__(self) -> None:
        self.blocks: list[str] = []

    def add(self, moment: str, columns: int, rows: int, screen: str) -> None:
        body = "\n".join(line.rstrip() for line in mask(screen).split("\n")).rstrip("\n")
        self.blocks.append(f"=== {moment} · {columns}x{rows} ===\n{body}\n")

    def text(self) -> str:
        return "\n".join(self.blocks)


def _asking(t: Any, screen: str) -> bool:
    """Whether ``screen`` shows the input line the table ``t`` asks with now (its editor's
    first line, or its prompt on the row above the status line)."""
    editor = current_editor(t)
    if editor is not None:
        return editor.title in screen and editor.line_prompt(0).rstrip() in screen
    lines = screen.rstrip("\n").split("\n")
    asked = t.screen.prompt(t.view(), t.can_decline()).rstrip()
    return len(lines) >= 2 and lines[-2].startswith(asked)


def look(pane: Pane, twin: Twin, moment: str, shots: Shots, sizes: tuple[tuple[int, int], ...],
         cut: list[str]) -> dict[tuple[int, int], str]:  # fmt: skip
    """Read the screen at each of ``sizes``: the header, the whole board, the input line;
    the screens where the board did not fit go to ``cut``."""
    title = game_title(twin.game)
    t = twin.table
    seen = {}
    for columns, rows in sizes:
        screen = settled(pane, columns, rows)
        if moment != "end":
            expected = twin.board(columns, rows)
            got = [screen]

            def board_drawn(c: int = columns, e: str = expected, got: list[str] = got) -> bool:
                got[0] = pane.screen()  # the very screen checked (a later look may catch
                # the terminal in the middle of a redraw): the board and the input line
                return region(got[0], c) == e and _asking(t, got[0])

            pane.wait(board_drawn, f"the board and the input line at {columns}x{rows}", 30)
            screen = got[0]
        lines = screen.rstrip("\n").split("\n")  # the last: the status line
        assert lines[0].startswith(f" {title}"), screen
        if moment == "end":
            assert region(screen, columns) == twin.ending(), screen
            assert lines[-2].startswith(END), screen
        else:
            if "Make the window at least" in screen:
                cut.append(f"{moment} at {columns}x{rows}")
            editor = current_editor(t)
            if editor is not None:
                assert editor.title in screen and editor.line_prompt(0).rstrip() in screen
            else:
                asked = t.screen.prompt(t.view(), t.can_decline()).rstrip()
                assert lines[-2].startswith(asked), screen
        shots.add(moment, columns, rows, screen)
        seen[(columns, rows)] = screen
    return seen


def caught_up(pane: Pane, twin: Twin) -> None:
    """Wait until the story tells exactly the twin's."""
    pane.wait(lambda: len(pane.log()) >= len(twin.told), "the story")
    assert pane.log() == twin.told


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_a_game(game: str, tmp_path: Path) -> None:
    setup = GAMES[game]
    options = " ".join(f"--option {o}" for o in setup.options)
    command = (f"{sys.executable} -m lanparty play {game} --offline --bots {setup.bots} "
               f"--seed {setup.seed} --nick ann {options}")  # fmt: skip
    env = f"LANPARTY_HOME={tmp_path} LANPARTY_LANG=en {setup.env}"
    pane = Pane(tmp_path, f"cd {REPO} && {command}", "tmux-256color", 80, 24, env=env)
    twin, shots = Twin(game, setup), Shots()
    cut: list[str] = []  # the screens where the board did not fit
    try:
        asks, sealed = 0, False
        while not twin.step():
            caught_up(pane, twin)
            asks += 1
            status = twin.table.game.status(twin.table.copies[0])
            moment = {1: "start", 2: "turn"}.get(asks, "")
            if isinstance(status, Commit) and not sealed:
                sealed, moment = True, f"{moment} (sealed)".strip() if moment else "sealed"
            if moment:
                seen = look(pane, twin, moment, shots, SIZES, cut)
                if moment.startswith("turn"):
                    # Back to 80x24 and to 120x40 again: the same screen, no row twice.
                    settled(pane, 80, 24)
                    assert settled(pane, 120, 40) == seen[(120, 40)]
                    # The score sheet so far, over the table; Esc: the table as it was.
                    pane.type("scores")
                    pane.wait_text(f"| {game_title(game)} · scores |")
                    assert "Final scores" not in pane.screen()  # the game is not over
                    pane.keys("Escape")
                    same(pane, seen[(120, 40)], "the table again")
                    look(pane, twin, moment, shots, (BESIDE,), cut)
            if current_editor(twin.table) is not None:
                pane.keys("Escape")  # the person types the words on the command line
                pane.wait(lambda: "back to the editor" in pane.screen(), "the command line")
            command = twin.choose()
            if command:
                pane.type(command)
            else:
                pane.keys("Enter")
        caught_up(pane, twin)
        pane.wait_text(END)
        seen = look(pane, twin, "end", shots, SIZES, cut)
        the_end(pane, game, settled(pane, 80, 24))
        pane.keys("Enter")
        assert pane.exit_code() == 0
        assert twin.ending()[0] in pane.history()  # the end stays on the terminal
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()
    golden = GOLDENS / f"{game}.txt"
    if UPDATE or not golden.exists():
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(shots.text(), encoding="utf-8")
    assert shots.text() == golden.read_text(encoding="utf-8"), f"{golden} differs"
    assert cut == [], f"the board did not fit: {cut}"


def the_end(pane: Pane, game: str, screen: str) -> None:
    """At 80x24 once the game is over: the story scrolls back to the game's first line (if
    it is not in sight) and forward again; help opens over the table and closes with Esc
    leaving it as it was; with ``NO_COLOR`` nothing is coloured."""
    title = game_title(game)
    first = f"lanparty · {title}  (type help; Tab completes)"
    lines = screen.split("\n")
    top = lines[: next(i for i, line in enumerate(lines) if line.startswith("─ story"))]
    pages = 0
    while first not in pane.screen() and pages < 200:
        pages += 1
        before = pane.screen()
        pane.keys("PageUp")
        # The page drawn whole (a look mid-redraw read blank rows over the board).
        pane.still(lambda now, b=before: now != b or first in b, "the story scrolled")
    assert first in pane.screen(), pane.screen()
    if pages:
        scrolled = pane.still(lambda now: first in now, "the first page").split("\n")
        assert scrolled[: len(top)] == top  # the board stays where it is
        assert re.search(r"─ \d+ newer ↓ · End ─", scrolled[len(top)]), scrolled[len(top)]
        pane.keys("End")
        same(pane, screen, "the newest lines again")

    pane.keys("?")
    pane.wait_text("Commands (Tab completes):")
    shown = pane.page()
    assert "rules" in shown and "quit" in shown
    assert not re.search(r"^  (start|kick N|approve N) ", shown, re.M), shown  # not offline
    pane.keys("Escape")
    same(pane, screen, "the table as it was")

    raw = pane.tmux("capture-pane", "-p", "-e", "-t", "lp")
    if "NO_COLOR=1" in GAMES[game].env:
        assert colours(raw) == set(), raw
    else:
        assert colours(raw), "no colour at all"


def same(pane: Pane, screen: str, what: str) -> None:
    """Wait until the screen is ``screen`` again; fail showing how it differs."""
    end = time.monotonic() + 5
    while True:
        since = pane.written()
        if pane.screen() == screen:
            return
        if time.monotonic() > end:
            diff = difflib.unified_diff(screen.split("\n"), pane.screen().split("\n"),
                                        lineterm="")  # fmt: skip
            pytest.fail(f"not {what}:\n" + "\n".join(diff))
        pane.pause(since)  # until the program writes again


def test_goldens_are_plain_text() -> None:
    """The goldens a reviewer reads: one block a screen, no escape sequence."""
    for path in GOLDENS.glob("*.txt"):
        text = path.read_text(encoding="utf-8")
        assert "\x1b" not in text and text.startswith("=== start"), path

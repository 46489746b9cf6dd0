"""End to end: the real ``lanparty play`` in a tmux pane, driven by keys, read by capture-pane.

An in-process twin (the same seed, names and bots) says what the program must show and which
commands are legal; the table's story must tell exactly the twin's.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from lanparty.games.bots import bots_for
from lanparty.games.kato.narrate import card_name, colour_name
from lanparty.games.kato.screen import command_for, hand_of
from lanparty.table.local import LocalTable

from .tmux import REPO, Pane, last_line

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


@pytest.fixture
def pane_factory(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    panes: list[Pane] = []

    def start(*args: str, term: str = "tmux-256color") -> Pane:
        command = " ".join([sys.executable, "-m", "lanparty", *args])
        pane = Pane(tmp_path, f"cd {REPO} && {command}", term)
        panes.append(pane)
        return pane

    yield start
    for pane in panes:
        pane.kill()


def twin(seed: int, nick: str, bots: int, kind: str = "heuristic") -> LocalTable:
    """The same table the program builds for ``play kato --bots N --seed S --nick NICK``
    (and ``--bot-kind KIND``)."""
    factory = bots_for("kato")[kind]
    names = [nick, "Bea", "Carl", "Dora"][: bots + 1]
    return LocalTable("kato", names, [None, *(factory() for _ in range(bots))], {}, seed)


def type_and_follow(pane: Pane, table: LocalTable, command: str, told: list[str]) -> None:
    """Type ``command`` in the pane and make the same move at the twin; the pane's log must
    then tell exactly the twin's story (``told`` grows with it)."""
    pane.type(command)
    view = table.view()
    table.submit(next(m for m in table.legal_moves() if command_for(m, view)[0] == command))
    table.advance()
    told += table.take_log()
    expected = len(told)
    pane.wait(lambda: len(pane.log()) >= expected, f"the log after {command}")
    assert pane.log() == told


def board(screen: str) -> str:
    """The live board on ``screen``: from its round line to the prompt under it."""
    return screen[screen.rindex("Round ") :] if "Round " in screen else ""


def choose(table: LocalTable) -> str:
    """A command a player would type: KaTO first, a play (with a colour) if any, else draw."""
    view = table.view()
    commands = [command_for(m, view)[0] for m in table.legal_moves()]
    for wanted in ("kato", "catch", "play", "colour", "accept", "draw", "pass"):
        for command in commands:
            if command.startswith(wanted):
                return command
    raise AssertionError(f"nothing to do in {commands}")


def test_play_a_few_turns_then_quit(pane_factory: Callable[..., Pane]) -> None:
    pane = pane_factory("play", "kato", "--offline", "--bots", "2", "--seed", "7", "--nick", "ann")
    table = twin(7, "ann", 2)
    table.advance()
    told = table.take_log()
    pane.wait_text("Your hand:")
    screen = pane.screen()
    assert "ann (you)" in screen and "Bea" in screen and "Carl" in screen
    assert "Top:" in screen and "Colour in play:" in screen
    top = str(table.view()["top"])
    assert card_name(top) in screen
    for i, (_, label) in enumerate(hand_of(table.view()), 1):
        assert f"{i}: {card_name(label)}" in screen

    # Tab completes from the legal moves.
    first = command_for(table.legal_moves()[0], table.view())[0]
    pane.keys(first[:2])
    pane.wait(lambda: f"> {first[:2]}\n" in pane.screen(), "the typed text")
    pane.keys("Tab")
    pane.wait(lambda: f"> {first}" in pane.screen(), f"completion to {first!r}")
    pane.keys("C-u")

    # A typing mistake and an illegal move are explained and cost nothing.
    pane.type("dance")
    pane.wait_text("unknown command 'dance'")
    legal = table.legal_moves()
    view = table.view()
    bad = next(
        (i for i, (h, lab) in enumerate(hand_of(view), 1) if ("play", (h,), (lab,), "") not in legal
         and lab not in ("W", "W+4", "cone")),
        None,
    )  # fmt: skip
    if bad is not None:
        pane.type(f"play {bad}")
        pane.wait_text("Not allowed: ")

    for _ in range(5):
        if table.over():
            break
        command = choose(table)
        pane.type(command)
        if command == "kato":
            table.submit(("kato",))
        else:
            move = next(
                m for m in table.legal_moves() if command_for(m, table.view())[0] == command
            )
            table.submit(move)
        table.advance()
        told += table.take_log()
        expected = len(told)
        pane.wait(lambda n=expected: len(pane.log()) >= n, f"the log after {command}")
        assert pane.log() == told

    # quit asks first: anything but y plays on, y leaves.
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("n")
    pane.wait_text("Playing on.")
    pane.wait_text("your move>")
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Bye." in pane.story()
    assert "Traceback" not in pane.history()


@pytest.mark.parametrize("term", ["screen", "tmux-256color", "xterm-256color", "linux"])
def test_ctrl_d_asks_then_leaves(pane_factory: Callable[..., Pane], term: str) -> None:
    pane = pane_factory("play", "kato", "--offline", "--bots", "3", "--seed", "3", term=term)
    pane.wait_text("Your hand:")
    pane.keys("pl")  # half-typed text does not stop it
    pane.keys("C-d")
    pane.wait_text("leave the game? (y/N)>")
    pane.keys("C-d")
    assert pane.exit_code() == 0
    assert "Bye." in pane.story() and "Traceback" not in pane.history()


def test_ctrl_c_asks_and_a_second_ctrl_c_leaves_in_one_line(
    pane_factory: Callable[..., Pane],
) -> None:
    pane = pane_factory("play", "kato", "--offline", "--bots", "3", "--seed", "3")
    pane.wait_text("Your hand:")
    pane.keys("pl")
    pane.keys("C-c")
    # The question is asked on a line of its own (the menu closed); what was typed is set
    # aside and given back when the player plays on.
    pane.wait_text("(Ctrl-C again leaves at once)")
    pane.wait(lambda: pane.screen().splitlines()[-2].rstrip() == "leave the game? (y/N)>",
              "the question on an empty line")  # fmt: skip
    pane.type("n")
    pane.wait_text("Playing on.")
    pane.wait(lambda: pane.screen().splitlines()[-2].rstrip().endswith("> pl"), "the line back")
    pane.keys("C-c")
    pane.wait_text("leave the game? (y/N)>")
    pane.keys("C-c")
    assert pane.exit_code() == 130
    history = pane.history()
    assert "Traceback" not in history
    assert last_line(pane) == "lanparty play: interrupted: you left the game"


def test_the_board_marks_playable_cards_and_the_menu_has_room(
    pane_factory: Callable[..., Pane],
) -> None:
    pane = pane_factory("play", "kato", "--offline", "--bots", "3", "--seed", "7", "--nick", "ann")
    table = twin(7, "ann", 3)
    table.advance()
    pane.wait_text("your move>")
    view = table.view()
    plays = {m[1][0] for m in table.legal_moves() if m[0] == "play"}
    marked = [str(i) for i, (h, _) in enumerate(hand_of(view), 1) if h in plays]
    pane.wait_text(f"Playable: {', '.join(marked)}")  # the board under the prompt
    pane.keys("Tab")  # every command: more than 3 rows of the menu on a 30-row screen
    menu = ["draw a card", "list the commands", "show the rules", "leave the game"]
    pane.wait(lambda: all(m in pane.screen() for m in menu), "the menu's rows")
    pane.keys("Escape")  # closes the menu, as it closes the pages
    pane.wait(lambda: not any(m in pane.screen() for m in menu), "the menu closed by Esc")
    pane.keys("C-u")
    pane.type("quit")
    pane.wait_text("(y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0


def test_narrow_terminal_still_plays(pane_factory: Callable[..., Pane]) -> None:
    pane = pane_factory(
        "play", "kato", "--offline", "--bots", "5", "--seed", "4", "--nick", "a-rather-long-name"
    )
    pane.tmux("resize-window", "-t", "lp", "-x", "30", "-y", "12")
    pane.wait_text("your move>")
    # Nothing is cut: the board gives way to one message saying how big the window must
    # be, and the game goes on under it.
    pane.wait(lambda: "Make the window at least" in " ".join(pane.screen().split()), "the size")
    assert "Playable:" not in pane.screen()
    pane.type("draw")
    pane.wait(lambda: "· You draw" in pane.story(), "the move told")
    pane.type("help")
    pane.wait_text("Commands (Tab completes):")
    pane.keys("End")  # the help's last rows, wrapped to the overlay's width
    pane.wait_text("Short forms: p = play")
    pane.keys("Escape")
    pane.wait(lambda: "Short forms" not in pane.screen(), "the help closed")
    pane.type("quit")
    pane.wait_text("(y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()


def _bluffed_at(seed: int) -> list[str] | None:
    """The commands that bring ``ann`` (against one random bot, seed ``seed``) to a Wild Draw
    Four she can challenge and that was a bluff, or None if that does not come soon."""
    table = twin(seed, "ann", 1, "random")
    commands: list[str] = []
    for _ in range(12):
        table.advance()
        if table.over():
            return None
        if ("challenge",) in table.legal_moves():
            table.submit(("challenge",))
            table.advance()
            log = table.take_log()
            guilty = any(line.startswith("Verdict: ") and line.endswith("guilty") for line in log)
            return commands if guilty else None
        commands.append(choose(table))
        view = table.view()
        table.submit(
            next(m for m in table.legal_moves() if command_for(m, view)[0] == commands[-1])
        )
    return None


def test_the_challengers_screen_shows_the_verdict_untyped(
    pane_factory: Callable[..., Pane],
) -> None:
    """Ann challenges a bluff and types nothing else: her screen says whose hand was shown to
    her, which colour decided, and the verdict; the hand leaves the table once play goes on."""
    seed, commands = next((s, c) for s in range(200) if (c := _bluffed_at(s)) is not None)
    pane = pane_factory("play", "kato", "--offline", "--bots", "1", "--bot-kind", "random",
                        "--seed", str(seed), "--nick", "ann")  # fmt: skip
    table = twin(seed, "ann", 1, "random")
    table.advance()
    told = table.take_log()
    pane.wait_text("Your hand:")
    for command in commands:
        type_and_follow(pane, table, command, told)
    pane.wait_text("answer or accept>")
    type_and_follow(pane, table, "challenge", told)
    colour = colour_name(table.view()["challenge"]["colour"])  # in play under the Draw Four
    verdict = f"Verdict: Bea's hand, shown to you, has a {colour} card: guilty"
    assert verdict in told and "verdict" not in commands
    pane.wait_text(f"· {verdict}")
    # Guilty: Ann plays on, with the shown hand on the table until she moves (the board is
    # redrawn just after the log line: wait for it, do not race it).
    pane.wait_text(f"Challenge: Bea's hand, shown to you  {colour} decides: guilty")
    type_and_follow(pane, table, choose(table), told)
    # The board is drawn again with the move: the shown hand has left it.
    pane.wait(lambda: "Challenge:" not in board(pane.screen()), "the board without the challenge")
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0


def test_the_rules_page_is_wrapped_again_to_an_80_column_window(tmp_path: Path) -> None:
    """The rules are written wrapped at about 95 columns; at 80 columns each paragraph is
    joined and cut at the page's width, not cut a second time with a short row after each
    long one ("its winner scores" / "what the others are still holding; ...")."""
    command = f"{sys.executable} -m lanparty play kato --offline --bots 2 --nick ann"
    pane = Pane(tmp_path, f"cd {REPO} && {command}", "tmux-256color", 80, 24)
    try:
        pane.wait_text("your move>")
        pane.type("rules")
        rows = pane.page().splitlines()
        assert "its winner scores what the others are still holding" in " ".join(rows)
        for row, after in pairwise(rows):
            heading = row.startswith("#") or after.lstrip().startswith(("-", "#", "|"))
            if row.strip() and after.strip() and not heading:
                word = after.split()[0]
                assert len(row) + 1 + len(word) > 78, f"{word!r} would fit after {row!r}"
        pane.keys("Escape")
        pane.wait_text("your move>")
    finally:
        pane.kill()

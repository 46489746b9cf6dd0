"""End to end, Unikato: the real ``lanparty play unikato --offline`` in a tmux pane, driven by
keys, read by capture-pane. An in-process twin (same seed, names and bots) says what the
program must show and which commands are legal; the pane's log must tell the twin's story.
"""

from __future__ import annotations

import random
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from lanparty.games.bots import bots_for
from lanparty.games.unikato.bots import HeuristicBot
from lanparty.games.unikato.glyphs import glyph_text
from lanparty.games.unikato.screen import _frame as frame
from lanparty.games.unikato.screen import command_for, fits, numbered
from lanparty.games.views import cards
from lanparty.table.local import LocalTable

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


@pytest.fixture
def pane_factory(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    panes: list[Pane] = []

    def start(*args: str, env: str = "", term: str = "tmux-256color") -> Pane:
        command = " ".join([sys.executable, "-m", "lanparty", *args])
        pane = Pane(tmp_path, f"cd {REPO} && {env} {command}", term)
        panes.append(pane)
        return pane

    yield start
    for pane in panes:
        pane.kill()


def twin(seed: int) -> LocalTable:
    """The table ``play unikato --offline --bots 1 --seed SEED --nick ann`` builds."""
    bot = bots_for("unikato")["heuristic"]()
    return LocalTable("unikato", ["ann", "Bea"], [None, bot], {}, seed)


def bonus_chain(seed: int, limit: int = 6) -> list[str] | None:
    """Ann's commands (a heuristic player's) up to the placement that earns her a bonus
    action at the end of a chain of two tiles or more, if that comes within ``limit``
    commands at seed ``seed``."""
    table, player, commands = twin(seed), HeuristicBot(), []
    for _ in range(limit):
        table.advance()
        view = table.view()
        move = player.choose(view, table.legal_moves(), random.Random(0))
        assert move is not None
        commands.append(command_for(move, view)[0])
        table.submit(move)
        if table.view()["bonus"] is True:
            return commands if len(table.view()["chain"]) >= 2 else None  # type: ignore[arg-type]
    return None


def log_lines(pane: Pane) -> list[str]:
    return pane.log()


def follow(pane: Pane, table: LocalTable, command: str, told: list[str]) -> None:
    """Type ``command`` and make the same move at the twin: the pane's log must then tell
    exactly the twin's story (``told`` grows with it)."""
    pane.type(command)
    view = table.view()
    table.submit(next(m for m in table.legal_moves() if command_for(m, view)[0] == command))
    table.advance()
    told += table.take_log()
    pane.wait(lambda: len(log_lines(pane)) >= len(told), f"the log after {command}")
    assert log_lines(pane) == told


def colours(raw: str) -> set[str]:
    """The colour parameters of the SGR sequences in ``raw`` (foreground, background, 256
    colours or 24 bits); tmux's resets to the default colours (39, 49) are not colours."""
    found = set()
    for params in re.findall(r"\x1b\[([0-9;]*)m", raw):
        for p in params.split(";"):
            if p and p not in ("39", "49") and int(p) in {*range(30, 49), *range(90, 108)}:
                found.add(p)
    return found


def in_menu(pane: Pane, entry: str) -> bool:
    """Whether the completion menu on the screen (over the story) lists ``entry``."""
    return any(f" {entry}  " in line for line in pane.screen().splitlines())


def board(pane: Pane) -> str:
    """The live board on the screen."""
    return pane.board()


def test_a_chain_that_earns_the_bonus(pane_factory: Callable[..., Pane]) -> None:
    """Ann lays a chain whose last tile touches two: the grid names the cells where each
    tile fits while she types, Tab completes them, the log tells every placement and the
    bonus, the board shows the chain and the bonus action; the grid is cut to a narrow
    terminal around the last move and drawn whole again when it widens. She spends the
    bonus on an exchange with the display and ends her turn drawing from it."""
    seed, commands = next((s, c) for s in range(100) if (c := bonus_chain(s)) is not None)
    pane = pane_factory("play", "unikato", "--offline", "--bots", "1", "--seed", str(seed),
                        "--nick", "ann")  # fmt: skip
    table = twin(seed)
    table.advance()
    told = table.take_log()
    pane.wait_text("Your tiles:")
    pane.wait(lambda: len(log_lines(pane)) >= len(told), "the deal told")  # the screen is first
    assert log_lines(pane) == told
    view = table.view()
    screen = pane.screen()
    counts = view["counts"]
    assert f"▶ ann (you) {counts[0]} tiles" in screen and f"Bea {counts[1]} tiles" in screen  # type: ignore[index]
    assert f"bag {view['bag']}" in screen
    for i, _h, label in numbered(view):
        assert f"{i}:{glyph_text(label)}" in screen
    start = str(view["grid"][0][2])  # type: ignore[index]
    assert any(line.startswith("21") and glyph_text(start) in line for line in screen.splitlines())
    assert "\x1b[48;5;" in pane.tmux("capture-pane", "-p", "-e", "-t", "lp")  # 256 colours

    for n, command in enumerate(commands):
        if command.startswith("place"):
            # While "place N" is typed, the grid names every cell where tile N fits.
            number = command.split()[1]
            view = table.view()
            handle = next(h for k, h, _label in numbered(view) if k == int(number))
            cells = [frame(view).name(c) for c in fits(view, handle, table.legal_moves())]
            pane.keys(f"place {number}")
            pane.wait_text(f"fits at {', '.join(cells)}")
            assert all(f"[{c}]" in board(pane) for c in cells)
            if n == len(commands) - 1:  # the menu lists the cells, Tab completes them
                menu = f"place {number} at {cells[0]}"
                pane.wait(partial(in_menu, pane, menu), "the menu")
                pane.keys("Tab")
                pane.wait_text(f"> {menu}")
                pane.keys("Escape")
            pane.keys("C-u")
        follow(pane, table, command, told)

    assert told[-1].startswith("You place ") and told[-1].endswith(
        "touching 2 tiles: a bonus action"
    )
    pane.wait(lambda: "★ bonus: one more action after this one" in board(pane), "the bonus")
    view = table.view()
    chain = [frame(view).name((x, y)) for x, y in view["chain"]]  # type: ignore[union-attr, misc]
    assert f"You are placing: {' → '.join(chain)}" in board(pane)

    # Narrow (the least Unikato is drawn in): the grid is cut, centred on the last tile;
    # wide again: drawn whole.
    last = glyph_text(str(view["grid"][-1][2]))  # type: ignore[index]
    pane.tmux("resize-window", "-t", "lp", "-x", "40", "-y", "24")
    pane.wait(lambda: last in board(pane) and "hidden" in board(pane), "a cut grid")
    pane.tmux("resize-window", "-t", "lp", "-x", "100", "-y", "30")
    pane.wait(lambda: last in board(pane) and "hidden" not in board(pane), "the whole grid")

    follow(pane, table, "done", told)
    assert told[-1] == f"You end your chain: {len(chain)} tiles; a bonus action follows"
    pane.wait_text("bonus action: place, exchange, or done>")
    assert "★ Your bonus action: place, exchange, or done" in board(pane)

    # The bonus action spent on an exchange with the display, then the draw that ends the
    # turn (she laid tiles, so she holds fewer than 10): both told, the board follows.
    view = table.view()
    swap = next(m for m in table.legal_moves() if m[0] == "exchange" and m[3] != "bag")
    given, taken = glyph_text(str(swap[2])), dict(cards(view, "display"))[swap[3]]
    command = command_for(swap, view)[0]
    assert re.fullmatch(r"exchange \d+ for \d", command)
    pane.type(command)
    table.submit(swap)
    told += table.take_log()
    pane.wait(lambda: len(log_lines(pane)) >= len(told), "the exchange told")
    assert log_lines(pane) == told and told[-1].startswith("You put ")
    pane.wait_text("draw from the display or the bag>")
    assert f":{given}" in board(pane).split("display:")[1].splitlines()[0]
    hand = "".join(line for line in board(pane).splitlines() if "Your tiles" in line)
    assert glyph_text(taken) in hand
    view = table.view()
    assert view["phase"] == "draw"
    draw = next(m for m in table.legal_moves() if m[0] == "draw" and m[1] != "bag")
    follow(pane, table, command_for(draw, view)[0], told)
    assert any(line.startswith("You take ") for line in told[-12:])
    counts = table.view()["counts"]
    mine = f"ann (you) {counts[0]} tiles"  # type: ignore[index]
    pane.wait(lambda: mine in board(pane), "the board after the draw")
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()


def test_monochrome_glyphs_still_tell_every_feature(pane_factory: Callable[..., Pane]) -> None:
    """With ``NO_COLOR`` the terminal gets no colour at all, and the tiles read the same:
    the glyph's characters carry all four features and its frame its extent, in the hand and
    on the grid; ``help`` gives the legend."""
    pane = pane_factory("play", "unikato", "--offline", "--bots", "2", "--seed", "3", "--nick",
                        "ann", env="NO_COLOR=1")  # fmt: skip
    heuristic = bots_for("unikato")["heuristic"]
    table = LocalTable("unikato", ["ann", "Bea", "Carl"], [None, heuristic(), heuristic()], {}, 3)
    table.advance()
    pane.wait_text("Your tiles:")
    raw = pane.tmux("capture-pane", "-p", "-e", "-t", "lp")
    assert colours(raw) == set()
    screen = pane.screen()
    for i, _h, label in numbered(table.view()):
        assert f"{i}:{glyph_text(label)}" in screen
    start = str(table.view()["grid"][0][2])  # type: ignore[index]
    row = next(line for line in screen.splitlines() if line.startswith("21"))
    assert glyph_text(start) in row and glyph_text(start).startswith("[")
    pane.type("help")
    pane.wait_text("Commands (Tab completes):")
    joined = " ".join(pane.page().split())  # the help wraps its rows to the page's width
    assert "O orange, P purple, B blue" in joined
    assert "the first character inside: blank white, ░ grey, ▓ black" in joined
    assert "tile [░P■■░] its edges, then background, colour" in joined
    assert "● circle, ■ square, ✚ cross; once small, twice medium, 3× large" in joined
    pane.keys("Escape")
    pane.wait(lambda: "Commands (Tab completes):" not in pane.screen(), "the help closed")
    pane.type("quit")
    pane.wait_text("leave the game? (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0


_PROMPTS = ("place a tile or exchange one>", "draw from the display or the bag>",
            "place the next tile, or done>")  # fmt: skip


def prompt(pane: Pane) -> str | None:
    """The prompt on the last line of the board if nothing is typed after it, else None."""
    lines = [line.rstrip() for line in pane.screen().splitlines() if line.strip()]
    found = [line for line in lines if line.endswith(_PROMPTS)]
    return found[-1] if found and found[-1] in _PROMPTS else None


def asked(pane: Pane) -> str:
    """Wait until the last line of the board is a prompt with nothing typed; that prompt."""
    pane.wait(lambda: prompt(pane) is not None, "a prompt", 60.0)
    return prompt(pane) or ""


def told(pane: Pane, pattern: str) -> int:
    """How many log lines match ``pattern``."""
    return sum(bool(re.fullmatch(pattern, line)) for line in log_lines(pane))


def lay_and_draw(pane: Pane, number: str) -> None:
    """Lay tile ``number`` on the first cell the board names for it, end the chain, draw
    from the bag: each step waited for in the log before the next prompt is read."""
    pane.keys(f"place {number}")
    pane.wait_text(f"Tile {number} fits at ")
    cell = re.search(rf"Tile {number} fits at ([a-z]+\d+)", pane.screen())
    assert cell is not None
    pane.keys(f" at {cell[1]}", "Enter")
    pane.wait(lambda: told(pane, rf"You place .* at {cell[1]}") == 1, "the tile")
    assert asked(pane) == "place the next tile, or done>"
    pane.type("done")
    pane.wait(lambda: told(pane, r"You end your chain: 1 tile") == 1, "the chain's end")
    assert asked(pane) == "draw from the display or the bag>"
    pane.type("draw bag")
    pane.wait(lambda: told(pane, r"You draw .+ from the bag") == 1, "the draw")


def test_a_networked_table_of_peer_processes(tmp_path: Path) -> None:
    """``play unikato`` with a real table on loopback, the bot a peer process of its own and
    the bag shuffled and dealt with mental poker. Ann reads the screen as a person would:
    lays a tile the board says fits, on a cell it names, ends her chain and draws from the
    bag (if nothing fits, she exchanges); on her next turn she exchanges with the bag. The
    bot's turns are narrated between hers."""
    home = tmp_path / "home"
    home.mkdir()
    command = " ".join([sys.executable, "-m", "lanparty", "play", "unikato", "--bots", "1",
                        "--nick", "ann", "--option", "first=host"])  # fmt: skip
    pane = Pane(home, f"cd {REPO} && LANPARTY_HOME={home} {command}", "tmux-256color")
    bea = r"Bea (places|puts|takes|draws|passes) .*"
    try:
        pane.wait(lambda: "Your tiles:" in pane.screen(), "the first deal", 60.0)
        assert asked(pane) == "place a tile or exchange one>"
        story = pane.story()
        assert "ann joined (seat 0)" in story and "Bea joined (seat 1)" in story
        assert "· You begin" in story
        pane.wait_text("bag 57")
        for turn in range(2):
            moves = told(pane, bea)  # (Bea moves only once Ann's turn is over)
            fit = re.search(r"^Fit: (\d+)", pane.screen(), re.MULTILINE)
            if fit and turn == 0:
                lay_and_draw(pane, fit[1])
            else:
                puts = told(pane, r"You put .+ on the display")
                pane.type("exchange 1 for bag")
                pane.wait(lambda: told(pane, r"You put .+ on the display") > puts, "the swap")  # noqa: B023
            pane.wait(lambda: told(pane, bea) > moves, "Bea's turn", 60.0)  # noqa: B023
            # The prompt is drawn again a moment after the line that tells Bea's move; or Bea
            # went out (a deal can let her lay all her tiles in two turns): the game is over.
            pane.wait(lambda: prompt(pane) == "place a tile or exchange one>"
                      or "Game over: Bea wins!" in pane.story(), "our turn or the end")  # fmt: skip
            if "Game over: Bea wins!" in pane.story():
                assert told(pane, r"Round 1 ends: Bea placed their last tile") == 1
                pane.wait_text("Enter to end the night>")
                pane.keys("Enter")
                assert pane.exit_code() == 0
                assert "Traceback" not in pane.history()
                return
        pane.type("quit")
        pane.wait_text("leave the table? the game stops for everyone (y/N)>")
        pane.type("y")
        assert pane.exit_code() == 0
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()

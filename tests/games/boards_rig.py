"""Seeded games for the board tests: every game played to its end by its bots on a local
table with a copy per seat, and at every step the views to draw (the seat to move, with its
legal moves; another seat; no seat, as a spectator sees it), and the checks every board
must pass in the space the full-screen table gives it: no line wider than the width (as
the terminal counts it: prompt-toolkit's own width), no more lines than the rows, whole or
:class:`TooSmall`."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.utils import get_cwidth

from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable
from lanparty.games.screens import Fragments, TooSmall, board_area
from lanparty.games.unanimo.screen import UnanimoScreen
from protocol.contract import Commit, Move, Plain, Turn

#: The board's area at 80×24, and on a wide and a wider terminal.
SIZES = ((80, 16), board_area(140, 40), board_area(120, 40))
#: Names of every width: wide (East-Asian) characters, a combining accent, long ones.
NAMES = ("root", "bot-3", "ÉMILE", "ana", "李小龍", "Zoë", "Bartholomew", "Eve",
         "Francesca", "Gus")  # fmt: skip


@dataclass(frozen=True)
class Moment:
    """One seat's view at one step of a game, and its legal moves (empty: not asked)."""

    view: dict[str, Plain]
    legal: list[Move]
    step: int


def moments(game: str, seats: int, seed: int, options: Mapping[str, Plain] | None = None,
            every: int = 1) -> Iterator[Moment]:  # fmt: skip
    """Every ``every``-th step of a seeded game of ``seats`` bots (heuristic and random
    mixed): the view of the seat asked (with its legal moves), of seat 0, and of no seat."""
    g = GAMES[game]
    rng = random.Random(seed)
    table = LocalTable(g, seats, dict(options or {}), rng, copies=True)
    make = bots_for(game)
    bots = [make["heuristic" if s % 2 == 0 else "random"]() for s in range(seats)]
    step = 0
    while True:
        table.resolve_pending()
        status = g.status(table.state)
        if step % every == 0 or not isinstance(status, Turn | Commit):
            asked = status.seat if isinstance(status, Turn) else (
                status.seats[0] if isinstance(status, Commit) and status.seats else 0)  # fmt: skip
            legal = list(g.legal_moves(table.copies[asked], asked)) if isinstance(
                status, Turn | Commit) else []  # fmt: skip
            yield Moment(g.view(table.copies[asked], asked), legal, step)
            if asked != 0:
                yield Moment(g.view(table.copies[0], 0), [], step)
            yield Moment(g.view(table.state, None), [], step)
        if not table.step(bots):
            return
        step += 1


def screens(game: str) -> list[object]:
    """The game's screen; Unanimo's twice: its reading whole, and its first word being read
    (a clock that never moves)."""
    screen = PLUGINS[game].screen()
    if game == "unanimo":
        return [UnanimoScreen(lang="en").still(), UnanimoScreen(lang="en", clock=lambda: 0.0)]
    return [screen]


def played(game: str, options: Mapping[str, Plain], seeds: tuple[int, ...]) -> list[Moment]:
    """Every moment of the seeded games of ``game`` at its most players."""
    seats = GAMES[game].max_seats
    return [m for seed in seeds for m in moments(game, seats, seed, options)]


def text(fragments: Fragments) -> str:
    return "".join(t for _s, t in fragments)


def rows_of(fragments: Fragments) -> list[str]:
    """The lines a board draws (a last newline opens none)."""
    drawn = text(fragments)
    return drawn[:-1].split("\n") if drawn.endswith("\n") else drawn.split("\n") if drawn else []


def check(board: Any, moment: Moment, names: Sequence[str], width: int, rows: int,
          typed: str = "") -> list[str]:  # fmt: skip
    """The board of ``moment`` at ``width`` × ``rows``: its lines, none wider (in terminal
    cells) nor more than asked, none holding a control character. Raises ``TooSmall``."""
    drawn = board(moment.view, names, width, rows, moment.legal, typed)
    lines = rows_of(drawn)
    assert len(lines) <= rows, (width, rows, "\n".join(lines))
    for line in lines:
        assert get_cwidth(line) <= width, (width, line)
        assert line.isprintable(), line
    return lines


def check_too_small(board: Any, moment: Moment, names: Sequence[str], width: int,
                    rows: int) -> None:  # fmt: skip
    """At ``width`` × ``rows`` the board is whole or :class:`TooSmall`; the size a
    ``TooSmall`` asks for is enough to draw it whole."""
    try:
        check(board, moment, names, width, rows)
    except TooSmall as small:
        assert small.columns > width or small.rows > rows, (width, rows, small.args)
        check(board, moment, names, max(small.columns, width), max(small.rows, rows))

"""Every game's whole board fits the full-screen table (issue 23): at the largest number of
players each game allows, at every step of seeded bot games, the board of the seat asked (and
of seat 0, and of no seat) is drawn whole in the board's area at 80×24 (80×16), and on a
wide (140×40) and a wider (120×40) terminal: no line wider than the width as the terminal
counts it (names with wide characters and combining accents among the players), no more
lines than the rows, never ``TooSmall`` there. The header is never empty during play, and
short."""

from __future__ import annotations

import pytest
from boards_rig import NAMES, SIZES, check, played, screens

from lanparty.games import GAMES
from lanparty.games.cells import cells

HEADER = 60
"""The most columns a game's part of the header takes (with names of up to 11): the app adds
the game's name, the table's and a clock, and the header is one line of an 80-column
terminal."""

#: Each game at its most players, with the options that keep a game short enough.
GAMES_AT_MOST = [
    ("kato", {"rounds": 1}, (1, 2)),
    ("unikato", {}, (1, 2)),
    ("unanimo", {}, (1,)),
    ("unicorns", {}, (1, 2)),
]


@pytest.mark.parametrize(("game", "options", "seeds"), GAMES_AT_MOST,
                         ids=[g for g, _o, _s in GAMES_AT_MOST])  # fmt: skip
def test_every_board_fits_80x24_and_wider_at_every_step(
    game: str, options: dict[str, object], seeds: tuple[int, ...]
) -> None:
    names = NAMES[: GAMES[game].max_seats]
    drawn = 0
    for screen in screens(game):
        board, header = screen.board, screen.header  # type: ignore[attr-defined]
        for moment in played(game, options, seeds):
            for width, rows in SIZES:
                lines = check(board, moment, names, width, rows)
                assert lines, (game, moment.view.get("phase"))
                drawn += 1
            said = header(moment.view, names)
            if moment.view.get("phase") not in ("setup", "over"):
                assert said.strip(), moment.view.get("phase")
            assert cells(said) <= HEADER, said
    assert drawn > 300, drawn


def test_unikato_fits_while_a_placement_is_typed() -> None:
    """While ``place N`` is typed the grid names the cells where tile N fits, and the board
    still fits 80×16; ``place N at CELL`` marks the cell chosen."""
    from lanparty.games.unikato.screen import command_for, numbered

    names = NAMES[:4]
    board = screens("unikato")[0].board  # type: ignore[attr-defined]
    typed = 0
    for moment in played("unikato", {}, (1,)):
        places = [m for m in moment.legal if m[0] == "place"]
        if not places:
            continue
        number = {h: k for k, h, _label in numbered(moment.view)}[places[0][1]]
        full = command_for(places[0], moment.view)[0]
        for text in (f"place {number}", full):
            lines = check(board, moment, names, 80, 16, text)
            assert any("fits at" in line for line in lines), lines
            typed += 1
    assert typed > 20

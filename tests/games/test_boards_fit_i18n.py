"""Every game's whole board fits the board's area at 80×24 (80×16) in Polish and Spanish too,
whose words are longer (issue 23): one seeded game of each at its most players, the board of
the seat asked, of seat 0 and of no seat at every step, never ``TooSmall``, no line wider nor
more lines than the space given; the header as short as in English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from boards_rig import NAMES, check, played, screens
from test_boards_fit import HEADER

from lanparty import i18n
from lanparty.games import GAMES
from lanparty.games.cells import cells

OPTIONS = {"kato": {"rounds": 1}}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", ["pl", "es"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_board_fits_80x24_in_polish_and_spanish(game: str, lang: str) -> None:
    i18n.set_language(lang)
    names = NAMES[: GAMES[game].max_seats]
    drawn = 0
    for screen in screens(game)[:1]:
        for moment in played(game, OPTIONS.get(game, {}), (5, 6)):
            check(screen.board, moment, names, 80, 16)  # type: ignore[attr-defined]
            said = screen.header(moment.view, names)  # type: ignore[attr-defined]
            assert cells(said) <= HEADER, said
            drawn += 1
    assert drawn > 20, drawn

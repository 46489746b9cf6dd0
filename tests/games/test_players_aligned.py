"""Every game's list of players is set in aligned columns (issue 23: ``Carl  1 card  0 pts``
drifted under ``root (you)  2 cards  0 pts``): on the full-screen board and on the line-based
table, in English, Polish and Spanish, with names of different widths (a wide East-Asian
name counts two columns, a combining accent none), the counts and the points of every
player's row start in the same terminal column."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest
from boards_rig import Moment, moments

from lanparty import i18n
from lanparty.games import PLUGINS
from lanparty.games.cells import cells
from lanparty.games.screens import TooSmall
from lanparty.games.unanimo.screen import UnanimoScreen

NAMES = ("Ann", "李小龍", "Bartholomew", "Zoe\u0308", "Cy", "Eve", "Gus", "Hal", "Ida", "Jo")
#: The words after a count or a score, in every language: a row's columns start where they do.
COLUMNS = {
    "kato": [r"\d+ (cards?|kart[ay]?|cartas?)\b", r"\d+ (pts?|pkt)\b"],
    "unicorns": [r"\d+ (pts?|pkt)\b"],
    "unanimo": [r"\d+ (pts?|pkt)\b", r"\b(total|suma) +\d"],
}
SEATS = {"kato": 6, "unicorns": 4, "unanimo": 5}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _rows(drawn: str, names: tuple[str, ...]) -> list[str]:
    """The lines of a drawing that begin a player's row: the turn's mark, then a name."""
    return [line for line in drawn.splitlines()
            if any(re.match(rf"^[▶ ] {re.escape(n)}(\s|$)", line) for n in names)]  # fmt: skip


def _starts(rows: list[str], pattern: str) -> set[int]:
    """The terminal column where ``pattern``'s word starts, in each row that has it."""
    found = set()
    for row in rows:
        m = re.search(pattern, row)
        if m is not None:
            found.add(cells(row[: m.start(1)]))
    return found


def _drawings(game: str, moment: Moment, names: tuple[str, ...]) -> Iterator[str]:
    screen = UnanimoScreen(lang="en").still() if game == "unanimo" else PLUGINS[game].screen()
    for width, rows in ((80, 16), (120, 32)):
        with contextlib.suppress(TooSmall):  # a board too small is no list of players
            drawn = screen.board(moment.view, names, width, rows, moment.legal, "")
            yield "".join(t for _s, t in drawn)
    yield "".join(t for _s, t in screen.table(moment.view, names, 100))


@pytest.mark.parametrize("lang", ["en", "pl", "es"])
@pytest.mark.parametrize("game", sorted(COLUMNS))
def test_the_players_columns_line_up(game: str, lang: str) -> None:
    i18n.set_language(lang)
    names = NAMES[: SEATS[game]]
    options = {"rounds": 1} if game == "kato" else {}
    checked = 0
    for moment in list(moments(game, len(names), 4, options))[::5]:
        for drawn in _drawings(game, moment, names):
            rows = _rows(drawn, names)
            for pattern in COLUMNS[game]:
                starts = _starts(rows, pattern)
                assert len(starts) <= 1, (lang, pattern, "\n".join(rows))
                checked += bool(starts)
    assert checked > 20, checked

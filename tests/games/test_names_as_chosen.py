"""A player's name is shown exactly as the player chose it, everywhere (issue 23): in the story
(a sentence may begin with a lower-case name: "root challenges…", "bot-3 coloca…"; "ÉMILE"
stays in capitals, "ana" in small letters), on the board, in the header, the score sheet and
the final table. Whole games of the four games, told and drawn in English, Polish and
Spanish."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator

import pytest

from lanparty import i18n
from lanparty.games.bots import bots_for
from lanparty.games.narration import starts_with_name
from lanparty.games.screens import TooSmall
from lanparty.table.local import LocalTable

GAMES = [("kato", {"rounds": 1}), ("unicorns", {}), ("unikato", {}), ("unanimo", {})]
NAMES = ["root", "bot-3", "ÉMILE", "ana"]
#: A name written otherwise than its player chose it.
CHANGED = re.compile(r"\b(Root|ROOT|Bot-3|BOT-3|Émile|émile|Ana|ANA)\b")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(t for _s, t in fragments)


def _game(game: str, options: dict[str, object], seed: int, lang: str) -> tuple[list[str], str]:
    """The story told to seat 0 of a whole game of four in ``lang``, and everything its
    screen drew along the way (board at 80×16 and at 120×32, header, score sheet, final)."""
    i18n.set_language(lang)
    make = bots_for(game)["random"]
    table = LocalTable(game, NAMES, [None, make(), make(), make()], options, seed,
                       clock=lambda: 1e9)  # fmt: skip
    screen = table.screen
    rng = random.Random(seed)
    story: list[str] = []
    drawn: list[str] = []
    for _ in range(5000):
        table.advance()
        story += table.take_log()
        view, legal = table.view(), table.legal_moves()
        for width, rows in ((80, 16), (120, 32)):
            with contextlib.suppress(TooSmall):
                drawn.append(_text(screen.board(view, NAMES, width, rows, legal, "")))
        drawn.append(screen.header(view, NAMES))
        drawn.append(_text(screen.scores(view, NAMES)))
        if table.over():
            break
        if legal:
            table.submit(rng.choice(legal))
        elif table.can_decline():
            table.decline()
    assert table.over()
    drawn.append(_text(screen.final(table.view(), NAMES)))
    return story + table.take_log(), "\n".join(drawn)


@pytest.mark.parametrize("lang", ["en", "pl", "es"])
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_names_are_shown_as_chosen_in_the_story_and_on_the_board(
    game: str, options: dict[str, object], lang: str
) -> None:
    opened = 0
    for seed in (1, 2):
        story, drawn = _game(game, options, seed, lang)
        for line in story:
            assert CHANGED.search(line) is None, (game, lang, line)
            opened += starts_with_name(line, NAMES)
        assert CHANGED.search(drawn) is None, (game, lang, CHANGED.search(drawn))
        for name in NAMES:
            assert name in drawn, (game, lang, name)
    assert opened, f"no line of {game} in {lang} begins with a player's name"

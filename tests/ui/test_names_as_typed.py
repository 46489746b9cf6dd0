"""A player's name is written as the player typed it, in every game's story: a sentence that
begins with a name is not capitalised ("root challenges Bea", never "Root challenges Bea"),
any other sentence is. Whole games of the four games told in English, Polish and Spanish."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from lanparty import i18n
from lanparty.games.narration import Line, capital, heading, kind_of, starts_with_name

from .test_log_kinds import played

GAMES = [("kato", {"rounds": 1}), ("unicorns", {}), ("unikato", {}), ("unanimo", {})]
NAMES = ["ann", "root", "bot-3"]
RECAPITALISED = re.compile(r"\b(Root|Bot-3|ROOT|BOT-3)\b")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _first_letter(line: str) -> str:
    """The sentence's first letter (after a Spanish ``¡``/``¿``); ``""`` for a line that
    opens otherwise (a word quoted as a player wrote it, a number, a mark)."""
    body = line.lstrip("¡¿")
    return body[0] if body[:1].isalpha() else ""


@pytest.mark.parametrize("lang", ["en", "pl", "es"])
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_names_stay_as_typed_in_every_games_story(
    game: str, options: dict[str, object], lang: str
) -> None:
    opened = 0
    for seed in (1, 2):
        for line in played(game, options, seed, lang, NAMES):
            assert RECAPITALISED.search(line) is None, (game, lang, line)
            if starts_with_name(line, NAMES):
                opened += 1
            elif _first_letter(line):
                assert not _first_letter(line).islower(), (game, lang, line)
    assert opened, f"no line of {game} in {lang} begins with a player's name"


def test_capital_leaves_a_name_at_the_start_alone() -> None:
    names = ("root", "bot-3", "Ann")
    assert capital("root challenges Bea's Wild Draw Four", names) == (
        "root challenges Bea's Wild Draw Four"
    )
    assert capital("bot-3 plays red 5", names) == "bot-3 plays red 5"
    assert capital("¡gana root!", names) == "¡Gana root!"
    assert capital("you and root win", names) == "You and root win"
    assert capital("rooted in the story", names) == "Rooted in the story"  # a word, not root
    line = capital(heading("root wins the round"), names)
    assert line == "root wins the round" and kind_of(line) == "heading"
    assert isinstance(capital(Line("the coin", "yours"), names), Line)
    assert capital("root plays") == "Root plays"  # with no names given: any sentence


def test_a_shared_win_keeps_the_winners_names_as_typed() -> None:
    """Unanimo's last line: a tie named from a name keeps it; one from "you" is capitalised."""
    from lanparty.games.unanimo.board import winners_line

    names = ["ann", "bot-3"]
    assert winners_line([1, 0], None, names, [9, 9]) == "bot-3 and ann win the game with 9 points!"
    assert winners_line([0, 1], 0, names, [9, 9]) == "You and bot-3 win the game with 9 points!"

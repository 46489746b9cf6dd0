"""The log's styling does not depend on the language: the narrators mark the player's own
lines and the lines that open or close a round (or the game), and the screen styles them by
that mark, so a game told in Polish or Spanish is highlighted line for line as in English."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence

import pytest

from lanparty import i18n
from lanparty.games.bots import bots_for
from lanparty.games.narration import Line, capital, heading, kind_of, yours
from lanparty.games.screens import log_line
from lanparty.table.local import LocalTable

GAMES = [("kato", {"rounds": 1}), ("unicorns", {}), ("unikato", {}), ("unanimo", {})]
NAMES = ["Ann", "Bea", "Cy"]
YOU = re.compile(r"\b(you|your)\b", re.IGNORECASE)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def played(
    game: str, options: dict[str, object], seed: int, lang: str, names: Sequence[str] = NAMES
) -> list[str]:
    """The log of one whole game of three (``names``), seat 0 choosing at random, told to
    seat 0 in ``lang``."""
    i18n.set_language(lang)
    bots = bots_for(game)["random"]
    table = LocalTable(game, list(names), [None, bots(), bots()], options, seed,
                       clock=lambda: 1e9)  # fmt: skip
    rng = random.Random(seed)
    log: list[str] = []
    for _ in range(5000):
        table.advance()
        log += table.take_log()
        if table.over():
            break
        legal = table.legal_moves()
        if legal:
            table.submit(rng.choice(legal))
        elif table.can_decline():
            table.decline()
    assert table.over()
    return log + table.take_log()


def _style(line: str) -> str:
    return log_line(line)[0][0]


def _english_rule(line: str) -> str:
    """How the screen told the kinds apart before, from the English words alone."""
    if line.startswith(("Round ", "Game over")):
        return "class:log.round"
    return "class:log.you" if line.startswith("You ") or " you" in line else "class:log"


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_game_is_styled_alike_in_every_language(game: str, options: dict[str, object]) -> None:
    for seed in (1, 2):
        english = played(game, options, seed, "en")
        styles = [_style(line) for line in english]
        assert "class:log.you" in styles and "class:log.round" in styles, game
        for line, style in zip(english, styles, strict=True):
            old = _english_rule(line)
            # As highlighted as ever in English; a line newly the player's names them.
            assert style == old or (style == "class:log.you" and YOU.search(line)), (line, style)
        for lang in ("pl", "es"):
            told = played(game, options, seed, lang)
            assert told != english
            assert [_style(line) for line in told] == styles, (game, lang)


def test_a_marked_line_keeps_its_kind_through_what_narrators_do_to_it() -> None:
    line = yours("zagrywasz czerwoną 5")
    line += ", dotykając 2 płytek"
    assert kind_of(line) == "yours" and kind_of(capital(line)) == "yours"
    assert capital(line) == "Zagrywasz czerwoną 5, dotykając 2 płytek"
    assert kind_of(heading("Runda 2")) == "heading" and kind_of("Bea gra") == ""
    assert kind_of(yours("Bea gra", False)) == "" and isinstance(yours("x"), Line)
    assert [_style(s) for s in (line, heading("Ronda 1"), "Bea juega")] == [
        "class:log.you", "class:log.round", "class:log"]  # fmt: skip

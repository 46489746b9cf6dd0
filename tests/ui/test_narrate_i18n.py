"""KaTO in Polish and Spanish, in process: every kind of move told in each language (no
English left, no placeholder unfilled, "you" and the others told the same story), whole games
narrated and drawn in each language, and the words that must not change (commands) unchanged."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from lanparty import i18n
from lanparty.games.bots import bots_for
from lanparty.games.kato.narrate import KatoNarrator
from lanparty.games.kato.screen import SCREEN, command_for, final_scores, hand_lines, table
from lanparty.table.local import LocalTable

from .test_narrate import MOVES, NAMES

ENGLISH = re.compile(
    r"\b(plays|play|draws|names|misses|passes|keeps|takes|calls|catches|challenges|goes|faces|"
    r"Verdict|Round|Skip|Reverse|Draw|Wild|Cone|red|yellow|green|blue|and|you|your)\b"
)
LANGS = ("pl", "es")


def _text(fragments: Any) -> str:
    return "".join(text for _, text in fragments)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("kind", "move", "before", "after"), MOVES, ids=[m[0] for m in MOVES])
def test_every_move_is_told_in_the_language(
    lang: str, kind: str, move: tuple[Any, ...], before: dict[str, Any], after: dict[str, Any]
) -> None:
    told: dict[tuple[str, int], list[str]] = {}
    for language in ("en", lang):
        i18n.set_language(language)
        for listener in (1, 2):
            narrator = KatoNarrator(listener, NAMES)
            narrator.narrate(1, move, dict(before, seat=listener), dict(after, seat=listener))
            told[(language, listener)] = narrator.lines
    for listener in (1, 2):
        lines = told[(lang, listener)]
        assert len(lines) == len(told[("en", listener)]), (kind, lines)
        for line in lines:
            assert "{" not in line and "}" not in line, line
            assert ENGLISH.search(line.replace("KaTO", "")) is None, line
            assert line[:1] == line[:1].upper() or line[:1] in "¡¿", line


@pytest.mark.parametrize("lang", LANGS)
def test_whole_games_are_told_and_drawn_in_the_language(lang: str) -> None:
    """A few whole games, the human seat playing at random: the log, the table, the hand
    and the final scores in ``lang``, as many log lines as the same game told in English."""
    for seed in range(3):
        lines: dict[str, list[str]] = {}
        for language in ("en", lang):
            i18n.set_language(language)
            bots = bots_for("kato")["heuristic"]
            game = LocalTable("kato", NAMES, [None, bots(), bots()], {"rounds": 1}, seed)
            rng = random.Random(seed)
            log: list[str] = []
            for _ in range(2000):
                game.advance()
                log += game.take_log()
                if game.over():
                    break
                view = game.view()
                _text(table(view, NAMES, 80)) + _text(hand_lines(view, 80, game.legal_moves()))
                SCREEN.prompt(view, game.can_decline())
                legal = game.legal_moves()
                if legal:
                    move = rng.choice(legal)
                    command_for(move, view)
                    game.submit(move)
                elif game.can_decline():
                    game.decline()
            assert game.over()
            final = _text(final_scores(game.view(), NAMES))
            lines[language] = [*log, final]
        assert len(lines[lang]) == len(lines["en"])
        for line in lines[lang]:
            assert "{" not in line, line
        assert lines[lang] != lines["en"]


def test_commands_stay_english_whatever_is_read() -> None:
    view = {"hand": [[5, "W"], [6, "r7"]], "seat": 0}
    i18n.set_language("pl")
    text, described = command_for(("play", (5,), ("W",), "g"), view)
    assert text == "play 2 green" and described == "Zmiana koloru → zielony"
    assert command_for(("colour", "b"), view) == ("colour blue", "")
    assert command_for(("draw",), view) == ("draw", "dobierz kartę")


def _reasons(seeds: int = 3) -> set[str]:
    """Every reason the engine gives for refusing the moves a player could try, over a few
    whole games (cones in the deck, so every way out of a draw is offered)."""
    from lanparty.games.kato.screen import hand_of
    from protocol.contract import IllegalMove

    found: set[str] = set()
    for seed in range(seeds):
        bots = bots_for("kato")["heuristic"]
        options = {"rounds": 1, "cones": 2}
        game = LocalTable("kato", NAMES, [None, bots(), bots()], options, seed)
        rng = random.Random(seed)
        for _ in range(3000):
            game.advance()
            if game.over():
                break
            tries: list[tuple[Any, ...]] = [
                ("draw",), ("pass",), ("accept",), ("challenge",), ("kato",), ("catch",),
                ("colour", "r"), ("verdict", "guilty"),
            ]  # fmt: skip
            for h, label in hand_of(game.view()):
                tries += [("play", (h,), (label,), ""), ("play", (h,), (label,), "r"),
                          ("play", (h,), (label,), "", "kato")]  # fmt: skip
            for move in tries:
                try:
                    game.game.check(game._state, 0, move)
                except IllegalMove as exc:
                    found.add(exc.reason)
            legal = game.legal_moves()
            if legal:
                game.submit(rng.choice(legal))
            elif game.can_decline():
                game.decline()
    return found


def test_every_refusal_reads_in_the_language() -> None:
    from lanparty.games.kato.narrate import card_name
    from lanparty.games.kato.refusals import translate
    from lanparty.games.kato.screen import humanize

    reasons = _reasons()
    assert len(reasons) > 100
    for lang in LANGS:
        i18n.set_language(lang)
        for reason in reasons:
            said = translate(reason, card_name)
            assert said is not None, (lang, reason)
            assert humanize(reason) == said
            typed = said.replace("KaTO", "").replace("red, yellow, green", "").replace("blue", "")
            assert "{" not in said and ENGLISH.search(typed) is None, said
    i18n.set_language("en")
    reason = "r7 cannot answer it; a Draw Two is waiting for you (2 cards): accept to draw them"
    assert humanize(reason) == "Red 7" + reason[2:]

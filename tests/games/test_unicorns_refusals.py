"""Kill the Unicorns' refusals in Polish and Spanish: every reason the engine can give has a
pattern (read from the engine's source, so a new reason without one fails here), every
pattern is translated, and the reasons real games give read whole in each language."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_unicorns_playouts import VARIANTS, _universe
from unicorns_rig import G, Rig

from lanparty import i18n
from lanparty.games.bots import RandomBot
from lanparty.games.unicorns import refusals
from lanparty.games.unicorns.screen import humanize
from lanparty.games.unicorns.state import OPEN
from protocol.contract import Commit, GameOver, IllegalMove

ENGINE_SOURCES = ("rules.py", "game.py")
FIELD = re.compile(r"\{\w*\}")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _shape(node: ast.expr) -> str:
    """An ``IllegalMove`` argument as text, each formatted part as ``{}``; a part glued to
    the end of a word is its plural's ``s`` (``card{_s(n)}``), written ``(s)`` as the
    patterns do."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    assert isinstance(node, ast.JoinedStr), ast.dump(node)
    shape = "".join(
        str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
    )
    return re.sub(r"(?<=[a-z])\{\}", "(s)", shape)


def engine_reasons() -> set[str]:
    """Every reason ``IllegalMove`` is raised with in the engine's source, its varying parts
    as ``{}``."""
    root = Path(refusals.__file__).parent
    found = set()
    for name in ENGINE_SOURCES:
        for node in ast.walk(ast.parse((root / name).read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "IllegalMove"
            ):
                found.add(_shape(node.args[0]))
    return found


def test_every_reason_of_the_engine_has_a_pattern_and_no_pattern_is_left_over() -> None:
    source = engine_reasons()
    assert len(source) > 40
    patterns = {FIELD.sub("{}", p) for p in refusals.ENGINE}
    assert sorted(source - patterns) == [], "a reason without a pattern in refusals.py"
    assert sorted(patterns - source) == [], "a pattern the engine no longer gives"


@pytest.mark.parametrize("lang", ["pl", "es"])
def test_every_pattern_is_translated(lang: str) -> None:
    for pattern in refusals.ENGINE:
        for n in (1, 2, 5):
            i18n.set_language("en")
            english = refusals.template_in_language(pattern, n)
            i18n.set_language(lang)
            said = refusals.template_in_language(pattern, n)
            assert said != english, (lang, pattern)
            assert set(FIELD.findall(said)) <= set(FIELD.findall(pattern)), said


def test_polish_counts_agree() -> None:
    i18n.set_language("pl")
    said = [refusals.translate(f"you hold only {n} hunt card(s)") for n in (1, 2, 5)]
    assert said == ["masz tylko 1 kartę polowania", "masz tylko 2 karty polowania",
                    "masz tylko 5 kart polowania"]  # fmt: skip


def test_the_engine_says_its_counts_in_plain_english_and_they_read_back() -> None:
    """The engine says "1 card" and "2 cards" now (issue 23: "exactly 1 card(s)" showed
    wherever a reason was not read back); both read back, as "card(s)" from an older peer
    still does."""
    from lanparty.games.unicorns.rules import _s

    told = [f"this hunt takes exactly {n} card{_s(n)}" for n in (1, 2)]
    assert told == ["this hunt takes exactly 1 card", "this hunt takes exactly 2 cards"]
    i18n.set_language("pl")
    assert [refusals.translate(t) for t in told] == [
        "w tym polowaniu kładzie się dokładnie 1 kartę",
        "w tym polowaniu kładzie się dokładnie 2 karty"]  # fmt: skip
    assert refusals.translate("this hunt takes exactly 2 card(s)") == refusals.translate(told[1])


def _reasons(games: int = 6) -> set[str]:
    """The reasons real bot games give for the moves of :func:`_universe` they refuse."""
    found: set[str] = set()
    for seed in range(games):
        rng = random.Random(seed)
        rig = Rig(3 + seed % 2, rng=rng, copies=False, check_views=False,
                  **VARIANTS[seed % len(VARIANTS)])  # fmt: skip
        bots = [RandomBot() for _ in range(rig.n)]
        while not isinstance(G.status(rig.state), GameOver):
            status = G.status(rig.state)
            seat = status.seat if not isinstance(status, Commit) else status.seats[0]
            if rig.state.phase != OPEN and not rig.state.requests:
                for tried in rng.sample(_universe(rig, seat), 40):
                    try:
                        G.check(rig.state, rng.choice([seat, (seat + 1) % rig.n]), tried)
                    except IllegalMove as exc:
                        found.add(exc.reason)
            move: Any = bots[seat].choose({}, G.legal_moves(rig.state, seat), rng)
            (rig.seal if isinstance(status, Commit) else rig.move)(seat, *move)
    return found


ENGLISH = re.compile(r"\b(the|you|your|is|not|hunt|cards?|scheme|unicorns?|and|or|pay|seat)\b")


def test_the_refusals_of_real_games_read_whole_in_each_language() -> None:
    reasons = _reasons()
    assert len(reasons) > 20
    for lang in ("pl", "es"):
        i18n.set_language(lang)
        for reason in reasons:
            said = refusals.translate(reason)
            assert said is not None, (lang, reason)
            assert humanize(reason) == said
            assert "{" not in said and ENGLISH.search(said) is None, said


def test_a_refusal_on_the_screen_in_spanish() -> None:
    rig = Rig(3, powers=False, initiation="no_schemes", unicorns=["pink-4", "blue-2", "legendary"])
    with pytest.raises(IllegalMove) as refused:
        G.check(rig.state, 1, ("pass",))
    reason = refused.value.reason
    assert reason == "it is not your turn: seat 0 is to hunt, join or pass"
    i18n.set_language("es")
    assert humanize(reason) == "no es tu turno: a otro jugador le toca cazar, unirse o pasar"
    rig.move(0, "hunt", 2)
    with pytest.raises(IllegalMove) as refused:
        G.check(rig.state, 0, ("cards", (2, 1)))
    assert humanize(refused.value.reason) == "di tus cartas de caza de menor a mayor"
    i18n.set_language("en")
    assert humanize(reason) == "it is not your turn: another player is to hunt, join or pass"

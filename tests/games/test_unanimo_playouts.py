"""Unanimo played out by bots through the local table: every game ends, every copy agrees,
and no view shows a sealed word before it is opened (closable phases closed early too)."""

from __future__ import annotations

import random

import pytest

import lanparty.games
from lanparty.games.localdealer import LocalTable
from lanparty.games.unanimo import PLUGIN, UNANIMO
from lanparty.games.unanimo.bots import HeuristicBot, RandomBot
from protocol.contract import Commit, GameOver, Move, Open, Plain

G = UNANIMO
OPTIONS = [
    {"cards": 2},
    {"cards": 3, "timer": 60},
    {"cards": 1, "fold_accents": False},
    {"cards": 2, "timer": 30, "fold_accents": False},
]


class Marked:
    """A bot that adds a word no other seat writes, to spot it in any view."""

    def __init__(self, inner: HeuristicBot | RandomBot) -> None:
        self.inner = inner

    def choose(self, view: dict[str, Plain], legal: list[Move | None], rng: random.Random):
        move = self.inner.choose(view, legal, rng)
        if move is not None and move[0] == "words":
            seat, card = view["seat"], view["card"]
            assert isinstance(seat, int) and isinstance(card, int)
            words = move[1]
            assert isinstance(words, tuple)
            return ("words", (*words[:7], f"sealed{'abcdefgh'[seat]}{'abcdefgh'[card % 8]}"))
        return move


def _markers(table: LocalTable) -> set[str]:
    return {str(m[1][-1]) for m in table.sealed.values()}  # type: ignore[index]


@pytest.mark.parametrize("late", [0.0, 0.3])
def test_bots_finish_every_game_and_copies_agree(late: float) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(3, 8)
        options = OPTIONS[seed % len(OPTIONS)]
        table = LocalTable(G, n, options, rng, copies=True, late=late)
        bots = [Marked(rng.choice((HeuristicBot, RandomBot))()) for _ in range(n)]
        steps = 0
        while True:
            table.resolve_pending()
            state = table.state
            status = G.status(state)
            public = G.view(state, None)
            hidden = _markers(table) if isinstance(status, Commit | Open) else set()
            for seat in range(n):
                own = G.view(state, seat)
                assert own == G.view(table.copies[seat], seat) == {**public, "seat": seat}
                assert G.legal_moves(state, seat) == G.legal_moves(table.copies[seat], seat)
                text = repr(own)
                assert not any(marker in text for marker in hidden), "a sealed word leaked"
            if not table.step(bots):
                break
            steps += 1
            assert steps < 5000
        assert isinstance(G.status(state), GameOver)
        outcome = G.outcome(state)
        assert outcome.finished and outcome.winners and len(outcome.rounds) == options["cards"]
        assert all(G.encode_state(c) == G.encode_state(state) for c in table.copies)
        assert sum(outcome.totals) == sum(sum(r) for r in outcome.rounds)


class Late:
    """Hands in nothing while writing (a player still thinking); otherwise a heuristic bot."""

    def __init__(self) -> None:
        self.inner = HeuristicBot()

    def choose(self, view: dict[str, Plain], legal: list[Move | None], rng: random.Random):
        return None if view["phase"] == "writing" else self.inner.choose(view, legal, rng)


def test_late_closes_happen_and_score_zero_for_the_absent() -> None:
    """A timed table (the timer modelled by ``late``) closes the writing with a seat still
    writing, once half the table handed in (rules, "A round" 2), and that seat scores 0."""
    rng = random.Random(7)
    closed = 0
    for _ in range(20):
        table = LocalTable(G, 4, {"cards": 3, "timer": 60}, rng, late=0.5)
        table.play([HeuristicBot(), HeuristicBot(), Late(), HeuristicBot()])
        for card in table.state.sheet:
            if card.absent:
                closed += 1
                assert card.absent == (2,)
                assert all(card.points[s] == card.bonus[s] == 0 for s in card.absent)
    assert closed == 60  # seat 2 never hands in: every card closes without it


def test_heuristic_bots_agree_on_the_obvious_and_differ_after() -> None:
    table = LocalTable(G, 5, {}, random.Random(3))
    outcome = table.play([HeuristicBot() for _ in range(5)])
    # All five write the four most common words (4 x 5 points) on every card, and differ
    # in the others: the scores are not all equal.
    assert all(points >= 4 * 5 for card in outcome.rounds for points in card)
    assert len(set(outcome.totals)) > 1


def test_generic_playouts_pass_for_unanimo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic test's own playout (replay, wire round trip, audit), run for Unanimo
    while it is not yet in the installed entry points."""
    from tests.games import test_generic

    monkeypatch.setitem(test_generic.GAMES, "unanimo", G)
    monkeypatch.setitem(lanparty.games.PLUGINS, "unanimo", PLUGIN)
    monkeypatch.setitem(test_generic.SHORT_OPTIONS, "unanimo", OPTIONS)
    for seed in range(40):
        test_generic._playout("unanimo", seed, deep=seed < 10)

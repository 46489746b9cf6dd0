"""The bots' levels: every game has easy, normal and hard; a hard bot searches within its
seat's view only (its move is the same whatever the hidden cards are), plays legal moves,
and is deterministic given its rng and a rollout budget; simulate --bots measures levels."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import LEVELS, Autopilot, bot_at, level_of
from lanparty.games.localdealer import LocalTable
from lanparty.games.search import SearchBot, Think
from lanparty.games.simulate import main as simulate
from lanparty.games.simulate import wilson
from protocol.contract import Commit, Move, Plain, Turn

#: A tiny budget: tests play whole games with it (the wall-clock cap is far away, so the
#: moves depend on the rollout budget alone).
TINY = Think(rollouts=12, seconds=60.0)
SHORT: dict[str, dict[str, Plain]] = {
    "kato": {"rounds": 1},
    "unikato": {"rounds": 1},
    "unanimo": {"cards": 1},
    "unicorns": {},
}
SEATS = {"kato": 2, "unikato": 2, "unanimo": 3, "unicorns": 3}
SEARCHED = ("kato", "unikato", "unanimo", "unicorns")


def test_every_game_has_three_levels_and_the_old_names() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert level_of("random") == "easy" and level_of("Heuristic") == "normal"
    assert level_of(" HARD ") == "hard" and level_of("expert") is None
    for game in GAMES:
        for level in LEVELS:
            assert isinstance(bot_at(game, level, SHORT[game], TINY), Autopilot)
    with pytest.raises(ValueError):
        bot_at("kato", "expert")
    for game in SEARCHED:
        assert PLUGINS[game].search is not None
        assert isinstance(bot_at(game, "hard", SHORT[game], TINY).bot, SearchBot)


def _mid_game(name: str, seed: int, moves: int) -> tuple[LocalTable, int]:
    """A seeded table of normal bots some moves in, at a seat's own decision."""
    game = GAMES[name]
    table = LocalTable(game, SEATS[name], SHORT[name], random.Random(seed))
    bots = [bot_at(name, "normal") for _ in range(SEATS[name])]
    while True:
        table.resolve_pending()
        status = game.status(table.state)
        turn = isinstance(status, Turn) and not status.also
        if table.moves >= moves and turn and len(game.legal_moves(table.state, status.seat)) > 2:
            return table, status.seat  # type: ignore[union-attr]
        if table.moves >= moves and isinstance(status, Commit):
            return table, status.seats[0]
        assert table.step(bots), "the game ended first"


@pytest.mark.parametrize(
    ("name", "seed"), [("kato", 1), ("kato", 2), ("unikato", 3), ("unicorns", 4), ("unicorns", 5)]
)
def test_a_determinized_state_shows_the_seat_its_own_view(name: str, seed: int) -> None:
    """Two states filled in from one seat's view at random differ in what the seat cannot
    see, agree with the real state on everything it can, and the seat has the same moves."""
    game = GAMES[name]
    table, seat = _mid_game(name, seed, 12)
    view = game.view(table.state, seat)
    spec = PLUGINS[name].search()  # type: ignore[misc]
    a = spec.determinize(view, SHORT[name], random.Random(1))
    b = spec.determinize(view, SHORT[name], random.Random(2))
    pile = {"kato": "deck", "unikato": "bag", "unicorns": "unicorn_deck"}[name]  # nobody sees
    assert [spec.labels(a)[h] for h in getattr(a, pile)] != [
        spec.labels(b)[h] for h in getattr(b, pile)
    ]
    for state in (a, b):
        shown = game.view(state, seat)
        # Unikato lists the seat's own open tiles in hand order, which its view (by
        # number) does not give: everything else agrees.
        assert {k: v for k, v in shown.items() if k != "open"} == {
            k: v for k, v in view.items() if k != "open"
        }
        assert sorted(map(repr, game.legal_moves(state, seat))) == sorted(
            map(repr, game.legal_moves(table.state, seat))
        )


@pytest.mark.parametrize(
    ("name", "seed", "moves"),
    [("kato", 4, 10), ("unikato", 5, 10), ("unanimo", 6, 0), ("unicorns", 7, 6)],
)
def test_a_hard_move_does_not_change_with_the_hidden_cards(
    name: str, seed: int, moves: int
) -> None:
    """The same view in tables whose hidden cards differ: the hard bot, seeded alike,
    makes the same move (it is given the view and the legal moves, nothing else)."""
    game = GAMES[name]
    table, seat = _mid_game(name, seed, moves)
    view = game.view(table.state, seat)
    spec = PLUGINS[name].search()  # type: ignore[misc]
    moves = []
    for hidden in (11, 12):
        state = spec.determinize(view, SHORT[name], random.Random(hidden))
        assert state is not table.state
        bot = bot_at(name, "hard", SHORT[name], TINY)
        legal: list[Move | None] = list(game.legal_moves(state, seat))
        moves.append(bot.choose(game.view(state, seat), legal, random.Random(seed)))
    real = bot_at(name, "hard", SHORT[name], TINY)
    legal = list(game.legal_moves(table.state, seat))
    moves.append(real.choose(game.view(table.state, seat), legal, random.Random(seed)))
    assert moves[0] == moves[1] == moves[2]
    assert moves[0] is not None
    game.check(table.state, seat, moves[0])  # legal (Unanimo's legal moves are a template)


class _Spy:
    """A bot that checks what the table hands it: exactly its seat's view as the seat's own
    copy (told only what the seat may know) shows it."""

    def __init__(self, table: LocalTable, seat: int, bot: Any) -> None:
        self.table, self.seat, self.bot, self.asked = table, seat, bot, 0

    def choose(self, view: dict[str, Plain], legal: Any, rng: random.Random) -> Move | None:
        table = self.table
        assert view == table.game.view(table.copies[self.seat], self.seat)
        self.asked += 1
        return self.bot.choose(view, legal, rng)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", SEARCHED)
def test_hard_bots_play_whole_games_from_their_seats_views(name: str) -> None:
    """Seeded games of hard bots against normal ones to the end: every move is legal in
    every seat's copy, and every bot was handed its own seat's view and nothing more."""
    game = GAMES[name]
    n = SEATS[name]
    table = LocalTable(game, n, SHORT[name], random.Random(9), copies=True)
    levels = ["hard", "normal", "hard"][:n]
    spies = [_Spy(table, s, bot_at(name, levels[s], SHORT[name], TINY)) for s in range(n)]
    outcome = table.play(spies)
    assert outcome.finished and all(spy.asked for spy in spies)
    searched = spies[0].bot.bot
    assert isinstance(searched, SearchBot) and searched.times  # it did search


def test_a_hard_bot_is_deterministic_given_its_rng_and_budget() -> None:
    game = GAMES["kato"]
    table, seat = _mid_game("kato", 7, 8)
    view, legal = game.view(table.state, seat), list(game.legal_moves(table.state, seat))
    first = [bot_at("kato", "hard", SHORT["kato"], TINY) for _ in range(2)]
    assert first[0].choose(view, legal, random.Random(3)) == first[1].choose(
        view, legal, random.Random(3)
    )


def test_the_wall_clock_cap_ends_a_search_with_a_legal_move() -> None:
    game = GAMES["kato"]
    table, seat = _mid_game("kato", 8, 8)
    view, legal = game.view(table.state, seat), list(game.legal_moves(table.state, seat))
    bot = bot_at("kato", "hard", SHORT["kato"], Think(rollouts=10**6, seconds=0.05))
    assert bot.choose(view, legal, random.Random(1)) in legal
    assert max(bot.bot.times) < 1.0  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", SEARCHED)
def test_a_search_plays_its_budget_times_the_games_scale(name: str) -> None:
    """The rollout cap is the budget's times the game's scale (KaTO's rollouts are cheap:
    it plays more of them in the same time), and a search stops at it."""
    game = GAMES[name]
    table, seat = _mid_game(name, 7, 0 if name == "unanimo" else 6)  # Unanimo: the writing
    view, legal = game.view(table.state, seat), list(game.legal_moves(table.state, seat))
    search = PLUGINS[name].search
    assert search is not None
    scale = search().scale
    assert scale >= 1 and (name != "kato" or scale > 1)
    played: list[int] = []

    class Counting(SearchBot):
        def _rollout(self, *args: Any, **kwargs: Any) -> float | None:
            played.append(1)
            return super()._rollout(*args, **kwargs)

    bot = Counting(search(), SHORT[name], Think(rollouts=10, seconds=60.0))
    assert bot.rollouts == 10 * scale
    bot.choose(view, legal, random.Random(2))
    assert 0 < len(played) <= 10 * scale
    if scale > 1:
        assert len(played) > 10  # more than the budget alone would have allowed


def test_wilson_interval() -> None:
    low, high = wilson(60, 100)
    assert 0.50 < low < 0.51 and 0.69 < high < 0.70
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_simulate_reports_per_level(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["kato", "--players", "2", "--bots", "hard,easy", "--games", "2", "--rollouts", "6",
            "--option", "rounds=1"]  # fmt: skip
    assert simulate(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bots"] == ["hard", "easy"] and out["games"] == 2
    assert len(out["win_rate"]) == len(out["mean_score"]) == len(out["win_rate_ci95"]) == 2
    assert sum(out["win_rate"]) == pytest.approx(1.0)
    assert set(out["think_ms_p50"]) == set(out["think_ms_p99"]) == {"hard", "easy"}
    search = PLUGINS["kato"].search
    assert search is not None and out["rollout_cap"] == 6 * search().scale
    with pytest.raises(SystemExit):
        simulate(["kato", "--players", "3", "--bots", "hard,normal"])
    with pytest.raises(SystemExit):
        simulate(["kato", "--bots", "hard,wizard"])


def test_simulate_without_bots_is_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate(["kato", "--players", "2", "--games", "2", "--option", "rounds=1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "heuristic_win_rate" in out and "win_rate" not in out

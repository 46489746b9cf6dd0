"""Property tests: any valid option set plays to the end; encodings are stable mid-game."""

from __future__ import annotations

import json
import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanparty.games.bots import RandomBot
from lanparty.games.kato import KATO
from lanparty.games.kato.bots import HeuristicBot
from lanparty.games.localdealer import LocalTable
from lanparty.games.simulate import main

options = st.fixed_dictionaries(
    {
        "hand_size": st.integers(1, 8),
        "cones": st.integers(0, 8),
        "cone_mode": st.sampled_from(["reflect", "reverse", "draw10"]),
        "first": st.sampled_from(["random", "host"]),
        "play_after_draw": st.booleans(),
        "multi_play": st.booleans(),
        "stacking": st.sampled_from(["seed", "off", "full"]),
        "rounds": st.just(1),
    }
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options, st.integers(2, 10), st.integers(0, 2**32 - 1), st.integers(0, 400))
def test_any_options_play_out_and_encode_stably(
    opts: dict[str, object], seats: int, seed: int, cut: int
) -> None:
    table = LocalTable(KATO, seats, opts, random.Random(seed), copies=False)  # type: ignore[arg-type]
    bots = [HeuristicBot() if s % 2 else RandomBot() for s in range(seats)]
    steps = 0
    while table.step(bots):
        steps += 1
        if steps == cut:  # an encode/decode round trip anywhere in the game, then go on
            plain = KATO.encode_state(table.state)
            table.state = KATO.decode_state(msgpack.unpackb(msgpack.packb(plain), raw=False))
            assert KATO.encode_state(table.state) == msgpack.unpackb(
                msgpack.packb(plain), raw=False
            )
        assert steps < 50_000
    assert KATO.outcome(table.state).finished


def test_simulator_prints_one_json_object(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["kato", "--players", "3", "--games", "4", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {
        "games",
        "moves",
        "games_per_s",
        "moves_per_s",
        "rounds_per_game",
        "heuristic_win_rate",
    }
    assert out["games"] == 4 and out["moves"] > 0 and 0 <= out["heuristic_win_rate"] <= 1


def test_heuristic_bot_beats_random_bots() -> None:
    rng = random.Random(11)
    wins = 0.0
    games = 60
    for g in range(games):
        hero = g % 4
        bots = [HeuristicBot() if s == hero else RandomBot() for s in range(4)]
        outcome = LocalTable(KATO, 4, {"rounds": 1}, rng).play(bots)
        wins += (hero in outcome.winners) / len(outcome.winners)
    assert wins / games > 0.6  # a random bot's share would be 0.25

"""KaTO: options, deck, setup, starting cards, the encoding and malformed inputs."""

from __future__ import annotations

from collections import Counter

import msgpack
import pytest
from kato_rig import Rig

from lanparty.games import GAMES, get_game, options_text, rules_text
from lanparty.games.kato import KATO
from lanparty.games.kato.cards import deck_labels
from protocol.contract import (
    BadResult,
    CoinResult,
    Deal,
    Dealt,
    GameError,
    IllegalMove,
    JointCoin,
    OptionError,
    OptionSpec,
    RevealToAll,
    Shuffle,
    Shuffled,
    TableOps,
    result_from_plain,
    result_to_plain,
)

# ----------------------------------------------------------------------------- options


def test_registry_and_rules_text() -> None:
    assert GAMES["kato"] is KATO and get_game("kato") is KATO
    with pytest.raises(KeyError, match="known: kato"):
        get_game("chess")
    text = rules_text("kato")
    assert "KaTO" in text and "challenge" in text.lower()


def test_rules_list_every_option_with_its_default() -> None:
    listed = rules_text("kato").split("## Table options\n", 1)[1]
    for spec in KATO.option_specs:
        typed = str(spec.default).lower() if isinstance(spec.default, bool) else spec.default
        assert f"- `{spec.name}` (default `{typed}`; " in listed, spec.name
    assert "- `stacking` (default `seed`; seed, off, full): " in listed
    # Generated from the specs: a new option is listed without touching the text.
    specs = (
        OptionSpec("fast", True, "go fast", choices=(True, False)),
        OptionSpec("laps", 3, "how many laps", minimum=1),
    )
    assert options_text("race", specs).splitlines()[2:] == [
        "- `fast` (default `true`; true, false): go fast",
        "- `laps` (default `3`; at least 1): how many laps",
    ]


def test_rules_text_says_what_the_reference_asks() -> None:
    text = " ".join(rules_text("kato").split())  # one line: the text wraps anywhere
    assert "`seed` (the default" in text and "`off`" in text and "`full`" in text
    assert "A Draw Two put on a Wild Draw Four makes that Wild Draw Four unchallengeable" in text
    assert "if its player bluffed, they draw all 8; if not, you draw 10" in text  # the stake
    assert "With `play_after_draw` off, your turn passes by itself" in text
    assert "The turned card works on the first player, and nobody can answer it" in text
    assert "`play 3 kato`" in text


def test_defaults() -> None:
    assert KATO.validate_options({}) == {
        "hand_size": 7,
        "cones": 0,
        "cone_mode": "reflect",
        "first": "random",
        "play_after_draw": True,
        "multi_play": False,
        "stacking": "seed",
        "target": 500,
        "rounds": 0,
    }
    assert {spec.name for spec in KATO.option_specs} == set(KATO.validate_options({}))


@pytest.mark.parametrize(
    ("given", "option"),
    [
        ({"colours": 5}, "colours"),
        ({"target": "500"}, "target"),
        ({"target": 0}, "target"),
        ({"stacking": 1}, "stacking"),
        ({"cones": 9}, "cones"),
        ({"cones": -1}, "cones"),
        ({"cone_mode": "explode"}, "cone_mode"),
        ({"first": "youngest"}, "first"),
        ({"rounds": -2}, "rounds"),
        ({"hand_size": 0}, "hand_size"),
        ({"multi_play": "yes"}, "multi_play"),
    ],
)
def test_bad_option_is_named(given: dict[str, object], option: str) -> None:
    with pytest.raises(OptionError) as err:
        KATO.setup(4, given)  # type: ignore[arg-type]
    assert err.value.option == option and option in str(err.value)


@pytest.mark.parametrize("seats", [0, 1, 11])
def test_seat_count(seats: int) -> None:
    with pytest.raises(OptionError) as err:
        KATO.setup(seats, {})
    assert err.value.option == "seats"


def test_hand_size_must_fit_the_deck() -> None:
    KATO.setup(10, {"hand_size": 10})
    with pytest.raises(OptionError) as err:
        KATO.setup(10, {"hand_size": 11})
    assert err.value.option == "hand_size"


@pytest.mark.parametrize("seats", range(2, 11))
def test_two_to_ten_players_setup(seats: int) -> None:
    labels = [label for label in deck_labels(0) if label[1:].isdigit()]  # number cards only
    hands = [labels[s * 7 : (s + 1) * 7] for s in range(seats)]
    rig = Rig(hands, [labels[seats * 7]], first=seats - 1)
    assert rig.view()["counts"] == [7] * seats
    assert rig.turn().seat == seats - 1


# ----------------------------------------------------------------------------- deck, setup


def test_deck_composition() -> None:
    labels = deck_labels(0)
    counts = Counter(labels)
    assert len(labels) == 108
    for colour in "rygb":
        assert counts[f"{colour}0"] == 1
        for rank in [*map(str, range(1, 10)), "S", "R", "+2"]:
            assert counts[colour + rank] == 2
    assert counts["W"] == 4 and counts["W+4"] == 4 and counts["cone"] == 0
    assert Counter(deck_labels(3))["cone"] == 3


def test_random_first_asks_a_joint_coin_then_shuffles_and_deals() -> None:
    st = KATO.setup(3, {})
    status = KATO.status(st)
    assert status == TableOps((JointCoin(3, "first"),))
    KATO.resolve(st, CoinResult(2))
    reqs = KATO.status(st).requests  # type: ignore[union-attr]
    assert isinstance(reqs[0], Shuffle) and len(reqs[0].cards) == 108
    assert [r.seat for r in reqs[1:4]] == [0, 1, 2]  # type: ignore[union-attr]
    assert all(len(r.handles) == 7 for r in reqs[1:4])  # type: ignore[union-attr]
    assert isinstance(reqs[4], RevealToAll)
    # The deals take the deck from the top, the flip is the next card.
    assert reqs[1].handles == reqs[0].handles[:7]  # type: ignore[union-attr]
    assert reqs[4].handles == (reqs[0].handles[21],)  # type: ignore[union-attr]
    assert st.first == 2


def test_host_first_is_the_seat_after_the_host() -> None:
    st = KATO.setup(4, {"first": "host"})
    assert isinstance(KATO.status(st).requests[0], Shuffle)  # type: ignore[union-attr]
    assert st.first == 1


def test_next_round_starts_with_the_next_seat() -> None:
    rig = Rig([["r1"], ["r2"], ["r3"]], ["r5"], first=2, hand_size=1, target=10_000)
    rig.play(2, "r3")
    assert rig.state.first == 0 and len(rig.state.round_scores) == 1


def test_a_bad_result_is_refused_and_changes_nothing() -> None:
    st = KATO.setup(2, {"first": "host"})
    before = msgpack.packb(KATO.encode_state(st))
    req = KATO.status(st).requests[0]  # type: ignore[union-attr]
    for wrong in (CoinResult(0), Dealt(0, (0,), None), Shuffled("draw", (1, 2))):
        with pytest.raises(BadResult):
            KATO.resolve(st, wrong)
    assert msgpack.packb(KATO.encode_state(st)) == before
    KATO.resolve(st, Shuffled("draw", req.handles))  # type: ignore[union-attr]
    deal = KATO.status(st).requests[0]  # type: ignore[union-attr]
    assert isinstance(deal, Deal)
    with pytest.raises(BadResult, match="not a kato card"):
        KATO.resolve(st, Dealt(deal.seat, deal.handles, ("x",) * 7))
    with pytest.raises(BadResult):
        KATO.resolve(st, Dealt(deal.seat, deal.handles, ("r1",)))


def test_result_codec_roundtrip_and_strictness() -> None:
    for result in (
        Shuffled("draw", (1, 2)),
        Dealt(1, (3,), ("r1",)),
        Dealt(1, (3,), None),
        CoinResult(2),
    ):
        wire = msgpack.unpackb(msgpack.packb(result_to_plain(result)), raw=False)
        assert result_from_plain(wire) == result
    for bad in ([], ["dealt", 1], ["nope"], ["coin", -1], ["dealt", 0, [1], [2]], "coin"):
        with pytest.raises(BadResult):
            result_from_plain(bad)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- starting cards


def test_start_on_a_number() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2, ["g1"] * 2], ["y7"], first=1)
    assert rig.turn().seat == 1 and rig.view()["colour"] == "y" and rig.view()["top"] == "y7"


def test_start_on_skip_skips_the_first_player() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2, ["g1"] * 2], ["yS"], first=1)
    assert rig.turn().seat == 2


def test_start_on_reverse_the_dealer_plays_counter_clockwise() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2, ["g1"] * 2], ["yR"], first=1)
    assert rig.turn().seat == 0 and rig.state.direction == -1
    rig.move(0, "draw")
    rig.move(0, "pass")
    assert rig.turn().seat == 2


def test_start_on_draw_two_the_first_player_draws_and_loses_the_turn() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2, ["g1"] * 2], ["y+2"], draws=["g7", "g8"], first=1)
    assert rig.hand(1) == ["b1", "b1", "g7", "g8"]
    assert rig.turn().seat == 2 and rig.view()["pending"] is None


def test_start_on_wild_the_first_player_names_the_colour() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2], ["W"], first=1)
    assert rig.legal(1) == [("colour", c) for c in "rygb"]
    with pytest.raises(IllegalMove, match="name the colour"):
        KATO.check(rig.state, 1, rig.play_move(1, "b1"))
    rig.move(1, "colour", "b")
    assert rig.view()["colour"] == "b" and rig.turn().seat == 1
    rig.play(1, "b1")
    assert rig.turn().seat == 0


def test_start_on_a_cone_is_like_a_wild() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2], ["cone"], first=0, cones=1)
    assert rig.view()["phase"] == "name-colour" and rig.turn().seat == 0


def test_start_on_wild_draw_four_buries_it_and_flips_again() -> None:
    rig = Rig([["r1"] * 2, ["b1"] * 2], ["W+4", "W+4", "g4"], first=0)
    st = rig.state
    assert [rig.cards[h] for h in st.discard] == ["W+4", "W+4", "g4"]
    assert rig.view()["top"] == "g4" and rig.turn().seat == 0 and rig.view()["pending"] is None


# ----------------------------------------------------------------------------- encoding


def test_decode_move_canonicalises_and_refuses_garbage() -> None:
    assert KATO.moves.read(["play", [3], ["r5"], ""]) == ("play", (3,), ("r5",), "")
    assert KATO.moves.read(["draw"]) == ("draw",)
    for bad in ([], ["fly"], ["draw", 1], ["play", 3, ["r5"], ""], "draw", None):
        with pytest.raises(IllegalMove):
            KATO.moves.read(bad)  # type: ignore[arg-type]


def test_check_refuses_malformed_moves() -> None:
    rig = Rig([["r1", "r2"], ["b1", "b2"]], ["r5"])
    h = rig.handle(0, "r1")
    for bad in (
        [],
        ("draw", 1),
        ("colour", ["r"]),
        ("play", [h], ("r1",), ""),
        ("play", (h,), ("r1", "r2"), ""),
        ("play", (h,), (["r1"],), ""),
        ("play", (h, h), ("r1", "r1"), ""),
        ("play", (h,), ("r1",), ["r"]),
        ("play", (h,), ("r1",), "r"),
        ("fly",),
    ):
        with pytest.raises(IllegalMove):
            KATO.check(rig.state, 0, bad)  # type: ignore[arg-type]


def test_decode_state_refuses_garbage() -> None:
    for bad in (None, {"game": "chess"}, {"game": "kato", "n": 2}):
        with pytest.raises(GameError):
            KATO.decode_state(bad)  # type: ignore[arg-type]


def test_encode_decode_roundtrip_mid_game() -> None:
    rig = Rig([["r1", "r2", "W"], ["b1", "b2", "g+2"]], ["r5"], draws=["y4"])
    rig.move(0, "draw")
    plain = KATO.encode_state(rig.state)
    wire = msgpack.unpackb(msgpack.packb(plain), raw=False)
    copy = KATO.decode_state(wire)
    assert msgpack.packb(KATO.encode_state(copy)) == msgpack.packb(plain)
    assert KATO.view(copy, 0) == KATO.view(rig.state, 0)
    assert KATO.legal_moves(copy, 0) == KATO.legal_moves(rig.state, 0)


def test_moves_from_no_such_seat_or_with_odd_names_are_refused() -> None:
    rig = Rig([["r1", "r2"], ["b1", "b2"], ["y1", "y2"]], ["r5"])
    rig.play(0, "r1")  # a catch window is open
    for seat in (-1, 3, 99):
        with pytest.raises(IllegalMove, match="no seat"):
            KATO.check(rig.state, seat, ("catch",))
    with pytest.raises(IllegalMove):
        KATO.moves.read([["play"], 1])  # type: ignore[list-item]

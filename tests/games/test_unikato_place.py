"""Unikato: the placement rule (every feature, every touching tile, not corners), chains, the
bonus action, and a round ended by a player's last tile.

The starting tile is ``cOsW`` (small orange circle on white) at (0, 0) unless a test says
otherwise; x grows to the right, y downwards.
"""

from __future__ import annotations

import pytest
from unikato_rig import G, Rig

from protocol.contract import GameOver, IllegalMove, Shuffled


def illegal(rig: Rig, seat: int, move: tuple[object, ...], reason: str) -> None:
    """Every copy refuses ``move`` with ``reason``."""
    for st in rig.states:
        with pytest.raises(IllegalMove, match=reason):
            G.check(st, seat, move)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- the rule


@pytest.mark.parametrize("label", ["sOsW", "cPsW", "cOmW", "cOsG"])
def test_a_tile_that_differs_in_any_one_feature_fits(label: str) -> None:
    rig = Rig([[label], []])
    rig.place(0, label, 1, 0)
    assert rig.view()["grid"] == [[0, 0, "cOsW"], [1, 0, label]]


@pytest.mark.parametrize(
    ("label", "reason"),
    [
        ("sPsW", "differs from the small orange circle on white to its left in two features: "
         "shape and colour"),
        ("cOlK", "in two features: size and background"),
        ("sPmW", "in three features: shape, colour and size"),
        ("xBlK", "in four features: shape, colour, size and background"),
    ],
)  # fmt: skip
def test_a_tile_that_differs_in_more_features_does_not(label: str, reason: str) -> None:
    rig = Rig([[label], []], display=("xOmK", "xPmK", "xBmK"))
    illegal(rig, 0, rig.place_move(0, label, 1, 0), reason)
    assert not [m for m in rig.legal(0) if m[0] == "place" and m[2] == label]


@pytest.mark.parametrize(
    ("cell", "side"), [((1, -1), "above it"), ((2, 0), "to its right"), ((1, 1), "below it")]
)
def test_every_touching_tile_counts(cell: tuple[int, int], side: str) -> None:
    # cOmW at (1, 0) fits the start to its left; a large orange cross on white on another
    # side differs from it in shape and size.
    rig = Rig([["cOmW"], []], scene=[(*cell, "xOlW")])
    illegal(
        rig,
        0,
        rig.place_move(0, "cOmW", 1, 0),
        f"differs from the large orange cross on white {side} in two features: shape and size",
    )


def test_a_tile_touching_four_tiles_must_fit_all_four() -> None:
    rig = Rig([["cOmW", "cOlW"], []])
    rig.lay(1, -1, "cOmG")  # above: background
    rig.lay(2, 0, "sOmW")  # right: shape
    rig.lay(1, 1, "cPmW")  # below: colour
    # cOlW fits the start (size) but not the tile above it (size and background).
    illegal(
        rig,
        0,
        rig.place_move(0, "cOlW", 1, 0),
        "the medium orange circle on grey above it in two features: size and background",
    )
    rig.place(0, "cOmW", 1, 0)  # one feature apart from each of its four neighbours
    assert rig.view()["bonus"] is True


def test_corners_do_not_count() -> None:
    # Diagonal to (1, 0): a tile with nothing in common, and one with three features.
    rig = Rig(
        [["cOmW"], []], display=("xOmK", "xPmK", "xBmK"), scene=[(2, 1, "xBlK"), (0, -1, "cPsW")]
    )
    rig.place(0, "cOmW", 1, 0)
    assert rig.view()["bonus"] is False  # it touches only the start


def test_a_tile_goes_on_an_empty_cell_that_touches_a_tile() -> None:
    rig = Rig([["cOmW", "sOsW"], []])
    illegal(rig, 0, rig.place_move(0, "cOmW", 0, 0), "already holds the small orange circle")
    illegal(rig, 0, rig.place_move(0, "cOmW", 2, 0), r"cell \(2, 0\) touches no tile")
    illegal(rig, 0, rig.place_move(0, "cOmW", 1, 1), "touches no tile")  # a corner only


def test_listed_placements_are_exactly_the_legal_ones() -> None:
    hand = ["cOmW", "sOsW", "cPsW", "cOsG", "cOlW", "sOmW", "cPmW", "cOmG", "sPsW", "xOsW"]
    rig = Rig([hand, []], display=("xBlK", "xPlK", "xOlK"))
    rig.lay(1, 0, "cOsK")
    rig.lay(2, 0, "cOmK")
    rig.lay(0, 1, "sOsG")
    rig.lay(-1, 1, "sOsK")
    listed = {m for m in rig.legal(0) if m[0] == "place"}
    accepted = set()
    for label in hand:
        for x in range(-3, 5):
            for y in range(-3, 4):
                move = rig.place_move(0, label, x, y)
                try:
                    G.check(rig.state, 0, move)  # type: ignore[arg-type]
                except IllegalMove:
                    continue
                accepted.add(move)
    assert listed == accepted and len(listed) > 10
    # Hand order, then the cells top row first: the listing is deterministic.
    places = [m for m in rig.legal(0) if m[0] == "place"]
    assert places == sorted(places, key=lambda m: (hand_order(rig, m[1]), m[4], m[3]))


def hand_order(rig: Rig, handle: int) -> int:
    return rig.state.hands[0].index(handle)


# ----------------------------------------------------------------------------- chains


def test_each_next_tile_touches_the_one_placed_just_before() -> None:
    rig = Rig([["cOmW", "cOlW", "sOsW"], []])
    rig.place(0, "cOmW", 1, 0)
    assert rig.view()["phase"] == "placing" and rig.view()["chain"] == [[1, 0]]
    # sOsW would fit above the start, but it does not touch the tile just placed.
    illegal(rig, 0, rig.place_move(0, "sOsW", 0, -1), "must touch the tile you just placed")
    illegal(rig, 0, ("exchange", rig.handle_of("sOsW"), "sOsW", "bag"), "say 'done'")
    legal = rig.legal(0)
    assert legal[-1] == ("done",)
    assert {(m[3], m[4]) for m in legal if m[0] == "place"} <= {(2, 0), (1, -1), (1, 1)}
    rig.place(0, "cOlW", 2, 0)
    assert rig.view()["chain"] == [[1, 0], [2, 0]]
    rig.move(0, "done")
    assert rig.view()["phase"] == "draw" and rig.turn() == 0  # 8 tiles: draw one


def test_done_needs_a_placement_first() -> None:
    rig = Rig([["cOmW"], []])
    illegal(rig, 0, ("done",), "you have not acted yet")
    illegal(rig, 0, ("done", 1), "takes no arguments")
    assert ("done",) not in rig.legal(0)


def test_not_your_turn() -> None:
    rig = Rig([["cOmW"], ["sOsW"]])
    illegal(rig, 1, rig.place_move(1, "sOsW", -1, 0), "not seat 1's turn: seat 0 is playing")
    illegal(rig, 0, rig.place_move(1, "sOsW", -1, 0), "is not in your hand")
    # A copy that knows the tile refuses another label; one that does not still refuses a
    # label already seen elsewhere (every tile exists once).
    mine = rig.handle_of("cOmW")
    for st in (rig.state, rig.copies[0]):
        with pytest.raises(IllegalMove, match="is not cOmG"):
            G.check(st, 0, ("place", mine, "cOmG", 1, 0))
    with pytest.raises(IllegalMove, match="one of each tile"):
        G.check(rig.copies[1], 0, ("place", mine, "cOsW", 1, 0))
    illegal(rig, 0, ("place", rig.handle_of("cOmW"), "zz", 1, 0), "not a unikato tile")
    illegal(rig, 0, ("place", rig.handle_of("cOmW"), "cOmW", 1.0, 0), "two whole numbers")
    illegal(rig, 0, ("fly",), "unknown move")
    illegal(rig, 7, ("done",), "no seat 7")


# ----------------------------------------------------------------------------- bonus

# A chain that bends back: cOmW right of the start, cOmG below it, then cOsG below the start
# touching both the start (above it) and cOmG (to its right): a bonus.
BEND = [("cOmW", 1, 0), ("cOmG", 1, 1), ("cOsG", 0, 1)]


def bend(rig: Rig) -> None:
    for label, x, y in BEND:
        assert rig.view()["bonus"] is False
        rig.place(0, label, x, y)


def test_a_tile_touching_two_earns_a_bonus_action() -> None:
    rig = Rig([["cOmW", "cOmG", "cOsG", "sOsW"], []])
    bend(rig)
    assert rig.view()["bonus"] is True and rig.view()["action"] == 1
    rig.move(0, "done")
    view = rig.view()
    assert (view["phase"], view["action"], view["bonus"]) == ("action", 2, True)
    assert rig.turn() == 0 and ("done",) in rig.legal(0) and ("pass",) not in rig.legal(0)
    illegal(rig, 0, ("pass",), "only a turn's first action")
    # The bonus action is a new action: its first tile may go anywhere (not next to cOsG).
    rig.place(0, "sOsW", -1, 0)
    rig.move(0, "done")
    assert rig.view()["phase"] == "draw" and rig.turn() == 0


def test_the_extra_action_ends_the_turn_even_if_it_earns_another_bonus() -> None:
    rig = Rig([["cOmW", "cOmG", "cOsG", "sOsW", "sOsG"], []])
    bend(rig)
    rig.move(0, "done")
    rig.place(0, "sOsW", -1, 0)
    rig.place(0, "sOsG", -1, 1)  # touches sOsW above it and cOsG to its right
    rig.move(0, "done")
    assert rig.view()["phase"] == "draw"  # no third action
    rig.draw(0, "bag")
    assert rig.turn() == 1 and rig.view()["action"] == 1 and rig.view()["bonus"] is False


def test_the_bonus_may_be_declined_or_spent_on_an_exchange() -> None:
    rig = Rig([["cOmW", "cOmG", "cOsG"], ["cPsW"]])
    bend(rig)
    rig.move(0, "done")
    rig.move(0, "done")  # declined
    assert rig.view()["phase"] == "draw" and rig.turn() == 0
    rig.draw(0, "xBlK")
    assert rig.turn() == 1

    rig = Rig([["cOmW", "cOmG", "cOsG", "xBsW"], []])
    bend(rig)
    rig.move(0, "done")
    rig.exchange(0, "xBsW", "xPlK")
    assert rig.view()["phase"] == "draw" and "xPlK" in rig.hand(0)


def test_a_single_tile_touching_two_earns_it_too() -> None:
    rig = Rig([["cOmW"], []])
    rig.lay(1, -1, "cOmG")
    rig.place(0, "cOmW", 1, 0)
    assert rig.view()["bonus"] is True


# ----------------------------------------------------------------------------- last tile


def test_placing_the_last_tile_ends_the_round_at_once() -> None:
    rig = Rig([["cOmW", "cOlW"], ["sOsW"]])
    rig.keep(0, ["cOmW", "cOlW"])
    rig.place(0, "cOmW", 1, 0)
    rig.place(0, "cOlW", 2, 0)  # the last one: no 'done', no draw
    status = G.status(rig.state)
    assert isinstance(status, GameOver)
    assert status.outcome.rounds == ((0, -10),) and status.outcome.winners == (0,)
    assert rig.view()["round_ends"] == [{"blocked": False, "winners": [0]}]
    illegal(rig, 1, ("done",), "the game is over")
    assert rig.legal(0) == rig.legal(1) == []


def test_the_last_tile_in_a_longer_game_starts_the_next_round() -> None:
    rig = Rig([["cOmW"], ["sOsW"]], rounds=2, first="host")
    rig.plan_next_round([["xOsW"], ["cPsW"]])
    rig.keep(0, ["cOmW"])
    first_round = set(rig.state.hands[1])
    rig.place(0, "cOmW", 1, 0)
    assert rig.view()["round"] == 2 and rig.view()["scores"] == [0, -10]
    assert rig.turn() == 1  # the next round starts one seat further on
    assert rig.view()["grid"] == [[0, 0, "cOsW"]] and rig.view()["counts"] == [10, 10]
    shuffles = [r for r in rig.results if isinstance(r, Shuffled)]
    assert len(shuffles) == 2 and not first_round & set(shuffles[1].handles)  # fresh handles
    assert sorted(rig.hand(1)) == sorted(["cPsW", *rig.hand(1)[1:]]) and "cPsW" in rig.hand(1)

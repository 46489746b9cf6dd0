"""Unikato: exchanging, the end-of-turn draw, display refills, the empty bag, passing, blocked
rounds, and scores over several rounds."""

from __future__ import annotations

import pytest
from unikato_rig import G, Rig

from protocol.contract import Dealt, GameError, GameOver, IllegalMove, Revealed


def illegal(rig: Rig, seat: int, move: tuple[object, ...], reason: str) -> None:
    """Every copy refuses ``move`` with ``reason``."""
    for st in rig.states:
        with pytest.raises(IllegalMove, match=reason):
            G.check(st, seat, move)  # type: ignore[arg-type]


def over(rig: Rig) -> GameOver:
    status = G.status(rig.state)
    assert isinstance(status, GameOver), status
    return status


# ----------------------------------------------------------------------------- exchange


def test_exchange_with_a_display_tile() -> None:
    rig = Rig([["xBsW"], []])
    taken = rig.handle_of("xPlK")
    rig.exchange(0, "xBsW", "xPlK")
    assert rig.display() == ["xBlK", "xOlK", "xBsW"]
    assert "xPlK" in rig.hand(0) and "xBsW" not in rig.hand(0)
    assert rig.turn() == 1  # still 10 tiles and no bonus: the turn is over
    # Everyone saw which tile seat 0 took; nothing else of its hand.
    assert rig.view(1)["open"] == [[[taken, "xPlK"]], []]
    assert rig.view(None)["open"] == rig.view(0)["open"]


def test_the_tile_just_put_there_cannot_be_taken_back() -> None:
    rig = Rig([["xBsW"], []])
    mine = rig.handle_of("xBsW")
    illegal(rig, 0, ("exchange", mine, "xBsW", mine), "may not take back the tile")
    assert not [m for m in rig.legal(0) if m[0] == "exchange" and m[3] == mine]
    illegal(rig, 0, ("exchange", mine, "xBsW", 10_000), "not on the display")
    illegal(rig, 0, ("exchange", mine, "xBsW", "sack"), "not on the display")


def test_exchange_with_the_bag_deals_to_the_player_alone() -> None:
    rig = Rig([["xBsW"], []], bag=["sPsW"])
    top = rig.handle_of("sPsW")
    rig.exchange(0, "xBsW", "bag")
    assert rig.results[-1] == Dealt(0, (top,), ("sPsW",))
    assert top in rig.copies[0].card_of and top not in rig.copies[1].card_of
    assert rig.view(0)["open"] == [[], []]  # nobody else saw it
    assert rig.view()["bag"] == 81 - 20 - 4 - 1 and rig.turn() == 1


def test_exchange_options_are_every_hand_tile_for_every_display_tile_and_the_bag() -> None:
    rig = Rig([[], []])
    hand = rig.state.hands[0]
    exchanges = [m for m in rig.legal(0) if m[0] == "exchange"]
    assert [(m[1], m[3]) for m in exchanges] == [
        (h, t) for h in hand for t in [*rig.state.display, "bag"]
    ]


# ----------------------------------------------------------------------------- drawing


def test_end_of_turn_draw_from_the_display() -> None:
    rig = Rig([["cOmW"], ["sOsW"]])
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    assert rig.view()["phase"] == "draw"
    d = rig.state.display
    assert rig.legal(0) == [("draw", d[0]), ("draw", d[1]), ("draw", d[2]), ("draw", "bag")]
    illegal(rig, 0, rig.place_move(0, rig.hand(0)[0], 2, 0), "your actions are over")
    illegal(rig, 0, ("done",), "your actions are over")
    illegal(rig, 0, ("draw", "bag", 1), r"\('draw', source\)")
    rig.draw(0, "xPlK")
    assert rig.view()["counts"] == [10, 10] and rig.display() == ["xBlK", "xOlK"]
    assert rig.turn() == 1
    illegal(rig, 1, ("draw", "bag"), "only at the end of your turn")


def test_end_of_turn_draw_from_the_bag_is_private() -> None:
    rig = Rig([["cOmW"], ["sOsW"]], bag=["sPsW"])
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    rig.draw(0, "bag")
    assert isinstance(rig.results[-1], Dealt) and rig.results[-1].seat == 0
    assert rig.view(0)["counts"] == [10, 10] and "sPsW" in rig.hand(0)
    assert rig.handle_of("sPsW") not in rig.copies[1].card_of


def test_exactly_one_tile_is_drawn_however_short_the_hand() -> None:
    rig = Rig([["cOmW", "cOmG", "cOsG"], []])
    for label, x, y in [("cOmW", 1, 0), ("cOmG", 1, 1), ("cOsG", 0, 1)]:
        rig.place(0, label, x, y)
    rig.move(0, "done")
    rig.move(0, "done")  # the bonus declined
    rig.draw(0, "bag")
    assert rig.view()["counts"] == [8, 10] and rig.turn() == 1


def test_no_draw_with_a_full_hand() -> None:
    rig = Rig([["xBsW"], []])
    rig.exchange(0, "xBsW", "xBlK")
    assert rig.turn() == 1 and rig.view()["phase"] == "action"


# ----------------------------------------------------------------------------- display


def test_an_emptied_display_is_refilled_from_the_bag() -> None:
    rig = Rig([["cOmW"], []], bag=["sPsW", "sBsW", "sOmW", "sOlW"])
    rig.trim_display(1)
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    bag = rig.view()["bag"]
    rig.draw(0, "xBlK")
    new = tuple(rig.handle_of(t) for t in ("sPsW", "sBsW", "sOmW"))
    assert rig.results[-1] == Revealed(new, ("sPsW", "sBsW", "sOmW"))
    assert rig.display() == ["sPsW", "sBsW", "sOmW"] and rig.view()["bag"] == bag - 3
    assert rig.turn() == 1


def test_a_short_bag_refills_what_it_can_and_an_empty_one_nothing() -> None:
    rig = Rig([["cOmW", "cOlW"], ["sOsW"]], bag=["sPsW", "sBsW"])
    rig.trim_display(1)
    rig.trim_bag(2)
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    rig.draw(0, "xBlK")
    assert rig.display() == ["sPsW", "sBsW"] and rig.view()["bag"] == 0
    rig.place(1, "sOsW", -1, 0)
    rig.move(1, "done")
    rig.draw(1, "sPsW")
    rig.place(0, "cOlW", 2, 0)
    rig.move(0, "done")
    rig.draw(0, "sBsW")
    assert rig.display() == [] and rig.view()["bag"] == 0  # nothing left to refill with
    assert G.status(rig.state).__class__.__name__ == "Turn"


# ----------------------------------------------------------------------------- empty bag


def test_with_the_bag_empty_nothing_comes_from_it() -> None:
    rig = Rig([["cOmW", "xBsW"], ["sOsW"]])
    rig.empty_bag()
    mine = rig.handle_of("xBsW")
    illegal(rig, 0, ("exchange", mine, "xBsW", "bag"), "the bag is empty")
    assert not [m for m in rig.legal(0) if "bag" in m]
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    illegal(rig, 0, ("draw", "bag"), "the bag is empty")
    rig.draw(0, "xBlK")
    rig.empty_display()
    rig.place(1, "sOsW", -1, 0)
    rig.move(1, "done")
    assert rig.turn() == 0 and rig.view()["counts"] == [10, 9]  # no draw: nothing to draw


# ----------------------------------------------------------------------------- passing


def test_a_pass_only_when_no_exchange_is_possible() -> None:
    rig = Rig([["cOmW"], []])
    illegal(rig, 0, ("pass",), "you can exchange a tile")
    rig.empty_bag()
    illegal(rig, 0, ("pass",), "you can exchange a tile")
    rig.empty_display()
    # Seat 0 holds cOmW, which fits: every copy that knows its hand refuses the pass...
    for st in (rig.state, rig.copies[0]):
        with pytest.raises(IllegalMove, match="you can place cOmW at 0, -1"):
            G.check(st, 0, ("pass",))
    assert ("pass",) not in rig.legal(0)
    # ...and a copy that cannot see it lets it through (for the audit to judge).
    G.check(rig.copies[1], 0, ("pass",))


def test_a_tile_everyone_saw_taken_stops_a_pass_in_every_copy() -> None:
    rig = Rig([["xBsW"], []], display=("cOmW", "xPlK", "xOlK"))
    rig.exchange(0, "xBsW", "cOmW")  # everyone saw seat 0 take cOmW, which fits
    rig.exchange(1, rig.hand(1)[0], "xPlK")
    rig.empty_bag()
    rig.empty_display()
    illegal(rig, 0, ("pass",), "you can place cOmW")


def test_everyone_passing_blocks_the_round_and_ties_share() -> None:
    rig = Rig([[], []])  # crosses only: nothing fits the small orange circle
    rig.empty_bag()
    rig.empty_display()
    assert rig.legal(0) == [("pass",)]
    rig.move(0, "pass")
    assert rig.turn() == 1 and rig.view()["calm"] == 1
    rig.move(1, "pass")
    outcome = over(rig).outcome
    assert outcome.rounds == ((-10, -10),) and outcome.winners == (0, 1)
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0, 1]}]
    assert G.audit(rig.state, rig.cards) == []  # honest passes


def test_a_blocked_round_is_won_by_the_fewest_tiles() -> None:
    rig = Rig([["cOmW"], []])
    rig.empty_bag()
    rig.empty_display()
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    assert rig.turn() == 1 and rig.view()["calm"] == 0
    rig.move(1, "pass")
    rig.move(0, "pass")
    outcome = over(rig).outcome
    assert outcome.rounds == ((-9, -10),) and outcome.winners == (0,)
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0]}]


def test_a_placement_breaks_the_circle_of_passes() -> None:
    rig = Rig([[], ["sOsW", "sOmW"]])
    rig.empty_bag()
    rig.empty_display()
    rig.move(0, "pass")
    rig.place(1, "sOsW", -1, 0)
    rig.move(1, "done")
    assert rig.view()["calm"] == 0
    rig.move(0, "pass")
    rig.place(1, "sOmW", -1, 1)  # only seat 1 can go on; seat 0 keeps passing
    rig.move(1, "done")
    rig.move(0, "pass")
    assert rig.view()["calm"] == 1 and rig.turn() == 1


def test_with_the_bag_empty_a_circle_of_exchanges_blocks_the_round_too() -> None:
    rig = Rig([[], []], bag=["xOsG"])
    rig.trim_bag(1)
    rig.exchange(0, rig.hand(0)[0], "bag")  # this turn began with a tile in the bag
    assert rig.view()["calm"] == 0 and rig.view()["bag"] == 0
    illegal(rig, 1, ("pass",), "you can exchange")
    rig.exchange(1, rig.hand(1)[0], "xBlK")
    assert rig.view()["calm"] == 1
    rig.exchange(0, rig.hand(0)[0], "xPlK")
    assert over(rig).outcome.winners == (0, 1)
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0, 1]}]


# ----------------------------------------------------------------------------- audit


def test_the_audit_names_a_pass_made_while_a_hidden_tile_fitted() -> None:
    rig = Rig([[], ["sOsW"]])  # seat 1 holds sOsW, which fits beside the start
    rig.empty_bag()
    rig.empty_display()
    rig.move(0, "pass")  # honest: only crosses
    # Seat 1 passes anyway. Its own copy (and the omniscient one) would refuse; seat 0's copy
    # cannot see the hand, so it accepts the pass at once and records it.
    for st in (rig.state, rig.copies[1]):
        with pytest.raises(IllegalMove, match="you can place sOsW"):
            G.check(st, 1, ("pass",))
    honest = rig.copies[0]
    G.check(honest, 1, ("pass",))
    G.apply(honest, 1, ("pass",))
    violations = G.audit(honest, rig.cards)
    assert [(v.seat, v.rule) for v in violations] == [(1, "pass-while-able-to-place")]
    assert violations[0].step == honest.passes[1][0] == honest.passes[0][0] + 1
    assert violations[0].detail == "seat 1 passed while it could place sOsW at 0, -1"
    with pytest.raises(GameError, match="identity of tile"):
        G.audit(honest, {})


def test_the_audit_judges_the_grid_as_it_was_at_the_pass() -> None:
    # Seat 0 passes honestly; seat 1 then opens a cell where seat 0's cross would fit. The
    # later grid must not make the earlier pass look dishonest.
    rig = Rig([["sPsW"], ["sOsW"]])
    rig.empty_bag()
    rig.empty_display()
    assert [m for m in rig.legal(0) if m[0] == "place"] == []
    rig.move(0, "pass")
    rig.place(1, "sOsW", -1, 0)
    rig.move(1, "done")
    assert [m for m in rig.legal(0) if m[0] == "place"]  # sPsW now fits beside sOsW
    assert G.audit(rig.state, rig.cards) == []


# ----------------------------------------------------------------------------- rounds


def test_rounds_add_up_and_the_fewest_negative_points_win() -> None:
    rig = Rig([["cOmW"], ["sOsW"]], rounds=3, first="host")
    rig.plan_next_round([["xOsW"], ["cPsW"]])
    rig.plan_next_round([[], []])
    rig.keep(0, ["cOmW"])
    rig.place(0, "cOmW", 1, 0)  # round 1: seat 0 goes out
    assert rig.turn() == 1 and rig.view()["round"] == 2
    rig.keep(1, ["cPsW"])
    rig.place(1, "cPsW", 1, 0)  # round 2: seat 1 goes out
    assert rig.view()["scores"] == [-10, -10] and rig.turn() == 0
    rig.empty_bag()
    rig.empty_display()
    rig.keep(1, rig.hand(1)[:4])
    rig.move(0, "pass")
    rig.move(1, "pass")  # round 3 blocked: seat 1 holds 4 tiles, seat 0 ten
    outcome = over(rig).outcome
    assert outcome.rounds == ((0, -10), (-10, 0), (-10, -4))
    assert outcome.totals == (-20, -14) and outcome.winners == (1,) and outcome.finished
    assert [e["blocked"] for e in rig.view()["round_ends"]] == [False, False, True]


def test_equal_totals_share_the_win() -> None:
    rig = Rig([["cOmW"], ["sOsW"]], rounds=2, first="host")
    rig.plan_next_round([["xOsW"], ["cPsW"]])
    rig.keep(0, ["cOmW"])
    rig.place(0, "cOmW", 1, 0)
    rig.keep(1, ["cPsW"])
    rig.place(1, "cPsW", 1, 0)
    outcome = over(rig).outcome
    assert outcome.totals == (-10, -10) and outcome.winners == (0, 1)

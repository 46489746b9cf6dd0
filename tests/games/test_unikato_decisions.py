"""Unikato against the decisions of ``/work/shared/rules/unikato.md`` that issue 21 added: who
starts a later round, and how a round ends once the bag is empty. Each test quotes the rule
it checks."""

from __future__ import annotations

import pytest
from unikato_rig import G, Rig

from protocol.contract import GameOver

NEXT_ROUND = (
    "Decision: the next round is started by the next player clockwise from the one who "
    "started the last (the seed's 'oldest player' starts only the first)."
)
EMPTY_BAG = (
    "A round is blocked and ends when every player in turn passes, or, once the bag is "
    "empty, when every player in turn has had a whole turn without laying a tile."
)


def _go_out(rig: Rig, seat: int, label: str) -> None:
    """``seat`` lays its last tile, ``label``, beside the starting tile: the round ends."""
    rig.keep(seat, [label])
    rig.place(seat, label, 1, 0)


def _exchange_for_bag(rig: Rig, seat: int) -> None:
    rig.exchange(seat, rig.hand(seat)[0], "bag")


@pytest.mark.parametrize("first", ["random", "host"])
def test_each_later_round_is_started_one_seat_further_on_from_the_last_starter(
    first: str,
) -> None:
    # NEXT_ROUND. Three seats, so the one after the last starter is neither the round's
    # winner nor the one after the winner, nor the host: only the decision names it.
    start = 1 if first == "random" else 0

    def hands(r: int) -> list[list[str]]:
        """Round ``r``'s hands: the third seat from its starter holds cOmW, which fits."""
        out: list[list[str]] = [[], [], []]
        out[(start + r + 2) % 3] = ["cOmW"]
        return out

    rig = Rig(hands(0), rounds=4, first=first, coin=1)
    for r in range(1, 4):
        rig.plan_next_round(hands(r))
    starters = []
    for r in range(4):
        view = rig.view()
        assert view["round"] == r + 1
        starters.append(view["first"])
        assert rig.turn() == view["first"] == view["current"]
        # The starter and the next exchange; the third seat goes out: it wins the round.
        s = rig.turn()
        _exchange_for_bag(rig, s)
        _exchange_for_bag(rig, (s + 1) % 3)
        winner = (s + 2) % 3
        _go_out(rig, winner, "cOmW")
        assert rig.view()["round_ends"][-1] == {"blocked": False, "winners": [winner]}
    assert starters == [(start + r) % 3 for r in range(4)]
    assert isinstance(G.status(rig.state), GameOver)


def test_a_round_after_a_blocked_round_is_started_one_seat_further_on_too() -> None:
    # NEXT_ROUND, after a round that EMPTY_BAG ended.
    # (xOsW, which would fit the start, goes out of play with the display.)
    rig = Rig([[], [], []], display=("xOsW", "xBlK", "xPlK"), rounds=2, first="host")
    rig.plan_next_round([[], [], []])
    rig.empty_bag()
    rig.empty_display()
    for seat in range(3):
        rig.move(seat, "pass")
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0, 1, 2]}]
    assert rig.view()["round"] == 2 and rig.turn() == rig.view()["first"] == 1


def test_the_turn_that_empties_the_bag_is_not_one_of_the_whole_turns_counted() -> None:
    # EMPTY_BAG: "once the bag is empty ... a whole turn". Seats 0 and 1 lay no tile but
    # take the bag's last two tiles in exchanges: their turns began with tiles in the bag, so
    # they do not count; from then on each of the three seats needs a whole turn without
    # laying a tile, and the third such turn ends the round.
    rig = Rig([[], [], []], bag=["xOsG", "xPsG"])
    rig.trim_bag(2)
    _exchange_for_bag(rig, 0)
    _exchange_for_bag(rig, 1)
    assert rig.view()["bag"] == 0 and rig.view()["calm"] == 0
    for seat, calm in ((2, 1), (0, 2)):
        rig.exchange(seat, rig.hand(seat)[0], rig.display()[0])
        assert rig.view()["calm"] == calm and not isinstance(G.status(rig.state), GameOver)
    rig.exchange(1, rig.hand(1)[0], rig.display()[0])
    assert isinstance(G.status(rig.state), GameOver)
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0, 1, 2]}]


def test_the_draw_that_empties_the_bag_ends_a_turn_that_is_not_counted_either() -> None:
    # EMPTY_BAG, the bag emptied by the end-of-turn draw after a tile was laid.
    rig = Rig([["cOmW"], [], []], bag=["xOsG"])
    rig.trim_bag(1)
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    rig.draw(0, "bag")
    assert rig.view()["bag"] == 0 and rig.view()["calm"] == 0
    for seat in (1, 2):
        rig.exchange(seat, rig.hand(seat)[0], rig.display()[0])
    assert not isinstance(G.status(rig.state), GameOver)
    rig.exchange(0, rig.hand(0)[0], rig.display()[0])
    assert isinstance(G.status(rig.state), GameOver)


def test_with_the_bag_empty_a_tile_laid_starts_the_count_again() -> None:
    # EMPTY_BAG: "every player in turn" — a placement in between breaks the circle.
    rig = Rig([[], ["sOsW"], []])
    rig.empty_bag()
    rig.exchange(0, rig.hand(0)[0], rig.display()[0])
    assert rig.view()["calm"] == 1
    rig.place(1, "sOsW", -1, 0)
    rig.move(1, "done")
    rig.draw(1, rig.display()[0])  # the end-of-turn draw, from the display
    assert rig.view()["calm"] == 0
    for seat in (2, 0):
        rig.exchange(seat, rig.hand(seat)[0], rig.display()[0])
    assert rig.view()["calm"] == 2 and not isinstance(G.status(rig.state), GameOver)
    rig.exchange(1, rig.hand(1)[0], rig.display()[0])
    assert isinstance(G.status(rig.state), GameOver)
    assert rig.view()["round_ends"] == [{"blocked": True, "winners": [0, 1, 2]}]

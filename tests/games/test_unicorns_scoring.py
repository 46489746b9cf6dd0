"""Kill the Unicorns scoring: the arrangement optimiser against brute force, worth, the double
rainbow's instant win, and the final tie-breaks."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from unicorns_rig import G, Rig

from lanparty.games.unicorns.cards import NEUTRAL
from lanparty.games.unicorns.scoring import (
    RAINBOW_BONUS,
    SET_BONUS,
    arrangement,
    colour_bonus,
    colour_counts,
    is_double_rainbow,
    richest,
    total,
)
from lanparty.games.unicorns.state import UnicornsState
from protocol.contract import GameOver

# ----------------------------------------------------------------------------- brute force


def brute_force(colours: tuple[int, ...]) -> int:
    """The best bonus over every way to group the unicorns, one by one: each unicorn is left
    alone, or joins a collection of up to five of its colour, or a rainbow of four colours.
    (Memoised on the set of unicorns still to place; every grouping is still considered.)"""

    @cache
    def best(left: frozenset[int]) -> int:
        if not left:
            return 0
        first = min(left)
        rest = left - {first}
        colour = colours[first]
        result = best(rest)  # on its own
        if colour == NEUTRAL:
            return result
        same = sorted(i for i in rest if colours[i] == colour)
        for k in range(1, min(4, len(same)) + 1):
            for group in combinations(same, k):
                result = max(result, SET_BONUS[k + 1] + best(rest - set(group)))
        others = [sorted(i for i in rest if colours[i] == c) for c in range(4) if c != colour]
        for a in others[0]:
            for b in others[1]:
                for c in others[2]:
                    result = max(result, RAINBOW_BONUS + best(rest - {a, b, c}))
        return result

    return best(frozenset(range(len(colours))))


collections = st.lists(st.integers(0, 4), max_size=13).map(tuple)


@settings(max_examples=150, deadline=None)
@given(collections)
def test_arrangement_is_the_best_grouping(colours: tuple[int, ...]) -> None:
    bonus, rainbows = arrangement(colour_counts(colours))
    assert bonus == brute_force(colours)
    assert 0 <= rainbows <= min(colour_counts(colours))


@settings(max_examples=60, deadline=None)
@given(collections, st.lists(st.integers(-4, 12), max_size=13), st.integers(0, 4))
def test_total_is_worth_plus_pates_plus_the_best_grouping(
    colours: tuple[int, ...], worths: list[int], pates: int
) -> None:
    values = (worths + [0] * len(colours))[: len(colours)]
    assert total(values, colours, pates) == sum(values) + 3 * pates + brute_force(colours)


def test_colour_collections_and_rainbows_by_hand() -> None:
    assert [colour_bonus(k) for k in range(11)] == [0, 0, 2, 5, 8, 12, 12, 14, 17, 20, 24]
    assert arrangement([1, 1, 1, 1]) == (8, 1)
    assert arrangement([2, 2, 2, 2]) == (16, 2)  # two rainbows beat four pairs (8)
    assert arrangement([5, 1, 1, 1]) == (16, 1)  # a rainbow and four pink (8 + 8)
    assert arrangement([3, 0, 0, 0]) == (5, 0)
    assert arrangement([0, 0, 0, 0]) == (0, 0)
    assert colour_counts([0, 0, NEUTRAL, 3]) == [
        2,
        0,
        0,
        1,
    ]  # a colourless Legendary counts nowhere


def test_double_rainbow() -> None:
    assert is_double_rainbow([0, 0, 1, 1, 2, 2, 3, 3])
    assert is_double_rainbow([0, 0, 0, 1, 1, 2, 2, 3, 3, NEUTRAL])
    assert not is_double_rainbow([0, 0, 1, 1, 2, 2, 3, NEUTRAL])


# ----------------------------------------------------------------------------- the instant win


def _give(rig: Rig, seat: int, labels: list[str]) -> None:
    """Test surgery, the same in every copy: ``seat`` already holds these public unicorns."""
    for k, label in enumerate(labels):
        h = 1000 + k
        for state in (rig.state, *rig.copies):
            state.card_of[h] = label
            state.collections[seat].append(h)


ALMOST = ["pink-1", "blue-1", "blue-2", "green-1", "green-2", "yellow-1", "legendary"]


def test_double_rainbow_wins_the_moment_it_is_caught() -> None:
    rig = Rig(3, unicorns=["yellow-4", "blue-3", "green-4"], initiation="no_schemes", powers=False)
    _give(rig, 0, ALMOST)  # with its starting pink: pink, blue, green twice; one yellow
    first = rig.turn().seat
    for k in range(3):
        seat = (first + k) % 3
        if seat == 0:
            if rig.state.bid:
                rig.join(0, 4)
            else:
                rig.hunt(0, 4)
        elif rig.state.bid:
            rig.pass_(seat)
        else:
            rig.move(seat, "pass")
    status = G.status(rig.state)
    assert isinstance(status, GameOver) and status.outcome.winners == (0,)
    assert status.outcome.finished and len(status.outcome.rounds) == 1  # day 1, mid-way
    assert rig.view()["day"] == 1 and len(rig.view()["row"]) == 2  # two unicorns never hunted
    assert G.legal_moves(rig.state, 1) == []


def test_double_rainbow_from_the_market() -> None:
    rig = Rig(3, unicorns=["pink-4", "blue-3", "green-4"], initiation="no_schemes", powers=False)
    _give(rig, 0, ALMOST)
    while rig.view()["phase"] == "bid":
        rig.move(rig.turn().seat, "pass")
    while rig.turn().seat != 0:
        rig.move(rig.turn().seat, "decline")
    assert not G.outcome(rig.state).finished
    rig.move(0, "buy", "candy", 1006, "yellow", (3,))  # the Legendary turns yellow
    outcome = G.outcome(rig.state)
    assert outcome.finished and outcome.winners == (0,)


# ----------------------------------------------------------------------------- final ties


def _state(holdings: list[list[str]], pates: list[int]) -> UnicornsState:
    state = G.setup(3, {"first": "host"})
    h = 2000
    for seat, labels in enumerate(holdings):
        state.collections[seat] = []
        for label in labels:
            state.card_of[h] = label
            state.collections[seat].append(h)
            h += 1
    state.pates = pates
    return state


def test_ties_go_to_more_unicorns_then_are_shared() -> None:
    holdings = [
        ["legendary", "start-pink"],  # 5 + 1 = 6, two unicorns
        ["start-blue", "blue-3"],  # 1 + 3 + a pair 2 = 6, two unicorns
        ["start-green", "yellow-1", "pink-1"],  # 3, three unicorns, + a Pâté = 6
    ]
    assert richest(_state(holdings, [0, 0, 1])) == [2]
    assert richest(_state(holdings, [0, 0, 0])) == [0, 1]
    assert richest(_state(holdings, [1, 0, 0])) == [0]

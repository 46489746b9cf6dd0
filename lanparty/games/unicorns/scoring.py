"""Scoring: each unicorn's worth, colour collections and rainbows arranged for the best total.

A player's unicorns of one colour may be split into several collections of at most five, and
any four unicorns of different colours may form a rainbow instead; a unicorn belongs to one
group at most. ``arrangement`` finds the grouping with the largest bonus: for every number r
of rainbows it removes r unicorns of each colour and splits what is left of each colour on its
own (``colour_bonus``, a small dynamic programme), so it is exact, and it is checked against
brute force over every grouping in the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import (
    COLOURS,
    NEUTRAL,
    PATE_VALUE,
    SCHEME_VALUE,
    TOKEN_VALUE,
    unicorn_coins,
    unicorn_colour,
)
from .state import UnicornsState

SET_BONUS = (0, 0, 2, 5, 8, 12)
"""Bonus of one colour collection, by its size (at most five)."""
MAX_SET = len(SET_BONUS) - 1
RAINBOW_BONUS = 8


@cache
def colour_bonus(count: int) -> int:
    """The best bonus for ``count`` unicorns of one colour, split into collections of at
    most five (six give 5 + 1 = 12, eight give 5 + 3 = 17)."""
    if count <= 1:
        return 0
    return max(SET_BONUS[k] + colour_bonus(count - k) for k in range(1, min(count, MAX_SET) + 1))


def split(count: int) -> list[int]:
    """How ``count`` unicorns of one colour are split for :func:`colour_bonus`: the sizes of
    the collections, largest first (six give ``[5, 1]``, eight ``[5, 3]``; a size of 1 scores
    nothing)."""
    if count <= 1:
        return [count] if count else []
    best = max(range(1, min(count, MAX_SET) + 1),
               key=lambda k: (SET_BONUS[k] + colour_bonus(count - k), k))  # fmt: skip
    return sorted([best, *split(count - best)], reverse=True)


def arrangement(counts: Sequence[int]) -> tuple[int, int]:
    """``(bonus, rainbows)``: the largest collection-and-rainbow bonus for a player holding
    ``counts[c]`` unicorns of colour c (neutral unicorns excluded), and how many rainbows it
    uses (the fewest among equal bonuses)."""
    return _arrangement(tuple(counts))


@cache
def _arrangement(counts: tuple[int, ...]) -> tuple[int, int]:
    """:func:`arrangement`, worked out once per ``counts`` (a few unicorns of four colours:
    few distinct ones in any game, asked for at every view)."""
    best, used = -1, 0
    for r in range(min(counts) + 1):
        bonus = RAINBOW_BONUS * r + sum(colour_bonus(c - r) for c in counts)
        if bonus > best:
            best, used = bonus, r
    return best, used


def colour_counts(colours: Iterable[int]) -> list[int]:
    """Unicorns per colour (a neutral one counts for none)."""
    counts = [0] * len(COLOURS)
    for c in colours:
        if c != NEUTRAL:
            counts[c] += 1
    return counts


def is_double_rainbow(colours: Iterable[int]) -> bool:
    """Two unicorns (at least) of every colour: an instant win."""
    return min(colour_counts(colours)) >= 2


def total(values: Iterable[int], colours: Iterable[int], pates: int) -> int:
    """A player's score: the unicorns' worth, 3 per Pâté and the best arrangement's bonus."""
    return sum(values) + PATE_VALUE * pates + arrangement(colour_counts(colours))[0]


# --------------------------------------------------------------------------- on a state


def colour_of(st: UnicornsState, unicorn: int) -> int:
    """A unicorn's colour now: the one a scheme or the market gave it, else the printed one."""
    painted = st.paint.get(unicorn)
    return painted if painted is not None else unicorn_colour(st.card_of[unicorn])


def worth(st: UnicornsState, unicorn: int) -> int:
    """A collected unicorn's coins, plus its tokens and its revealed scheme card."""
    value = unicorn_coins(st.card_of[unicorn])
    value += sum(TOKEN_VALUE[t] for t in st.tokens.get(unicorn, ()))
    scheme = st.scheme_on.get(unicorn)
    if scheme is not None:
        value += SCHEME_VALUE.get(st.card_of[scheme], 0)
    return value


def score(st: UnicornsState, seat: int) -> int:
    """What ``seat`` would score if the game ended now."""
    coll = st.collections[seat]
    return total((worth(st, u) for u in coll), (colour_of(st, u) for u in coll), st.pates[seat])


def collection_worths(st: UnicornsState) -> list[list[tuple[int, int]]]:
    """Every seat's collected unicorns as ``(worth, colour)`` (see :func:`worth` and
    :func:`colour_of`), in collection order: what a view and the scores are made of."""
    return [[(worth(st, u), colour_of(st, u)) for u in coll] for coll in st.collections]


def scores(st: UnicornsState) -> list[int]:
    """Every seat's score now."""
    return [score(st, s) for s in range(st.n)]


def double_rainbows(st: UnicornsState) -> list[int]:
    """Seats holding a double rainbow now."""
    return [
        s for s in range(st.n) if is_double_rainbow(colour_of(st, u) for u in st.collections[s])
    ]


def richest(st: UnicornsState) -> list[int]:
    """The winners at the end: the best score; on a tie, the most unicorns; then shared."""
    totals = scores(st)
    key = [(totals[s], len(st.collections[s])) for s in range(st.n)]
    best = max(key)
    return [s for s in range(st.n) if key[s] == best]

"""Unikato states consistent with one seat's view, for the hard bot's search (pure: the
randomness is the caller's ``rng``).

The seat knows the grid, the display, its own hand, the tiles others took from the display
(open), every count and score; not the other tiles in other hands nor the bag. Every tile is
one of a kind, so the unseen ones are exactly the tiles in none of those places:
:func:`determinize` deals them at random into the other hands and the bag.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from protocol.contract import GameError, Move, Outcome, Plain

from ..search import rank_value
from ..views import cards, num, num_at, searched_phase, seq
from .options import UnikatoOptions, validate
from .state import CHAIN, PHASE_NAMES, UnikatoState, rebuild
from .tiles import CODE, LABEL, N_TILES

__all__ = ["DEPTH", "candidates", "determinize", "labels", "value"]

#: Moves a rollout plays before the hands are judged.
DEPTH = 12
#: Placements worth a search: the best few by the rules of thumb.
PLACES = 6


def _ints(view: Mapping[str, Plain], key: str) -> list[int]:
    """``view[key]`` as a list of ints (``TypeError`` if it is not one)."""
    return [num_at(view, key, i) for i in range(len(seq(view, key)))]


def determinize(
    view: Mapping[str, Plain], options: Mapping[str, Plain], rng: random.Random
) -> UnikatoState:
    """A full Unikato state (``card_of`` names every handle) whose view for ``view["seat"]``
    shows the same grid, display, hand, open tiles, counts and turn. Raises ``GameError`` if
    the view cannot be filled in."""
    seat = num(view, "seat")
    n = num(view, "players")
    st = UnikatoState(n, UnikatoOptions(**validate(options)))  # type: ignore[arg-type]
    st.phase = searched_phase(view, PHASE_NAMES, ("action", "placing", "draw"))
    st.current = num(view, "current")
    st.first = num(view, "first")
    st.acts = num(view, "action") - 1
    st.bonus = bool(view["bonus"])
    st.chain = [(num_at({"c": c}, "c", 0), num_at({"c": c}, "c", 1)) for c in seq(view, "chain")]
    st.calm = num(view, "calm")
    st.scores = _ints(view, "scores")
    st.round_scores = [_ints({"r": r}, "r") for r in seq(view, "round_scores")]
    counts = _ints(view, "counts")
    mine = cards(view)
    display = cards(view, "display")
    opened = [cards({"o": hand}, "o") for hand in seq(view, "open")]
    card_of: dict[int, int] = {}
    for h, label in [*mine, *display, *(t for hand in opened for t in hand)]:
        card_of[h] = CODE[label]
    seen = set(card_of.values())
    grid = seq(view, "grid")
    handle = max([*card_of, -1]) + 1
    placed: list[tuple[int, int, int]] = []
    for item in grid:
        x, y = num_at({"i": item}, "i", 0), num_at({"i": item}, "i", 1)
        code = CODE[str(seq({"i": item}, "i")[2])]
        card_of[handle] = code
        seen.add(code)
        placed.append((x, y, handle))
        handle += 1
    pool = [c for c in range(N_TILES) if c not in seen]
    rng.shuffle(pool)
    bag_n = num(view, "bag")
    hidden = [counts[s] - len(opened[s]) for s in range(n)]
    hidden[seat] = 0
    if len(mine) != counts[seat] or len(pool) != bag_n + sum(hidden):
        raise GameError("the tiles do not add up")
    hands: list[list[int]] = []
    for s in range(n):
        if s == seat:
            hands.append([h for h, _ in mine])
            continue
        hand = [h for h, _ in opened[s]]
        for _ in range(hidden[s]):
            card_of[handle] = pool.pop()
            hand.append(handle)
            handle += 1
        hands.append(hand)
    st.bag = []
    for code in pool:
        card_of[handle] = code
        st.bag.append(handle)
        handle += 1
    st.hands = hands
    st.display = [h for h, _ in display]
    st.open = {h for hand in opened for h, _ in hand}
    st.card_of = card_of
    st.placed = placed
    st.next_handle = handle
    numbers = _ints(view, "numbers")
    st.numbers = [{} for _ in range(n)]
    st.numbers[seat] = {h: k for (h, _), k in zip(mine, numbers, strict=True)}
    st.placed_turn = len(st.chain) if st.phase == CHAIN else int(st.acts > 0)
    st.calm_turn = not bag_n
    st.step = 1
    rebuild(st)
    return st


def labels(st: UnikatoState) -> dict[int, str]:
    """Every handle's label in a determinized state (what its dealer hands out)."""
    return {h: LABEL[c] for h, c in st.card_of.items()}


def value(before: Outcome, after: Outcome, st: UnikatoState, seat: int) -> float:
    """How good a rollout's end is for ``seat``: a scored round by who lost the fewest
    points; a round still on by the tiles in hand (fewer than the nearest rival is better)."""
    if len(after.rounds) > len(before.rounds) or after.finished:
        return rank_value(before, after, seat)
    counts = [len(h) for h in st.hands]
    rival = min(c for s, c in enumerate(counts) if s != seat)
    return 1.0 / (1.0 + math.exp(-0.5 * (rival - counts[seat])))


def candidates(
    view: Mapping[str, Plain],
    legal: Sequence[Move | None],
    ranked: Sequence[Move],
) -> list[Move | None]:
    """The moves worth a search: the best :data:`PLACES` placements and the exchanges of the
    least useful tile (``ranked``: placements best first, then those exchanges, as the rules
    of thumb see them), every draw, ``done`` and ``pass``."""
    places = [m for m in ranked if m[0] == "place"]
    out: list[Move | None] = [*places[:PLACES], *(m for m in ranked if m[0] == "exchange")]
    out += [m for m in legal if m is not None and m[0] in ("draw", "done", "pass")]
    return out

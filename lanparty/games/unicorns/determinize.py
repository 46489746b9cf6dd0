"""Kill the Unicorns states consistent with one seat's view, for the hard bot's search
(pure: the randomness is the caller's ``rng``).

The view shows the row, every collection, the hunt cards in hand, the market, the scores and
who planted which face-down scheme where; the seat does not see the schemes face down (its
own included: the table does not show them again), the schemes still in the decks, the
others' schemes of the day, the unicorn deck, nor the hunt cards a hunter sealed.

Every deck's handles are fixed at the start (the unicorn deck's first, then each seat's
eight schemes, then the starting unicorns), a day's row is the next ``n`` of the unicorn
deck and a day deals each seat the next two of its schemes: :func:`determinize` puts every
handle back where the view says its card is, and gives each hidden one a label drawn from
what that deck can still hold (the unicorn deck's from the unicorns nobody saw, a seat's
schemes from its eight less those it discarded or saw revealed). A hunter's sealed cards
are drawn from its hand (:func:`sealed`). Searched: planting, bidding, sealing and the
market; the rare choices in between are the rules of thumb's. The expert game (discards
face down) is not searched.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from protocol.contract import GameError, Move, Outcome, Plain

from ..views import num, num_at, seq
from .cards import (
    CHARACTERS,
    COLOUR_INDEX,
    ITEMS,
    NEUTRAL,
    SCHEMES,
    STARTING,
    UNICORN_DECK,
    unicorn_colour,
)
from .options import make
from .state import BID, COMMIT, MARKET, PHASE_NAMES, TRAP, UnicornsState

__all__ = ["determinize", "labels", "sealed", "value"]

_SEARCHED = (TRAP, BID, COMMIT, MARKET)


def _ints(view: Mapping[str, Plain], key: str) -> list[int]:
    """``view[key]`` as a list of ints (``TypeError`` if it is not one)."""
    return [num_at(view, key, i) for i in range(len(seq(view, key)))]


def _dicts(view: Mapping[str, Plain], key: str) -> list[dict[str, Plain]]:
    """``view[key]`` as a list of mappings (``GameError`` if it is not one)."""
    out = []
    for item in seq(view, key):
        if not isinstance(item, dict):
            raise GameError(f"view field {key!r} holds {item!r}, not a mapping")
        out.append(item)
    return out


def determinize(  # noqa: C901 -- one pass over the view, field by field
    view: Mapping[str, Plain], options: Mapping[str, Plain], rng: random.Random
) -> UnicornsState:
    """A full state (``card_of`` names every handle) whose view for ``view["seat"]`` agrees
    with ``view`` on the table, the collections, the hands and the turn. Raises
    ``GameError`` for a phase that is not searched or a view that does not add up."""
    seat = num(view, "seat")
    n = num(view, "players")
    st = UnicornsState(n, make(n, options))
    phase = PHASE_NAMES.index(str(view["phase"]))
    if phase not in _SEARCHED or st.opts.expert:
        raise GameError(f"nothing to search in phase {PHASE_NAMES[phase]}")
    schemes_on = st.opts.schemes
    st.phase = phase
    st.day = day = num(view, "day")
    st.current = num(view, "current")
    st.first = num(view, "first")
    st.characters = [
        CHARACTERS.index(str(c)) if c is not None else -1 for c in seq(view, "characters")
    ]
    st.used = [bool(u) for u in seq(view, "used")]
    st.hands = [_ints({"h": h}, "h") for h in seq(view, "hands")]
    st.played = [_ints({"p": p}, "p") for p in seq(view, "played")]
    st.pates = _ints(view, "pates")
    market = view["market"]
    if not isinstance(market, dict):
        raise GameError("no market")
    st.market = [num(market, item) for item in ITEMS]
    st.standings = [_ints({"r": r}, "r") for r in seq(view, "standings")]
    card_of: dict[int, str] = {}
    # The handles as the game gave them out.
    unicorns = list(range(len(UNICORN_DECK)))
    base = len(UNICORN_DECK)
    decks = [list(range(base + 8 * s, base + 8 * s + 8)) for s in range(n)] if schemes_on else []
    start = base + (8 * n if schemes_on else 0)
    for k, label in enumerate(STARTING):
        card_of[start + k] = label
    st.next_handle = start + len(STARTING)
    for s, hand in enumerate(decks):
        for h in hand:
            st.owner[h] = s
    # The row and the collections.
    st.row = unicorns[(day - 1) * n : day * n]
    st.unicorn_deck = unicorns[day * n :]
    rows = _dicts(view, "row")
    for r in rows:
        u = num(r, "unicorn")
        if r.get("label") is not None:
            card_of[u] = str(r["label"])
        st.planted[u] = [num_at({"s": s}, "s", 0) for s in seq(r, "schemes")]
    on: dict[int, str] = {}  # collected unicorn -> its revealed scheme's label
    collections = seq(view, "collections")
    for s, coll in enumerate(collections):
        held = _dicts({"c": coll}, "c")
        st.collections[s] = [num(c, "unicorn") for c in held]
        for c in held:
            u = num(c, "unicorn")
            label = str(c["label"])
            card_of[u] = label
            colour = c.get("colour")
            index = COLOUR_INDEX[str(colour)] if colour is not None else NEUTRAL
            if index != unicorn_colour(label):
                st.paint[u] = index
            tokens = [str(t) for t in seq(c, "tokens")]
            if tokens:
                st.tokens[u] = tokens
            if c.get("scheme") is not None:
                on[u] = str(c["scheme"])
    for r in _dicts(view, "reveals"):  # a revealed scheme's unicorn, maybe escaped since
        card_of.setdefault(num(r, "unicorn"), str(r["label"]))
    # The unicorns nobody saw (the deck, and those that escaped today unseen by the view).
    unseen = list(UNICORN_DECK)
    for label in card_of.values():
        if label in unseen:
            unseen.remove(label)
    rng.shuffle(unseen)
    for u in [*st.row, *st.unicorn_deck]:
        if u not in card_of:
            if not unseen:
                raise GameError("the unicorns do not add up")
            card_of[u] = unseen.pop()
    # Today's hunt.
    hunt = view.get("hunt")
    remaining = [num(r, "unicorn") for r in rows]
    if isinstance(hunt, dict):
        st.hunt = st.row.index(num(hunt, "unicorn"))
        st.bid = num(hunt, "bid")
        st.takers = _ints(hunt, "takers")
        st.cards = [_ints({"c": c}, "c") for c in seq(hunt, "cards")]
        boost, winner = hunt.get("boost"), hunt.get("winner")
        st.boost = boost if isinstance(boost, int) else -1
        st.winner = winner if isinstance(winner, int) else -1
        decided = len(_ints(hunt, "passed")) + len(st.takers)
        st.acted = decided - (1 if phase == COMMIT else 0)
    elif phase == MARKET:
        st.acted = (st.current - st.first) % n
    if phase == TRAP:
        drawn_counts = _ints(view, "drawn")
        st.acted = sum(1 for k in drawn_counts if k == 0)
    if set(remaining) - set(st.row):
        raise GameError("the row does not add up")
    # Schemes, seat by seat.
    if schemes_on:
        _schemes(st, view, seat, decks, card_of, on, rng)
    st.card_of = card_of
    st.step = 1
    return st


def _schemes(  # noqa: C901 -- each zone a scheme may be in
    st: UnicornsState,
    view: Mapping[str, Plain],
    seat: int,
    decks: list[list[int]],
    card_of: dict[int, str],
    on: dict[int, str],
    rng: random.Random,
) -> None:
    """Put every seat's scheme handles where the view says and label the hidden ones."""
    n, day = st.n, st.day
    drawn_counts = _ints(view, "drawn")
    discards = [[str(x) for x in seq({"d": d}, "d")] for d in seq(view, "discards")]
    mine = {num_at({"m": m}, "m", 0): str(seq({"m": m}, "m")[1]) for m in seq(view, "my_drawn")}
    peeked = {
        num_at({"p": p}, "p", 0): str(seq({"p": p}, "p")[1])
        for p in seq(view, "peeked")
        if seq({"p": p}, "p")[1] is not None
    }
    reveals = _dicts(view, "reveals")
    planted_now = {h for hs in st.planted.values() for h in hs}
    spare: list[list[int]] = []  # per seat: handles that left its hand, not yet placed
    pools: list[list[str]] = []
    knowns: list[dict[int, str]] = []
    for s in range(n):
        handles = decks[s]
        st.scheme_decks[s] = handles[2 * day :]
        today = handles[2 * (day - 1) : 2 * day]
        earlier = handles[: 2 * (day - 1)]
        pool = list(SCHEMES)
        for label in discards[s]:
            pool.remove(label)
        for r in reveals:
            if num(r, "owner") == s:
                pool.remove(str(r["scheme"]))
        known = {**{h: lb for h, lb in peeked.items() if st.owner[h] == s}}
        if s == seat:
            known.update(mine)
        for label in known.values():
            if label in pool:
                pool.remove(label)
        rng.shuffle(pool)
        # The discards: one of each earlier day's pair (and today's, once planted).
        if drawn_counts[s] == len(today):
            st.drawn[s] = list(today)
            gone = earlier
        else:
            kept = [h for h in today if h in planted_now]
            st.drawn[s] = []
            gone = earlier + [h for h in today if h not in kept]
            if len(kept) != 1:
                gone = earlier + today  # shifted or hunted already: both left the pair
        used = list(gone)
        st.discards[s] = []
        for label in discards[s]:
            if not used:
                raise GameError("the discards do not add up")
            h = used.pop(0)
            st.discards[s].append(h)
            card_of[h] = label
        spare.append(used)
        pools.append(pool)
        knowns.append(known)
    # Revealed schemes, in the order they were: on a collected unicorn, or gone with an escape.
    for r in reveals:
        s = num(r, "owner")
        found = next((x for x in spare[s] if x not in planted_now), None)
        if found is None:
            raise GameError("the revealed schemes do not add up")
        h = found
        spare[s].remove(h)
        card_of[h] = str(r["scheme"])
        u = num(r, "unicorn")
        st.reveals.append([u, h])
        if on.get(u) == card_of[h] and u not in st.scheme_on:
            st.scheme_on[u] = h
    for s in range(n):
        pool, known, used = pools[s], knowns[s], spare[s]
        today = decks[s][2 * (day - 1) : 2 * day]
        st.lost.extend(h for h in used if h not in planted_now)
        hers = [x for x in planted_now if st.owner[x] == s]
        for h in [*st.scheme_decks[s], *today, *used, *hers]:
            if h in card_of:
                continue
            if h in known:
                card_of[h] = known[h]
            elif pool:
                card_of[h] = pool.pop()
            else:
                card_of[h] = SCHEMES[rng.randrange(len(SCHEMES))]  # a lost one, any will do
    st.seen[seat] = set(peeked)


def sealed(view: Mapping[str, Plain], state: UnicornsState, rng: random.Random) -> dict[int, Move]:
    """The hunt cards each hunter that sealed them may have sealed: ``bid`` cards of its
    hand, at random."""
    hunt = view.get("hunt")
    if not isinstance(hunt, dict):
        return {}
    out: dict[int, Move] = {}
    for s in _ints(hunt, "sealed"):
        hand = state.hands[s]
        out[s] = ("cards", tuple(sorted(rng.sample(hand, state.bid))))
    return out


def labels(st: UnicornsState) -> dict[int, str]:
    """Every handle's label in a determinized state (what its dealer hands out)."""
    return dict(st.card_of)


def value(before: Outcome, after: Outcome, st: UnicornsState, seat: int) -> float:
    """How much ``seat``'s score rose against the others' on average (a tenth of it)."""
    gains = [a - b for a, b in zip(after.totals, before.totals, strict=True)]
    others = [g for s, g in enumerate(gains) if s != seat]
    return (gains[seat] - sum(others) / max(1, len(others))) / 10

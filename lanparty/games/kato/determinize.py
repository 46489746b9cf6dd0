"""KaTO states consistent with one seat's view, for the hard bot's search (pure: the
randomness is the caller's ``rng``).

The seat knows its hand, the top card, the colour, every count and score, and what is
pending; it does not know the other hands, the draw pile nor (in the view) what lies under
the top card. :func:`determinize` deals everything it cannot see at random from the cards
that are not in its hand nor on top, into the other hands, the draw pile and the discard
pile, in the numbers the view gives; with the seat's notes on the other hands (``infer``,
from :class:`~.infer.Watcher`, which the hard bot adds to the view it searches from) each
other hand is dealt under them and the cards seen on the pile go under the top card.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from protocol.contract import GameError, Move, Outcome, Plain

from ..search import rank_value
from ..views import cards, num, num_at, searched_phase, seq
from .cards import CODE, COLOURS, LABEL, NO_COLOUR, deck_codes
from .infer import sample_hand
from .options import make
from .state import P_DRAW, P_NONE, P_SKIP, P_W4, PEND_NAMES, PHASE_NAMES, KatoState

__all__ = ["DEPTH", "candidates", "determinize", "labels", "value"]

#: Moves a rollout plays before the hands are judged (8 and whole rounds measured weaker).
DEPTH = 16
#: How steeply a card more or less than the nearest rival counts at the horizon: over the
#: same 600 deals played both ways round, 0.3 won 55.5 % of the games, 0.5 53.6 % and 0.15
#: 54.4 % (within the noise of one another: docs/bots.md).
SLOPE = 0.3

_PEND = {name: i for i, name in enumerate(PEND_NAMES)}


def determinize(
    view: Mapping[str, Plain], options: Mapping[str, Plain], rng: random.Random
) -> KatoState:
    """A full KaTO state (``card_of`` names every handle) whose view for ``view["seat"]``
    shows the same hand, top card, colour, counts, scores and turn. Raises ``GameError`` if
    the view cannot be filled in (a phase with nothing to decide, counts that do not add up)."""
    seat = num(view, "seat")
    n = num(view, "players")
    st = KatoState(n, make(n, options))
    st.phase = searched_phase(view, PHASE_NAMES, ("play", "drawn", "name-colour"))
    st.current = num(view, "current")
    st.direction = num(view, "direction")
    st.first = (num(view, "dealer") + 1) % n
    colour = view.get("colour")
    st.colour = COLOURS.index(str(colour)) if colour is not None else NO_COLOUR
    pending = view.get("pending")
    if isinstance(pending, dict):
        st.pend = _PEND[str(pending["kind"])]
        st.total = num(pending, "total")
        st.aggressor = num(pending, "from")
    else:
        st.pend = P_NONE
    st.skips = ints(view, "skips")
    st.scores = ints(view, "scores")
    st.round_scores = [ints({"r": r}, "r") for r in seq(view, "round_scores")]
    kato = view.get("kato")
    st.kato = kato if isinstance(kato, int) else -1
    counts = ints(view, "counts")
    mine = cards(view)
    if len(mine) != counts[seat]:
        raise GameError("the hand does not match its count")
    known = cards(view, "known")  # shown to this seat (a challenge), still in a hand
    pool = deck_codes(st.opts.cones)
    for _h, label in [*mine, *known]:
        pool.remove(CODE[label])
    top = view.get("top")
    if top is None:
        raise GameError("no top card")
    pool.remove(CODE[str(top)])
    rng.shuffle(pool)
    deck_n, discard_n = num(view, "deck"), num(view, "discard")
    others = sum(c for s, c in enumerate(counts) if s != seat)
    if len(pool) + len(known) != deck_n + discard_n - 1 + others:
        raise GameError("the cards do not add up")
    handle = max([h for h, _ in [*mine, *known]] + [-1]) + 1
    card_of: dict[int, int] = {}

    def fresh(code: int) -> int:
        nonlocal handle
        handle += 1
        card_of[handle] = code
        return handle

    for h, label in [*mine, *known]:
        card_of[h] = CODE[label]
    # The view does not say whose hand a known card is in: the first other seat with room
    # (with two players, the only other one).
    placed: list[list[int]] = [[] for _ in range(n)]
    for h, _label in known:
        s = next(s for s in range(n) if s != seat and len(placed[s]) < counts[s])
        placed[s].append(h)
    notes = _notes(view, n, seat, counts, placed, pool, discard_n)
    hands: list[list[int]] = []
    for s in range(n):
        if s == seat:
            hands.append([h for h, _ in mine])
            continue
        if s in notes:
            masks, records = notes[s]
            chosen = sample_hand(pool, masks, records, rng)
        else:
            chosen = [pool.pop() for _ in range(counts[s] - len(placed[s]))]
        hands.append(placed[s] + [fresh(c) for c in chosen])
    st.seen[seat] = {h for h, _ in known}
    under = notes.get(-1, ([], []))[0]  # the cards seen on the pile (under the top)
    st.discard = [fresh(c) for c in under]
    st.discard += [fresh(pool.pop()) for _ in range(discard_n - 1 - len(under))]
    st.discard.append(fresh(CODE[str(top)]))
    st.deck = [fresh(pool.pop()) for _ in range(deck_n)]
    st.hands = hands
    st.card_of = card_of
    st.next_handle = handle + 1
    drawn = view.get("drawn")
    st.drawn = drawn if isinstance(drawn, int) else -1
    if st.pend == P_W4:
        # Who knows what colour was in play before it: a guess, so a challenge is a gamble.
        before = rng.randrange(4)
        agg = st.aggressor
        st.wd4.append([0, agg, before, tuple(hands[agg]), -1, -1, -1])
    elif st.pend in (P_DRAW, P_SKIP):
        pass
    st.step = 1
    return st


def _notes(
    view: Mapping[str, Plain],
    n: int,
    seat: int,
    counts: list[int],
    placed: list[list[int]],
    pool: list[int],
    discard_n: int,
) -> dict[int, tuple[list[int], list[tuple[Sequence[int], Sequence[int], Sequence[int]]]]]:
    """The seat's notes (``infer``, see :class:`~.infer.Watcher`) that still fit the view:
    per other seat its slots' masks and its records (slot indices, cards played since); at
    ``-1`` the cards seen under the top of the pile, taken out of ``pool`` (shuffled) here.
    Notes that do not fit (a count, a card not in the pool) are left out."""
    out: dict[int, tuple[list[int], list[tuple[Sequence[int], Sequence[int], Sequence[int]]]]]
    out = {}
    infer = view.get("infer")
    if not isinstance(infer, dict):
        return out
    pile = _int_list(infer.get("pile"))[:-1]
    if len(pile) <= discard_n - 1 and all(pile.count(c) <= pool.count(c) for c in set(pile)):
        for c in pile:
            pool.remove(c)
        out[-1] = (pile, [])
    records: dict[int, list[tuple[Sequence[int], Sequence[int], Sequence[int]]]] = {}
    for rec in _list(infer.get("records")):
        r = _list(rec)
        head = _int_list(list(r[:6]))
        records.setdefault(head[0], []).append((head, _int_list(r[6]), _int_list(r[7])))
    for item in _list(infer.get("slots")):
        s_, masks_ = _list(item)
        s, masks = _int_list([s_])[0], _int_list(masks_)
        if 0 <= s < n and s != seat and not placed[s] and len(masks) == counts[s]:
            out[s] = (masks, records.get(s, []))
    return out


def _list(value: Plain) -> Sequence[Plain]:
    """``value`` as a list (``TypeError`` if it is none)."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"not a list: {value!r}")
    return value


def _int_list(value: Plain) -> list[int]:
    """``value`` as a list of ints (``TypeError`` if it is none)."""
    out = [x for x in _list(value) if isinstance(x, int) and not isinstance(x, bool)]
    if len(out) != len(_list(value)):
        raise TypeError(f"not a list of integers: {value!r}")
    return out


def ints(view: Mapping[str, Plain], key: str) -> list[int]:
    """``view[key]`` as a list of ints (``TypeError`` if it is not one)."""
    return [num_at(view, key, i) for i in range(len(seq(view, key)))]


def labels(st: KatoState) -> dict[int, str]:
    """Every handle's label in a determinized state (what its dealer hands out)."""
    return {h: LABEL[c] for h, c in st.card_of.items()}


def candidates(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> list[Move | None]:
    """The moves worth a search: none out of turn (a call or a catch is made at once, by the
    rules of thumb), a play always with the KaTO call where it may go with it, and no
    challenge (a sample cannot know the colour that was in play before the Wild Draw Four
    nor the hand it was played from: the rules of thumb decide)."""
    if None in legal or any(m is not None and m[0] == "challenge" for m in legal):
        return []
    moves = [m for m in legal if m is not None]
    called = {m[:-1] for m in moves if m[-1] == "kato"}
    return [m for m in moves if m not in called]


def value(before: Outcome, after: Outcome, st: KatoState, seat: int) -> float:
    """How good a rollout's end is for ``seat``: a scored round is won (1) or lost (0); a
    round still on is judged by the cards in hand (fewer than the nearest rival is better;
    a Draw Two or Four aimed at a seat counts as drawn)."""
    if len(after.rounds) > len(before.rounds) or after.finished:
        return rank_value(before, after, seat)
    counts = [len(h) for h in st.hands]
    if st.pend in (P_DRAW, P_W4):
        counts[st.current] += st.total
    rival = min(c for s, c in enumerate(counts) if s != seat)
    return 1.0 / (1.0 + math.exp(-SLOPE * (rival - counts[seat])))

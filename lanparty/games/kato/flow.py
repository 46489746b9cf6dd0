"""KaTO table flow: rounds, table requests and their results, draws owed, scoring.

Everything here runs inside ``resolve`` or at the end of ``apply``: it turns the state's
obligations (cards owed, a round to start or score) into table requests, and folds results
back in. It never looks at a card a copy does not know, so every copy emits the same requests.
"""

from __future__ import annotations

from protocol.contract import (
    BadResult,
    CoinResult,
    Deal,
    Dealt,
    JointCoin,
    Result,
    Revealed,
    RevealToAll,
    Shown,
    Shuffle,
    Shuffled,
    excerpt,
)

from ..answers import answered
from .cards import (
    CODE,
    COLOUR,
    DRAW2,
    LABEL,
    NO_COLOUR,
    POINTS,
    RANK,
    REVERSE,
    SKIP,
    WILD4,
    deck_codes,
)
from .state import (
    COLOUR_CHOICE,
    DRAWN,
    OVER,
    P_NONE,
    PLAY,
    SCORING,
    SETUP,
    T_DRAWN,
    T_NONE,
    T_SCORE,
    T_SCORED,
    KatoState,
)

DRAW_DECK = "draw"


def next_seat(st: KatoState, seat: int) -> int:
    """The seat that plays after ``seat``, passing over (and using up) owed skips."""
    d = st.direction
    n = st.n
    s = (seat + d) % n
    if st.reflect:
        skips = st.skips
        while skips[s]:
            skips[s] -= 1
            s = (s + d) % n
    return s


def begin(st: KatoState) -> None:
    """Queue the game's first requests: the coin for the first player, or round 1 at once."""
    if st.opts.first == "random":
        st.requests.append(JointCoin(st.n, "first"))
    else:
        st.first = 1 % st.n  # the seat after the host (seat 0)
        start_round(st)


def start_round(st: KatoState) -> None:
    """Reset the round and queue a fresh shuffle, every hand's deal and the first flip."""
    n = st.n
    st.phase = SETUP
    st.then = T_NONE
    st.direction = 1
    st.colour = NO_COLOUR
    st.deck = []
    st.discard = []
    st.hands = [[] for _ in range(n)]
    st.card_of = {}  # last round's handles are retired
    st.pend = P_NONE
    st.total = 0
    st.aggressor = -1
    st.owed = []
    st.skips = [0] * n
    st.drawn = -1
    st.kato = -1
    st.seen = [set() for _ in range(n)]
    st.showing = -1
    st.current = st.first
    labels = tuple(LABEL[c] for c in deck_codes(st.opts.cones))
    base = st.next_handle
    handles = tuple(range(base, base + len(labels)))
    st.next_handle = base + len(labels)
    reqs: list[Shuffle | Deal | RevealToAll] = [Shuffle(DRAW_DECK, labels, handles)]
    k = st.opts.hand_size
    for seat in range(n):
        reqs.append(Deal(DRAW_DECK, seat, handles[seat * k : (seat + 1) * k]))
    reqs.append(RevealToAll((handles[n * k],)))
    st.requests.extend(reqs)


def pump(st: KatoState) -> None:
    """With no request in flight, queue the next one that owed draws or ``then`` need."""
    while not st.requests:
        owed = st.owed
        if owed:
            seat, k = owed[0]
            if k <= 0:
                owed.pop(0)
                continue
            deck = st.deck
            if deck:
                take = min(k, len(deck))
                st.requests.append(Deal(DRAW_DECK, seat, tuple(deck[: -take - 1 : -1])))
                return
            if len(st.discard) > 1:
                _queue_reshuffle(st)
                return
            owed.pop(0)  # nothing left anywhere: the player simply does not draw
            continue
        then = st.then
        if then == T_NONE:
            return
        st.then = T_NONE
        if then == T_DRAWN:
            if st.drawn < 0 or not st.opts.play_after_draw:
                st.drawn = -1
                st.phase = PLAY
                st.current = next_seat(st, st.current)
        elif then == T_SCORE:
            reveal = [RevealToAll(tuple(h)) for h in st.hands if h]
            st.then = T_SCORED
            if reveal:
                st.requests.extend(reveal)
                return
        else:  # T_SCORED
            _score_round(st)


def _queue_reshuffle(st: KatoState) -> None:
    # The top discard stays; the rest are public cards, so their labels make the new deck.
    rest = st.discard[:-1]
    labels = tuple(LABEL[st.card_of[h]] for h in rest)
    base = st.next_handle
    st.next_handle = base + len(rest)
    st.requests.append(Shuffle(DRAW_DECK, labels, tuple(range(base, base + len(rest)))))


def _score_round(st: KatoState) -> None:
    winner = next(s for s in range(st.n) if not st.hands[s])
    points = sum(POINTS[st.card_of[h]] for hand in st.hands for h in hand)
    row = [0] * st.n
    row[winner] = points
    st.round_scores.append(row)
    st.scores[winner] += points
    opts = st.opts
    if opts.rounds:
        if len(st.round_scores) >= opts.rounds:
            best = max(st.scores)
            st.winners = [s for s in range(st.n) if st.scores[s] == best]
            st.phase = OVER
            return
    elif st.scores[winner] >= opts.target:
        st.winners = [winner]
        st.phase = OVER
        return
    st.first = (st.first + 1) % st.n  # the deal passes clockwise
    start_round(st)


def _flip(st: KatoState, handle: int, code: int) -> None:
    """The first card of the round is face up: apply its starting effect."""
    st.deck.pop()
    if RANK[code] == WILD4:
        # Buried under the pile, and the next card flipped: no reshuffle, so no position leaks.
        st.discard.insert(0, handle)
        st.requests.append(RevealToAll((st.deck[-1],)))
        return
    st.discard.append(handle)
    first = st.first
    st.phase = PLAY
    st.colour = COLOUR[code]
    r = RANK[code]
    if st.colour == NO_COLOUR:  # Wild or cone: the first player names the colour
        st.phase = COLOUR_CHOICE
        st.current = first
    elif r == SKIP:
        st.current = (first + 1) % st.n
    elif r == REVERSE:
        st.direction = -1
        st.current = (first - 1) % st.n  # the dealer plays first
    elif r == DRAW2:
        st.owed.append([first, 2])
        st.current = (first + 1) % st.n
    else:
        st.current = first


def _known(st: KatoState, handles: tuple[int, ...], cards: tuple[str, ...]) -> None:
    if len(cards) != len(handles):
        raise BadResult("one label per handle is needed")
    card_of = st.card_of
    for h, label in zip(handles, cards, strict=True):
        code = CODE.get(label)
        if code is None:
            raise BadResult(f"{excerpt(label)} is not a kato card")
        old = card_of.get(h)
        if old is not None and old != code:
            raise BadResult(f"card {h} is {LABEL[old]}, not {label}")
        card_of[h] = code


def resolve(st: KatoState, result: Result) -> None:
    """Fold in the result of the oldest pending request; raise ``BadResult`` if it is not the
    answer to that request (the state is then unchanged)."""
    answered("kato", st.requests, result)
    if isinstance(result, Dealt):
        if result.cards is not None:
            _known(st, result.handles, result.cards)
        deck = st.deck
        del deck[len(deck) - len(result.handles) :]
        st.hands[result.seat].extend(result.handles)
        owed = st.owed
        if owed and st.phase != SETUP:
            owed[0][1] -= len(result.handles)
            if st.phase == DRAWN and st.then == T_DRAWN:
                st.drawn = result.handles[-1]
    elif isinstance(result, Revealed):
        _known(st, result.handles, result.cards)
        if st.phase == SETUP:
            del st.requests[0]
            st.step += 1
            _flip(st, result.handles[0], st.card_of[result.handles[0]])
            if not st.requests:
                pump(st)
            return
    elif isinstance(result, Shuffled):
        if st.discard:  # a reshuffle: the old handles of the pile are retired
            top = st.discard[-1]
            for h in st.discard[:-1]:
                st.card_of.pop(h, None)
            st.discard = [top]
        st.deck = list(reversed(result.handles))
    elif isinstance(result, Shown):
        if result.cards is not None:
            _known(st, result.handles, result.cards)
        st.seen[result.to_seat].update(result.handles)
    elif isinstance(result, CoinResult):
        del st.requests[0]
        st.step += 1
        st.first = result.value
        start_round(st)
        return
    del st.requests[0]
    st.step += 1
    if not st.requests:
        pump(st)


def finish_round_if_empty(st: KatoState, seat: int) -> bool:
    """If ``seat`` has just emptied its hand, end the round (owed draws first); say so."""
    if st.hands[seat]:
        return False
    if st.total:
        # The last card was a Draw Two/Four: the next player draws the whole total (it counts).
        st.owed.append([st.current, st.total])
        st.total = 0
    st.pend = P_NONE
    st.kato = -1
    st.drawn = -1
    st.phase = SCORING
    st.then = T_SCORE
    return True


__all__ = ["COLOUR", "begin", "finish_round_if_empty", "next_seat", "pump", "resolve"]

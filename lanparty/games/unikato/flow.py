"""Unikato table flow: rounds, table requests and their results, the end of an action and of
a turn, display refills, blocked rounds and scoring.

Everything here runs inside ``resolve`` or at the end of ``apply``. It never looks at a tile
a copy does not know, so every copy asks for the same requests at the same time.
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
    Shuffle,
    Shuffled,
    excerpt,
)

from ..answers import answered
from .board import Board
from .state import (
    ACT,
    DISPLAY,
    DRAW,
    HAND,
    OVER,
    SETUP,
    T_END_ACTION,
    T_NONE,
    UnikatoState,
)
from .tiles import CODE, LABEL, N_TILES, bag_labels

BAG = "bag"
START: tuple[int, int] = (0, 0)
"""Where the starting tile lies."""


def begin(st: UnikatoState) -> None:
    """Queue the game's first requests: the coin for the first player, or round 1 at once."""
    if st.opts.first == "random":
        st.requests.append(JointCoin(st.n, "first"))
    else:
        st.first = 0  # the host starts
        start_round(st)


def start_round(st: UnikatoState) -> None:
    """Reset the round; queue one shuffle of all 81 tiles, a private deal of 10 per hand and
    the public reveal of the display (3) and the starting tile (the 4th handle)."""
    n = st.n
    st.phase = SETUP
    st.then = T_NONE
    st.current = st.first
    st.acts = 0
    st.bonus = False
    st.chain = []
    st.placed_turn = 0
    st.calm = 0
    st.calm_turn = False
    st.hands = [[] for _ in range(n)]
    st.numbers = [{} for _ in range(n)]
    st.card_of = {}  # last round's handles are retired
    st.handle_of = {}
    st.open = set()
    st.display = []
    st.placed = []
    st.board = Board()
    base = st.next_handle
    handles = tuple(range(base, base + N_TILES))
    st.next_handle = base + N_TILES
    st.requests.append(Shuffle(BAG, bag_labels(), handles))
    for seat in range(n):
        st.requests.append(Deal(BAG, seat, handles[seat * HAND : (seat + 1) * HAND]))
    shown = n * HAND
    st.requests.append(RevealToAll(handles[shown : shown + DISPLAY + 1]))
    st.bag = list(reversed(handles[shown + DISPLAY + 1 :]))


def learn(st: UnikatoState, handle: int, code: int) -> None:
    """Record that ``handle`` is tile ``code`` (both maps)."""
    st.card_of[handle] = code
    st.handle_of[code] = handle


def take_in(st: UnikatoState, seat: int, handles: tuple[int, ...] | list[int]) -> None:
    """Put ``handles`` into ``seat``'s hand, each with the lowest number the hand has free:
    several at once in the order of their tiles where this copy knows them (a deal reads in
    order), the unknown after them in handle order."""
    st.hands[seat].extend(handles)
    numbers = st.numbers[seat]
    used = set(numbers.values())
    free = (k for k in range(1, len(used) + len(handles) + 1) if k not in used)
    known = st.card_of
    for h in sorted(handles, key=lambda h: (known.get(h, N_TILES), h)):
        numbers[h] = next(free)


def give_up(st: UnikatoState, seat: int, handle: int) -> None:
    """Take ``handle`` out of ``seat``'s hand; its number is free again."""
    st.hands[seat].remove(handle)
    st.numbers[seat].pop(handle, None)
    st.open.discard(handle)


def _known(st: UnikatoState, handles: tuple[int, ...], cards: tuple[str, ...]) -> None:
    if len(cards) != len(handles):
        raise BadResult("one label per handle is needed")
    codes = []
    for h, label in zip(handles, cards, strict=True):
        code = CODE.get(label) if type(label) is str else None
        if code is None:
            raise BadResult(f"{excerpt(label)} is not a unikato tile")
        old = st.card_of.get(h)
        if old is not None and old != code:
            raise BadResult(f"tile {h} is {LABEL[old]}, not {label}")
        other = st.handle_of.get(code)
        if (other is not None and other != h) or code in codes:
            raise BadResult(f"tile {label} is already elsewhere")
        codes.append(code)
    for h, code in zip(handles, codes, strict=True):
        learn(st, h, code)


def resolve(st: UnikatoState, result: Result) -> None:
    """Fold in the result of the oldest pending request; raise ``BadResult`` if it is not the
    answer to that request (the state is then unchanged)."""
    answered("unikato", st.requests, result)
    if isinstance(result, Shuffled):
        pass  # the bag's handles stay as they were: nothing to fold in
    elif isinstance(result, Dealt):
        if result.cards is not None:
            _known(st, result.handles, result.cards)
        take_in(st, result.seat, result.handles)
    elif isinstance(result, Revealed):
        _known(st, result.handles, result.cards)
        if st.phase == SETUP:
            *shown, start = result.handles
            st.display.extend(shown)
            st.placed.append((*START, start))
            st.board.add(START, st.card_of[start])
            st.phase = ACT
            st.calm_turn = not st.bag
        else:  # a new display
            st.display.extend(result.handles)
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


def refill(st: UnikatoState) -> None:
    """If the display is empty and the bag is not, queue the reveal of a new display (3
    tiles, or what the bag still holds)."""
    if st.display or not st.bag or st.phase in (SETUP, OVER):
        return
    take = min(DISPLAY, len(st.bag))
    handles = tuple(st.bag[: -take - 1 : -1])
    del st.bag[-take:]
    st.requests.append(RevealToAll(handles))


def pump(st: UnikatoState) -> None:
    """With no request in flight: refill the display if due, then do what was waiting."""
    while not st.requests:
        refill(st)
        if st.requests:
            return
        then = st.then
        if then == T_NONE:
            return
        st.then = T_NONE
        if then == T_END_ACTION:
            end_action(st)
        else:
            next_turn(st)


def end_action(st: UnikatoState) -> None:
    """The current action is complete: on to the bonus action if one was earned by the first
    action, else to the end of the turn."""
    st.acts += 1
    st.chain = []
    st.phase = ACT
    if st.acts == 1 and st.bonus:
        return
    end_turn(st)


def end_turn(st: UnikatoState) -> None:
    """The actions are over: the end-of-turn draw if the hand is short and there is a tile to
    draw, else the next turn."""
    if len(st.hands[st.current]) < HAND and (st.display or st.bag):
        st.chain = []
        st.phase = DRAW
    else:
        next_turn(st)


def next_turn(st: UnikatoState) -> None:
    """Pass the turn clockwise, or end the round if it is blocked: every player in a row has
    had a turn that began with the bag empty and placed no tile."""
    if st.placed_turn:
        st.calm = 0
    elif st.calm_turn:
        st.calm += 1
    else:
        st.calm = 0
    if st.calm >= st.n:
        end_round(st, None)
        return
    refill(st)
    st.current = (st.current + 1) % st.n
    st.acts = 0
    st.bonus = False
    st.chain = []
    st.placed_turn = 0
    st.phase = ACT
    st.calm_turn = not st.bag


def end_round(st: UnikatoState, winner: int | None) -> None:
    """Score the round (-1 per tile left in a hand) and start the next one, or end the game.

    ``winner`` placed their last tile; ``None``: the round is blocked and the fewest tiles
    win it (ties share)."""
    sizes = [len(h) for h in st.hands]
    row = [-k for k in sizes]
    st.round_scores.append(row)
    for s in range(st.n):
        st.scores[s] += row[s]
    if winner is None:
        fewest = min(sizes)
        st.round_ends.append((1, *(s for s in range(st.n) if sizes[s] == fewest)))
    else:
        st.round_ends.append((0, winner))
    st.then = T_NONE
    st.chain = []
    if len(st.round_scores) >= st.opts.rounds:
        best = max(st.scores)
        st.winners = [s for s in range(st.n) if st.scores[s] == best]
        st.phase = OVER
        return
    st.first = (st.first + 1) % st.n  # the next round starts one seat further on
    start_round(st)


__all__ = [
    "BAG",
    "START",
    "begin",
    "end_action",
    "end_round",
    "end_turn",
    "give_up",
    "learn",
    "next_turn",
    "pump",
    "refill",
    "resolve",
    "start_round",
    "take_in",
]

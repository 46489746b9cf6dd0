"""What the table shows: whose turn, the view of one seat, the outcome, the audit."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    GameError,
    GameOver,
    Outcome,
    Plain,
    Status,
    TableOps,
    Turn,
    Violation,
    excerpt,
)

from .state import OVER, PHASE_NAMES, UnikatoState
from .tiles import CODE, LABEL

PASS_RULE = "pass-while-able-to-place"


def status(st: UnikatoState) -> Status:
    """Table requests first; else the current player's turn; else over."""
    if st.requests:
        return TableOps(tuple(st.requests))
    if st.phase == OVER:
        return GameOver(outcome(st))
    return Turn(st.current)


def outcome(st: UnikatoState) -> Outcome:
    """Totals (negative: -1 per tile left at each round's end), per-round scores and, once
    over, the winners (the highest total, i.e. the fewest negative points; ties share)."""
    return Outcome(
        totals=tuple(st.scores),
        rounds=tuple(tuple(r) for r in st.round_scores),
        winners=tuple(st.winners),
        finished=st.phase == OVER,
    )


def _pairs(st: UnikatoState, handles: list[int]) -> list[Plain]:
    card_of = st.card_of
    return [[h, LABEL[card_of[h]]] for h in handles]


def view(st: UnikatoState, seat: int | None) -> dict[str, Plain]:
    """Everything ``seat`` may know (``None``: a spectator). Built only from public fields
    plus ``seat``'s own hand, so it is equal in every copy that knows what ``seat`` knows."""
    card_of = st.card_of
    v: dict[str, Plain] = {
        "seat": seat,
        "players": st.n,
        "round": len(st.round_scores) + (st.phase != OVER),
        "rounds": st.opts.rounds,
        "phase": PHASE_NAMES[st.phase],
        "current": st.current,
        "first": st.first,
        "action": min(st.acts + 1, 2),
        "bonus": st.bonus,
        "chain": [list(c) for c in st.chain],
        "grid": [[x, y, LABEL[card_of[h]]] for x, y, h in st.placed],
        "display": _pairs(st, st.display),
        "bag": len(st.bag),
        "counts": [len(h) for h in st.hands],
        "open": [_pairs(st, [h for h in hand if h in st.open]) for hand in st.hands],
        "calm": st.calm,
        "scores": list(st.scores),
        "round_scores": [list(r) for r in st.round_scores],
        "round_ends": [{"blocked": bool(e[0]), "winners": list(e[1:])} for e in st.round_ends],
        "winners": list(st.winners),
    }
    if seat is not None:
        numbered = _numbered(st, seat)
        v["hand"] = _pairs(st, [h for _k, h in numbered])
        v["numbers"] = [k for k, _h in numbered]
    return v


def _numbered(st: UnikatoState, seat: int) -> list[tuple[int, int]]:
    """``seat``'s tiles as (number, handle), by number: each keeps the number it came in with
    (``state.numbers``); a tile with none (never so in play) takes the lowest free."""
    given = st.numbers[seat]
    hand = st.hands[seat]
    out = [(given[h], h) for h in hand if h in given]
    used = {k for k, _h in out}
    free = (k for k in range(1, len(hand) + len(used) + 1) if k not in used)
    out += [(next(free), h) for h in hand if h not in given]
    return sorted(out)


def audit(st: UnikatoState, cards: Mapping[int, str]) -> list[Violation]:
    """Judge every pass of the game with all tiles known (``cards``: handle → label).

    Names each pass made while a tile of the passer's hand fitted somewhere on the grid
    (``"pass-while-able-to-place"``, the passer's seat and the step of the pass). Raises
    ``GameError`` if a needed tile is missing from ``cards``."""
    out: list[Violation] = []
    for step, seat, hand, fits in st.passes:
        where = {code: (x, y) for code, x, y in fits}
        held = []
        for h in hand:
            label = cards.get(h)
            if label is None or label not in CODE:
                raise GameError(f"audit needs the identity of tile {h}, got {excerpt(label)}")
            cell = where.get(CODE[label])
            if cell is not None:
                held.append(f"{label} at {cell[0]}, {cell[1]}")
        if held:
            out.append(
                Violation(
                    step,
                    seat,
                    PASS_RULE,
                    f"seat {seat} passed while it could place {'; '.join(held)}",
                )
            )
    return out

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
)

from .cards import CODE, COLOUR, COLOURS, LABEL, NO_COLOUR
from .state import (
    OVER,
    P_NONE,
    PEND_NAMES,
    PHASE_NAMES,
    W_BY,
    W_COLOUR,
    W_HANDLES,
    W_SEAT,
    W_STEP,
    W_VERDICT,
    W_VSTEP,
    KatoState,
)


def status(st: KatoState) -> Status:
    """Table requests first; else the turn (with the KaTO call/catch racers); else over."""
    if st.requests:
        return TableOps(tuple(st.requests))
    if st.phase == OVER:
        return GameOver(outcome(st))
    if st.kato >= 0:
        cur = st.current
        return Turn(cur, tuple(s for s in range(st.n) if s != cur))
    return Turn(st.current)


def outcome(st: KatoState) -> Outcome:
    """Totals, per-round scores and, once over, the winners."""
    return Outcome(
        totals=tuple(st.scores),
        rounds=tuple(tuple(r) for r in st.round_scores),
        winners=tuple(st.winners),
        finished=st.phase == OVER,
    )


def view(st: KatoState, seat: int | None) -> dict[str, Plain]:
    """Everything ``seat`` may know (``None``: a spectator). Built only from public fields plus
    ``seat``'s own hand and the cards shown to it, so it is equal in every copy that knows
    what ``seat`` knows."""
    card_of = st.card_of
    top = st.discard[-1] if st.discard else -1
    colour = st.colour
    v: dict[str, Plain] = {
        "seat": seat,
        "players": st.n,
        "round": len(st.round_scores) + (st.phase != OVER),
        "phase": PHASE_NAMES[st.phase],
        "current": st.current,
        "direction": st.direction,
        "dealer": (st.first - 1) % st.n,
        "top": LABEL[card_of[top]] if top >= 0 else None,
        "colour": COLOURS[colour] if colour != NO_COLOUR else None,
        "pending": None
        if st.pend == P_NONE
        else {"kind": PEND_NAMES[st.pend], "total": st.total, "from": st.aggressor},
        "counts": [len(h) for h in st.hands],
        "deck": len(st.deck),
        "discard": len(st.discard),
        "kato": st.kato if st.kato >= 0 else None,
        "drawn": st.drawn if st.drawn >= 0 else None,
        "skips": list(st.skips),
        "scores": list(st.scores),
        "round_scores": [list(r) for r in st.round_scores],
        "winners": list(st.winners),
    }
    if st.showing >= 0:
        v["challenge"] = _challenge(st, seat)
    if seat is not None:
        v["hand"] = [(h, LABEL[card_of[h]]) for h in st.hands[seat]]
        seen = st.seen[seat]
        if seen:
            # Cards shown to this seat that are still hidden in another hand.
            v["known"] = [
                (h, LABEL[card_of[h]])
                for s, hand in enumerate(st.hands)
                if s != seat
                for h in hand
                if h in seen
            ]
    return v


def _challenge(st: KatoState, seat: int | None) -> dict[str, Plain]:
    """The challenge on show: who challenged whom, the colour that decides it, the verdict
    once announced, and (to the challenger, once shown) the hand's cards."""
    rec = st.wd4[st.showing]
    colour = rec[W_COLOUR]
    verdict = rec[W_VERDICT]
    out: dict[str, Plain] = {
        "by": rec[W_BY],
        "of": rec[W_SEAT],
        "colour": COLOURS[colour] if colour != NO_COLOUR else None,
        "verdict": None if verdict < 0 else ("guilty" if verdict else "innocent"),
    }
    handles = rec[W_HANDLES]
    if seat is not None and seat == rec[W_BY] and st.seen[seat].issuperset(handles):
        out["shown"] = [LABEL[st.card_of[h]] for h in handles]
    return out


def audit(st: KatoState, cards: Mapping[int, str]) -> list[Violation]:
    """Judge every Wild Draw Four of the game with all cards known (``cards``: handle → label).

    Names each unchallenged illegal one (``"illegal-wild-draw-four"``, the player's seat and
    the step of the play) and each challenge whose announced verdict was false
    (``"false-verdict"``, the challenger and the step of the verdict). Raises ``GameError`` if
    a needed card is missing from ``cards``."""
    out: list[Violation] = []
    for rec in st.wd4:
        held = []
        for h in rec[W_HANDLES]:
            label = cards.get(h)
            if label is None or label not in CODE:
                raise GameError(f"audit needs the identity of card {h}")
            if COLOUR[CODE[label]] == rec[W_COLOUR]:
                held.append(label)
        guilty = bool(held)
        colour = COLOURS[rec[W_COLOUR]] if rec[W_COLOUR] != NO_COLOUR else "-"
        if rec[W_VERDICT] < 0:
            if guilty:
                out.append(
                    Violation(
                        rec[W_STEP],
                        rec[W_SEAT],
                        "illegal-wild-draw-four",
                        f"seat {rec[W_SEAT]} played Wild Draw Four on colour {colour} "
                        f"holding {', '.join(held)}",
                    )
                )
        elif bool(rec[W_VERDICT]) != guilty:
            out.append(
                Violation(
                    rec[W_VSTEP],
                    rec[W_BY],
                    "false-verdict",
                    f"seat {rec[W_BY]} announced {'guilty' if rec[W_VERDICT] else 'innocent'} "
                    f"for the Wild Draw Four of step {rec[W_STEP]}",
                )
            )
    return out

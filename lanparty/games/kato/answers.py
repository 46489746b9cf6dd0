"""What may be played now: matching the top card, and answering a card aimed at you under
the ``stacking`` option and with reflecting cones."""

from __future__ import annotations

from .cards import COLOUR, CONE, DRAW2, IS_WILD, RANK, WILD4
from .state import P_DRAW, P_NONE, P_SKIP, P_W4, KatoState


def playable(st: KatoState, code: int) -> bool:
    """May ``code`` open a play now (given what the current seat faces)?"""
    pend = st.pend
    r = RANK[code]
    if pend == P_NONE:
        if IS_WILD[code] or COLOUR[code] == st.colour:
            return True
        top = st.card_of[st.discard[-1]]
        return r == RANK[top] and r < 13
    if r == CONE and st.reflect:
        return True  # a reflecting cone answers any effect aimed at you
    return pend != P_SKIP and r in stackable(st)


def stackable(st: KatoState) -> tuple[int, ...]:
    """The ranks that may go on the pending Draw Two/Four under the ``stacking`` option."""
    mode = st.opts.stacking
    if mode == "full":
        return (DRAW2, WILD4)
    if mode == "seed":
        if st.pend == P_W4:
            return (DRAW2, WILD4)  # a Draw Two of any colour, or another Wild Draw Four
        if on_draw_four(st):
            return (WILD4,)  # a Draw Two put on a Wild Draw Four takes only a Wild Draw Four
    return ()


def on_draw_four(st: KatoState) -> bool:
    """Does the pending Draw Two lie on a Wild Draw Four? Under ``seed`` stacking nothing goes
    on a lone Draw Two, so a pending total above 2 means a Wild Draw Four is under it."""
    return st.pend == P_DRAW and st.opts.stacking == "seed" and st.total > 2

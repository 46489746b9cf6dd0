"""Why a move is refused, in words a player understands: the situation, then what they can
do instead. Built from public state only, so every copy gives the same reason. Cards appear
as labels (``r7``); the UI turns them into names."""

from __future__ import annotations

from .answers import on_draw_four, stackable
from .cards import DRAW2, LABEL, NO_COLOUR, RANK, WILD4
from .state import DRAWN, P_DRAW, P_NONE, P_SKIP, P_W4, KatoState

_COLOUR_WORDS = ("red", "yellow", "green", "blue")
_RANK_WORDS = {10: "Skip", 11: "Reverse", 12: "Draw Two"}


def _either(options: list[str]) -> str:
    return options[0] if len(options) == 1 else f"{', '.join(options[:-1])}, or {options[-1]}"


def facing(st: KatoState) -> str:
    """What is aimed at the current seat, and every way it may deal with it."""
    if st.pend == P_SKIP:
        return "you are being skipped: send it back with a cone, or accept to miss your turn"
    cards = f"{st.total} cards"
    if st.pend == P_W4:
        what = f"a Wild Draw Four is waiting for you ({cards})"
    elif on_draw_four(st):
        what = f"a Draw Two on a Wild Draw Four is waiting for you ({cards})"
    else:
        what = f"a Draw Two is waiting for you ({cards})"
    options = []
    ranks = stackable(st)
    if ranks == (DRAW2, WILD4):
        options.append("play a Draw Two or a Wild Draw Four on it")
    elif ranks == (WILD4,):
        options.append("only a Wild Draw Four can go on it")
    if st.reflect:
        options.append("send it back with a cone")
    if st.pend == P_W4:
        options.append("challenge it")
    options.append(f"accept to draw the {cards}")
    return f"{what}: {_either(options)}"


def no_match(st: KatoState, code: int) -> str:
    """Why card ``code`` cannot be played now, and what could be."""
    label = LABEL[code]
    if st.pend != P_NONE:
        return f"{label} cannot answer it; {facing(st)}"
    other = "pass" if st.phase == DRAWN else "draw"
    colour = _COLOUR_WORDS[st.colour] if st.colour != NO_COLOUR else "the named colour"
    top = st.card_of[st.discard[-1]]
    if RANK[top] >= 13:  # a wild on top: only its named colour (or another wild) fits
        return (
            f"{label} does not match: the colour in play is {colour}; play a {colour} card or "
            f"a wild, or {other}"
        )
    rank = RANK[top]
    same = _RANK_WORDS.get(rank, str(rank))
    article = "an" if same == "8" else "a"
    return (
        f"{label} does not match {LABEL[top]}: play a {colour} card, {article} {same} or a wild, "
        f"or {other}"
    )


def not_now(st: KatoState, name: str) -> str:
    """Why ``draw``, ``pass``, ``accept`` or ``challenge`` cannot be made now."""
    drawn = st.phase == DRAWN
    instead = "play the card you drew or pass" if drawn else "play a card or draw"
    if st.pend != P_NONE:
        instead = facing(st)
    if name == "draw":
        return f"you have drawn already: {instead}" if drawn else instead
    if name == "pass":
        return f"you pass only after drawing a card; {instead}"
    if name == "accept":
        return f"nothing is aimed at you to accept: {instead}"
    if on_draw_four(st):
        return f"a Draw Two on a Wild Draw Four makes it unchallengeable; {instead}"
    if st.pend == P_DRAW:
        return f"only a Wild Draw Four can be challenged, not a Draw Two; {instead}"
    return f"there is no Wild Draw Four aimed at you to challenge: {instead}"


def colour_words() -> str:
    """The colours as a player names them."""
    return ", ".join(_COLOUR_WORDS[:-1]) + f" or {_COLOUR_WORDS[-1]}"


__all__ = ["colour_words", "facing", "no_match", "not_now"]

"""The rules engine's reasons for refusing a move, in the reader's language.

The engine says why in English (:mod:`.reasons`; every copy gives the same words, and they
stay out of what is shown to the other peers). The screen reads such a reason back against
the English templates below, translates the template and fills it with its parts, each
translated in turn: a card label named, a colour, a smaller sentence. A reason that does not
read as a whole is shown as the engine said it.
"""

from __future__ import annotations

from collections.abc import Callable

from lanparty.games.wording import read_back
from lanparty.i18n import N_, _, pgettext

__all__ = ["TEMPLATES", "translate"]

TEMPLATES = (
    N_("you are being skipped: send it back with a cone, or accept to miss your turn"),
    N_("a Wild Draw Four is waiting for you ({n} cards)"),
    N_("a Draw Two on a Wild Draw Four is waiting for you ({n} cards)"),
    N_("a Draw Two is waiting for you ({n} cards)"),
    N_("play a Draw Two or a Wild Draw Four on it"),
    N_("only a Wild Draw Four can go on it"),
    N_("send it back with a cone"),
    N_("challenge it"),
    N_("accept to draw the {n} cards"),
    N_("{label} cannot answer it; {facing}"),
    N_("{label} does not match: the colour in play is {colour}; play a {colour} card or a "
       "wild, or {other}"),
    N_("{label} does not match {top}: play a {colour} card, a {same} or a wild, or {other}"),
    N_("{label} does not match {top}: play a {colour} card, an {same} or a wild, or {other}"),
    N_("play the card you drew or pass"),
    N_("play a card or draw"),
    N_("you have drawn already: {instead}"),
    N_("you pass only after drawing a card; {instead}"),
    N_("nothing is aimed at you to accept: {instead}"),
    N_("a Draw Two on a Wild Draw Four makes it unchallengeable; {instead}"),
    N_("only a Wild Draw Four can be challenged, not a Draw Two; {instead}"),
    N_("there is no Wild Draw Four aimed at you to challenge: {instead}"),
    N_("wait a moment: the table is still dealing or showing cards"),
    N_("no KaTO call is due: it goes with the play that leaves you one card, or right after "
       "it before the next player acts"),
    N_("no KaTO call is due: it goes with the play that leaves you one card, or right after "
       "it before the next player acts; you hold {n} cards"),
    N_("you cannot catch yourself: call kato instead"),
    N_("nobody to catch: a player is caught after a play that leaves one card without KaTO, "
       "before the next player acts"),
    N_("the round starts on a wild: first name the colour ({colours})"),
    N_("the challenge is judged first: the verdict comes from the shown hand"),
    N_("the verdict is false: the shown hand is {verdict}"),
    N_("a colour is named with the wild you play, or when a round starts on one"),
    N_("there is no challenge to judge"),
    N_("it is not your turn: the challenged hand is being judged"),
    N_("it is not your turn"),
    N_("it is not your turn (only kato or catch may be played out of turn)"),
    N_("card {card} is not in your hand"),
    N_("you have drawn: only the card you drew may be played now, or pass"),
    N_("one card at a time at this table (option multi_play is off)"),
    N_("several cards at once cannot answer it; {facing}"),
    N_("several cards at once must be number cards of one number"),
    N_("a wild names the next colour: {colours}"),
    N_("only a wild names a colour (use '')"),
    N_("only 'kato' may follow the cards of a play"),
    N_("KaTO is called with the play that leaves you one card; this one leaves {n}"),
    # Sentences made of smaller ones: what is aimed at you, then every way out of it.
    N_("{what}: {options}"),
    N_("{first}, or {last}"),
    N_("{first}, {rest}"),
)
"""Every reason the engine gives a player, as English templates (the msgids)."""

_KEPT = frozenset({"n", "card", "colours"})  # numbers, and the words typed in commands


def _word(field: str, value: str, card_name: Callable[[str], str]) -> str | None:
    """A field that is one word or a card, translated; ``None`` if it is not one."""
    if field in ("label", "top"):
        return card_name(value)
    if field == "colour":
        words = {"red": _("red"), "yellow": _("yellow"), "green": _("green"), "blue": _("blue"),
                 "the named colour": _("the named colour")}  # fmt: skip
        return words.get(value)
    if field == "same":
        ranks = {"Skip": _("Skip"), "Reverse": _("Reverse"), "Draw Two": _("Draw Two")}
        return ranks.get(value, value if value.isdigit() else None)
    if field == "other":
        return {"pass": pgettext("instead", "pass"), "draw": pgettext("instead", "draw")}.get(
            value
        )
    if field == "verdict":
        return {"guilty": _("guilty"), "innocent": _("innocent")}.get(value)
    return None


def translate(reason: str, card_name: Callable[[str], str]) -> str | None:
    """``reason`` in the current language, its cards named with ``card_name``; ``None`` if
    it does not read as one of :data:`TEMPLATES` all through."""

    def said(field: str, value: str) -> str | None:
        out = value if field in _KEPT else _word(field, value, card_name)
        if field == "colours":  # the words as typed, joined in the reader's words
            out = value.replace(" or ", " " + pgettext("list", "or") + " ")
        if out is None and field not in ("label", "top", "colour", "same", "other"):
            out = translate(value, card_name)
        return out

    return read_back(reason, TEMPLATES, said)

"""Kill the Unicorns' rules engine's reasons for refusing a move, in the reader's language.

The engine says why in English (:mod:`.rules`, :mod:`.game`; every copy gives the same words).
The screen reads such a reason back against the English patterns below, translates the
pattern and fills it with its parts, each in the reader's words where it is one (a colour, a
market item, hunt card values, what the table waits for); what a player typed or the
protocol sent (a handle, a quoted value) is shown as it is. A reason that does not read as a
whole is left to the English wording of :func:`.screen.humanize`.

:data:`TEMPLATES` are the patterns that are their own msgids; :data:`SAID` maps the others (a
count to agree with, or words that read better another way) to their translation.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lanparty.games.wording import read_back
from lanparty.i18n import N_, _, ngettext, pgettext

from .names import CHARACTER_NAMES, character_name, colour_name, item_name

__all__ = ["ENGINE", "SAID", "TEMPLATES", "template_in_language", "translate"]

TEMPLATES = (
    N_("a move is a tuple starting with its name"),
    N_("there is no seat {seat}"),
    N_("the table is busy dealing or revealing; wait for it"),
    N_("the game is over"),
    N_("unknown move {move}"),
    N_("not now: you are to {ask}"),
    N_("name a character: {characters}"),
    N_("the {character} is taken: choose one nobody has"),
    N_("plant as ('plant', keep, unicorn, discard, label)"),
    N_("keep one of the two schemes you drew today and discard the other"),
    N_("{unicorn} is not a unicorn in today's row"),
    N_("that unicorn already holds two schemes"),
    N_("in expert games the discarded scheme stays face down (label '')"),
    N_("name the discarded scheme: {label} is not one"),
    N_("the discarded scheme is not {label}"),
    N_("a hunt takes 1 to {max} cards, not {count}"),
    N_("nobody has started this hunt: hunt with 1 to 3 cards, or pass"),
    N_("lay your hunt cards as ('cards', (values...))"),
    N_("list your hunt cards lowest first"),
    N_("you do not hold the hunt cards {values}"),
    N_("only the Princess peeks, once a day, when powers are on"),
    N_("{scheme} is not a face-down scheme on the row"),
    N_("that scheme is yours: peek at someone else's"),
    N_("you have already seen that scheme"),
    N_("only the Shaman moves a scheme, once a day, when powers are on"),
    N_("move a scheme as ('shift', scheme, unicorn)"),
    N_("move it to another unicorn of the row still to be hunted"),
    N_("{scheme} is not a scheme on the hunted unicorn"),
    N_("give one of the unicorns you had before this hunt"),
    N_("name a colour: {colours}"),
    N_("take back one of the hunt cards you played in this hunt"),
    N_("the market sells {items}, not {given}"),
    N_("no {item} token is left"),
    N_("{unicorn} is not one of your unicorns"),
    N_("name the new colour: {colours}"),
    N_("that unicorn is {colour} already"),
    N_("pay with hunt card values, lowest first"),
    N_("a {item} costs {cost}; {values} is not enough"),
    N_("pay no card more than needed for the {cost} a {item} costs"),
)
"""The engine's reasons that are msgids as they are."""

SAID: dict[str, Callable[[int], str]] = {
    "{name} takes {n} argument(s)": lambda n: ngettext(
        "{name} takes {n} argument", "{name} takes {n} arguments", n),
    "this hunt is under way with {n} card(s): join or pass": lambda n: ngettext(
        "this hunt is under way with {n} card: join or pass",
        "this hunt is under way with {n} cards: join or pass", n),
    "you hold only {n} hunt card(s)": lambda n: ngettext(
        "you hold only {n} hunt card", "you hold only {n} hunt cards", n),
    "joining takes {n} hunt cards and you hold fewer: pass": lambda n: ngettext(
        "joining takes {n} hunt card and you hold fewer: pass",
        "joining takes {n} hunt cards and you hold fewer: pass", n),
    "this hunt takes exactly {n} card(s)": lambda n: ngettext(
        "this hunt takes exactly {n} card", "this hunt takes exactly {n} cards", n),
    "it is not your turn: seat {seat} is to {ask}": lambda n: _(
        "it is not your turn: another player is to {ask}"),
    "a {item} changes no colour (use '')": lambda n: _("{item} changes no colour"),
}  # fmt: skip
"""The engine's reasons whose translation is told otherwise: by a count ``{n}`` (a Polish
count has three forms), or in other words (another seat as "another player")."""

ENGINE = (*TEMPLATES, *SAID)
"""Every reason the engine gives, as a pattern (``{field}``: a part that varies; a count's
noun as ``card(s)``: the engine says ``1 card``, ``2 cards``, as older programs said
``card(s)``)."""
_PLURALS = {template.replace("(s)", s): template for template in SAID if "(s)" in template
            for s in ("", "s")}  # fmt: skip
"""Each counted pattern as the engine says it now (``1 card``, ``2 cards``), by its
pattern in :data:`ENGINE`."""

_ASK = {
    "choose a character": N_("choose a character"),
    "plant a scheme": N_("plant a scheme"),
    "hunt, join or pass": N_("hunt, join or pass"),
    "lay hunt cards face down": N_("lay hunt cards face down"),
    "open hunt cards": N_("open hunt cards"),
    "boost or decline": N_("boost or decline"),
    "choose the scheme to reveal": N_("choose the scheme to reveal"),
    "give a unicorn": N_("give a unicorn"),
    "name a colour": N_("name a colour"),
    "recall a hunt card or decline": N_("recall a hunt card or decline"),
    "buy or decline": N_("buy or decline"),
    "wait": N_("wait"),
}
"""What the table waits for (the engine's ``_ASK`` words), said after "is to"."""

_VALUES = re.compile(r"\((\d+(?:, \d+)*),?\)|\(\)")
_KEPT = frozenset({"seat", "move", "unicorn", "label", "max", "count", "scheme", "colours",
                   "items", "given", "cost", "value", "name", "n", "characters"})  # fmt: skip
"""Parts shown as the engine gave them: numbers, handles, quoted input, typed words."""


def template_in_language(template: str, n: int = 2) -> str:
    """The engine pattern ``template`` (one of :data:`ENGINE`) in the current language, for
    a count of ``n``; ``KeyError`` if it is none of them."""
    if template in SAID:
        return SAID[template](n)
    if template not in TEMPLATES:
        raise KeyError(template)
    return _(template)


def _values(text: str) -> str | None:
    """``"(3, 1)"`` → ``"3 and 1"`` in the reader's words; ``"()"`` → no cards."""
    m = _VALUES.fullmatch(text)
    if m is None:
        return None
    if m.group(1) is None:
        return _("no cards")
    said = ""
    for value in m.group(1).split(", "):
        said = _("{first} and {last}").format(first=said, last=value) if said else value
    return said


def _part(field: str, value: str) -> str | None:
    """A part of a reason in the reader's words; ``None`` if it is not one the field takes."""
    if field in _KEPT:
        return value
    if field == "ask":
        return _(_ASK[value]) if value in _ASK else None
    if field == "item":
        return item_name(value, False)
    if field == "character":
        return character_name(value, False) if value in CHARACTER_NAMES else None
    if field == "colour":
        return colour_name(value)
    if field == "values":
        return _values(value)
    if field == "kind":
        kinds = {"int": pgettext("where it goes", "a number"),
                 "str": pgettext("where it goes", "a word")}  # fmt: skip
        return kinds.get(value)
    return None


def translate(reason: str) -> str | None:
    """``reason`` in the current language; ``None`` if it does not read as one of
    :data:`ENGINE` all through."""

    def say(template: str, values: dict[str, str]) -> str:
        n = int(values["n"]) if values.get("n", "").isdigit() else 2
        return template_in_language(_PLURALS.get(template, template), n).format(**values)

    return read_back(reason, (*ENGINE, *_PLURALS), _part, say=say)

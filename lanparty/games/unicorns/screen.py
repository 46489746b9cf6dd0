"""Kill the Unicorns on the screen: the day's row with its face-down schemes, the hunt in
progress, every player's character, hunt cards, score and collection, the black market, and
your own hunt cards, drawn schemes and peeks, as pure functions of one seat's view
(:class:`lanparty.games.screens.GameScreen`; no prompt-toolkit here). Spanish names of the box
stand beside the English ones. The commands are in :mod:`.commands`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.games.narration import capital
from lanparty.games.screens import Fragments, gather_screen, player_name, view_seat
from lanparty.i18n import N_, _, ngettext
from lanparty.text import printable
from protocol.contract import Plain

from . import commands, whole
from .cards import TROJAN
from .commands import command_for
from .names import aside, item_name, scheme_name
from .parts import fit, hand, table
from .refusals import translate

__all__ = ["SCREEN", "STYLES", "command_for", "final", "fit", "hand", "humanize", "prompt",
           "table"]

STYLES = {
    "u.pink": "bold ansibrightmagenta",
    "u.blue": "bold ansibrightblue",
    "u.green": "bold ansigreen",
    "u.yellow": "bold ansiyellow",
    "u.none": "bold",
    "scheme": "ansicyan",
    "facedown": "ansigray",
    "mine": "bold ansicyan",
    "sealed": "bold ansimagenta",
    "win": "bold ansigreen",
    "out": "ansired",
}

_PROMPTS = {
    "character": N_("choose your character (character NAME)> "),
    "trap": N_("plant a scheme (plant SCHEME N)> "),
    "bid": N_("hunt N, join or pass> "),
    "commit": N_("lay your hunt cards face down (cards A B)> "),
    "knight": N_("Knight: boost or decline> "),
    "choose": N_("choose the scheme to turn over (reveal a|b)> "),
    "give": N_("{trojan}: give one of your unicorns (give N)> "),
    "colour": N_("Chameleon: name the colour> "),
    "wizard": N_("Wizard: recall a hunt card or decline> "),
    "market": N_("black market: buy or decline> "),
}


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What is asked now, with the shape of the command."""
    asked = _PROMPTS.get(str(view.get("phase")))
    return _(asked).format(trojan=scheme_name(TROJAN, False)) if asked else _("your move> ")


_SEAT = re.compile(r"seat \d+ is to")
_TUPLE = re.compile(r"\((\d+(?:, \d+)*),?\)")
_ITEM = re.compile(r"\b(butcher|horn|candy|dust)\b")


def humanize(reason: str) -> str:
    """An engine reason in the player's words: another seat named as "another player", hunt
    card tuples as values, market items by name; in another language than English, the
    reason translated (:mod:`.refusals`) where it reads as one the engine gives."""
    said = translate(reason)  # in English too: its counts agree ("1 card", never "card(s)")
    if said is not None:
        return said
    reason = _SEAT.sub("another player is to", reason)
    reason = _TUPLE.sub(lambda m: " and ".join(m.group(1).split(", ")), reason)
    reason = reason.replace(" (use '')", "")
    return _ITEM.sub(lambda m: item_name(m.group(1), False), reason)


def and_list(words: Sequence[str]) -> str:
    """``["you", "Bea", "Carl"]`` → ``"you and Bea and Carl"`` (as English always said it)."""
    said = words[0] if words else ""
    for word in words[1:]:
        said = _("{first} and {last}").format(first=said, last=word)
    return said


def final(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The gnomes' buying: every player's score, gained day by day, their unicorns and who
    won (a double rainbow said as such); nothing for a game that did not end (its table
    stopped: there is no result)."""
    if view.get("phase") != "over":
        return []
    me = view_seat(view)
    scores, winners = _list(view.get("scores")), _list(view.get("winners"))
    standings = _list(view.get("standings"))
    colls = _list(view.get("collections"))
    out: Fragments = [("class:title", _("Final scores")), ("", "\n")]
    for s in sorted(range(len(scores)), key=lambda s: (-int(scores[s]), s)):
        mark = "★ " if s in winners else "  "
        days = " ".join(f"{_list(d)[s]!s:>3}" for d in standings)
        count = len(_list(colls[s])) if s < len(colls) else 0
        tail = ngettext("by day: {days}  ·  {n} unicorn", "by day: {days}  ·  {n} unicorns",
                        count).format(days=days, n=count) + "\n"  # fmt: skip
        out += [("class:turn" if s in winners else "", f"{mark}{player_name(names, s, me):<16} "),
                ("", f"{scores[s]!s:>5}  "), ("class:dim", tail)]  # fmt: skip
    if winners:
        who = [_("you") if s == me else printable(names[int(s)]) for s in winners]
        won = and_list(who)
        rainbow = double_rainbow(view, winners)
        if winners == [me]:
            said = (_("You win the game with a double rainbow{aside}!") if rainbow
                    else _("You win the game!"))  # fmt: skip
        elif len(winners) == 1:
            said = (_("{names} wins the game with a double rainbow{aside}!") if rainbow
                    else _("{names} wins the game!"))  # fmt: skip
        else:
            said = (_("{names} win the game with a double rainbow{aside}!") if rainbow
                    else _("{names} win the game!"))  # fmt: skip
        said = said.format(names=won, aside=aside("double rainbow"))
        if winners[0] == me:  # "you and Bea win…" begins a sentence; a name stays as it is
            said = capital(said)
        out.append(("class:title", f"{said}\n"))
    return out


def double_rainbow(view: Mapping[str, Plain], seats: Sequence[object]) -> bool:
    """Whether one of ``seats`` holds two unicorns of every colour."""
    colls = _list(view.get("collections"))
    for s in seats:
        if not isinstance(s, int) or s >= len(colls):
            continue
        colours = [u.get("colour") for u in _list(colls[s]) if isinstance(u, dict)]
        if all(colours.count(c) >= 2 for c in ("pink", "blue", "green", "yellow")):
            return True
    return False


SCREEN = gather_screen(__name__, commands, whole)
"""The game's screen (its plugin gives it to the terminal UI)."""

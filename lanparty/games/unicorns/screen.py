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
from protocol.contract import Move, Plain

from . import commands
from .board import characters, market, players, unicorn_style
from .cards import ITEMS, TROJAN
from .commands import SLOTS, command_for
from .names import (
    aside,
    item_name,
    scheme_effect,
    scheme_name,
    unicorn_name,
)
from .refusals import translate

__all__ = ["SCREEN", "STYLES", "final", "hand", "humanize", "prompt", "table"]

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


def _int(value: object, default: int = -1) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _label_colour(label: object) -> str | None:
    if not isinstance(label, str) or label == "legendary":
        return None
    return label[6:] if label.startswith("start-") else label.split("-", 1)[0]


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The day, the first player and the black market's tokens; a line per player:
    character and power (• ready, ✓ used today), hunt cards in hand, points, place in the
    hunt, and the unicorns with every bonus that makes up the points (:func:`.board.players`);
    then the hunt in progress over the row of unicorns with their scheme slots (yours marked,
    the others' face down, a peeked one named). Before day 1, the characters to choose
    instead of the row; at the black market, its prices."""
    width = max(width, 30)
    # On a short terminal the board gives way from the top: the row and the hunt, nearest
    # the prompt, stay longest.
    out = _header(view, names, width)
    out += players(view, names, width)
    phase = view.get("phase")
    if phase == "character":
        out += characters(view, names, width)
    elif phase == "market":
        out += market(view, width)
    else:
        out += _row(view, names, width)
    return fit(out, width)


def fit(fragments: Fragments, width: int) -> Fragments:
    """``fragments`` with every line cut to ``width`` columns (a cut line ends with "…")."""
    out: Fragments = []
    column = 0
    for style, text in fragments:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append(("", "\n"))
                column = 0
            room = width - column
            if len(part) > room:
                part = part[: max(0, room - 1)] + "…" if room > 0 else ""
            if part:
                out.append((style, part))
            column += len(part)
    return out


def _header(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    me = view_seat(view)
    day, days = _int(view.get("day"), 0), _int(view.get("days"), 4)
    title = _("Day {day}/{days}").format(day=day, days=days)
    out: Fragments = [("class:title", title), ("class:dim", aside("day", day))]
    if view.get("phase") == "setup":
        return [*out, ("class:dim", _("  ·  unicorns and schemes are shuffled and dealt…") + "\n")]
    if view.get("phase") == "character":
        out = [("class:title", _("Before day 1")),
               ("", _(" · first player: {name}").format(
                   name=player_name(names, _int(view.get("first"), 0), me))),
               ("class:dim", _(" · characters are chosen")), ("", "\n")]  # fmt: skip
        return out
    first = player_name(names, _int(view.get("first"), 0), me)
    said = _(" · first player: {name}").format(name=first)
    out.append(("", said))
    market = view.get("market")
    if isinstance(market, dict):
        used = len(title + aside("day", day) + said)
        stock = " ".join(f"{i} {market.get(i)!s}" for i in ITEMS)
        style = "class:turn" if view.get("phase") == "market" else ""
        out += [("", " · "), (style, _("market")), ("class:dim", aside("market")),
                ("", f": {stock}"[: max(0, width - used - 24)])]  # fmt: skip
    out.append(("", "\n"))
    return out


def _row(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    row = [e for e in _list(view.get("row")) if isinstance(e, dict)]
    hunt = view.get("hunt")
    hunted = hunt.get("unicorn") if isinstance(hunt, dict) else None
    out: Fragments = [("class:title", _("Row")), ("class:dim", aside("row"))]
    if width < 84:
        out.append(("class:dim", _(", schemes face down")))
    if isinstance(hunt, dict):
        bid = _int(hunt.get("bid"), 0)
        what = (ngettext("{n} hunt card each", "{n} hunt cards each", bid).format(n=bid) if bid
                else _("not opened yet"))  # fmt: skip
        if hunted not in [e["unicorn"] for e in row]:
            what += _(", settled")
        out += [("", " · "), ("class:title", _("hunt")), ("class:dim", aside("hunt")),
                ("", _(" of {unicorn}: {what}").format(unicorn=_name_of(view, hunted),
                                                        what=what))]  # fmt: skip
    out.append(("", "\n"))
    if not row:
        out += [("class:dim", _("  (every unicorn of the day has been hunted)")), ("", "\n")]
    me = view_seat(view)
    peeked = {int(h): label for h, label in _list(view.get("peeked"))}
    for i, entry in enumerate(row, 1):
        label = entry.get("label")
        marker = "▶ " if entry["unicorn"] == hunted else "  "
        out += [("class:turn" if marker.strip() else "", f"{marker}{i} "),
                (unicorn_style(_label_colour(label)), f"{unicorn_name(label):<18}"),
                ("class:dim", f"{_coins(label):>8}")]  # fmt: skip
        schemes = _list(entry.get("schemes"))
        if not schemes:
            out.append(("class:dim", _("   no scheme")))
        down = _(", face down") if width >= 84 else ""  # narrower: the board says it once
        for k, (h, owner) in enumerate(schemes):
            out.append(("", f"   {i}{SLOTS[k]}: "))
            if owner == me:
                out.append(("class:mine", _("yours") + down))
            elif peeked.get(h):
                out.append(("class:scheme", _("{name}'s {scheme}").format(
                    name=names[owner], scheme=scheme_name(peeked[h], False))))  # fmt: skip
                out.append(("class:dim", _(" (peeked)")))
            else:
                out.append(("class:facedown", _("{name}'s").format(name=names[owner]) + down))
        out.append(("", "\n"))
    return out


def _coins(label: object) -> str:
    if not isinstance(label, str):
        return ""
    if label == "legendary":
        value = 5
    else:
        value = 1 if label.startswith("start-") else int(label.rsplit("-", 1)[1])
    return ngettext("{n} coin", "{n} coins", value).format(n=value)


def _name_of(view: Mapping[str, Plain], unicorn: object) -> str:
    """A unicorn of the row or of a collection by name ("the unicorn that escaped" if it
    is in neither)."""
    for e in _list(view.get("row")):
        if isinstance(e, dict) and e.get("unicorn") == unicorn:
            return unicorn_name(e.get("label"))
    for coll in _list(view.get("collections")):
        for u in _list(coll):
            if isinstance(u, dict) and u.get("unicorn") == unicorn:
                return unicorn_name(u.get("label"), u.get("colour"))
    return _("the unicorn that escaped")


def hand(view: Mapping[str, Plain], width: int = 80, legal: Sequence[Move] = ()) -> Fragments:
    """Your hunt cards, the schemes you drew today (with what each does), the schemes you
    peeked at (seen by you alone), and what you may do now; nothing for no seat."""
    me = view_seat(view)
    if view.get("phase") in ("setup", None) or me is None:
        return []
    if view.get("phase") == "character":
        return fit(_now(view, legal, width), width) if legal else []
    hands = _list(view.get("hands"))
    cards = " ".join(str(v) for v in _list(hands[me] if me < len(hands) else []))
    out: Fragments = [
        ("class:title", _("Your hunt cards")),
        ("class:dim", aside("hunt cards")),
        ("", f": {cards or _('none left')}\n"),
    ]
    drawn = _list(view.get("my_drawn"))
    if drawn:
        head = _("Your schemes{aside}: ").format(aside=aside("schemes"))
        for k, (_h, label) in enumerate(drawn):
            lead = [("class:title", head)] if not k else [("", " " * len(head))]
            effect = f": {scheme_effect(str(label), short=True)}"
            out += [*lead, ("class:index", f"{label} = "),
                    ("class:scheme", scheme_name(str(label))), ("class:dim", effect),
                    ("", "\n")]  # fmt: skip
    peeked = [(int(h), label) for h, label in _list(view.get("peeked")) if label]
    for h, label in peeked:
        ref = _ref(view, h)
        out += [("class:title", _("Peeked, seen by you alone: ")),
                ("class:scheme", _("{ref} is {scheme}").format(ref=ref,
                                                               scheme=scheme_name(str(label)))),
                ("class:dim", f" {scheme_effect(str(label))}\n")]  # fmt: skip
    if legal:
        out += _now(view, legal, width)
    return fit(out, width)


def _ref(view: Mapping[str, Plain], scheme: int) -> str:
    for i, e in enumerate(_list(view.get("row")), 1):
        for k, (h, _o) in enumerate(_list(e.get("schemes"))):
            if h == scheme:
                return f"{i}{SLOTS[k]}"
    return "?"


def _now(view: Mapping[str, Plain], legal: Sequence[Move], width: int) -> Fragments:
    """What may be typed now: each kind of command once, with its forms if they are few."""
    forms: dict[str, list[str]] = {}
    for move in legal:
        text = command_for(move, view)[0]
        head, _sep, rest = text.partition(" ")
        forms.setdefault(head, []).append(rest)
    parts = []
    for head, rests in forms.items():
        rests = [r for r in rests if r]
        if not rests:
            parts.append(head)
        elif len(rests) <= 4:
            parts.append(f"{head} {'|'.join(rests)}")
        else:
            ways = ngettext("({n} way)", "({n} ways)", len(rests)).format(n=len(rests))
            firsts = list(dict.fromkeys(r.split()[0] for r in rests))  # what comes first
            said = "|".join(firsts) + " …" if len(firsts) <= len(ITEMS) else "…"
            parts.append(f"{head} {said} {ways}")
    line = _("You may: ") + " · ".join(parts)
    return [("class:index.playable", line[:width]), ("", "\n")]


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
    won (a double rainbow said as such)."""
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


SCREEN = gather_screen(__name__, commands)
"""The game's screen (its plugin gives it to the terminal UI)."""

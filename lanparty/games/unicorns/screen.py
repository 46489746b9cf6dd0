"""Kill the Unicorns on the screen: the day's row with its face-down schemes, the hunt in
progress, every player's character, hunt cards, score and collection, the black market, and
your own hunt cards, drawn schemes and peeks, as pure functions of one seat's view
(:class:`lanparty.ui.base.GameScreen`; no prompt-toolkit here). Spanish names of the box
stand beside the English ones. The commands are in :mod:`.commands`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.i18n import N_, _, language, ngettext
from lanparty.text import printable
from lanparty.ui.base import Fragments, player_name, view_seat
from protocol.contract import Move, Plain

from .cards import ITEMS, KNIGHT_BONUS
from .commands import ALIASES, HELP, SLOTS, command_for, parse
from .names import (
    aside,
    character_name,
    item_name,
    scheme_effect,
    scheme_name,
    unicorn_name,
)
from .refusals import translate

__all__ = ["SCREEN", "STYLES", "UnicornsScreen", "final", "hand", "humanize", "prompt", "table"]

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
    "trap": N_("plant a scheme (plant SCHEME N)> "),
    "bid": N_("hunt N, join or pass> "),
    "commit": N_("lay your hunt cards face down (cards A B)> "),
    "knight": N_("Knight: boost or decline> "),
    "choose": N_("choose the scheme to turn over (reveal a|b)> "),
    "give": N_("Trojan: give one of your unicorns (give N)> "),
    "colour": N_("Chameleon: name the colour> "),
    "wizard": N_("Wizard: recall a hunt card or decline> "),
    "market": N_("black market: buy or decline> "),
}


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _int(value: object, default: int = -1) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def unicorn_style(colour: object) -> str:
    """The style of a unicorn of ``colour`` (``None``: no colour, a Legendary)."""
    return f"class:u.{colour}" if isinstance(colour, str) else "class:u.none"


def _label_colour(label: object) -> str | None:
    if not isinstance(label, str) or label == "legendary":
        return None
    return label[6:] if label.startswith("start-") else label.split("-", 1)[0]


def hunt_cell(view: Mapping[str, Plain], seat: int) -> tuple[str, str]:
    """``(style, text)``: where ``seat`` stands in the hunt in progress (sealed cards show
    as boxes; opened ones with their total; the winner starred)."""
    hunt = view.get("hunt")
    if not isinstance(hunt, dict):
        return "", ""
    bid = _int(hunt.get("bid"), 0)
    cards = _list(hunt.get("cards"))
    mine = [int(v) for v in _list(cards[seat])] if seat < len(cards) else []
    totals = {int(s): int(t) for s, t in _list(hunt.get("totals"))}
    if seat in _list(hunt.get("takers")):
        if mine:
            parts = "+".join(map(str, mine))
            if hunt.get("boost") == seat:
                parts += f"+{KNIGHT_BONUS}"
            boosted = hunt.get("boost") == seat
            total = totals.get(seat, sum(mine) + (KNIGHT_BONUS if boosted else 0))
            text = f"{parts}={total}" if len(mine) > 1 or boosted else str(total)
            if hunt.get("winner") == seat:
                return "class:win", f"{text} ★"
            if totals and list(totals.values()).count(total) > 1:
                return "class:out", text + _(" tie")
            return "", text
        if seat in _list(hunt.get("sealed")):
            return "class:sealed", "■" * bid + _(" sealed")
        return "class:sealed", _("laying {n}…").format(n=bid)
    if seat in _list(hunt.get("passed")):
        return "class:dim", _("passed")
    if view.get("current") == seat and view.get("phase") == "bid":
        return "class:turn", _("deciding…")
    return "", ""


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The day, the first player and the black market's tokens; a line per player:
    character and power (• ready, ✓ used today), hunt cards in hand, score, place in the
    hunt, and collection (wrapped under it when it does not fit); then the hunt in progress
    over the row of unicorns with their scheme slots (yours marked, the others' face down,
    a peeked one named)."""
    width = max(width, 30)
    # On a short terminal the board gives way from the top: the row and the hunt, nearest
    # the prompt, stay longest.
    out = _header(view, names, width)
    out += _players(view, names, width)
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


def _players(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    me = view_seat(view)
    chars, powers, used = (_list(view.get(k)) for k in ("characters", "powers", "used"))
    hands, scores = _list(view.get("hands")), _list(view.get("scores"))
    colls, pates = _list(view.get("collections")), _list(view.get("pates"))
    current = view.get("current")
    seats = range(len(scores))
    name_w = min(max(len(player_name(names, s, me)) for s in seats), max(width // 6, 6))
    hunting = isinstance(view.get("hunt"), dict)
    out: Fragments = []
    for s in seats:
        turn = s == current
        who = player_name(names, s, me)[:name_w]
        char = character_name(chars[s] if s < len(chars) else None)
        power = "" if s >= len(powers) or not powers[s] else (" ✓" if used[s] else " •")
        cards = " ".join(str(v) for v in _list(hands[s] if s < len(hands) else []))
        line = f"{'▶ ' if turn else '  '}{who:<{name_w}} {char + power:<22}{cards:<16}"
        line += f"{scores[s]!s:>3}" + _(" pts")
        out.append(("class:turn" if turn else "", line[:width]))
        column = len(line)
        if hunting:
            style, cell = hunt_cell(view, s)
            cell = f" {cell:<11}"[: max(0, width - column)]
            out.append((style, cell))
            column += len(cell)
        coll = [u for u in _list(colls[s] if s < len(colls) else []) if isinstance(u, dict)]
        pate = _int(pates[s] if s < len(pates) else 0, 0)
        out += _collection(coll, pate, s == me, width, column)
    return out


def _collection(
    coll: list[dict[str, Any]], pates: int, mine: bool, width: int, column: int
) -> Fragments:
    """One player's unicorns (numbered for the seat itself) from ``column`` on, wrapped
    onto indented lines when they do not fit."""
    items: list[Fragments] = []
    for i, u in enumerate(coll, 1):
        extras = [item_name(str(t), False) for t in _list(u.get("tokens"))]
        if u.get("scheme"):
            extras.append(scheme_name(str(u["scheme"]), False))
        tail = f" [{', '.join(extras)}]" if extras else ""
        cell: Fragments = [("class:index", f"{i}:")] if mine else []
        cell += [(unicorn_style(u.get("colour")), unicorn_name(u.get("label"), u.get("colour"))),
                 ("", f"{tail} ={u.get('worth')!s}")]  # fmt: skip
        items.append(cell)
    if pates:
        items.append([("", _("Pâté") + f" ×{pates} ={3 * pates}")])
    if not items:
        items.append([("class:dim", _("no unicorn"))])
    indent = 6
    first = sum(len(t) for _, t in items[0]) + 3
    out: Fragments = []
    if column + first <= width:
        out.append(("class:dim", " │ "))
        column += 3
    else:  # not even the first fits beside the player: all go under the line
        out.append(("", "\n" + " " * indent))
        column = indent
    for k, cell in enumerate(items):
        size = sum(len(t) for _, t in cell) + 3
        if k and column + size > width:
            out.append(("", "\n" + " " * indent))
            column = indent
        elif k:
            out.append(("class:dim", " · "))
        out += cell
        column += size
    out.append(("", "\n"))
    return out


def hand(view: Mapping[str, Plain], width: int = 80, legal: Sequence[Move] = ()) -> Fragments:
    """Your hunt cards, the schemes you drew today (with what each does), the schemes you
    peeked at (seen by you alone), and what you may do now; nothing for no seat."""
    me = view_seat(view)
    if view.get("phase") in ("setup", None) or me is None:
        return []
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
            parts.append(f"{head} … {ways}")
    line = _("You may: ") + " · ".join(parts)
    return [("class:index.playable", line[:width]), ("", "\n")]


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What is asked now, with the shape of the command."""
    asked = _PROMPTS.get(str(view.get("phase")))
    return _(asked) if asked else _("your move> ")


_SEAT = re.compile(r"seat \d+ is to")
_TUPLE = re.compile(r"\((\d+(?:, \d+)*),?\)")
_ITEM = re.compile(r"\b(butcher|horn|candy|dust)\b")


def humanize(reason: str) -> str:
    """An engine reason in the player's words: another seat named as "another player", hunt
    card tuples as values, market items by name; in another language than English, the
    reason translated (:mod:`.refusals`) where it reads as one the engine gives."""
    if language() != "en":
        said = translate(reason)
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
        out.append(("class:title", f"{said[0].upper()}{said[1:]}\n"))
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


class UnicornsScreen:
    """Kill the Unicorns' :class:`~lanparty.ui.base.GameScreen`."""

    styles = STYLES
    aliases = ALIASES

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """See :func:`table`."""
        return table(view, names, width)

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """See :func:`hand`."""
        return hand(view, width, legal)

    def prompt(self, view: Mapping[str, Plain], can_decline: bool) -> str:
        """See :func:`prompt`."""
        return prompt(view, can_decline)

    def parse(self, head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
        """See :func:`.commands.parse`."""
        return parse(head, args, text, view)

    def command_for(self, move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
        """See :func:`.commands.command_for`."""
        return command_for(move, view)

    def help(self) -> Sequence[tuple[str, str]]:
        """The game's commands."""
        return [(command, _(what)) for command, what in HELP]

    def humanize(self, reason: str) -> str:
        """See :func:`humanize`."""
        return humanize(reason)

    def final(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """See :func:`final`."""
        return final(view, names)


SCREEN = UnicornsScreen()

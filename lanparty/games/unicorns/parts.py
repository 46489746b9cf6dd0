"""Kill the Unicorns' board in parts, as pure functions of one seat's view: the day's line,
the row of unicorns with its scheme slots and the hunt in progress, the seat's own hunt cards,
schemes and peeks, and what it may do now. :mod:`.screen` puts them together for a line-based
terminal (each line cut to the width), :mod:`.whole` for the full-screen table (never cut).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.games.cells import cells, cut
from lanparty.games.layout import (
    Lines,
    flow,
    in_columns,
    join,
    line_width,
    lines,
    table_rows,
    wrap,
)
from lanparty.games.screens import Fragments, player_name, view_seat
from lanparty.i18n import _, ngettext
from protocol.contract import Move, Plain

from .board import characters, market, players, unicorn_style
from .cards import ITEMS
from .commands import SLOTS, command_for
from .names import aside, scheme_effect, scheme_name, unicorn_name

__all__ = ["day_line", "fit", "hand", "now_line", "own_lines", "row_lines", "table"]


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
    instead of the row; at the black market, its prices. Each line cut to ``width``."""
    width = max(width, 30)
    out = join([day_line(view, names)])
    out += players(view, names, width)
    phase = view.get("phase")
    if phase == "character":
        out += characters(view, names, width)
    elif phase == "market":
        out += market(view, width)
    else:
        out += join(row_lines(view, names, width))
    return fit(out, width)


def fit(fragments: Fragments, width: int) -> Fragments:
    """``fragments`` with every line cut to ``width`` columns (a cut line ends with "…")."""
    out: Fragments = []
    for k, line in enumerate(lines(fragments)):
        if k:
            out.append(("", "\n"))
        column = 0
        for style, part in line:
            room = width - column
            if cells(part) > room:
                part = cut(part, room) if room > 0 else ""
            if part:
                out.append((style, part))
            column += cells(part)
    if fragments and fragments[-1][1].endswith("\n"):
        out.append(("", "\n"))
    return out


def day_line(view: Mapping[str, Plain], names: Sequence[str], compact: bool = False,
             stock: bool = True) -> Fragments:  # fmt: skip
    """The day (before day 1: that characters are chosen), the first player and the black
    market's tokens (not without ``stock``, nor when ``compact`` at the market, which shows
    them), in one line to wrap; ``compact``: without the Spanish words beside."""
    me = view_seat(view)
    day, days = _int(view.get("day"), 0), _int(view.get("days"), 4)
    title = _("Day {day}/{days}").format(day=day, days=days)
    said = "" if compact else aside("day", day)
    out: Fragments = [("class:title", title), ("class:dim", said)]
    if view.get("phase") == "setup":
        return [*out, ("class:dim", _("  ·  unicorns and schemes are shuffled and dealt…"))]
    first = _(" · first player: {name}").format(
        name=player_name(names, _int(view.get("first"), 0), me))  # fmt: skip
    if view.get("phase") == "character":
        return [("class:title", _("Before day 1")), ("", first),
                ("class:dim", _(" · characters are chosen"))]  # fmt: skip
    out.append(("", first))
    market = view.get("market")
    if isinstance(market, dict) and stock and (not compact or view.get("phase") != "market"):
        listed = " ".join(f"{i} {market.get(i)!s}" for i in ITEMS)
        style = "class:turn" if view.get("phase") == "market" else ""
        out += [("", " · "), (style, _("market")),
                ("class:dim", "" if compact else aside("market")), ("", f": {listed}")]  # fmt: skip
    return out


def row_lines(view: Mapping[str, Plain], names: Sequence[str], width: int, compact: bool = False,
              columns: int = 1) -> Lines:  # fmt: skip
    """The hunt in progress over the row of unicorns, a line each with its coins (not when
    ``compact``: the name says them) and its scheme slots (yours marked, the others' face
    down, a peeked one named); the unicorns in ``columns`` columns (then each slot by its
    owner's name alone)."""
    row = [e for e in _list(view.get("row")) if isinstance(e, dict)]
    hunt = view.get("hunt")
    hunted = hunt.get("unicorn") if isinstance(hunt, dict) else None
    wide = width >= 84 and not compact  # room to say "face down" on each: else once, here
    title: Fragments = [("class:title", _("Row")), ("class:dim", "" if compact else aside("row"))]
    if not wide and not compact:  # compact: the help and the rules say it
        title.append(("class:dim", _(", schemes face down")))
    if isinstance(hunt, dict):
        bid = _int(hunt.get("bid"), 0)
        what = (ngettext("{n} hunt card each", "{n} hunt cards each", bid).format(n=bid) if bid
                else _("not opened yet"))  # fmt: skip
        if hunted not in [e["unicorn"] for e in row]:
            what += _(", settled")
        title += [("", " · "), ("class:title", _("hunt")),
                  ("class:dim", "" if compact else aside("hunt")),
                  ("", _(" of {unicorn}: {what}").format(unicorn=_name_of(view, hunted),
                                                         what=what))]  # fmt: skip
    out = wrap(title, width, 2)
    if not row:
        return [*out, [("class:dim", _("  (every unicorn of the day has been hunted)"))]]
    me = view_seat(view)
    peeked = {int(h): label for h, label in _list(view.get("peeked"))}
    table: list[list[Fragments]] = []
    for i, entry in enumerate(row, 1):
        label = entry.get("label")
        turn = entry["unicorn"] == hunted
        cells_: list[Fragments] = [
            [("class:turn" if turn else "", f"{'▶ ' if turn else '  '}{i}")],
            [(unicorn_style(_label_colour(label)), unicorn_name(label))],
        ]
        if not compact:
            cells_.append([("class:dim", _coins(label))])
        schemes = _list(entry.get("schemes"))
        slots: Fragments = [] if schemes else [("class:dim", _("no scheme"))]
        down = _(", face down") if wide else ""
        for k, (h, owner) in enumerate(schemes):
            slots.append(("", f"{'  ' if k else ''}{i}{SLOTS[k]}: "))
            if owner == me:
                slots.append(("class:mine", _("yours") + down))
            elif peeked.get(h) and columns > 1:  # side by side: the owner's name alone
                slots.append(("class:scheme", f"{scheme_name(peeked[h], False)} ({names[owner]})"))
            elif peeked.get(h):
                slots.append(("class:scheme", _("{name}'s {scheme}").format(
                    name=names[owner], scheme=scheme_name(peeked[h], False))))  # fmt: skip
                slots.append(("class:dim", _(" (peeked)")))
            elif columns > 1:
                slots.append(("class:facedown", names[owner]))
            else:
                slots.append(("class:facedown", _("{name}'s").format(name=names[owner]) + down))
        table.append([*cells_, slots])
    aligned = table_rows(table, "<<<" if compact else "<<><", gap=2 if compact else 3)
    if columns > 1:
        return out + in_columns(aligned, columns, 3)
    at = line_width(aligned[0]) - line_width(table[0][-1])  # where the slots begin
    for line in aligned:  # slots too long for the line go on under themselves
        out += wrap(line, width, at) if line_width(line) > width else [line]
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
    peeked at (seen by you alone), and what you may do now; nothing for no seat. Each line
    cut to ``width``."""
    return fit(join(own_lines(view, 10_000, legal)), width)


def own_lines(view: Mapping[str, Plain], width: int, legal: Sequence[Move] = (),
              compact: bool = False, terse: bool = False) -> Lines:  # fmt: skip
    """The seat's own part: its hunt cards (not when ``compact``: its row on the board has
    them), the schemes it drew today with what each does (not when ``terse``: the help and
    the rules say it), the schemes it peeked at (not when ``compact``: the row names them),
    and what it may do now, wrapped to ``width``; nothing for no seat."""
    me = view_seat(view)
    if view.get("phase") in ("setup", None) or me is None:
        return []
    if view.get("phase") == "character":
        return wrap(now_line(view, legal), width, 2) if legal else []
    out: Lines = []
    if not compact:
        hands = _list(view.get("hands"))
        cards = " ".join(str(v) for v in _list(hands[me] if me < len(hands) else []))
        out += wrap([("class:title", _("Your hunt cards")), ("class:dim", aside("hunt cards")),
                     ("", f": {cards or _('none left')}")], width, 2)  # fmt: skip
    drawn = _list(view.get("my_drawn"))
    if drawn:
        head = _("Your schemes{aside}: ").format(aside="" if compact else aside("schemes"))
        items = []
        for _h, label in drawn:
            effect = "" if terse else f": {scheme_effect(str(label), short=True)}"
            items.append([("class:index", f"{label} = "),
                          ("class:scheme", scheme_name(str(label), not compact)),
                          ("class:dim", effect)])  # fmt: skip
        if compact:
            flowed = flow(items, width, " · ", 2, cells(head))
            out += [[("class:title", head), *flowed[0]], *flowed[1:]]
        else:
            for k, item in enumerate(items):
                lead = [("class:title", head)] if not k else [("", " " * cells(head))]
                out += wrap([*lead, *item], width, cells(head))
    peeked = [] if compact else _list(view.get("peeked"))  # compact: the row names them
    for h, label in [(int(h), label) for h, label in peeked if label]:
        said = _("{ref} is {scheme}").format(ref=_ref(view, h),
                                             scheme=scheme_name(str(label), not compact))
        out += wrap([("class:title", _("Peeked, seen by you alone: ")), ("class:scheme", said),
                     ("class:dim", f" {scheme_effect(str(label))}")], width, 2)  # fmt: skip
    if legal:
        out += wrap(now_line(view, legal), width, 2)
    return out


def _ref(view: Mapping[str, Plain], scheme: int) -> str:
    for i, e in enumerate(_list(view.get("row")), 1):
        for k, (h, _o) in enumerate(_list(e.get("schemes"))):
            if h == scheme:
                return f"{i}{SLOTS[k]}"
    return "?"


def now_line(view: Mapping[str, Plain], legal: Sequence[Move]) -> Fragments:
    """What may be typed now, in one line to wrap: each kind of command once, with its
    forms if they are few."""
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
    return [("class:index.playable", _("You may: ") + " · ".join(parts))]

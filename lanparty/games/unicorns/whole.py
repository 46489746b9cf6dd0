"""Kill the Unicorns' whole board for the full-screen table, drawn whole or not at all: the day
line, every player's row with their unicorns and bonuses, the row of unicorns with the hunt
(before day 1 the characters, at the black market its prices), and the seat's own schemes,
peeks and what it may do; the header's part and the score sheet.

The roomiest layout is the line-based board's (each unicorn with its tokens and scheme, the
Spanish names beside); when it does not fit, a compact one names each player's unicorns by
colour and worth (yours numbered, for ``give N`` and ``buy … N``), then the row goes into two
columns; when even that does not fit,
:class:`~lanparty.games.screens.TooSmall`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.games.layout import (
    Lines,
    fit_first,
    flow,
    join,
    line_width,
    lines,
    table_rows,
    wrap,
)
from lanparty.games.screens import Fragments, listed_name, player_name, view_seat
from lanparty.games.wording import turn_of
from lanparty.i18n import N_, _, ngettext
from protocol.contract import Move, Plain

from .board import (
    as_int,
    as_list,
    bonus_cells,
    characters,
    collection_cells,
    hunt_cell,
    market,
    players,
    unicorn_style,
)
from .cards import CHARACTERS, COLOUR_INDEX, COLOURS, COST, ITEMS, NEUTRAL
from .names import character_name, character_power, colour_name, item_name
from .parts import day_line, own_lines, row_lines
from .scoring import SET_BONUS, arrangement, colour_counts, split

__all__ = ["LEAST", "board", "collection_summary", "header", "scores"]

LEAST = 60
"""The fewest columns the board is drawn in."""

_PHASES = {
    "character": N_("characters are chosen"),
    "trap": N_("schemes are planted"),
    "bid": N_("a hunt is opened"),
    "commit": N_("hunt cards are laid"),
    "knight": N_("the Knight may boost"),
    "choose": N_("a scheme is turned over"),
    "give": N_("a Trojan Unicorn is given"),
    "colour": N_("a colour is named"),
    "wizard": N_("the Wizard's power"),
    "market": N_("the black market is open"),
}
"""What the table is doing in each phase, for the header."""


def _collection(view: Mapping[str, Plain], seat: int) -> tuple[list[dict[str, Any]], int]:
    colls, pates = as_list(view.get("collections")), as_list(view.get("pates"))
    coll = [u for u in as_list(colls[seat] if seat < len(colls) else []) if isinstance(u, dict)]
    return coll, as_int(pates[seat] if seat < len(pates) else 0, 0)


def collection_summary(coll: list[dict[str, Any]], pates: int, mine: bool) -> list[Fragments]:
    """One player's unicorns in few words: by colour, each unicorn's worth (numbered for the
    seat itself: ``pink 2:3 5:7``, unicorn 2 worth 3) and the bonus its collections of that
    colour make (``(+5)``); then the rainbows and the Pâtés. The numbers add up to the
    player's points."""
    colours = [COLOUR_INDEX.get(str(u.get("colour")), NEUTRAL) for u in coll]
    counts = colour_counts(colours)
    _bonus, rainbows = arrangement(counts)
    groups: dict[str | None, list[str]] = {}
    for i, u in enumerate(coll, 1):
        colour = u.get("colour")
        worth = str(as_int(u.get("worth"), 0)).replace("-", "−")
        key = colour if isinstance(colour, str) else None
        groups.setdefault(key, []).append(f"{i}:{worth}" if mine else worth)
    items: list[Fragments] = []
    for colour in [*COLOURS, None]:
        if colour not in groups:
            continue
        name = colour_name(colour) if colour is not None else _("legendary")
        item: Fragments = [(unicorn_style(colour), name), ("", " " + " ".join(groups[colour]))]
        if colour is not None:
            c = COLOURS.index(colour)
            bonus = sum(SET_BONUS[size] for size in split(counts[c] - rainbows) if size >= 2)
            if bonus:
                item.append((unicorn_style(colour), f" (+{bonus})"))
        items.append(item)
    items += [cell for cell in bonus_cells(coll, pates) if _rainbow_or_pate(cell)]
    return items or [[("class:dim", _("no unicorn"))]]


def _rainbow_or_pate(cell: Fragments) -> bool:
    """Whether a bonus cell of :func:`.board.bonus_cells` is a rainbow's or the Pâtés' (a
    colour's collection is said beside its unicorns)."""
    return cell[0][0] == "class:title" or cell[0][0] == ""


def compact_players(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Lines:
    """A line per player in aligned columns (character and power, hunt cards, points, place
    in the hunt), each followed by the player's unicorns in few words
    (:func:`collection_summary`): on the same line when they fit, else under it."""
    me = view_seat(view)
    hands, points = as_list(view.get("hands")), as_list(view.get("scores"))
    current = view.get("current")
    choosing = view.get("phase") == "character"
    points_w = max(len(str(p)) for p in points)
    rows: list[list[Fragments]] = []
    for s in range(len(points)):
        style = "class:turn" if s == current else ""
        who = ("▶ " if s == current else "  ") + listed_name(names, s, me)
        held = " ".join(str(v) for v in as_list(hands[s] if s < len(hands) else []))
        n = as_int(points[s], 0)
        worth = ngettext("{n} pt", "{n} pts", n).format(n=f"{n:>{points_w}}")
        rows.append([
            [(style, who)], [("", _character(view, s))], [("", "" if choosing else held)],
            [("", worth)], [hunt_cell(view, s)],
        ])  # fmt: skip
    out: Lines = []
    for s, line in enumerate(table_rows(rows, "<<<<<", gap=2)):
        coll, pates = _collection(view, s)
        items = collection_summary(coll, pates, s == me)
        beside = flow(items, width, " · ", first=line_width(line) + 3)
        if len(beside) == 1 and line_width(line) + 3 + line_width(beside[0]) <= width:
            out.append([*line, ("class:dim", " │ "), *beside[0]])
            continue
        out.append(line)
        flowed = flow(items, width, " · ", 6, 6)
        out += [[("class:dim", "    │ "), *flowed[0]], *flowed[1:]]
    return out


def _character(view: Mapping[str, Plain], seat: int) -> str:
    """The character of ``seat`` by its name alone, with its power's mark (• ready, ✓ used
    today), or where the choice stands before day 1."""
    chars, powers, used = (as_list(view.get(k)) for k in ("characters", "powers", "used"))
    char = chars[seat] if seat < len(chars) else None
    if char is None:
        if view.get("phase") == "character" and view.get("current") == seat:
            return _("choosing…")
        return "—" if view.get("phase") == "character" else "?"
    name = character_name(str(char), False)
    if seat >= len(powers) or not powers[seat]:
        return name
    return name + (" ✓" if seat < len(used) and used[seat] else " •")


def _characters(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Lines:
    """The characters to choose before day 1, a line each (wrapped): who has taken it and
    its power."""
    me = view_seat(view)
    chosen = as_list(view.get("characters"))
    powers = view.get("character_powers")
    powers = powers if isinstance(powers, dict) else {}
    out = wrap([("class:title", _("Characters")),
                ("", _(": chosen in turn; each power once a day"))], width, 2)  # fmt: skip
    for name in CHARACTERS:
        taker = chosen.index(name) if name in chosen else -1
        style = "" if taker < 0 else "class:dim"
        power = character_power(name) if powers.get(name) else _("no power at this table")
        line: Fragments = [("class:index" if taker < 0 else style, f"  {name} = "),
                           ("class:title" if taker < 0 else style, character_name(name, False))]
        if taker >= 0:
            line.append((style, " · " + _("taken by {name}").format(
                name=player_name(names, taker, me))))  # fmt: skip
        out += wrap([*line, (style, f": {power}")], width, 6)
    return out


_EFFECTS = {
    "butcher": N_("the unicorn becomes a Pâté worth 3"),
    "horn": N_("the unicorn is worth 2 more"),
    "candy": N_("the unicorn takes a new colour"),
    "dust": N_("a new colour and 2 more"),
}
"""What each item does to the unicorn it is bought for, in fewer words than the line-based
board's."""


def _market(view: Mapping[str, Plain], width: int) -> Lines:
    """The black market's items, a line each (wrapped): price, name, tokens left, effect
    (how to pay: the help and the rules say it)."""
    stock = view.get("market")
    stock = stock if isinstance(stock, dict) else {}
    out: Lines = []
    for item in ITEMS:
        left = as_int(stock.get(item), 0)
        said = (("class:out", _("sold out")) if not left else
                ("class:dim", ngettext("{n} left", "{n} left", left).format(n=left)))  # fmt: skip
        out += wrap([("class:index", f"  {item} ${COST[item]} "),
                     ("class:title", item_name(item, False)), ("", " · "), said,
                     ("", f": {_(_EFFECTS[item])}")], width, 4)  # fmt: skip
    return out


def _middle(view: Mapping[str, Plain], names: Sequence[str], width: int, compact: int) -> Lines:
    """The characters, the market or the row, as roomy (``compact`` 0) or as compact (1, 2:
    the row in two columns if they fit) as asked."""
    phase = view.get("phase")
    if phase == "character":
        return _characters(view, names, width) if compact else [
            *lines(characters(view, names, width))]  # fmt: skip
    if phase == "market":
        return _market(view, width) if compact else [*lines(market(view, width))]
    if compact > 1:  # in two columns if they fit side by side
        two = row_lines(view, names, width, True, 2)
        if max(line_width(line) for line in two) <= width:
            return two
    return row_lines(view, names, width, compact > 0)


def board(
    view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
    legal: Sequence[Move] = (), typed: str = "",
) -> Fragments:  # fmt: skip
    """The whole live board in at most ``rows`` lines of ``width`` columns (see the module's
    words for its layouts). Raises :class:`~lanparty.games.screens.TooSmall` when even the
    most compact does not fit."""
    if view.get("phase") == "setup":
        return fit_first(width, rows, [lambda w: join(wrap(day_line(view, names), w, 2))], LEAST)

    def roomy(w: int) -> Fragments:
        out = wrap(day_line(view, names), w, 2) + lines(players(view, names, w))
        return join(out + _middle(view, names, w, 0) + own_lines(view, w, legal))

    def compact(w: int, level: int) -> Fragments:
        day = wrap(day_line(view, names, True), w, 2)
        if len(day) > 1:  # the market's stock gives way (the market shows it when it opens)
            day = wrap(day_line(view, names, True, stock=False), w, 2)
        out = day + compact_players(view, names, w)
        return join(out + _middle(view, names, w, level) + own_lines(view, w, legal, True,
                                                                      level > 1))  # fmt: skip

    return fit_first(width, rows, [roomy, lambda w: compact(w, 1), lambda w: compact(w, 2)],
                     LEAST)  # fmt: skip


def header(view: Mapping[str, Plain], names: Sequence[str]) -> str:
    """``"day 2 of 4 · a hunt is opened · Bea to play"``; before day 1, the game's end."""
    me = view_seat(view)
    phase = view.get("phase")
    day, days = as_int(view.get("day"), 0), as_int(view.get("days"), 4)
    said = _("day {day} of {days}").format(day=day, days=days) if day else _("before day 1")
    if phase == "setup":
        return said + " · " + _("dealing")
    if phase == "over":
        return said + " · " + _("game over")
    if phase in _PHASES:
        said += " · " + _(_PHASES[str(phase)])
    current = view.get("current")
    if isinstance(current, int) and not isinstance(current, bool) and current < len(names):
        said += " · " + turn_of(current, me, names)
    return said


def scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The score sheet so far: what each player gained day by day, their points now, and
    their unicorns with every bonus that makes up the points."""
    me = view_seat(view)
    days = [as_list(d) for d in as_list(view.get("standings"))]
    points = as_list(view.get("scores"))
    head: list[Fragments] = [[("class:title", _("Score sheet"))]]
    head += [[("class:title", _("day {n}").format(n=d))] for d in range(1, len(days) + 1)]
    head.append([("class:title", _("Total"))])
    rows = [head]
    for s in range(len(points)):
        row: list[Fragments] = [[("", player_name(names, s, me))]]
        row += [[("", str(d[s]) if s < len(d) else "")] for d in days]
        row.append([("class:title", str(points[s]))])
        rows.append(row)
    out = join(table_rows(rows, "<" + ">" * (len(days) + 1), gap=3))
    for s in range(len(points)):
        coll, pates = _collection(view, s)
        flowed = flow(collection_cells(coll, pates, s == me), 78, " · ", 2, 2)
        out += join([[("class:title", player_name(names, s, me) + ":")],
                     [("", "  "), *flowed[0]], *flowed[1:]])  # fmt: skip
    return out

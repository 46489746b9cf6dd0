"""Kill the Unicorns' board, the parts laid out in columns, as pure functions of one seat's
view: a line per player (character and power, hunt cards, points, place in the hunt) with the
player's unicorns in a column of their own, each unicorn's worth and every bonus that makes up
the points; the characters to choose before day 1; the black market's prices when it opens.
:mod:`.screen` puts them together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.games.cells import cells, cut, pad
from lanparty.games.screens import Fragments, listed_name, player_name, view_seat
from lanparty.i18n import N_, _, ngettext
from protocol.contract import Plain

from .cards import (
    CHARACTERS,
    COLOUR_INDEX,
    COLOURS,
    COST,
    ITEMS,
    KNIGHT_BONUS,
    NEUTRAL,
    PATE_VALUE,
    SCHEME_VALUE,
    TOKEN_VALUE,
)
from .names import (
    aside,
    character_name,
    character_power,
    colour_name,
    item_name,
    scheme_name,
    unicorn_name,
)
from .scoring import RAINBOW_BONUS, SET_BONUS, arrangement, colour_counts, split

__all__ = [
    "BESIDE",
    "bonus_cells",
    "characters",
    "collection_cells",
    "flow",
    "hunt_cell",
    "market",
    "players",
    "signed",
    "unicorn_style",
]

BESIDE = 30
"""Columns a player's unicorns need beside the player's line; with fewer left they go on the
lines under it, in a column that starts after the names."""

_EFFECTS = {
    "butcher": N_("the buyer's unicorn becomes a Pâté worth 3"),
    "horn": N_("the buyer's unicorn is worth 2 more"),
    "candy": N_("the buyer's unicorn takes a new colour"),
    "dust": N_("the buyer's unicorn takes a new colour and is worth 2 more"),
}
"""What each black-market item does, in a few words."""


def as_list(value: object) -> list[Any]:
    """``value`` as a list if it is one (or a tuple); else empty (a view's field, read safely)."""
    return list(value) if isinstance(value, list | tuple) else []


def as_int(value: object, default: int = -1) -> int:
    """``value`` if it is an int (not a bool); else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _width(fragments: Fragments) -> int:
    return sum(cells(t) for _s, t in fragments)


def signed(value: int) -> str:
    """``2`` → ``"+2"``, ``-4`` → ``"−4"`` (a minus sign, as the scheme cards print it)."""
    return f"{value:+d}".replace("-", "−")


def unicorn_style(colour: object) -> str:
    """The style of a unicorn of ``colour`` (``None``: no colour, a Legendary)."""
    return f"class:u.{colour}" if isinstance(colour, str) else "class:u.none"


def flow(
    cells: Sequence[Fragments], width: int, column: int, margin: str, sep: str = " · "
) -> Fragments:
    """``cells`` one after another from ``column``, ``sep`` between them; a cell that would
    pass ``width`` starts a new row, which begins with ``margin`` (a newline, then the
    indentation and the column's bar)."""
    out: Fragments = []
    indent = len(margin.rsplit("\n", 1)[-1])
    for k, cell in enumerate(cells):
        size = _width(cell)
        if k and column + len(sep) + size > width:
            out.append(("class:dim", margin))
            column = indent
        elif k:
            out.append(("class:dim", sep))
            column += len(sep)
        out += cell
        column += size
    return out


def _words(said: str, style: str, width: int, indent: int) -> Fragments:
    """``said`` from ``indent`` on, wrapped at spaces onto lines indented as far."""
    cells: list[Fragments] = [[(style, word)] for word in said.split()]
    return flow(cells, width, indent, "\n" + " " * indent, " ")


# --------------------------------------------------------------------------- the players


def hunt_cell(view: Mapping[str, Plain], seat: int) -> tuple[str, str]:
    """``(style, text)``: where ``seat`` stands in the hunt in progress (sealed cards show
    as boxes; opened ones with their total; the winner starred)."""
    hunt = view.get("hunt")
    if not isinstance(hunt, dict):
        return "", ""
    bid = as_int(hunt.get("bid"), 0)
    cards = as_list(hunt.get("cards"))
    mine = [int(v) for v in as_list(cards[seat])] if seat < len(cards) else []
    totals = {int(s): int(t) for s, t in as_list(hunt.get("totals"))}
    if seat in as_list(hunt.get("takers")):
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
        if seat in as_list(hunt.get("sealed")):
            return "class:sealed", "■" * bid + _(" sealed")
        return "class:sealed", _("laying {n}…").format(n=bid)
    if seat in as_list(hunt.get("passed")):
        return "class:dim", _("passed")
    if view.get("current") == seat and view.get("phase") == "bid":
        return "class:turn", _("deciding…")
    return "", ""


def _character_cell(view: Mapping[str, Plain], seat: int) -> str:
    """The character of ``seat`` with its power's mark (• ready, ✓ used today), or where the
    choice stands before day 1."""
    chars, powers, used = (as_list(view.get(k)) for k in ("characters", "powers", "used"))
    char = chars[seat] if seat < len(chars) else None
    if char is None:
        if view.get("phase") == "character" and view.get("current") == seat:
            return _("choosing…")
        return "—" if view.get("phase") == "character" else "?"
    if seat >= len(powers) or not powers[seat]:
        return character_name(str(char))
    return character_name(str(char)) + (" ✓" if seat < len(used) and used[seat] else " •")


def players(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    """A line per player: character and power, hunt cards in hand, points, place in the
    hunt; then the player's unicorns and bonuses in a column of their own, beside the line
    when there is room (:data:`BESIDE`, and the widest cell) and under it otherwise, every
    row of it starting at the same column, never under the names."""
    me = view_seat(view)
    hands, scores = as_list(view.get("hands")), as_list(view.get("scores"))
    colls, pates = as_list(view.get("collections")), as_list(view.get("pates"))
    current = view.get("current")
    seats = range(len(scores))
    name_w = min(max(cells(listed_name(names, s, me)) for s in seats), max(width // 6, 6))
    block = 2 + name_w + 1  # where the column right of the names starts
    hunting = isinstance(view.get("hunt"), dict)
    held = ["" if view.get("phase") == "character" else  # none in hand yet
            " ".join(str(v) for v in as_list(hands[s] if s < len(hands) else [])) for s in seats]
    chars = [_character_cell(view, s) for s in seats]
    hunts = [hunt_cell(view, s) for s in seats]
    # Columns at least as wide as a character's name with its Spanish one and a full hand
    # of hunt cards: the rows of a board line up from one day to the next.
    chars_w, held_w = max(21, *map(cells, chars)), max(15, *map(cells, held))
    points_w = max(len(str(p)) for p in scores)
    worth = [ngettext("{n} pt", "{n} pts", p).format(n=f"{p:>{points_w}}")
             for p in (as_int(scores[s], 0) for s in seats)]  # fmt: skip
    worth_w = max(map(cells, worth))
    hunt_w = max(cells(text) for _style, text in hunts)
    out: Fragments = []
    for s in seats:
        turn = s == current
        who = pad(cut(listed_name(names, s, me), name_w), name_w)
        line = f"{'▶ ' if turn else '  '}{who} {pad(chars[s], chars_w)} "
        line += f"{pad(held[s], held_w)}  {pad(worth[s], worth_w)}"
        line = line.rstrip() if not hunting else line
        out.append(("class:turn" if turn else "", line))
        column = cells(line)
        if hunting:
            style, cell = hunts[s]
            cell = " " + pad(cell, hunt_w)
            out.append((style, cell))
            column += cells(cell)
        coll = [u for u in as_list(colls[s] if s < len(colls) else []) if isinstance(u, dict)]
        pate = as_int(pates[s] if s < len(pates) else 0, 0)
        unicorns = collection_cells(coll, pate, s == me)
        if width - column - 3 >= max(BESIDE, *(_width(c) for c in unicorns)):
            margin = "\n" + " " * column + " │ "
            out.append(("class:dim", " │ "))
            column += 3
        else:
            style, said = out[-1]
            out[-1] = (style, said.rstrip())  # nothing beside the line: no padding
            margin = "\n" + " " * block + "│ "
            out.append(("class:dim", margin))
            column = block + 2
        out += flow(unicorns, width, column, margin)
        out.append(("", "\n"))
    return out


def collection_cells(coll: list[dict[str, Any]], pates: int, mine: bool) -> list[Fragments]:
    """One player's unicorns (numbered for the seat itself), each with what its tokens and
    its scheme add and its worth, then every bonus (:func:`bonus_cells`): the numbers after
    ``=`` and the bonuses add up to the player's points."""
    found: list[Fragments] = []
    for i, u in enumerate(coll, 1):
        extras = []
        for token in as_list(u.get("tokens")):
            value = TOKEN_VALUE.get(str(token), 0)
            extras.append(item_name(str(token), False) + (f" {signed(value)}" if value else ""))
        scheme = u.get("scheme")
        if scheme:
            value = SCHEME_VALUE.get(str(scheme), 0)
            extras.append(scheme_name(str(scheme), False) + (f" {signed(value)}" if value else ""))
        tail = f" [{', '.join(extras)}]" if extras else ""
        worth = as_int(u.get("worth"), 0)
        cell: Fragments = [("class:index", f"{i}:")] if mine else []
        cell += [(unicorn_style(u.get("colour")), unicorn_name(u.get("label"), u.get("colour"))),
                 ("", f"{tail} ={worth!s}".replace("=-", "=−"))]  # fmt: skip
        found.append(cell)
    found += bonus_cells(coll, pates)
    if not found:
        found.append([("class:dim", _("no unicorn"))])
    return found


def bonus_cells(coll: list[dict[str, Any]], pates: int) -> list[Fragments]:
    """The bonuses of a collection as the table counts them: each colour collection ("green
    pair +2", "pink ×3 +5"), each rainbow, the Pâtés."""
    colours = [COLOUR_INDEX.get(str(u.get("colour")), NEUTRAL) for u in coll]
    counts = colour_counts(colours)
    _bonus, rainbows = arrangement(counts)
    cells: list[Fragments] = []
    for c, colour in enumerate(COLOURS):
        for size in split(counts[c] - rainbows):
            if size < 2:
                continue
            said = (_("{colour} pair +{bonus}") if size == 2
                    else _("{colour} ×{n} +{bonus}"))  # fmt: skip
            text = said.format(colour=colour_name(colour), n=size, bonus=SET_BONUS[size])
            cells.append([(unicorn_style(colour), text)])
    if rainbows:
        said = ngettext("{n} rainbow{aside} +{bonus}", "{n} rainbows{aside} +{bonus}", rainbows)
        text = said.format(n=rainbows, aside=aside("rainbow"), bonus=RAINBOW_BONUS * rainbows)
        cells.append([("class:title", text)])
    if pates:
        cells.append([("", _("Pâté") + f" ×{pates} ={PATE_VALUE * pates}")])
    return cells


# --------------------------------------------------------------------------- before day 1


def characters(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    """The four characters, each with who has taken it and its power (or that it has none
    at this table): what may be chosen before day 1, in turn from the first player."""
    me = view_seat(view)
    chosen = as_list(view.get("characters"))
    powers = view.get("character_powers")
    powers = powers if isinstance(powers, dict) else {}
    out: Fragments = [
        ("class:title", _("Characters")),
        ("class:dim", aside("characters")),
        ("", _(": chosen in turn; each power once a day") + "\n"),
    ]
    for name in CHARACTERS:
        taker = chosen.index(name) if name in chosen else -1
        free = taker < 0
        cells = [[("class:index" if free else "class:dim", f"  {name} = "),
                  ("class:title" if free else "class:dim", character_name(name))]]  # fmt: skip
        if not free:
            cells.append([("class:dim", _("taken by {name}").format(
                name=player_name(names, taker, me)))])  # fmt: skip
        out += flow(cells, width, 0, "\n      ")
        power = character_power(name) if powers.get(name) else _("no power at this table")
        out += [("", "\n      "), *_words(power, "" if free else "class:dim", width, 6)]
        out.append(("", "\n"))
    return out


# --------------------------------------------------------------------------- the market


def market(view: Mapping[str, Plain], width: int) -> Fragments:
    """The black market when it opens: each item's price, name and tokens left, and what it
    does."""
    stock = view.get("market")
    stock = stock if isinstance(stock, dict) else {}
    out: Fragments = [
        ("class:title", _("Black market")),
        ("class:dim", aside("market")),
        ("", _(": pay with hunt cards, no card more than needed") + "\n"),
    ]
    for item in ITEMS:
        left = as_int(stock.get(item), 0)
        cells: list[Fragments] = [
            [("class:index", f"  {item} ${COST[item]}")],
            [("class:title", item_name(item))],
            [("class:out", _("sold out"))] if not left
            else [("class:dim", ngettext("{n} left", "{n} left", left).format(n=left))],
        ]  # fmt: skip
        out += flow(cells, width, 0, "\n      ")
        out += [("", "\n      "), *_words(_(_EFFECTS[item]), "", width, 6), ("", "\n")]
    return out

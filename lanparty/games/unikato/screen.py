"""Unikato on the screen: the round, the bag and the display, each player's tiles, the grid
with its coordinates, the chain in progress and the bonus, the hand, and the commands, as
pure functions of one seat's view (:class:`lanparty.games.screens.GameScreen`; no prompt-toolkit).

Each tile in the hand has a number (``place 3 at v21``) that it keeps for as long as it is in
the hand: a tile that leaves frees its number, one that comes in takes the lowest free one
(the engine gives them: the view's ``numbers``). The display's tiles are numbered from 1
(``exchange 3 for 2``, ``draw 2``, or ``bag``). While ``place 3`` is typed the grid names
the cells where tile 3 fits; the grid is cut to the terminal and centred on the last move (or
on the cell typed).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from lanparty.games.layout import fit_first, flow, join, lines, table_rows, wrap
from lanparty.games.screens import (
    Fragments,
    ParseError,
    gather_screen,
    listed_name,
    player_name,
    view_seat,
)
from lanparty.games.views import cards, num, seq
from lanparty.games.wording import turn_of, won_line
from lanparty.i18n import N_, _, ngettext
from protocol.contract import Move, Plain

from . import glyphs
from .board import SIDES, Cell, row_major, touches
from .glyphs import STYLES as TILE_STYLES
from .glyphs import glyph, tile_words
from .grid import Frame, board_of, frame_of, grid_lines, placed, whole
from .refusals import humanize
from .tiles import CODE

__all__ = [
    "SCREEN",
    "board",
    "command_for",
    "hand_of",
    "header",
    "humanize",
    "numbered",
    "parse",
    "scores",
    "selected",
    "table",
]

STYLES = {
    **TILE_STYLES,
    "cell.fit": "bold ansibrightcyan",
    "cell.chosen": "bold reverse ansibrightcyan",
    "index.playable": "bold ansibrightcyan",
    "bonus": "bold ansiyellow",
}
ALIASES = {"p": "place", "x": "exchange", "swap": "exchange", "take": "draw", "end": "done"}
"""Other words for Unikato's commands."""
HELP = (
    ("place N at CELL", N_("lay tile N of your hand on a cell, e.g. place 3 at v21")),
    ("place N", N_("…where it fits (the grid names the cells while you type it)")),
    ("done", N_("end your chain of tiles (or let a bonus action go)")),
    ("exchange N for D", N_("put tile N on the display, take display tile D (or: for bag)")),
    ("draw D / draw bag", N_("the end-of-turn draw: display tile D, or one from the bag")),
    ("pass", N_("nothing fits and nothing can be exchanged (made for you)")),
)
"""Unikato's commands (typed in English) and what each does (translated where shown)."""

_SELECT = re.compile(r"^\s*(?:place|p)\s+(\d+)(?:\s+(?:at\s+)?([a-z]+\d+))?\s*$")


# --------------------------------------------------------------------------- reading a view


def numbered(view: Mapping[str, Plain]) -> list[tuple[int, int, str]]:
    """The seat's tiles as (number, handle, label), by number: the number each keeps while it
    is in the hand (a view without numbers: 1, 2… in the order of the tiles)."""
    hand = cards(view)
    given = view.get("numbers")
    if not isinstance(given, list | tuple) or len(given) != len(hand):
        return [(i, h, label) for i, (h, label) in
                enumerate(sorted(hand, key=lambda t: CODE[t[1]]), 1)]  # fmt: skip
    return sorted((whole(k), h, label) for k, (h, label) in zip(given, hand, strict=True))


def hand_of(view: Mapping[str, Plain]) -> list[tuple[int, str]]:
    """The seat's tiles as (handle, label) in the order shown: by their numbers."""
    return [(h, label) for _k, h, label in numbered(view)]


def _frame(view: Mapping[str, Plain]) -> Frame:
    return frame_of(cell for cell, _label in placed(view))


def _chain(view: Mapping[str, Plain]) -> list[Cell]:
    out: list[Cell] = []
    for item in seq(view, "chain"):
        assert isinstance(item, list | tuple)
        out.append((whole(item[0]), whole(item[1])))
    return out


def fits(view: Mapping[str, Plain], handle: int, legal: Sequence[Move] = ()) -> list[Cell]:
    """The cells where tile ``handle`` may go: from ``legal`` when it lists placements (the
    rules' own answer on the seat's turn), else where it fits the grid now (a preview)."""
    label = dict(cards(view)).get(handle)
    if label is None:
        return []
    if any(m[0] == "place" for m in legal):
        return sorted(
            ((whole(m[3]), whole(m[4])) for m in legal if m[0] == "place" and m[1] == handle),
            key=row_major,
        )
    board = board_of(placed(view))
    chain = _chain(view)
    code = CODE[label]
    cells = [c for c in board.open_cells() if board.fits_at(c, code)]
    return [c for c in cells if not chain or touches(c, chain[-1])]


def selected(typed: str, view: Mapping[str, Plain]) -> tuple[int | None, Cell | None]:
    """The hand tile (its handle) and the cell that the text being typed names, if any:
    ``place 3`` selects tile 3, ``place 3 at v21`` also cell v21."""
    m = _SELECT.match(typed.lower())
    tile = {k: h for k, h, _label in numbered(view)}.get(int(m.group(1))) if m else None
    if m is None or tile is None:
        return None, None
    cell = _frame(view).cell(m.group(2)) if m.group(2) else None
    return tile, cell


# --------------------------------------------------------------------------- drawing


def _line(out: Fragments, width: int, parts: Sequence[Fragments], sep: str = "  ") -> None:
    """Append ``parts`` to ``out`` on as few lines of ``width`` as they fit, ``sep`` between
    them (a part wider than a line wrapped at its spaces)."""
    out += join(flow(parts, width, sep))


def _header(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    """The round, the bag and the display; then each player's tiles (and points); then the
    chain in progress and the bonus."""
    me = view_seat(view)
    rounds = num(view, "rounds")
    title = (_("Round {n} of {rounds}") if rounds > 1 else _("Round {n}")).format(
        n=num(view, "round"), rounds=rounds
    )
    if view["phase"] == "setup":
        dealt = _("the tiles are being shuffled and dealt…")
        return [("class:title", title), ("class:dim", f"  ·  {dealt}\n")]
    out: Fragments = []
    bag = _("bag {n}").format(n=num(view, "bag"))
    parts: list[Fragments] = [[("class:title", title)], [("", bag)]]
    shown = cards(view, "display")
    parts.append([("", _("display:") if shown else _("display: empty"))])
    for i, (_handle, label) in enumerate(shown, 1):
        parts.append([("class:index", f"{i}:"), *glyph(label)])
    _line(out, width, parts)
    counts, scores = seq(view, "counts"), seq(view, "scores")
    current, over = num(view, "current"), view["phase"] == "over"
    players: list[Fragments] = []
    for s, count in enumerate(whole(c) for c in counts):
        turn = s == current and not over
        tiles = ngettext("{n} tile", "{n} tiles", count).format(n=count)
        text = f"{'▶ ' if turn else ''}{listed_name(names, s, me)} {tiles}"
        if rounds > 1:
            points = whole(scores[s])
            text += " " + ngettext("({n} point)", "({n} points)", abs(points)).format(n=points)
        players.append([("class:turn" if turn else "", text)])
    _line(out, width, players, "  ·  ")
    out += _progress(view, names, me, width)
    return out


def _progress(
    view: Mapping[str, Plain], names: Sequence[str], me: int | None, width: int
) -> Fragments:
    """The chain being laid, the bonus earned, or the bonus action under way."""
    current = num(view, "current")
    chain = _chain(view)
    out: Fragments = []
    if view["phase"] == "placing" and chain:
        frame = _frame(view)
        path = " → ".join(frame.name(c) for c in chain)
        n = len(chain)
        if current == me:
            text = ngettext(
                "You are placing: {path} ({n} tile); the next tile touches {cell}, or done",
                "You are placing: {path} ({n} tiles); the next tile touches {cell}, or done",
                n,
            )
        else:
            text = ngettext(
                "{name} is placing: {path} ({n} tile); the next tile touches {cell}, or done",
                "{name} is placing: {path} ({n} tiles); the next tile touches {cell}, or done",
                n,
            )
        said = text.format(name=names[current] if 0 <= current < len(names) else "?", path=path,
                           n=n, cell=frame.name(chain[-1]))  # fmt: skip
        parts = [[("class:turn", said)]]
        if view.get("bonus") is True:
            parts.append([("class:bonus", "★ " + _("bonus: one more action after this one"))])
        _line(out, width, parts)
    elif view["phase"] == "action" and num(view, "action") == 2:
        if current == me:
            said = _("Your bonus action: place, exchange, or done")
        else:
            said = _("{name}'s bonus action: place, exchange, or done").format(
                name=names[current] if 0 <= current < len(names) else "?")  # fmt: skip
        _line(out, width, [[("class:bonus", f"★ {said}")]])
    return out


def table(
    view: Mapping[str, Plain], names: Sequence[str], width: int = 80, rows: int = 99
) -> Fragments:
    """The public state: round, bag, display, players, the grid (in at most ``rows`` lines,
    centred on the last move) and the chain in progress."""
    out = _header(view, names, width)
    if view["phase"] != "setup":
        out += _grid(view, width, rows)
    return out


def _grid(
    view: Mapping[str, Plain], width: int, rows: int, fit: Sequence[Cell] = (),
    chosen: Cell | None = None,
) -> Fragments:  # fmt: skip
    tiles = placed(view)
    chain = _chain(view)
    marked = chain or ([tiles[-1][0]] if len(tiles) > 1 else [])
    focus = chosen or (chain[-1] if chain else tiles[-1][0] if tiles else None)
    return grid_lines(tiles, width, rows, focus, marked, fit, chosen)


def hand_lines(
    view: Mapping[str, Plain], width: int = 80, legal: Sequence[Move] = (),
    pick: int | None = None, chosen: Cell | None = None,
) -> Fragments:  # fmt: skip
    """The seat's tiles, numbered, those it may place now marked; then what to do: the cells
    where the tile picked (``pick``, a handle) fits, the tiles that fit, or how to draw;
    nothing for no seat."""
    if view.get("phase") in ("setup", None) or view_seat(view) is None:
        return []
    hand = numbered(view)
    can = {m[1] for m in legal if m[0] == "place"}
    parts: list[Fragments] = [[("class:title", _("Your tiles:"))]]
    for i, h, label in hand:
        index = "class:index.playable" if h in can or h == pick else "class:index"
        parts.append([(index, f"{i}:"), *glyph(label, "underline" if h == pick else "")])
    if not hand:
        parts.append([("class:dim", _("(none)"))])
    out: Fragments = []
    _line(out, width, parts, " ")
    hint = _hint(view, legal, hand, pick, chosen)
    if hint:
        out += join(wrap([("class:index.playable", hint)], width, 2))
    return out


def _hint(
    view: Mapping[str, Plain], legal: Sequence[Move], hand: list[tuple[int, int, str]],
    pick: int | None, chosen: Cell | None,
) -> str:  # fmt: skip
    frame = _frame(view)
    if pick is not None:
        i, label = next((i, label) for i, h, label in hand if h == pick)
        where = fits(view, pick, legal)
        if not where:
            return _("Tile {n} ({tile}) fits nowhere now").format(n=i, tile=tile_words(label))
        names = ", ".join(frame.name(c) for c in where)
        return _("Tile {n} fits at {cells}").format(n=i, cells=names)
    if not legal:
        return ""
    if view["phase"] == "draw":
        return _("Draw a tile: draw 1, 2… (the display) or draw bag")
    numbers = [str(i) for i, h, _label in hand if any(
        m[0] == "place" and m[1] == h for m in legal)]  # fmt: skip
    if numbers:
        return _("Fit: {numbers} (type place N to see where)").format(numbers=", ".join(numbers))
    if any(m[0] == "exchange" for m in legal):
        return _("Nothing fits: exchange N for D (or for bag)")
    return ""


LEAST = 40
"""The fewest columns Unikato's board is drawn in."""
GRID_LEAST = 5
"""The fewest lines the grid is given: what it leaves out, its column letters and three
rows of cells."""


def board(
    view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
    legal: Sequence[Move] = (), typed: str = "",
) -> Fragments:  # fmt: skip
    """The whole live board in at most ``rows`` lines of ``width`` columns: the table, the
    grid with every line left over (centred on the cell typed, else on the last move), the
    hand and the hint. While ``place N`` is typed the cells where tile N fits are named on
    the grid. Raises :class:`~lanparty.games.screens.TooSmall` when fewer than
    :data:`GRID_LEAST` lines would be left for the grid (or the width is under
    :data:`LEAST`)."""
    if view.get("phase") == "setup":
        return fit_first(width, rows, [lambda w: _header(view, names, w)], LEAST)
    pick, chosen = selected(typed, view)
    fit = fits(view, pick, legal) if pick is not None else []

    def drawn(w: int) -> Fragments:
        top = _header(view, names, w)
        bottom = hand_lines(view, w, legal, pick, chosen)
        room = max(rows - len(lines(top)) - len(lines(bottom)), GRID_LEAST)
        grid = _grid(view, w, room, fit, chosen if chosen in fit else None)
        return [*top, *grid, *bottom]

    return fit_first(width, rows, [drawn], LEAST)


def header(view: Mapping[str, Plain], names: Sequence[str]) -> str:
    """``"round 1 of 2 · bag 31 · Bea to play"`` (or ``"your turn"``; what the turn is at:
    a chain being laid, a bonus action, the draw); the game's end."""
    me = view_seat(view)
    rounds = num(view, "rounds")
    said = (_("round {n} of {rounds}") if rounds > 1 else _("round {n}")).format(
        n=num(view, "round"), rounds=rounds)  # fmt: skip
    phase = view["phase"]
    if phase == "setup":
        return said + " · " + _("dealing")
    if phase == "over":
        return said + " · " + _("game over")
    said += " · " + _("bag {n}").format(n=num(view, "bag"))
    current = num(view, "current")
    mine = current == me
    if phase == "draw":
        turn = _("your draw") if mine else _("{name} draws").format(name=names[current])
    elif phase == "placing":
        turn = _("you are placing") if mine else _("{name} is placing").format(
            name=names[current])  # fmt: skip
    elif phase == "action" and num(view, "action") == 2:
        turn = _("your bonus action") if mine else _("{name}'s bonus action").format(
            name=names[current])  # fmt: skip
    else:
        turn = turn_of(current, me, names)
    return f"{said} · {turn}"


def scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The score sheet so far: each round's points per player (-1 a tile left), who ended
    it and how, and the totals."""
    me = view_seat(view)
    by_round = [r for r in seq(view, "round_scores") if isinstance(r, list)]
    head: list[Fragments] = [[("class:title", _("Score sheet"))]]
    head += [[("class:title", _("round {n}").format(n=r))] for r in range(1, len(by_round) + 1)]
    head.append([("class:title", _("Total"))])
    rows = [head]
    for s in range(len(names)):
        row: list[Fragments] = [[("", player_name(names, s, me))]]
        row += [[("", str(r[s]) if s < len(r) else "")] for r in by_round]
        row.append([("class:title", str(whole(seq(view, "scores")[s])))])
        rows.append(row)
    out = join(table_rows(rows, "<" + ">" * (len(by_round) + 1), gap=3))
    for r, end in enumerate(seq(view, "round_ends"), 1):
        assert isinstance(end, dict)
        won = _(" and ").join(player_name(names, whole(s), me) for s in seq(end, "winners"))
        how = _("blocked, fewest tiles") if end["blocked"] else _("went out")
        out += [("class:dim", _("Round {n}: {names} ({how})").format(n=r, names=won, how=how)),
                ("", "\n")]  # fmt: skip
    return out


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What the prompt asks of the player now."""
    phase = view.get("phase")
    if phase == "draw":
        return _("draw from the display or the bag> ")
    if phase == "placing":
        return _("place the next tile, or done> ")
    if phase == "action" and view.get("action") == 2:
        return _("bonus action: place, exchange, or done> ")
    return _("place a tile or exchange one> ")


# --------------------------------------------------------------------------- commands


def _number(word: str, count: int) -> int:
    """The index (from 0) of display tile ``word`` (they are numbered from 1)."""
    if not word.isdigit() or not 1 <= int(word) <= count:
        said = _("{word} is not a display tile: they are numbered 1 to {n}")
        raise ParseError(said.format(word=repr(word), n=count))
    return int(word) - 1


def _tile(word: str, view: Mapping[str, Plain]) -> tuple[int, str]:
    """The hand tile (handle, label) whose number is ``word``; ``ParseError`` if none is."""
    hand = numbered(view)
    if not hand:
        raise ParseError(_("you are watching: you hold no tiles to play") if view_seat(view)
                         is None else _("you have no tiles"))  # fmt: skip
    for k, h, label in hand:
        if word.isdigit() and int(word) == k:
            return h, label
    yours = ", ".join(str(k) for k, _h, _label in hand)
    raise ParseError(_("{word} is not a tile of yours: yours are {numbers}").format(
        word=repr(word), numbers=yours))  # fmt: skip


def parse(head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
    """The move a Unikato command asks for (``head`` after aliases); raise ``ParseError``.

    A placement is checked against the grid in view (the engine's own placement rule), so a
    misfit is explained with the cell names on screen; the engine's ``check`` judges the rest.
    """
    if head in ("done", "pass"):
        if args:
            raise ParseError(humanize(f"'{head}' takes no arguments"))
        return (head,)
    if head == "place":
        return _parse_place(args, view)
    if head == "exchange":
        words = [w for w in args if w != "for"]
        if len(words) != 2:
            raise ParseError(_("exchange N for D: tile N of yours, display tile D (or bag)"))
        h, label = _tile(words[0], view)
        return ("exchange", h, label, _source(words[1], view))
    if head == "draw":
        if len(args) != 1:
            raise ParseError(_("draw D (a display tile) or draw bag"))
        return ("draw", _source(args[0], view))
    raise ParseError(
        _("unknown command '{command}' (type help, or press Tab)").format(command=text.split()[0])
    )


def _source(word: str, view: Mapping[str, Plain]) -> int | str:
    if word == "bag":
        return "bag"
    shown = cards(view, "display")
    if not shown:
        raise ParseError(_("the display is empty: take from the bag"))
    return shown[_number(word, len(shown))][0]


def _parse_place(args: list[str], view: Mapping[str, Plain]) -> Move:
    words = [w for w in args if w != "at"]
    if not words or len(words) > 2:
        raise ParseError(_("place N at CELL, e.g. place 3 at v21 (N: a tile of yours)"))
    h, label = _tile(words[0], view)
    frame = _frame(view)
    if len(words) == 1:
        where = fits(view, h)
        if len(where) != 1:
            names = ", ".join(frame.name(c) for c in where)
            said = _("it fits at {cells}").format(cells=names) if where else _(
                "it fits nowhere now")  # fmt: skip
            raise ParseError(_("place {n} at which cell? {fits}").format(n=words[0], fits=said))
        cell = where[0]
    else:
        found = frame.cell(words[1])
        if found is None:
            raise ParseError(_("{word} is not a cell: its column's letters, then its row's "
                               "number, e.g. u21").format(word=repr(words[1])))  # fmt: skip
        cell = found
    why = _misfit(view, cell, label, frame)
    if why:
        raise ParseError(_("Not allowed: {why}").format(why=why))
    return ("place", h, label, cell[0], cell[1])


def _misfit(view: Mapping[str, Plain], cell: Cell, label: str, frame: Frame) -> str | None:
    """Why ``label`` may not go on ``cell`` by the placement rule and the chain (the engine's
    board tells), with the cell names on screen; ``None`` if it may."""
    chain = _chain(view)
    if view.get("phase") == "placing" and chain and not touches(cell, chain[-1]):
        return humanize(
            f"each next tile must touch the tile you just placed, at {frame.name(chain[-1])}"
        )
    reason = board_of(placed(view)).misfit(cell, CODE[label])
    if reason is None:
        return None
    x, y = cell
    return humanize(reason.replace(f"cell ({x}, {y})", f"cell {frame.name(cell)}"))


def command_for(move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
    """The text :func:`parse` turns into ``move``, and what it does."""
    name = str(move[0])
    hand = {h: i for i, h, _label in numbered(view)}
    shown = {h: (i, label) for i, (h, label) in enumerate(cards(view, "display"), 1)}
    if name == "place":
        cell = (whole(move[3]), whole(move[4]))
        at = {c for c, _label in placed(view)}
        touching = sum((cell[0] + dx, cell[1] + dy) in at for dx, dy, _side in SIDES)
        what = tile_words(str(move[2]))
        if touching >= 2:
            bonus = view.get("action") == 1 and not view.get("bonus")
            what = (_("{tile}, touching {n}: bonus!") if bonus else _("{tile}, touching {n}")
                    ).format(tile=what, n=touching)  # fmt: skip
        return f"place {hand[whole(move[1])]} at {_frame(view).name(cell)}", what
    if name == "exchange":
        give = tile_words(str(move[2]))
        mine = hand[whole(move[1])]
        if move[3] == "bag":
            return f"exchange {mine} for bag", _("give {tile}, draw from the bag").format(
                tile=give)  # fmt: skip
        i, label = shown[whole(move[3])]
        return f"exchange {mine} for {i}", _("give {tile}, take {other}").format(
            tile=give, other=tile_words(label))  # fmt: skip
    if name == "draw":
        if move[1] == "bag":
            return "draw bag", _("a tile from the bag")
        i, label = shown[whole(move[1])]
        return f"draw {i}", _("take {tile}").format(tile=tile_words(label))
    if name == "done":
        return "done", _("end the chain") if view.get("phase") == "placing" else _(
            "no bonus action")  # fmt: skip
    return name, _("nothing can be placed or exchanged") if name == "pass" else ""


# --------------------------------------------------------------------------- the end


def final(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The end: how each round ended, every player's total (-1 per tile left at the end of
    each round) and who won; nothing for a game that did not end (its table stopped)."""
    if view.get("phase") != "over":
        return []
    me = view_seat(view)
    out: Fragments = [("class:title", _("Final scores")), ("", "\n")]
    for r, end in enumerate(seq(view, "round_ends"), 1):
        assert isinstance(end, dict)
        won = _(" and ").join(player_name(names, whole(s), me) for s in seq(end, "winners"))
        how = _("blocked, fewest tiles") if end["blocked"] else _("went out")
        out.append(("", "  " + _("Round {n}: {names} ({how})").format(n=r, names=won, how=how)
                     + "\n"))  # fmt: skip
    scores = [whole(s) for s in seq(view, "scores")]
    winners = [whole(s) for s in seq(view, "winners")]
    for s in sorted(range(len(scores)), key=lambda s: (-scores[s], s)):
        mark = "★ " if s in winners else "  "
        out += [("class:turn" if s in winners else "", f"{mark}{player_name(names, s, me):<16} "),
                ("", f"{scores[s]:>5}\n")]  # fmt: skip
    if winners:
        out.append(("class:title", won_line(winners, me, names) + "\n"))
    return out


SCREEN = gather_screen(__name__, glyphs, hand=hand_lines)
"""The game's screen (its plugin gives it to the terminal UI)."""

"""Unikato on the screen: the round, the bag and the display, each player's tiles, the grid
with its coordinates, the chain in progress and the bonus, the hand, and the commands, as
pure functions of one seat's view (:class:`lanparty.ui.base.GameScreen`; no prompt-toolkit).

Tiles in the hand are numbered from 1 (``place 3 at v21``), so are those on the display
(``exchange 3 for 2``, ``draw 2``, or ``bag``). While ``place 3`` is typed the grid names
the cells where tile 3 fits; the grid is cut to the terminal and centred on the last move (or
on the cell typed).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence

from lanparty.games.views import cards, num, seq
from lanparty.ui.base import Fragments, ParseError, player_name, view_seat
from protocol.contract import Move, Plain

from .board import SIDES, Cell, row_major, touches
from .glyphs import LEGEND, glyph, tile_name
from .glyphs import STYLES as TILE_STYLES
from .grid import Frame, board_of, frame_of, grid_lines, placed, whole
from .tiles import CODE

__all__ = [
    "SCREEN",
    "UnikatoScreen",
    "board",
    "command_for",
    "hand_of",
    "humanize",
    "parse",
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
    ("place N at CELL", "lay tile N of your hand on a cell, e.g. place 3 at v21"),
    ("place N", "…where it fits (the grid names the cells while you type it)"),
    ("done", "end your chain of tiles (or let a bonus action go)"),
    ("exchange N for D", "put tile N on the display, take display tile D (or: for bag)"),
    ("draw D / draw bag", "the end-of-turn draw: display tile D, or one from the bag"),
    ("pass", "nothing fits and nothing can be exchanged (made for you)"),
    *LEGEND,
)

_SELECT = re.compile(r"^\s*(?:place|p)\s+(\d+)(?:\s+(?:at\s+)?([a-z]+\d+))?\s*$")
_LABEL = re.compile(r"\b[csx][OPB][sml][WGK]\b")


# --------------------------------------------------------------------------- reading a view


def hand_of(view: Mapping[str, Plain]) -> list[tuple[int, str]]:
    """The seat's tiles as (handle, label) in the order shown and numbered from 1: by shape,
    colour, size, background."""
    return sorted(cards(view), key=lambda t: CODE[t[1]])


def _frame(view: Mapping[str, Plain]) -> Frame:
    return frame_of(cell for cell, _ in placed(view))


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
    hand = hand_of(view)
    if m is None or not 1 <= int(m.group(1)) <= len(hand):
        return None, None
    cell = _frame(view).cell(m.group(2)) if m.group(2) else None
    return hand[int(m.group(1)) - 1][0], cell


# --------------------------------------------------------------------------- drawing


def _line(out: Fragments, width: int, parts: Sequence[Fragments], sep: str = "  ") -> None:
    """Append ``parts`` to ``out`` on as few lines of ``width`` as they fit, ``sep`` between."""
    column = 0
    for given in parts:
        size = sum(len(text) for _, text in given)
        if size <= width or len(given) != 1:
            pieces = [given]
        else:  # one long text: in words, over several lines
            style, text = given[0]
            pieces = [[(style, line)] for line in textwrap.wrap(text, width)]
        for part in pieces:
            column = _place(out, width, part, sep, column)
    out.append(("", "\n"))


def _place(out: Fragments, width: int, part: Fragments, sep: str, column: int) -> int:
    """Append ``part`` at ``column`` (on a new line if it does not fit); the new column."""
    size = sum(len(text) for _, text in part)
    if column and column + len(sep) + size > width:
        out.append(("", "\n"))
        column = 0
    elif column:
        out.append(("", sep))
        column += len(sep)
    out += part
    return column + size


def _header(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
    """The round, the bag and the display; then each player's tiles (and points); then the
    chain in progress and the bonus."""
    me = view_seat(view)
    rounds = num(view, "rounds")
    title = f"Round {num(view, 'round')}" + (f" of {rounds}" if rounds > 1 else "")
    if view["phase"] == "setup":
        return [("class:title", title), ("class:dim", "  ·  the tiles are being shuffled and "
                                                    "dealt…\n")]  # fmt: skip
    out: Fragments = []
    parts: list[Fragments] = [[("class:title", title)], [("", f"bag {num(view, 'bag')}")]]
    shown = cards(view, "display")
    parts.append([("", "display:" if shown else "display: empty")])
    for i, (_, label) in enumerate(shown, 1):
        parts.append([("class:index", f"{i}:"), *glyph(label)])
    _line(out, width, parts)
    counts, scores = seq(view, "counts"), seq(view, "scores")
    current, over = num(view, "current"), view["phase"] == "over"
    players: list[Fragments] = []
    for s, count in enumerate(whole(c) for c in counts):
        turn = s == current and not over
        text = f"{'▶ ' if turn else ''}{player_name(names, s, me)} {count} tile{'s' * (count != 1)}"
        if rounds > 1:
            text += f" ({scores[s]!s} pts)"
        players.append([("class:turn" if turn else "", text)])
    _line(out, width, players, "  ·  ")
    out += _progress(view, names, me, width)
    return out


def _progress(
    view: Mapping[str, Plain], names: Sequence[str], me: int | None, width: int
) -> Fragments:
    """The chain being laid, the bonus earned, or the bonus action under way."""
    current = num(view, "current")
    who = "You are" if current == me else f"{names[current]} is"
    chain = _chain(view)
    out: Fragments = []
    if view["phase"] == "placing" and chain:
        frame = _frame(view)
        path = " → ".join(frame.name(c) for c in chain)
        n = len(chain)
        text = f"{who} placing: {path} ({n} tile{'s' * (n != 1)}); the next tile touches "
        parts = [[("class:turn", f"{text}{frame.name(chain[-1])}, or done")]]
        if view.get("bonus") is True:
            parts.append([("class:bonus", "★ bonus: one more action after this one")])
        _line(out, width, parts)
    elif view["phase"] == "action" and num(view, "action") == 2:
        whose = "Your" if current == me else f"{names[current]}'s"
        _line(out, width, [[("class:bonus", f"★ {whose} bonus action: place, exchange, or done")]])
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
    hand = hand_of(view)
    can = {m[1] for m in legal if m[0] == "place"}
    parts: list[Fragments] = [[("class:title", "Your tiles:")]]
    for i, (h, label) in enumerate(hand, 1):
        index = "class:index.playable" if h in can or h == pick else "class:index"
        parts.append([(index, f"{i}:"), *glyph(label, "underline" if h == pick else "")])
    if not hand:
        parts.append([("class:dim", "(none)")])
    out: Fragments = []
    _line(out, width, parts, " ")
    hint = _hint(view, legal, hand, pick, chosen)
    if hint:
        out += [("class:index.playable", hint[:width]), ("", "\n")]
    return out


def _hint(
    view: Mapping[str, Plain], legal: Sequence[Move], hand: list[tuple[int, str]],
    pick: int | None, chosen: Cell | None,
) -> str:  # fmt: skip
    frame = _frame(view)
    if pick is not None:
        i = next(i for i, (h, _) in enumerate(hand, 1) if h == pick)
        where = fits(view, pick, legal)
        label = dict(hand)[pick]
        if not where:
            return f"Tile {i} ({tile_name(label)[2:]}) fits nowhere now"
        names = ", ".join(frame.name(c) for c in where)
        return f"Tile {i} fits at {names}"
    if not legal:
        return ""
    if view["phase"] == "draw":
        return "Draw a tile: draw 1, 2… (the display) or draw bag"
    numbers = [str(i) for i, (h, _) in enumerate(hand, 1) if any(
        m[0] == "place" and m[1] == h for m in legal)]  # fmt: skip
    if numbers:
        return f"Fit: {', '.join(numbers)} (type place N to see where)"
    if any(m[0] == "exchange" for m in legal):
        return "Nothing fits: exchange N for D (or for bag)"
    return ""


def board(
    view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
    legal: Sequence[Move] = (), typed: str = "",
) -> Fragments:  # fmt: skip
    """The whole live board in at most ``rows`` lines: the table, the grid with the lines left
    over (centred on the cell typed, else on the last move), the hand and the hint. While
    ``place N`` is typed the cells where tile N fits are named on the grid."""
    if view.get("phase") == "setup":
        return _header(view, names, width)
    pick, chosen = selected(typed, view)
    top = _header(view, names, width)
    bottom = hand_lines(view, width, legal, pick, chosen)
    used = sum(text.count("\n") for _, text in [*top, *bottom])
    fit = fits(view, pick, legal) if pick is not None else []
    grid = _grid(view, width, max(rows - used, 4), fit, chosen if chosen in fit else None)
    return [*top, *grid, *bottom]


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What the prompt asks of the player now."""
    phase = view.get("phase")
    if phase == "draw":
        return "draw from the display or the bag> "
    if phase == "placing":
        return "place the next tile, or done> "
    if phase == "action" and view.get("action") == 2:
        return "bonus action: place, exchange, or done> "
    return "place a tile or exchange one> "


# --------------------------------------------------------------------------- commands


def _number(word: str, count: int, what: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= count:
        raise ParseError(f"{word!r} is not a {what}: they are numbered 1 to {count}")
    return int(word) - 1


def parse(head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
    """The move a Unikato command asks for (``head`` after aliases); raise ``ParseError``.

    A placement is checked against the grid in view (the engine's own placement rule), so a
    misfit is explained with the cell names on screen; the engine's ``check`` judges the rest.
    """
    if head in ("done", "pass"):
        if args:
            raise ParseError(f"'{head}' takes no arguments")
        return (head,)
    if head == "place":
        return _parse_place(args, view)
    if head == "exchange":
        words = [w for w in args if w != "for"]
        if len(words) != 2:
            raise ParseError("exchange N for D: tile N of yours, display tile D (or bag)")
        hand = hand_of(view)
        h, label = hand[_number(words[0], len(hand), "tile of yours")]
        return ("exchange", h, label, _source(words[1], view))
    if head == "draw":
        if len(args) != 1:
            raise ParseError("draw D (a display tile) or draw bag")
        return ("draw", _source(args[0], view))
    raise ParseError(f"unknown command '{text.split()[0]}' (type help, or press Tab)")


def _source(word: str, view: Mapping[str, Plain]) -> int | str:
    if word == "bag":
        return "bag"
    shown = cards(view, "display")
    if not shown:
        raise ParseError("the display is empty: take from the bag")
    return shown[_number(word, len(shown), "display tile")][0]


def _parse_place(args: list[str], view: Mapping[str, Plain]) -> Move:
    words = [w for w in args if w != "at"]
    if not words or len(words) > 2:
        raise ParseError("place N at CELL, e.g. place 3 at v21 (N: a tile of yours)")
    hand = hand_of(view)
    if not hand:
        raise ParseError("you have no tiles")
    h, label = hand[_number(words[0], len(hand), "tile of yours")]
    frame = _frame(view)
    if len(words) == 1:
        where = fits(view, h)
        if len(where) != 1:
            names = ", ".join(frame.name(c) for c in where)
            said = f"it fits at {names}" if where else "it fits nowhere now"
            raise ParseError(f"place {words[0]} at which cell? {said}")
        cell = where[0]
    else:
        found = frame.cell(words[1])
        if found is None:
            raise ParseError(f"{words[1]!r} is not a cell: its column's letters, then its "
                             "row's number, e.g. u21")  # fmt: skip
        cell = found
    why = _misfit(view, cell, label, frame)
    if why:
        raise ParseError(f"Not allowed: {why}")
    return ("place", h, label, cell[0], cell[1])


def _misfit(view: Mapping[str, Plain], cell: Cell, label: str, frame: Frame) -> str | None:
    """Why ``label`` may not go on ``cell`` by the placement rule and the chain (the engine's
    board tells), with the cell names on screen; ``None`` if it may."""
    chain = _chain(view)
    if view.get("phase") == "placing" and chain and not touches(cell, chain[-1]):
        return f"each next tile must touch the tile you just placed, at {frame.name(chain[-1])}"
    reason = board_of(placed(view)).misfit(cell, CODE[label])
    if reason is None:
        return None
    x, y = cell
    return humanize(reason.replace(f"cell ({x}, {y})", f"cell {frame.name(cell)}"))


def humanize(reason: str) -> str:
    """An engine message with tile labels in words: ``"cOsW"`` → ``"small orange circle on
    white"``."""
    return _LABEL.sub(lambda m: tile_name(m.group(0))[2:], reason)


def command_for(move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
    """The text :func:`parse` turns into ``move``, and what it does."""
    name = str(move[0])
    hand = {h: i for i, (h, _) in enumerate(hand_of(view), 1)}
    shown = {h: (i, label) for i, (h, label) in enumerate(cards(view, "display"), 1)}
    if name == "place":
        cell = (whole(move[3]), whole(move[4]))
        at = {c for c, _ in placed(view)}
        touching = sum((cell[0] + dx, cell[1] + dy) in at for dx, dy, _ in SIDES)
        what = tile_name(str(move[2]))[2:]
        if touching >= 2:
            bonus = view.get("action") == 1 and not view.get("bonus")
            what += f", touching {touching}" + (": bonus!" if bonus else "")
        return f"place {hand[whole(move[1])]} at {_frame(view).name(cell)}", what
    if name == "exchange":
        give = f"give {tile_name(str(move[2]))[2:]}"
        mine = hand[whole(move[1])]
        if move[3] == "bag":
            return f"exchange {mine} for bag", f"{give}, draw from the bag"
        i, label = shown[whole(move[3])]
        return f"exchange {mine} for {i}", f"{give}, take {tile_name(label)[2:]}"
    if name == "draw":
        if move[1] == "bag":
            return "draw bag", "a tile from the bag"
        i, label = shown[whole(move[1])]
        return f"draw {i}", f"take {tile_name(label)[2:]}"
    if name == "done":
        return "done", "end the chain" if view.get("phase") == "placing" else "no bonus action"
    return name, "nothing can be placed or exchanged" if name == "pass" else ""


# --------------------------------------------------------------------------- the end


def final(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The end: how each round ended, every player's total (-1 per tile left at the end of
    each round) and who won."""
    me = view_seat(view)
    out: Fragments = [("class:title", "Final scores"), ("", "\n")]
    for r, end in enumerate(seq(view, "round_ends"), 1):
        assert isinstance(end, dict)
        won = " and ".join(player_name(names, whole(s), me) for s in seq(end, "winners"))
        how = "blocked, fewest tiles" if end["blocked"] else "went out"
        out.append(("", f"  Round {r}: {won} ({how})\n"))
    scores = [whole(s) for s in seq(view, "scores")]
    winners = [whole(s) for s in seq(view, "winners")]
    for s in sorted(range(len(scores)), key=lambda s: (-scores[s], s)):
        mark = "★ " if s in winners else "  "
        out += [("class:turn" if s in winners else "", f"{mark}{player_name(names, s, me):<16} "),
                ("", f"{scores[s]:>5}\n")]  # fmt: skip
    if winners:
        won = " and ".join("you" if s == me else names[s] for s in winners)
        verb = "win" if me in winners or len(winners) > 1 else "wins"
        out.append(("class:title", f"{won[0].upper()}{won[1:]} {verb} the game!\n"))
    return out


class UnikatoScreen:
    """Unikato's :class:`~lanparty.ui.base.GameScreen`, with the optional whole ``board``."""

    styles = STYLES
    aliases = ALIASES

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """See :func:`table`."""
        return table(view, names, width)

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """See :func:`hand_lines`."""
        return hand_lines(view, width, legal)

    def board(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
        legal: Sequence[Move], typed: str,
    ) -> Fragments:  # fmt: skip
        """See :func:`board`."""
        return board(view, names, width, rows, legal, typed)

    def prompt(self, view: Mapping[str, Plain], can_decline: bool) -> str:
        """See :func:`prompt`."""
        return prompt(view, can_decline)

    def parse(self, head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
        """See :func:`parse`."""
        return parse(head, args, text, view)

    def command_for(self, move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
        """See :func:`command_for`."""
        return command_for(move, view)

    def help(self) -> Sequence[tuple[str, str]]:
        """Unikato's commands, then how to read a tile and the grid."""
        return HELP

    def humanize(self, reason: str) -> str:
        """See :func:`humanize`."""
        return humanize(reason)

    def final(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """See :func:`final`."""
        return final(view, names)


SCREEN = UnikatoScreen()

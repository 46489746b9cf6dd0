"""The grid on the screen: cell names (``u21``), the part of the grid that fits the terminal,
and the rows that draw it. Pure functions of a seat's view; no prompt-toolkit here.

Cells are named like a spreadsheet's: columns ``a``…``z``, ``aa``, ``ab``…, rows ``1``, ``2``…
from the top. The names stay put while the grid grows: the starting tile is ``u21``, twenty
free columns and rows before it (only a grid that grows further left or up than that renames
its cells). The board draws the tiles with one free cell around them, and names its columns
and rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from lanparty.games.screens import Fragments
from lanparty.games.views import seq
from lanparty.i18n import _
from protocol.contract import Plain

from .board import Board, Cell
from .glyphs import WIDTH, glyph
from .tiles import CODE

__all__ = [
    "SLOT",
    "Frame",
    "board_of",
    "column_index",
    "column_name",
    "frame_of",
    "grid_lines",
    "placed",
    "whole",
    "window",
]

SLOT = WIDTH
"""Columns of the terminal per cell: a glyph, its edges (``[`` … ``]``) parting it from the next."""

_CELL = re.compile(r"^([a-z]+)(\d+)$")


def whole(value: object) -> int:
    """``value`` as an int (a handle or a coordinate of a move or view); ``TypeError`` if it
    is not one."""
    if type(value) is not int:
        raise TypeError(f"{value!r} is not a whole number")
    return value


def column_name(i: int) -> str:
    """Column ``i`` (from 0) as letters: ``a``…``z``, ``aa``, ``ab``…"""
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(97 + r) + name
    return name


def column_index(name: str) -> int:
    """Inverse of :func:`column_name` (``ValueError`` unless ``name`` is lower-case letters)."""
    if not name or not name.isascii() or not name.isalpha() or not name.islower():
        raise ValueError(f"{name!r} is not a column")
    i = 0
    for ch in name:
        i = i * 26 + ord(ch) - 96
    return i - 1


MARGIN = 20
"""Columns (and rows) named before the starting tile's: it is ``u21``."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The part of the grid drawn: ``cols`` × ``rows`` cells from ``(x0, y0)`` (the tiles'
    bounding box with one free cell around it); cells are named from ``(ox, oy)``, which is
    ``a1``."""

    x0: int
    y0: int
    cols: int
    rows: int
    ox: int
    oy: int

    def name(self, cell: Cell) -> str:
        """The name of ``cell`` (``"u21"``)."""
        return f"{column_name(cell[0] - self.ox)}{cell[1] - self.oy + 1}"

    def cell(self, name: str) -> Cell | None:
        """The cell called ``name``, or ``None`` if no cell is."""
        m = _CELL.match(name.strip().lower())
        if m is None or int(m.group(2)) < 1:
            return None
        return (self.ox + column_index(m.group(1)), self.oy + int(m.group(2)) - 1)


def placed(view: Mapping[str, Plain]) -> list[tuple[Cell, str]]:
    """The tiles on the grid, in the order they were laid: ``((x, y), label)``."""
    out: list[tuple[Cell, str]] = []
    for item in seq(view, "grid"):
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise TypeError(f"view field 'grid' holds {item!r}, not (x, y, label)")
        x, y, label = item
        if type(x) is not int or type(y) is not int or not isinstance(label, str):
            raise TypeError(f"view field 'grid' holds {item!r}, not (x, y, label)")
        out.append(((x, y), label))
    return out


def board_of(tiles: Iterable[tuple[Cell, str]]) -> Board:
    """The engine's board for ``tiles`` (what fits where)."""
    board = Board()
    for cell, label in tiles:
        board.add(cell, CODE[label])
    return board


def frame_of(cells: Iterable[Cell]) -> Frame:
    """The frame around ``cells`` (one free cell on every side; the start alone if none)."""
    xs, ys = [0], [0]
    for x, y in cells:
        xs.append(x)
        ys.append(y)
    x0, y0 = min(xs) - 1, min(ys) - 1
    return Frame(x0, y0, max(xs) + 2 - x0, max(ys) + 2 - y0, min(x0, -MARGIN), min(y0, -MARGIN))


def window(frame: Frame, focus: Cell | None, cols: int, rows: int) -> tuple[int, int, int, int]:
    """The part of ``frame`` shown in ``cols`` × ``rows`` cells: ``(first column, first row,
    columns, rows)`` in frame indexes, all of it if it fits, else centred on ``focus`` (the
    frame's centre if ``None``) and kept inside the frame."""
    fx, fy = (
        focus if focus is not None else (frame.x0 + frame.cols // 2, frame.y0 + frame.rows // 2)
    )

    def span(size: int, fit: int, at: int) -> tuple[int, int]:
        fit = max(1, fit)
        if size <= fit:
            return 0, size
        return max(0, min(at - fit // 2, size - fit)), fit

    c0, nc = span(frame.cols, cols, fx - frame.x0)
    r0, nr = span(frame.rows, rows, fy - frame.y0)
    return c0, r0, nc, nr


def grid_lines(
    tiles: Sequence[tuple[Cell, str]],
    width: int,
    rows: int,
    focus: Cell | None = None,
    marked: Iterable[Cell] = (),
    fits: Iterable[Cell] = (),
    chosen: Cell | None = None,
) -> Fragments:
    """The grid in at most ``rows`` lines (the column letters included) and ``width``
    columns, centred on ``focus`` if it does not fit: each tile a glyph (``marked`` ones
    underlined: the chain or the last move), ``·`` on each free cell next to a tile where
    some tile could go, and the name of each cell in ``fits`` (``chosen`` highlighted)."""
    frame = frame_of(cell for cell, _ in tiles)
    at = dict(tiles)
    board = board_of(tiles)
    label_w = len(str(frame.y0 + frame.rows - frame.oy)) + 1
    fit_cols = (width - label_w) // SLOT
    c0, r0, nc, nr = window(frame, focus, fit_cols, rows - 1)
    letters = [column_name(frame.x0 + c - frame.ox) for c in range(c0, c0 + nc)]
    head = (" " * label_w + "".join(name.center(SLOT) for name in letters)).rstrip()
    more = _hidden(frame, c0, r0, nc, nr)
    out: Fragments = []
    if more and len(head) + len(more) + 2 > width:  # no room beside the letters: a line above
        c0, r0, nc, nr = window(frame, focus, fit_cols, rows - 2)
        out += [("class:warn", _hidden(frame, c0, r0, nc, nr)[:width]), ("", "\n")]
        out += [("class:dim", head), ("", "\n")]
    else:
        out += [("class:dim", head), ("class:warn", f"  {more}" if more else ""), ("", "\n")]
    for r in range(r0, r0 + nr):
        y = frame.y0 + r
        out.append(("class:dim", f"{y - frame.oy + 1:>{label_w - 1}} "))
        for c in range(c0, c0 + nc):
            cell = (frame.x0 + c, y)
            label = at.get(cell)
            if cell in fits and label is None:
                style = "class:cell.chosen" if cell == chosen else "class:cell.fit"
                out.append((style, f"[{frame.name(cell)}]"[:SLOT].center(SLOT)))
            elif label is not None:
                out += glyph(label, "underline" if cell in marked else "")
            elif board.fits.get(cell):
                out.append(("class:dim", "·".center(SLOT)))
            else:
                out.append(("", " " * SLOT))
        out.append(("", "\n"))
    return _trim(out)


def _hidden(frame: Frame, c0: int, r0: int, nc: int, nr: int) -> str:
    """How much of ``frame`` the window leaves out, per side (``""`` if nothing)."""
    sides = (("◀", c0), ("▶", frame.cols - c0 - nc), ("▲", r0), ("▼", frame.rows - r0 - nr))
    more = " ".join(f"{arrow}{n}" for arrow, n in sides if n > 0)
    return _("{sides} hidden").format(sides=more) if more else ""


def _trim(fragments: Fragments) -> Fragments:
    """Strip trailing blanks at the end of each line (a short terminal line wraps less)."""
    out: Fragments = []
    for style, text in fragments:
        if text == "\n":
            while out and out[-1][0] == "" and out[-1][1].strip() == "" and out[-1][1] != "\n":
                out.pop()
        out.append((style, text))
    return out

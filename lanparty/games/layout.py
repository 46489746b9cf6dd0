"""Laying a board out in a terminal's cells: lines of styled fragments measured in columns
(:mod:`lanparty.games.cells`), wrapped at spaces, flowed, set in aligned columns, and the
first of a game's layouts that fits the space the table gives the board (else
:class:`~lanparty.games.screens.TooSmall`: nothing is ever cut).

A *line* here is a fragment list with no newline in it; :func:`join` makes the lines one
fragment list again, each line ended by a newline.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lanparty.games.cells import cells
from lanparty.games.screens import Fragments, TooSmall

__all__ = [
    "Lines",
    "extent",
    "fit_first",
    "flow",
    "in_columns",
    "join",
    "line_width",
    "lines",
    "table_rows",
    "wrap",
]

Lines = list[Fragments]
"""Lines of styled text, none holding a newline."""


def lines(fragments: Fragments) -> Lines:
    """``fragments`` split into its lines (a last newline ends the last line; it opens no
    empty one)."""
    out: Lines = [[]]
    for style, text in fragments:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append([])
            if part:
                out[-1].append((style, part))
    if len(out) > 1 and not out[-1]:
        out.pop()
    return out if out != [[]] else []


def join(rows: Sequence[Fragments]) -> Fragments:
    """``rows`` as one fragment list, each line ended by a newline."""
    out: Fragments = []
    for row in rows:
        out += row
        out.append(("", "\n"))
    return out


def line_width(line: Fragments) -> int:
    """The columns one line takes."""
    return sum(cells(text) for _style, text in line)


def extent(fragments: Fragments) -> tuple[int, int]:
    """``(columns, rows)``: the widest line of ``fragments`` and how many lines it has."""
    rows = lines(fragments)
    return max((line_width(row) for row in rows), default=0), len(rows)


def wrap(line: Fragments, width: int, indent: int = 0) -> Lines:
    """One line of styled text broken at spaces into lines of at most ``width`` columns,
    the later ones indented by ``indent``. A word is never broken: one wider than a line
    stands alone on it and passes ``width`` (a board then finds it does not fit)."""
    out: Lines = [[]]
    column, space = 0, ("", "")
    for style, text in line:
        for token in re.findall(r"\s+|\S+", text):
            if token.isspace():
                space = (space[0] or style, space[1] + token)
                continue
            size = cells(token)
            if column > indent and column + cells(space[1]) + size > width:
                out.append([("", " " * indent)] if indent else [])
                column, space = indent, ("", "")
            if space[1] and (column or len(out) == 1):  # a first line keeps its indent
                out[-1].append(space)
                column += cells(space[1])
            space = ("", "")
            out[-1].append((style, token))
            column += size
    return out


def flow(items: Sequence[Fragments], width: int, sep: str = "  ", indent: int = 0,
         first: int = 0) -> Lines:  # fmt: skip
    """``items`` (each a short line kept whole) one after another, ``sep`` between them, a
    new line (indented by ``indent``) whenever the next one would pass ``width``; the first
    line starts at column ``first`` (after what the caller puts before it). An item wider
    than a line is wrapped at its spaces (:func:`wrap`: a word is never broken)."""
    out: Lines = [[]]
    column = first
    for item in items:
        size = line_width(item)
        if column > max(first, indent) and column + len(sep) + size > width:
            out.append([("", " " * indent)] if indent else [])
            column = indent
        elif out[-1] and column > indent:
            out[-1].append(("", sep))
            column += len(sep)
        if column + size > width:
            pieces = wrap(item, width - column)
            out[-1] += pieces[0]
            for piece in pieces[1:]:
                out.append([("", " " * indent), *piece] if indent else list(piece))
            column = (indent if len(pieces) > 1 else column) + line_width(pieces[-1])
            continue
        out[-1] += item
        column += size
    return out


def table_rows(rows: Sequence[Sequence[Fragments]], aligns: str, gap: int = 2) -> Lines:
    """``rows`` of cells (each a short line) set in aligned columns, ``gap`` spaces apart:
    column ``k`` left-aligned (``"<"``) or right-aligned (``">"``) as ``aligns[k]`` says,
    as wide as its widest cell (in columns, wide characters counted twice). The last column
    is not padded on the right."""
    n = max((len(row) for row in rows), default=0)
    widths = [max((line_width(row[k]) for row in rows if k < len(row)), default=0)
              for k in range(n)]  # fmt: skip
    out: Lines = []
    for row in rows:
        line: Fragments = []
        for k, cell in enumerate(row):
            room = widths[k] - line_width(cell)
            last = k == len(row) - 1 or all(line_width(c) == 0 for c in row[k + 1 :])
            if k:
                line.append(("", " " * gap))
            if aligns[k] == ">":
                line += [("", " " * room), *cell]
            else:
                line += cell
                if not last:
                    line.append(("", " " * room))
            if last:
                break
        out.append([f for f in line if f[1]])
    return out


def in_columns(items: Sequence[Fragments], count: int, gap: int = 3) -> Lines:
    """``items`` (lines) in ``count`` columns, filled top to bottom then left to right, each
    column as wide as its widest item, ``gap`` spaces between the columns."""
    count = max(1, count)
    per = -(-len(items) // count)
    cols = [list(items[k * per : (k + 1) * per]) for k in range(count)]
    cols = [c for c in cols if c]
    widths = [max(line_width(i) for i in col) for col in cols]
    out: Lines = []
    for r in range(per):
        line: Fragments = []
        for k, col in enumerate(cols):
            if r >= len(col):
                continue
            if k:
                line.append(("", " " * gap))
            line += col[r]
            if k < len(cols) - 1 and r < len(cols[k + 1]):
                line.append(("", " " * (widths[k] - line_width(col[r]))))
        out.append(line)
    return out


Layout = Callable[[int], Fragments]
"""A way to draw a board in ``width`` columns (as many lines as it takes)."""


def fit_first(width: int, rows: int, layouts: Sequence[Layout], least: int) -> Fragments:
    """The first of ``layouts`` (the richest first) that fits ``width`` × ``rows``, drawn at
    ``width``. Raises :class:`TooSmall` when none does, asking for a size one of them fits
    in whole: at this width (at least ``least``) the fewest rows any layout as wide takes;
    if none is, the most compact one widened until no line of it passes its width."""
    at = max(width, least)
    fewest: int | None = None
    for layout in layouts:
        drawn = layout(at)
        columns, needed = extent(drawn)
        if columns <= at:
            if width >= least and needed <= rows:
                return drawn
            fewest = needed if fewest is None else min(fewest, needed)
    if fewest is not None:
        raise TooSmall(at, max(fewest, 1))
    for _widen in range(64):  # a line that passes the width asks for more: until none does
        columns, needed = extent(layouts[-1](at))
        if columns <= at:
            break
        at = columns
    raise TooSmall(at, max(needed, 1))

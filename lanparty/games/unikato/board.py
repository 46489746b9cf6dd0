"""The unbounded grid: which tile lies where, which codes fit each open cell, and why a tile
does not fit. Pure geometry over codes; the engine and the bots share it.

Cells are ``(x, y)``: x grows to the right, y grows downwards (row by row, as a screen shows
it). The starting tile lies at ``(0, 0)``. Two tiles touch when they share an edge.
"""

from __future__ import annotations

from typing import TypeAlias

from .tiles import ALL, COMPAT, describe, differences

Cell: TypeAlias = tuple[int, int]

SIDES: tuple[tuple[int, int, str], ...] = (
    (0, -1, "above it"),
    (1, 0, "to its right"),
    (0, 1, "below it"),
    (-1, 0, "to its left"),
)
"""The four edge neighbours of a cell, with how a message names each."""

_COUNT = {2: "two", 3: "three", 4: "four"}


def row_major(cell: Cell) -> tuple[int, int]:
    """Sort key: top row first, then left to right."""
    return cell[1], cell[0]


def touches(a: Cell, b: Cell) -> bool:
    """Do cells ``a`` and ``b`` share an edge?"""
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


class Board:
    """Tiles on the grid (``at``: cell → code) and, for every empty cell that touches at
    least one tile, the mask of the codes that differ in exactly one feature from each tile
    it touches (``fits``; 0 when nothing fits)."""

    __slots__ = ("at", "fits")

    def __init__(self) -> None:
        self.at: dict[Cell, int] = {}
        self.fits: dict[Cell, int] = {}

    def neighbours(self, cell: Cell) -> int:
        """How many tiles touch ``cell``."""
        x, y = cell
        at = self.at
        return sum((x + dx, y + dy) in at for dx, dy, _ in SIDES)

    def add(self, cell: Cell, code: int) -> int:
        """Lay ``code`` on the empty ``cell``; return how many tiles it touches."""
        x, y = cell
        at, fits = self.at, self.fits
        at[cell] = code
        fits.pop(cell, None)
        mask = COMPAT[code]
        touching = 0
        for dx, dy, _ in SIDES:
            n = (x + dx, y + dy)
            if n in at:
                touching += 1
            else:
                fits[n] = fits.get(n, ALL) & mask
        return touching

    def fits_at(self, cell: Cell, code: int) -> bool:
        """May ``code`` be laid on ``cell`` (empty, touching a tile, fitting every one)?"""
        return self.fits.get(cell, 0) >> code & 1 == 1

    def open_cells(self) -> list[Cell]:
        """Every empty cell where some tile would fit, top row first."""
        return sorted((c for c, m in self.fits.items() if m), key=row_major)

    def placeable(self) -> dict[int, Cell]:
        """Each code that fits somewhere, with the first such cell (top row first)."""
        out: dict[int, Cell] = {}
        for cell in sorted(self.fits, key=row_major):
            mask = self.fits[cell]
            while mask:
                low = mask & -mask
                out.setdefault(low.bit_length() - 1, cell)
                mask ^= low
        return out

    def misfit(self, cell: Cell, code: int) -> str | None:
        """Why ``code`` may not be laid on ``cell`` (for a player), or ``None`` if it may."""
        at = self.at
        x, y = cell
        if cell in at:
            return f"cell ({x}, {y}) already holds the {describe(at[cell])}"
        if cell not in self.fits:
            return f"cell ({x}, {y}) touches no tile: a tile must share an edge with one"
        for dx, dy, side in SIDES:
            other = at.get((x + dx, y + dy))
            if other is None:
                continue
            diff = differences(code, other)
            if not diff:
                return f"the {describe(code)} is already {side}: every tile exists once"
            if len(diff) != 1:
                listed = diff[0] if len(diff) == 1 else ", ".join(diff[:-1]) + " and " + diff[-1]
                count = _COUNT.get(len(diff), str(len(diff)))
                return (
                    f"that tile ({describe(code)}) differs from the {describe(other)} {side} "
                    f"in {count} features: {listed}; touching tiles differ in exactly one"
                )
        return None


__all__ = ["SIDES", "Board", "Cell", "row_major", "touches"]

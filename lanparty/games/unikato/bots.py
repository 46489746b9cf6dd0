"""A Unikato strategy over one seat's view: lay the longest chain it can find (a bonus action
counts as one more tile), exchange its least useful tile for one that fits now (else for a
tile from the bag), draw what fits, and never pass while it can place."""

from __future__ import annotations

import random
from collections.abc import Sequence

from lanparty.games.views import cards, num, seq
from protocol.contract import Move, Plain

from .board import SIDES, Board, Cell
from .tiles import ALL, CODE, COMPAT, LABEL

_STEPS = tuple((dx, dy) for dx, dy, _ in SIDES)


def _board(view: dict[str, Plain]) -> Board:
    board = Board()
    for item in seq(view, "grid"):
        if not isinstance(item, list | tuple) or len(item) != 3:
            raise TypeError(f"view field 'grid' holds {item!r}, not (x, y, label)")
        x, y, label = item
        if type(x) is not int or type(y) is not int or not isinstance(label, str):
            raise TypeError(f"view field 'grid' holds {item!r}, not (x, y, label)")
        board.add((x, y), CODE[label])
    return board


def _cell(at: dict[Cell, int], cell: Cell) -> tuple[int, int]:
    """(mask of the codes that fit ``cell``, how many tiles touch it)."""
    x, y = cell
    mask, count = ALL, 0
    for dx, dy in _STEPS:
        other = at.get((x + dx, y + dy))
        if other is not None:
            mask &= COMPAT[other]
            count += 1
    return mask, count


class HeuristicBot:
    """A sensible player; it reads only its own view and is deterministic."""

    budget = 3000  # chain-search nodes per decision: bounds the time on a crowded grid
    bonus_worth = 1.0  # a bonus action is worth about one more tile
    _nodes = 0

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The best-looking legal move (``rng`` unused)."""
        moves = [m for m in legal if m is not None]
        if len(moves) <= 1:
            return moves[0] if moves else None
        board = _board(view)
        hand = [(h, CODE[label]) for h, label in cards(view)]
        if view["phase"] == "draw":
            return self._pick(moves, self._draw(view, board))
        places = [m for m in moves if m[0] == "place"]
        if places:
            return self._best_place(view, board, hand, places)
        names = {m[0] for m in moves}
        if "exchange" in names:
            return self._pick(moves, self._exchange(view, board, hand))
        if "done" in names:
            return ("done",)
        return moves[0]  # a pass: nothing else is possible

    # ------------------------------------------------------------------ placing

    def _best_place(
        self, view: dict[str, Plain], board: Board, hand: list[tuple[int, int]], places: list[Move]
    ) -> Move:
        return self._ranked_places(view, board, hand, places)[0]

    def _ranked_places(
        self, view: dict[str, Plain], board: Board, hand: list[tuple[int, int]], places: list[Move]
    ) -> list[Move]:
        """``places``, best first by the length of the chain each starts (a bonus action
        counting as one more tile), then by the tiles it touches; ties in listing order."""
        bonus_counts = view["action"] == 1 and not view["bonus"]
        at = dict(board.at)
        codes = {h: code for h, code in hand}
        self._nodes = 0
        keyed: list[tuple[tuple[float, int, int], int, Move]] = []
        for i, move in enumerate(places):
            h, cell = move[1], (move[3], move[4])
            code = codes[h]  # type: ignore[index]
            touching = _cell(at, cell)[1]  # type: ignore[arg-type]
            rest = [c for c in codes.values() if c != code]
            at[cell] = code  # type: ignore[index]
            tiles, bonus = self._extend(at, cell, rest)  # type: ignore[arg-type]
            del at[cell]  # type: ignore[arg-type]
            bonus = bonus or touching >= 2
            key = (1 + tiles + self.bonus_worth * (bonus and bonus_counts), 1 + tiles, touching)
            keyed.append((key, -i, move))
        keyed.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return [move for _key, _i, move in keyed]

    def ranked(self, view: dict[str, Plain], legal: Sequence[Move | None]) -> list[Move]:
        """The placements in ``legal``, best first (see :meth:`_ranked_places`), then the
        exchanges of the tile the rules of thumb would give away."""
        moves = [m for m in legal if m is not None]
        board = _board(view)
        hand = [(h, CODE[label]) for h, label in cards(view)]
        places = [m for m in moves if m[0] == "place"]
        out = self._ranked_places(view, board, hand, places) if places else []
        if hand and any(m[0] == "exchange" for m in moves):
            h, _code = min(hand, key=lambda t: self._worth(board, t[1]))
            out += [m for m in moves if m[0] == "exchange" and m[1] == h]
        return out

    def _extend(self, at: dict[Cell, int], last: Cell, rest: list[int]) -> tuple[int, bool]:
        """The longest continuation of a chain ending at ``last`` with tiles ``rest``: (tiles,
        whether one of them touches two tiles or more)."""
        best = (0, False)
        if not rest or self._nodes >= self.budget:
            return best
        x, y = last
        for dx, dy in _STEPS:
            cell = (x + dx, y + dy)
            if cell in at:
                continue
            mask, touching = _cell(at, cell)
            for i, code in enumerate(rest):
                self._nodes += 1
                if not mask >> code & 1:
                    continue
                at[cell] = code
                tiles, bonus = self._extend(at, cell, rest[:i] + rest[i + 1 :])
                del at[cell]
                found = (tiles + 1, bonus or touching >= 2)
                if found > best:
                    best = found
                if best[0] == len(rest):
                    return best
        return best

    # ------------------------------------------------------------------ exchanging, drawing

    @staticmethod
    def _worth(board: Board, code: int) -> tuple[int, int]:
        """(open cells it fits now, tiles on the grid it could touch one day)."""
        spots = sum(1 for mask in board.fits.values() if mask >> code & 1)
        grid = 0
        for c in board.at.values():
            grid |= 1 << c
        return spots, (COMPAT[code] & grid).bit_count()

    def _exchange(
        self, view: dict[str, Plain], board: Board, hand: list[tuple[int, int]]
    ) -> Move | None:
        if not hand:
            return None
        h, code = min(hand, key=lambda t: self._worth(board, t[1]))
        take = self._source(view, board)
        if view["action"] == 2 and take is None:
            return ("done",)
        return ("exchange", h, LABEL[code], take if take is not None else self._best_shown(view))

    def _draw(self, view: dict[str, Plain], board: Board) -> Move:
        take = self._source(view, board)
        return ("draw", take if take is not None else self._best_shown(view))

    def _source(self, view: dict[str, Plain], board: Board) -> int | str | None:
        """A display tile that fits now, else the bag if it holds any; ``None`` if neither."""
        shown = cards(view, "display")
        if shown:
            h, label = max(shown, key=lambda t: self._worth(board, CODE[t[1]]))
            if self._worth(board, CODE[label])[0]:
                return h
        return "bag" if num(view, "bag") else None

    def _best_shown(self, view: dict[str, Plain]) -> int | str:
        board = _board(view)
        shown = cards(view, "display")
        if not shown:
            return "bag"
        return max(shown, key=lambda t: self._worth(board, CODE[t[1]]))[0]

    @staticmethod
    def _pick(moves: list[Move], wanted: Move | None) -> Move:
        return wanted if wanted is not None and wanted in moves else moves[0]

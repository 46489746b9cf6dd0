"""Unikato in words: one seat's log of the game, told only from what that seat may know (see
:mod:`lanparty.narrate`).

Every move is public (a tile leaving a hand is shown), so a move is told from itself and the
view before it; table results (the deal, a new display, a tile from the bag) are told from the
change in the seat's own view, which is all a networked seat has. Cells are named as on the
board right after the move (``grid.Frame``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanparty.games.views import cards
from lanparty.narrate import BaseNarrator
from protocol.contract import Move, Plain, Result, Seat

from .board import SIDES, Cell
from .glyphs import tile_name
from .grid import frame_of, placed, whole
from .state import HAND

__all__ = ["UnikatoNarrator"]


def _list(view: Mapping[str, Plain], key: str) -> list[object]:
    value = view.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def _tiles(labels: Sequence[str]) -> str:
    return ", ".join(tile_name(label) for label in labels)


class UnikatoNarrator(BaseNarrator):
    """The log of seat ``seat`` (called "you")."""

    def narrate(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:  # fmt: skip
        """A move by ``seat`` told from the move itself, or a result (``seat`` None) told
        from the change it made to the view; then any round it ended."""
        if seat is not None and isinstance(item, tuple):
            self._move(seat, item, before)
            self._ends(before, after)
        else:
            self.changes(before, after)

    # ------------------------------------------------------------------ moves

    def _move(self, seat: Seat, move: Move, before: Mapping[str, Plain]) -> None:
        name = move[0]
        if name == "place":
            self._place(seat, move, before)
        elif name == "done":
            if before.get("phase") == "placing":
                n = len(_list(before, "chain"))
                chain = f"{n} tile{'s' * (n != 1)}"
                self._act(seat, (f"end your chain: {chain}", f"ends the chain: {chain}"))
                if before.get("bonus") is True and before.get("action") == 1:
                    self.lines[-1] += "; a bonus action follows"
            else:
                self._act(seat, ("let the bonus action go", "lets the bonus action go"))
        elif name == "exchange":
            out = tile_name(str(move[2]))
            put = (f"put {out} on the display", f"puts {out} on the display")
            if move[3] == "bag":
                if seat == self.seat:  # the tile drawn is told once it arrives
                    self._act(seat, put)
                else:
                    self._act(seat, put, ("draw from the bag", "draws from the bag"))
            else:
                taken = tile_name(dict(cards(before, "display"))[whole(move[3])])
                self._act(seat, put, (f"take {taken}", f"takes {taken}"))
        elif name == "draw":
            if move[1] != "bag":
                taken = tile_name(dict(cards(before, "display"))[whole(move[1])])
                self._act(seat, (f"take {taken} from the display",
                                 f"takes {taken} from the display"))  # fmt: skip
            elif seat != self.seat:
                self._act(seat, ("draw from the bag", "draws a tile from the bag"))
        elif name == "pass":
            self._act(seat, ("pass: nothing to place or exchange",
                             "passes: nothing to place or exchange"))  # fmt: skip

    def _place(self, seat: Seat, move: Move, before: Mapping[str, Plain]) -> None:
        cell: Cell = (whole(move[3]), whole(move[4]))
        tiles = placed(before)
        at = {c for c, _ in tiles}
        where = frame_of([*at, cell]).name(cell)
        tile = tile_name(str(move[2]))
        self._act(seat, (f"place {tile} at {where}", f"places {tile} at {where}"))
        touching = sum((cell[0] + dx, cell[1] + dy) in at for dx, dy, _ in SIDES)
        if touching >= 2:
            self.lines[-1] += f", touching {touching} tiles"
            if before.get("bonus") is not True and before.get("action") == 1:
                self.lines[-1] += ": a bonus action"

    # ------------------------------------------------------------------ changes

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Tell what a table result changed in the view: a round dealt and opened, a new
        display, the tile the bag gave this seat, a round ended, the game over."""
        if not after:
            return
        self._ends(before, after)
        was = before.get("phase", "setup") if before else "setup"
        now = after.get("phase")
        if was == "setup" and now not in ("setup", "over"):
            self._opening(after)
            return
        if now == "setup":
            return
        mine = {h for h, _ in cards(before)} if before else set()
        shown_before = {h for h, _ in cards(before, "display")} if before else set()
        drawn = [label for h, label in cards(after) if h not in mine and h not in shown_before]
        if drawn:
            self.lines.append(f"You draw {_tiles(drawn)} from the bag")
        fresh = [label for h, label in cards(after, "display") if h not in shown_before]
        if fresh and not shown_before:
            self.lines.append(f"A new display: {_tiles(fresh)}")

    def _opening(self, after: Mapping[str, Plain]) -> None:
        start = placed(after)[0][1]
        shown = [label for _, label in cards(after, "display")]
        self.lines.append(
            f"Round {after.get('round')!s}: the tiles are shuffled, {HAND} dealt to each player"
        )
        self.lines.append(f"The starting tile: {tile_name(start)}; the display: {_tiles(shown)}")
        current = after.get("current")
        if isinstance(current, int):
            self._act(current, ("begin", "begins"))

    def _ends(self, before: Mapping[str, Plain], after: Mapping[str, Plain]) -> None:
        """Each round that ended between ``before`` and ``after``, its points, the winner."""
        ends, rows = _list(after, "round_ends"), _list(after, "round_scores")
        for r in range(len(_list(before, "round_ends")), len(ends)):
            end = ends[r]
            assert isinstance(end, dict)
            won = [int(s) for s in end["winners"]]
            who = " and ".join(self._who(s) for s in won)
            if end["blocked"]:
                self.lines.append(f"Round {r + 1} is blocked: nobody placed a tile for a whole "
                                  f"round; the fewest tiles: {who}")  # fmt: skip
            else:
                whose = "your" if won[0] == self.seat else "their"
                self.lines.append(
                    f"Round {r + 1} ends: {self._who(won[0])} placed {whose} last tile"
                )
            row = rows[r] if r < len(rows) else None
            if after.get("rounds", 1) != 1 and isinstance(row, list):
                points = ", ".join(f"{self._who(s)} {p!s}" for s, p in enumerate(row))
                self.lines.append(f"Round {r + 1} points: {points}")
        winners = _list(after, "winners")
        if winners and not _list(before, "winners"):
            names = " and ".join(self._who(int(s)) for s in winners)  # type: ignore[call-overload]
            verb = "wins" if len(winners) == 1 and winners[0] != self.seat else "win"
            self.lines.append(f"Game over: {names} {verb}!")

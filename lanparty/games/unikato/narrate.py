"""Unikato in words: one seat's log of the game, told only from what that seat may know (see
:mod:`lanparty.games.narration`).

Every move is public (a tile leaving a hand is shown), so a move is told from itself and the
view before it; table results (the deal, a new display, a tile from the bag) are told from the
change in the seat's own view, which is all a networked seat has. Cells are named as on the
board right after the move (``grid.Frame``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanparty.games.narration import BaseNarrator, heading, yours
from lanparty.games.views import cards
from lanparty.games.wording import game_over
from lanparty.i18n import _, ngettext, pgettext
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

    translated = True

    def _who(self, seat: Seat) -> str:
        return _("you") if seat == self.seat else self.names[seat]

    def _act(
        self, seat: Seat, *clauses: tuple[str, str], mine: bool = False, **values: object
    ) -> None:
        """As :meth:`BaseNarrator._act`, the clauses' placeholders filled with ``values``."""
        super()._act(seat, *((y.format(**values), o.format(**values)) for y, o in clauses),
                     mine=mine)  # fmt: skip

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
                self._act(seat, (
                    ngettext("end your chain: {n} tile", "end your chain: {n} tiles", n),
                    ngettext("ends the chain: {n} tile", "ends the chain: {n} tiles", n),
                ), n=n)  # fmt: skip
                if before.get("bonus") is True and before.get("action") == 1:
                    self.lines[-1] += _("; a bonus action follows")
            else:
                self._act(seat, (pgettext("you", "let the bonus action go"),
                                 _("lets the bonus action go")))  # fmt: skip
        elif name == "exchange":
            out = tile_name(str(move[2]))
            put = (pgettext("you", "put {tile} on the display"), _("puts {tile} on the display"))
            if move[3] == "bag":
                if seat == self.seat:  # the tile drawn is told once it arrives
                    self._act(seat, put, tile=out)
                else:
                    self._act(seat, put, (pgettext("you", "draw from the bag"),
                                          _("draws from the bag")), tile=out)  # fmt: skip
            else:
                taken = tile_name(dict(cards(before, "display"))[whole(move[3])])
                self._act(seat, put, (pgettext("you", "take {other}"), _("takes {other}")),
                          tile=out, other=taken)  # fmt: skip
        elif name == "draw":
            if move[1] != "bag":
                taken = tile_name(dict(cards(before, "display"))[whole(move[1])])
                self._act(seat, (pgettext("you", "take {tile} from the display"),
                                 _("takes {tile} from the display")), tile=taken)  # fmt: skip
            elif seat != self.seat:
                self._act(seat, (pgettext("you", "draw from the bag"),
                                 _("draws a tile from the bag")))  # fmt: skip
        elif name == "pass":
            self._act(seat, (pgettext("you", "pass: nothing to place or exchange"),
                             _("passes: nothing to place or exchange")))  # fmt: skip

    def _place(self, seat: Seat, move: Move, before: Mapping[str, Plain]) -> None:
        cell: Cell = (whole(move[3]), whole(move[4]))
        tiles = placed(before)
        at = {c for c, _label in tiles}
        where = frame_of([*at, cell]).name(cell)
        tile = tile_name(str(move[2]))
        self._act(seat, (pgettext("you", "place {tile} at {cell}"), _("places {tile} at {cell}")),
                  tile=tile, cell=where)  # fmt: skip
        touching = sum((cell[0] + dx, cell[1] + dy) in at for dx, dy, _side in SIDES)
        if touching >= 2:
            self.lines[-1] += ngettext(", touching {n} tile", ", touching {n} tiles",
                                       touching).format(n=touching)  # fmt: skip
            if before.get("bonus") is not True and before.get("action") == 1:
                self.lines[-1] += _(": a bonus action")

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
        mine = {h for h, _label in cards(before)} if before else set()
        shown_before = {h for h, _label in cards(before, "display")} if before else set()
        drawn = [label for h, label in cards(after) if h not in mine and h not in shown_before]
        if drawn:
            self.lines.append(yours(_("You draw {tiles} from the bag").format(tiles=_tiles(drawn))))
        fresh = [label for h, label in cards(after, "display") if h not in shown_before]
        if fresh and not shown_before:
            self.lines.append(_("A new display: {tiles}").format(tiles=_tiles(fresh)))

    def _opening(self, after: Mapping[str, Plain]) -> None:
        start = placed(after)[0][1]
        shown = [label for _, label in cards(after, "display")]
        self.lines.append(heading(
            ngettext("Round {n}: the tiles are shuffled, {hand} dealt to each player",
                     "Round {n}: the tiles are shuffled, {hand} dealt to each player",
                     HAND).format(n=after.get("round"), hand=HAND)
        ))  # fmt: skip
        self.lines.append(_("The starting tile: {tile}; the display: {tiles}").format(
            tile=tile_name(start), tiles=_tiles(shown)))  # fmt: skip
        current = after.get("current")
        if isinstance(current, int):
            self._act(current, (pgettext("you", "begin"), _("begins")))

    def _ends(self, before: Mapping[str, Plain], after: Mapping[str, Plain]) -> None:
        """Each round that ended between ``before`` and ``after``, its points, the winner."""
        ends, rows = _list(after, "round_ends"), _list(after, "round_scores")
        for r in range(len(_list(before, "round_ends")), len(ends)):
            end = ends[r]
            assert isinstance(end, dict)
            won = [int(s) for s in end["winners"]]
            who = _(" and ").join(self._who(s) for s in won)
            if end["blocked"]:
                self.lines.append(heading(_("Round {n} is blocked: nobody placed a tile for a "
                                            "whole round; the fewest tiles: {names}").format(
                    n=r + 1, names=who)))  # fmt: skip
            elif won[0] == self.seat:
                line = _("Round {n} ends: you placed your last tile").format(n=r + 1)
                self.lines.append(heading(line))
            else:
                self.lines.append(heading(_("Round {n} ends: {name} placed their last tile").format(
                    n=r + 1, name=self.names[won[0]])))  # fmt: skip
            row = rows[r] if r < len(rows) else None
            if after.get("rounds", 1) != 1 and isinstance(row, list):
                points = ", ".join(f"{self._who(s)} {p!s}" for s, p in enumerate(row))
                line = _("Round {n} points: {points}").format(n=r + 1, points=points)
                self.lines.append(heading(line))
        winners = [int(s) for s in _list(after, "winners") if isinstance(s, int)]
        if winners and not _list(before, "winners"):
            me = self.seat if isinstance(self.seat, int) else -1
            self.lines.append(heading(game_over(winners, me, self.names)))

"""The race window at the host: while seats may move out of turn, the moves made for one log
position wait together, and the winner is drawn (:func:`~protocol._messages.race_rank`),
never decided by which arrived first (docs/protocol.md, "The race window"). Mixed into
:class:`~protocol._host.Host`, which owns every attribute used here.
"""

from __future__ import annotations

from collections import deque
from contextlib import suppress

from ._bodies import MoveBody
from ._errors import RemoteProtocolError
from ._events import Event, MoveDropped, RaceOpened
from ._lobby import Conn
from ._messages import SignedEntry, race_rank
from ._table import Table

__all__ = ["RaceWindow"]


class RaceWindow:
    """The host's races: the moves for one position, and the draw that sequences one."""

    table: Table
    _events: deque[Event]
    _race: list[tuple[SignedEntry, Conn | None]]
    _race_pos: int

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        raise NotImplementedError

    def _refuse(self, c: Conn, reason: str, pos: int) -> None:
        raise NotImplementedError

    def _reject(self, c: Conn, err: RemoteProtocolError, pos: int, fatal: bool = False) -> None:
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """True while a move of ours waits in a race (see :meth:`close_race`)."""
        return any(c is None for _, c in self._race)

    def racing(self) -> int | None:
        """The log position moves are racing for, if a race was opened and not yet closed."""
        return self._race_pos if self._race else None

    def _enter_race(self, se: SignedEntry, c: Conn | None) -> None:
        """Keep a move made while seats may move out of turn: the winner of the position is
        drawn by :func:`race_rank`, never by which arrived first (the host's own included)."""
        pos = len(self.table.log)
        if self._race_pos != pos:
            self._race, self._race_pos = [], pos
            self._events.append(RaceOpened(pos))
        for other, _ in self._race:
            if other.entry.author == se.entry.author:
                if other.raw != se.raw and c is not None:
                    self._refuse(c, "one move per seat in a race", pos)
                return
        self._race.append((se, c))

    def close_race(self) -> None:
        """The race window has passed (the driver's clock): sequence the move that ranks
        first among those that apply; the others lose (their authors see the winner). Does
        nothing if no race is open or the table moved on."""
        pos, entrants = self._race_pos, self._race
        self._race, self._race_pos = [], -1
        if not entrants or pos != len(self.table.log):
            return
        prev = self.table.log.head
        ranked = sorted(entrants, key=lambda e: race_rank(prev, e[0].entry.author))
        winner: SignedEntry | None = None
        for se, c in ranked:
            try:
                if winner is None:
                    self._sequence(se, own=c is None, sig_checked=True)
                    winner = se
                    continue
            except RemoteProtocolError as exc:
                if c is not None and not c.closed:
                    with suppress(RemoteProtocolError):  # past its budget: it hears no more
                        self._reject(c, exc, pos)
                continue
            if c is None:
                assert isinstance(se.entry.body, MoveBody)
                self._events.append(MoveDropped(se.entry.body.move))  # type: ignore[arg-type]

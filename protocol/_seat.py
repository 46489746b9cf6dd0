"""What a peer and the host share (``_Seat``): a table copy, an event queue and the driver's
API over it (the view, the legal moves, a move played or sealed, the sealed phase's close,
the transcript). :class:`~protocol._peer.Peer` and :class:`~protocol._host.Host` build on it.
"""

from __future__ import annotations

from collections import deque

from ._bodies import SealClose
from ._checks import DeferredCheck
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, SealedMove
from ._roles import Phase
from ._table import Table
from .contract import Commit, Move, Plain, Status


class _Seat:
    """What a peer and the host share: a table copy, an event queue, the driver's API."""

    table: Table

    def __init__(self) -> None:
        self._events: deque[Event] = deque()

    def next_event(self) -> Event | None:
        """The oldest event not yet taken, or ``None``."""
        return self._events.popleft() if self._events else None

    @property
    def seat(self) -> int | None:
        """Our seat, once seated."""
        return self.table.my_seat

    @property
    def phase(self) -> Phase:
        """Where the table is in its life."""
        return self.table.phase

    def status(self) -> Status | None:
        """The game's status (``None`` outside the game or while a table batch runs)."""
        return self.table.status()

    def may_move(self) -> bool:
        """True if we may send a game move now (our turn, or out of turn where allowed)."""
        seat = self.seat
        return seat is not None and not self.table.checking and self.table.may_move(seat)

    @property
    def busy(self) -> bool:
        """True while an entry of ours waits for the host (a move now would be refused)."""
        return False

    def legal_moves(self) -> list[Move]:
        """Our legal moves now (none while a shuffle proof is being checked)."""
        return [] if self.table.checking else self.table.legal_moves()

    def take_checks(self) -> list[DeferredCheck]:
        """Proof checks to run beside the table (only with ``defer_checks``): run each with
        :func:`protocol.run_check`, anywhere, and report it with :meth:`checked`."""
        return self.table.take_checks()

    def checked(self, check: DeferredCheck, error: RemoteProtocolError | None) -> None:
        """Report a check's outcome; a failed one stops the table naming its author."""
        err = self.table.checked(check, error)
        if err is not None:
            self._check_failed(err)
        elif not self.table.checking:
            self._checks_done()

    def _checks_done(self) -> None:
        """Every check reported: make what we owe and held back while one was open."""

    @property
    def defer_checks(self) -> bool:
        """Whether shuffle proofs are checked beside the table (see :meth:`take_checks`);
        off by default (checked inside ``apply``), turned on by a network driver."""
        return self.table.defer_checks

    @defer_checks.setter
    def defer_checks(self, on: bool) -> None:
        self.table.defer_checks = on

    def _check_failed(self, err: RemoteProtocolError) -> None:
        raise NotImplementedError  # the host halts the table for everyone, a peer for itself

    def view(self) -> dict[str, Plain]:
        """Our seat's view of the game (the only thing a UI or bot should read)."""
        game = self.table.game
        if game is None or self.table.state is None:
            return {}
        return game.view(self.table.state, self.seat)

    def transcript(self) -> bytes:
        """The self-contained transcript file of the log so far (see :func:`audit_transcript`)."""
        return self.table.log.transcript()

    def _seal(self, move: Move) -> None:
        """Seal ``move``; a :class:`SealedMove` event carries what to keep (before anything
        queued is sent, a driver saves it). Raises :class:`LocalProtocolError`."""
        self.table.seal_move(move)
        self._events.append(SealedMove(self.table.sealed_blob() or b""))

    def closer(self) -> bool:
        """True if we may close the sealed phase now (the game's status names our seat)."""
        st = self.table.status()
        return isinstance(st, Commit) and st.closer is not None and st.closer == self.seat

    def _close_body(self) -> SealClose:
        st = self.table.status()
        if not isinstance(st, Commit) or st.closer is None or st.closer != self.seat:
            raise LocalProtocolError("we may not close this phase")
        return SealClose(st.seats)

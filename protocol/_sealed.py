"""Sealed moves: commit now, open later, for every game (the contract's ``Commit``/``Open``).

One lifecycle, mixed into :class:`~protocol._table.Table`:

- **A phase** begins when the game's status becomes ``Commit`` (after the entry at position
  ``anchor - 1``) and lasts while it stays ``Commit``. A seat's commitment is bound to
  ``context("sealed", anchor, seat)``, not to the position of the entry that carries it, so the
  same commitment may be proposed again at a later position: seats that commit at once race
  for positions, the losers simply propose theirs again (a pending duty), none is lost.
- **Checked first**: a sealed move is judged by the game's ``check`` before it is committed
  (the contract: ``check`` judges it then exactly as it will at ``Open``). An opening that
  matches its commitment but fails ``check`` stops the table at once, naming the seat, with
  the commitment and the opening as evidence.
- **Closed**: the status's ``closer`` may end the phase (``seal_close``, naming exactly the seats
  still missing); every copy feeds the game ``CommitTimeout``, and a commitment that comes later
  is out of turn. The clock that decides when lives with the closer's program, not here.
- **Kept**: a seat's pending sealed move (the opening) can be saved (:meth:`sealed_blob`) and
  given back to a restarted peer (:meth:`restore_sealed`), so a resumed seat can still open.
"""

from __future__ import annotations

from typing import Any

from crypto import CryptoError, Opening, commit, verify_opening

from ._bodies import SealClose, SealedCommit, SealedOpen
from ._codec import pack, unpack
from ._errors import LocalProtocolError, RemoteProtocolError, engine_failure
from ._events import Event, PhaseClosed, Stopped
from ._log import Log
from ._messages import Entry, SignedEntry
from ._roles import Member, Phase, Private
from ._steps import _fail
from .contract import Commit, Committed, CommitTimeout, Game, IllegalMove, Move, Open, Status

#: Largest encoded sealed move (the opening's value).
MAX_SEALED_MOVE = 1 << 16


class SealedSteps:
    """Sealed-move duties and checks, mixed into ``Table`` (which owns these attributes)."""

    log: Log
    me: Private | None
    members: list[Member]
    phase: Phase
    game: Game[Any] | None
    state: Any
    inputs: list[int]
    stop_error: RemoteProtocolError | None
    _events: list[Event]
    _last_move: Move | None
    #: Where the current ``Commit`` phase began (``None`` outside one).
    anchor: int | None
    #: Every seat's logged commitment: its digest and the phase it was made in.
    _sealed: dict[int, tuple[bytes, int, int]]
    #: Our own sealed move: its phase, its commitment, its opening, and whether the
    #: commitment is logged.
    _mine: tuple[int, bytes, Opening, bool] | None

    @property
    def my_seat(self) -> int | None:  # provided by the table
        raise NotImplementedError

    def status(self) -> Status | None:  # provided by the table
        raise NotImplementedError

    def _ctx(self, kind: str, pos: int, seat: int, *extra: int | str | bytes) -> bytes:
        raise NotImplementedError

    def _turn_check(self, seat: int, kind: str) -> Status:
        raise NotImplementedError

    # ------------------------------------------------------------------ our own

    def seal_move(self, move: Move) -> None:
        """Seal ``move`` for the current ``Commit`` phase: it is checked now, its commitment
        becomes a duty of ours (proposed, and proposed again until it is logged), and its
        opening is kept for ``Open`` (:meth:`sealed_blob`, to be saved).

        Raises :class:`LocalProtocolError` if no sealed move is due from us, we sealed one
        in this phase already, or the move is illegal.
        """
        seat, game, st = self.my_seat, self.game, self.status()
        if seat is None or game is None or not isinstance(st, Commit) or seat not in st.seats:
            raise LocalProtocolError("no sealed move is due from us")
        assert self.anchor is not None
        if self._mine is not None and self._mine[0] == self.anchor:
            raise LocalProtocolError("we sealed a move in this phase already")
        try:
            move = game.moves.read(move)
            game.check(self.state, seat, move)
        except IllegalMove as exc:
            raise LocalProtocolError(f"illegal move: {exc.reason}") from None
        value = pack(list(move))
        if len(value) > MAX_SEALED_MOVE:
            raise LocalProtocolError("the sealed move is too long")
        digest, opening = commit(value, self._ctx("sealed", self.anchor, seat))
        self._mine = (self.anchor, digest, opening, False)

    def sealed_blob(self) -> bytes | None:
        """Our pending sealed move as bytes to keep with the seat's secrets (``None`` if we
        have none). Secret until it is opened: it holds the salt and the move."""
        if self._mine is None:
            return None
        anchor, digest, opening, logged = self._mine
        return pack([anchor, digest, opening.salt, opening.value, logged])

    def restore_sealed(self, blob: bytes) -> None:
        """Take back a pending sealed move saved with :meth:`sealed_blob` (a restarted peer,
        before it replays the log). Raises :class:`LocalProtocolError` if it is malformed."""
        try:
            value = unpack(blob, 2 * MAX_SEALED_MOVE)
            if not isinstance(value, list) or len(value) != 5:
                raise ValueError("not five fields")
            anchor, digest, salt, move, logged = value
            opening = Opening.from_wire([salt, move])
        except (RemoteProtocolError, CryptoError, ValueError):
            raise LocalProtocolError("the saved sealed move is unreadable") from None
        if type(anchor) is not int or not isinstance(logged, bool) or not isinstance(digest, bytes):
            raise LocalProtocolError("the saved sealed move is unreadable")
        self._mine = (anchor, digest, opening, logged)

    def _sealed_duty(self, seat: int, st: Status) -> SealedCommit | SealedOpen | None:
        """The sealed-move entry we owe now, if any."""
        mine = self._mine
        if mine is None:
            return None
        anchor, digest, opening, logged = mine
        if isinstance(st, Commit) and seat in st.seats and anchor == self.anchor and not logged:
            return SealedCommit(digest)
        if isinstance(st, Open) and st.seats and st.seats[0] == seat and logged:
            return SealedOpen(opening)
        return None

    def sealed_now(self) -> bool:
        """True if we sealed a move in the current ``Commit`` phase (logged or not yet)."""
        return self._mine is not None and self._mine[0] == self.anchor

    def missing(self) -> tuple[int, ...]:
        """The seats the table waits for in a sealed phase (every one of them), else ()."""
        st = self.status()
        return st.seats if isinstance(st, Commit | Open) else ()

    # ------------------------------------------------------------------ entries

    def _seal_commit(self, e: Entry, seat: int, body: SealedCommit) -> None:
        self._turn_check(seat, "seal_commit")
        assert self.game is not None and self.anchor is not None
        self._sealed[seat] = (body.digest, self.anchor, e.pos)
        self.game.resolve(self.state, Committed(seat))
        if seat == self.my_seat and self._mine is not None:
            self._mine = (*self._mine[:3], True)
        self.inputs.append(e.pos)

    def _seal_open(self, e: Entry, se: SignedEntry, seat: int, body: SealedOpen) -> None:
        self._turn_check(seat, "seal_open")
        game = self.game
        assert game is not None
        digest, anchor, cpos = self._sealed.get(seat, (b"", -1, -1))
        try:
            verify_opening(digest, body.opening, self._ctx("sealed", anchor, seat))
        except CryptoError as exc:
            raise _fail(f"bad opening of a sealed move: {exc}") from None
        del self._sealed[seat]
        if seat == self.my_seat:
            self._mine = None
        self.inputs.append(e.pos)
        try:
            move = game.moves.read(unpack(body.opening.value, MAX_SEALED_MOVE))
            game.check(self.state, seat, move)
        except Exception as exc:  # of no move's shape, illegal, or the rules engine failed
            # Provably committed to what the rules refuse: nothing can follow it.
            if isinstance(exc, IllegalMove | RemoteProtocolError):
                why = exc.reason
            else:
                why = engine_failure(exc)
            m = self.members[seat]
            err = RemoteProtocolError(
                f"{m.name} (seat {seat}) sealed a move the rules refuse: {why}",
                culprit=m.fingerprint, seat=seat, pos=e.pos,
                evidence=(self.log.entries[cpos].raw, se.raw),
            )  # fmt: skip
            self.phase = Phase.STOPPED
            self.stop_error = err
            self._events.append(Stopped(err))
            return
        game.apply(self.state, seat, move)
        self._last_move = move

    def _seal_close(self, e: Entry, seat: int, body: SealClose) -> None:
        st = self.status()
        if not isinstance(st, Commit) or st.closer != seat:
            raise _fail(f"out of turn: seat {seat} may not close this phase")
        if tuple(body.missing) != st.seats:
            raise _fail(f"the seats still missing are {list(st.seats)}, not {list(body.missing)}")
        assert self.game is not None
        self.game.resolve(self.state, CommitTimeout(st.seats))
        if self._mine is not None and self._mine[0] == self.anchor and not self._mine[3]:
            self._mine = None  # too late: never logged, and never to be opened
        self.inputs.append(e.pos)
        self._events.append(PhaseClosed(st.seats))

    def _track_phase(self) -> None:
        """After every entry: note where a ``Commit`` phase begins, forget it when it ends."""
        st = self.status()
        if isinstance(st, Commit):
            if self.anchor is None:
                self.anchor = len(self.log)
        else:
            self.anchor = None

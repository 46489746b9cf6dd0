"""Game moves on the table: the body a mover sends (its shares of the cards the move shows,
under one batched proof) and what every copy checks before it applies one. Mixed into
:class:`~protocol._table.Table` (which owns every attribute used here)."""

from __future__ import annotations

from crypto import CryptoError, Point, ShareBatch, unmask

from ._bodies import MoveBody
from ._errors import LocalProtocolError, excerpt
from ._messages import Entry
from ._steps import BatchSteps, _fail, judged
from .contract import IllegalMove, Move, Status, Turn

__all__ = ["MoveSteps"]


class MoveSteps(BatchSteps):
    """Moves: making a move's body, checking and applying a move entry."""

    _last_move: Move | None
    _contested: bool

    def may_move(self, seat: int) -> bool:
        """See :meth:`Table.may_move`."""
        raise NotImplementedError

    def status(self) -> Status | None:
        """See :meth:`Table.status`."""
        raise NotImplementedError

    def _turn_check(self, seat: int, kind: str) -> Status:
        raise NotImplementedError

    def move_body(self, move: Move) -> MoveBody:
        """A move entry's body: ``move`` with our shares of the cards it reveals.

        Raises :class:`LocalProtocolError` if we may not move or the move is illegal here.
        """
        seat, me, game = self.my_seat, self.me, self.game
        if seat is None or me is None or game is None or not self.may_move(seat):
            raise LocalProtocolError("it is not this peer's move")
        if self.checking:
            raise LocalProtocolError("a shuffle proof is still being checked; wait a moment")
        try:
            move = game.moves.read(move)
            game.check(self.state, seat, move)
        except IllegalMove as exc:
            raise LocalProtocolError(f"illegal move: {exc.reason}") from None
        pos = len(self.log)
        cards = self.cards
        handles = [h for h in game.reveals(move) if h not in cards.public and h in cards.ct]
        if not handles:
            return MoveBody(move)
        cts = [self.cards.ct[h] for h in handles]
        batch = ShareBatch.create(me.key, cts, self._ctx("reveal", pos, seat))
        return MoveBody(move, tuple(zip(handles, batch.ds, strict=True)), batch.proof)

    def _move(self, e: Entry, seat: int, body: MoveBody, own: bool) -> None:
        st = self._turn_check(seat, "move")
        game = self.game
        assert game is not None
        try:
            move = judged(lambda: game.moves.read(body.move))
        except IllegalMove as exc:
            raise _fail(f"malformed move: {exc.reason}") from None
        claims = judged(lambda: dict(game.reveals(move)))
        need = [h for h in claims if h not in self.cards.public]
        if [h for h, _ in body.reveal] != need:
            raise _fail(f"the move must carry exactly its shares for cards {need}")
        revealed: dict[int, tuple[str, Point]] = {}
        for h, _ in body.reveal:
            self._revealable(seat, h)
        if body.reveal and not own:
            assert body.proof is not None  # parsing demands it with shares
            batch = ShareBatch(tuple(d for _, d in body.reveal), body.proof)
            cts = [self.cards.ct[h] for h, _ in body.reveal]
            try:
                batch.verify(self.key_shares[seat], cts, self._ctx("reveal", e.pos, seat))
            except CryptoError as exc:
                raise _fail(f"cards {need}: wrong decryption shares ({exc})") from None
        for h, d in body.reveal:
            revealed[h] = (self._reveal(h, d, claims[h]), d)
        for h, label in claims.items():
            if h in self.cards.public and self.cards.public[h] != label:
                raise _fail(f"card {h} is public and is not {label!r}")
        try:
            judged(lambda: game.check(self.state, seat, move))
        except IllegalMove as exc:
            raise _fail(f"illegal move {excerpt(move)}: {exc.reason}") from None
        for h, (label, d) in revealed.items():
            self.cards.shares[h][seat] = d
            self.cards.public[h] = label
            self.known[h] = label
        game.apply(self.state, seat, move)
        self.inputs.append(e.pos)
        self._last_move = move
        self._contested = isinstance(st, Turn) and bool(st.also) and not st.free

    def contested(self) -> bool:
        """True while moves race for the next position (other seats may move out of turn,
        and the moves do not commute: ``Turn.free`` is not set)."""
        st = self.status()
        return isinstance(st, Turn) and bool(st.also) and not st.free

    def _revealable(self, seat: int, h: int) -> None:
        """Raise unless card ``h`` exists and only ``seat``'s share of it is missing."""
        if self.cards.ct.get(h) is None:
            raise _fail(f"card {h} does not exist")
        if self.cards.missing(h, len(self.members)) != [seat]:
            raise _fail(f"card {h} is not in seat {seat}'s hand")

    def _reveal(self, h: int, d: Point, claim: str) -> str:
        """The label card ``h`` unmasks to with the mover's (verified) share ``d``; raises
        unless it is the ``claim`` the move makes."""
        ct = self.cards.ct[h]
        try:
            label = self.cards.label(h, unmask(ct, [*self.cards.shares[h].values(), d]))
        except CryptoError:
            raise _fail(f"card {h} does not unmask to a card") from None
        if label != claim:
            raise _fail(f"card {h} is not the {claim!r} the move claims")
        return label


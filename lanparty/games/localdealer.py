"""A test-only table: fulfils a game's requests with a seeded RNG and full knowledge.

It stands in for the mental-poker protocol in tests and in the simulator. ``LocalDealer``
knows every card (it did the shuffles) and answers requests; ``LocalTable`` drives one
omniscient state (told every card) and, optionally, one copy per seat that is told only what
that seat may know — exactly as a peer's copy would be — so tests can prove that a copy with
partial knowledge validates every move and that no view holds more than its seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Protocol

from protocol.contract import (
    CoinResult,
    Commit,
    Committed,
    CommitTimeout,
    Deal,
    Dealt,
    Game,
    GameOver,
    JointCoin,
    Move,
    Open,
    Outcome,
    Plain,
    Request,
    Result,
    Revealed,
    RevealToAll,
    Seat,
    Shown,
    ShowToSeat,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)


class Chooser(Protocol):
    """What the table asks of a bot (see ``lanparty.games.bots``)."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None: ...


class LocalDealer:
    """Answers requests from a seeded ``random.Random``; remembers every card's label."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cards: dict[int, str] = {}  # every handle ever shuffled -> its label

    def fulfil(self, req: Request) -> Result:
        """The omniscient result of ``req`` (every label included)."""
        if isinstance(req, Shuffle):
            labels = list(req.cards)
            self.rng.shuffle(labels)
            self.cards.update(zip(req.handles, labels, strict=True))
            return Shuffled(req.deck, req.handles)
        if isinstance(req, Deal):
            return Dealt(req.seat, req.handles, tuple(self.cards[h] for h in req.handles))
        if isinstance(req, RevealToAll):
            return Revealed(req.handles, tuple(self.cards[h] for h in req.handles))
        if isinstance(req, ShowToSeat):
            cards = tuple(self.cards[h] for h in req.handles)
            return Shown(req.from_seat, req.to_seat, req.handles, cards)
        assert isinstance(req, JointCoin)
        return CoinResult(self.rng.randrange(req.n))


def for_seat(result: Result, seat: Seat | None) -> Result:
    """``result`` as ``seat``'s copy receives it: labels only where that seat may see them
    (``None``: as a spectator sees it)."""
    if isinstance(result, Dealt) and result.seat != seat:
        return replace(result, cards=None)
    if isinstance(result, Shown) and result.to_seat != seat:
        return replace(result, cards=None)
    return result


class LocalTable:
    """One game driven by bots and a ``LocalDealer``; ``copies=True`` adds per-seat copies."""

    def __init__(
        self,
        game: Game[Any],
        seats: int,
        options: Mapping[str, Plain],
        rng: random.Random,
        copies: bool = False,
        late: float = 0.0,
    ) -> None:
        """``late``: the chance that a closable sealed phase is closed before every seat has
        handed in (a seeded stand-in for a timer running out)."""
        self.game = game
        self.late = late
        self.sealed: dict[Seat, Move] = {}  # sealed moves, held outside the game until Open
        self.seats = seats
        self.rng = rng
        self.dealer = LocalDealer(rng)
        self.state = game.setup(seats, options)
        self.copies = [game.setup(seats, options) for _ in range(seats)] if copies else []
        self.moves = 0
        self.last_mover: Seat = -1
        self.log: list[tuple[Seat | None, Move | Result]] = []  # omniscient inputs, in order
        self.record = False

    @classmethod
    def over(
        cls, game: Game[Any], state: Any, cards: Mapping[int, str], rng: random.Random
    ) -> LocalTable:
        """A table that plays on from ``state`` (a full state: every card's label known, and
        given in ``cards`` for the dealer), with no per-seat copies: a search's rollout."""
        table = cls.__new__(cls)
        table.game = game
        table.late = 0.0
        table.sealed = {}
        table.seats = len(game.outcome(state).totals)
        table.rng = rng
        table.dealer = LocalDealer(rng)
        table.dealer.cards.update(cards)
        table.state = state
        table.copies = []
        table.moves = 0
        table.last_mover = -1
        table.log = []
        table.record = False
        return table

    def resolve_one(self) -> Result | None:
        """Fulfil the oldest pending request, feed every state its result; ``None`` if none."""
        game = self.game
        status = game.status(self.state)
        if not isinstance(status, TableOps):
            return None
        result = self.dealer.fulfil(status.requests[0])
        game.resolve(self.state, result)
        for seat, copy in enumerate(self.copies):
            game.resolve(copy, for_seat(result, seat))
        if self.record:
            self.log.append((None, result))
        return result

    def resolve_pending(self) -> None:
        """Fulfil table requests until a move (or nothing) is due."""
        while self.resolve_one() is not None:
            pass

    def _feed(self, result: Result) -> None:
        """Feed a result that answers no request (a hand-in, a closed phase) to every state."""
        self.game.resolve(self.state, result)
        for copy in self.copies:
            self.game.resolve(copy, result)
        if self.record:
            self.log.append((None, result))

    def _commit(self, status: Commit, bots: Sequence[Chooser]) -> None:
        """Every seat still owing a sealed move chooses one from its own view, at once: the
        moves are checked and held; every state learns only who handed in. A closable phase
        may be closed first (``late``), as a timer would."""
        game, rng = self.game, self.rng
        if status.closer is not None and self.late and rng.random() < self.late:
            self._feed(CommitTimeout(status.seats))
            return
        for seat in status.seats:
            view = game.view(self.copies[seat] if self.copies else self.state, seat)
            move = bots[seat].choose(view, list(game.legal_moves(self.state, seat)), rng)
            if move is None:
                continue  # this one does not hand in (yet)
            game.check(self.state, seat, move)
            self.sealed[seat] = move
            self._feed(Committed(seat))
        if isinstance(game.status(self.state), Commit) and status == game.status(self.state):
            if status.closer is None:
                raise RuntimeError(f"seats {list(status.seats)} never hand in, and none may close")
            self._feed(CommitTimeout(status.seats))

    def submit(self, seat: Seat, move: Move) -> None:
        """Check and apply ``move`` in the omniscient state and in every copy."""
        game = self.game
        game.check(self.state, seat, move)
        game.apply(self.state, seat, move)
        for copy in self.copies:
            game.check(copy, seat, move)
            game.apply(copy, seat, move)
        self.moves += 1
        self.last_mover = seat
        if self.record:
            self.log.append((seat, move))

    def step(self, bots: Sequence[Chooser]) -> bool:
        """Resolve requests, then let one seat move; ``False`` once the game is over.

        Out-of-turn seats are asked first (the seat that moved last before the others, in a
        seeded order, as the quickest to react), then the seat whose turn it is.
        """
        self.resolve_pending()
        game = self.game
        state = self.state
        status = game.status(state)
        if isinstance(status, GameOver):
            return False
        if isinstance(status, Commit):
            self._commit(status, bots)
            return True
        if isinstance(status, Open):
            for seat in status.seats:  # the sealed moves, shown in the order asked
                self.submit(seat, self.sealed.pop(seat))
            return True
        if not isinstance(status, Turn):
            raise NotImplementedError(f"the local table does not run {type(status).__name__}")
        rng = self.rng
        if status.also:
            order = list(status.also)
            rng.shuffle(order)
            if self.last_mover in order:
                order.remove(self.last_mover)
                order.insert(0, self.last_mover)
            for seat in order:
                options: list[Move | None] = list(game.legal_moves(state, seat))
                if options:
                    options.append(None)
                    move = bots[seat].choose(game.view(state, seat), options, rng)
                    if move is not None:
                        self.submit(seat, move)
                        return True
        seat = status.seat
        legal = game.legal_moves(state, seat)
        move = bots[seat].choose(game.view(state, seat), legal, rng)
        if move is None:
            raise RuntimeError(f"the bot of seat {seat} passed on its own turn")
        self.submit(seat, move)
        return True

    def play(self, bots: Sequence[Chooser], max_moves: int = 1_000_000) -> Outcome:
        """Play to the end; raise ``RuntimeError`` if it takes more than ``max_moves``."""
        while self.step(bots):
            if self.moves > max_moves:
                raise RuntimeError(f"game did not end within {max_moves} moves")
        return self.game.outcome(self.state)

"""A rigged KaTO table for rule tests: chosen hands, flips and draws.

It keeps the omniscient state plus one copy per seat fed only what that seat may know, and
checks and applies every move in all of them, so each rule test also exercises partial
knowledge.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from lanparty.games.kato import KATO, KatoState
from lanparty.games.localdealer import for_seat
from protocol.contract import (
    CoinResult,
    Deal,
    Dealt,
    JointCoin,
    Request,
    Result,
    Revealed,
    RevealToAll,
    Shown,
    ShowToSeat,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)


class Rig:
    def __init__(
        self,
        hands: list[list[str]],
        flips: list[str],
        draws: list[str] = (),  # type: ignore[assignment]
        first: int = 0,
        copies: bool = True,
        **options: Any,
    ) -> None:
        self.n = len(hands)
        options.setdefault("hand_size", len(hands[0]))
        self.options = options
        self.game = KATO
        self.state: KatoState = KATO.setup(self.n, options)
        self.copies = [KATO.setup(self.n, options) for _ in range(self.n)] if copies else []
        self.cards: dict[int, str] = {}
        self.plans: list[list[str]] = [[c for h in hands for c in h] + flips + list(draws)]
        self.first = first
        self.results: list[Result] = []
        self.settle()

    # ------------------------------------------------------------------ dealer
    def plan_next_shuffle(self, front: list[str]) -> None:
        """The next shuffle puts these labels on top, in this order."""
        self.plans.append(front)

    def fulfil(self, req: Request) -> Result:
        if isinstance(req, JointCoin):
            return CoinResult(self.first)
        if isinstance(req, Shuffle):
            front = self.plans.pop(0) if self.plans else []
            rest = Counter(req.cards)
            rest.subtract(front)
            assert min(rest.values(), default=0) >= 0, f"rigged cards not in the deck: {front}"
            order = list(front) + [c for c in req.cards if rest[c] > 0 and not rest.subtract([c])]
            assert sorted(order) == sorted(req.cards)
            self.cards.update(zip(req.handles, order, strict=True))
            return Shuffled(req.deck, req.handles)
        if isinstance(req, Deal):
            return Dealt(req.seat, req.handles, tuple(self.cards[h] for h in req.handles))
        if isinstance(req, RevealToAll):
            return Revealed(req.handles, tuple(self.cards[h] for h in req.handles))
        assert isinstance(req, ShowToSeat)
        return Shown(
            req.from_seat, req.to_seat, req.handles, tuple(self.cards[h] for h in req.handles)
        )

    def settle(self) -> None:
        while isinstance(status := KATO.status(self.state), TableOps):
            result = self.fulfil(status.requests[0])
            self.results.append(result)
            KATO.resolve(self.state, result)
            for seat, copy in enumerate(self.copies):
                KATO.resolve(copy, for_seat(result, seat))

    # ------------------------------------------------------------------ players
    def move(self, seat: int, *move: Any) -> None:
        KATO.check(self.state, seat, move)
        KATO.apply(self.state, seat, move)
        for copy in self.copies:
            KATO.check(copy, seat, move)
            KATO.apply(copy, seat, move)
        self.settle()

    def handle(self, seat: int, label: str) -> int:
        for h in self.state.hands[seat]:
            if self.cards[h] == label:
                return h
        raise AssertionError(f"seat {seat} holds no {label}: {self.hand(seat)}")

    def play(self, seat: int, *labels: str, colour: str = "") -> None:
        handles: list[int] = []
        for label in labels:
            h = next(
                h for h in self.state.hands[seat] if self.cards[h] == label and h not in handles
            )
            handles.append(h)
        self.move(seat, "play", tuple(handles), labels, colour)

    def play_move(self, seat: int, *labels: str, colour: str = "") -> tuple[Any, ...]:
        handles = tuple(self.handle(seat, label) for label in labels)
        return ("play", handles, labels, colour)

    def hand(self, seat: int) -> list[str]:
        return sorted(self.cards[h] for h in self.state.hands[seat])

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return KATO.view(self.state, seat)  # type: ignore[return-value]

    def turn(self) -> Turn:
        status = KATO.status(self.state)
        assert isinstance(status, Turn), status
        return status

    def legal(self, seat: int) -> list[tuple[Any, ...]]:
        return KATO.legal_moves(self.state, seat)

"""A rigged Kill the Unicorns table for rule tests and bot playouts.

It feeds the game exactly what a table would: results of requests (each seat's copy told only
what that seat may know, via ``localdealer.for_seat``), ``Committed(seat)`` while a hunter's
cards are sealed (the move itself is held here, outside every state), and the opened moves
through ``check``/``apply`` when the status is ``Open``. Every input goes to the omniscient
state and to every seat's copy; after each one the rig checks that each seat's view is the
same from the omniscient state and from its own copy, and that every copy shows the same
public view (so no view can hold what its seat was not told).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from lanparty.games.localdealer import for_seat
from lanparty.games.unicorns import UNICORNS, UnicornsState
from lanparty.games.unicorns.cards import CHARACTERS, COLOURS, PERMUTATIONS
from lanparty.games.unicorns.state import CHARACTER
from protocol.contract import (
    CoinResult,
    Commit,
    Committed,
    Deal,
    Dealt,
    GameOver,
    JointCoin,
    Open,
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

G = UNICORNS


def _perm_index(front: Sequence[int]) -> int:
    return next(i for i, p in enumerate(PERMUTATIONS) if list(p[: len(front)]) == list(front))


class Rig:
    def __init__(
        self,
        n: int = 3,
        unicorns: Sequence[str] = (),
        schemes: dict[int, Sequence[str]] | None = None,
        first_seat: int = 0,
        characters: Sequence[str] = ("princess", "knight", "wizard", "shaman"),
        start: Sequence[str] = ("pink", "blue", "green", "yellow"),
        rng: random.Random | None = None,
        copies: bool = True,
        check_views: bool = True,
        pick: bool = True,
        character_option: str | None = None,
        **options: Any,
    ) -> None:
        if character_option is not None:  # the table option (``characters`` names each's)
            options["characters"] = character_option
        self.n = n
        # With characters chosen (the default), the rig makes each seat's choice of
        # ``characters[seat]`` when it is due, unless ``pick`` is off (the test or the bots
        # choose).
        self.pick = pick
        self.wanted = list(characters[:n])
        self.options = options
        self.rng = rng
        self.state: UnicornsState = G.setup(n, options)
        self.copies = [G.setup(n, options) for _ in range(n)] if copies else []
        self.cards: dict[int, str] = {}
        self.fronts: dict[str, list[str]] = {"unicorns": list(unicorns)}
        for seat, labels in (schemes or {}).items():
            self.fronts[f"schemes-{seat}"] = list(labels)
        self.coins = {
            "first": first_seat,
            "characters": _perm_index([CHARACTERS.index(c) for c in characters[:n]]),
            "start": _perm_index([COLOURS.index(c) for c in start[:n]]),
        }
        self.sealed: dict[int, tuple[Any, ...]] = {}
        self.check_views = check_views
        self.inputs = 0
        self.log: list[tuple[int | None, Any]] = []  # omniscient inputs, in order
        self.settle()

    # ------------------------------------------------------------------ the table's side
    def fulfil(self, req: Request) -> Result:
        if isinstance(req, JointCoin):
            if self.rng is not None:
                return CoinResult(self.rng.randrange(req.n))
            return CoinResult(self.coins[req.purpose])
        if isinstance(req, Shuffle):
            front = self.fronts.get(req.deck, [])
            rest = Counter(req.cards)
            rest.subtract(front)
            assert min(rest.values(), default=0) >= 0, f"rigged cards not in {req.deck}: {front}"
            tail = []
            for c in req.cards:
                if rest[c] > 0:
                    tail.append(c)
                    rest[c] -= 1
            if self.rng is not None:
                self.rng.shuffle(tail)
            order = list(front) + tail
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

    def feed(self, result: Result) -> None:
        self.log.append((None, result))
        G.resolve(self.state, result)
        for seat, copy in enumerate(self.copies):
            G.resolve(copy, for_seat(result, seat))
        self.inputs += 1
        self.verify()

    def settle(self) -> None:
        """Fulfil requests and open sealed cards until a decision is due (or the end)."""
        while True:
            status = G.status(self.state)
            if isinstance(status, TableOps):
                self.feed(self.fulfil(status.requests[0]))
            elif isinstance(status, Open):
                seat = status.seats[0]
                self._apply(seat, self.sealed.pop(seat))
            elif self.pick and self.state.phase == CHARACTER:
                seat = self.state.current
                self._apply(seat, ("character", self.wanted[seat]))
            else:
                return

    def verify(self) -> None:
        if not self.check_views or not self.copies:
            return
        public = G.view(self.state, None)
        for seat, copy in enumerate(self.copies):
            assert G.view(copy, seat) == G.view(self.state, seat), f"seat {seat}'s view differs"
            assert G.view(copy, None) == public
            assert G.legal_moves(copy, seat) == G.legal_moves(self.state, seat)
            assert G.status(copy) == G.status(self.state)

    def _apply(self, seat: int, move: tuple[Any, ...]) -> None:
        self.log.append((seat, move))
        G.check(self.state, seat, move)
        G.apply(self.state, seat, move)
        for copy in self.copies:
            G.check(copy, seat, move)
            G.apply(copy, seat, move)
        self.inputs += 1
        self.verify()

    # ------------------------------------------------------------------ players
    def move(self, seat: int, *move: Any) -> None:
        """A public move: checked and applied in every state, then the table goes on."""
        assert isinstance(G.status(self.state), Turn), G.status(self.state)
        self._apply(seat, tuple(move))
        self.settle()

    def seal(self, seat: int, *move: Any) -> None:
        """A sealed move: pre-checked in its seat's copy (and the omniscient one), held here;
        every copy is told only ``Committed(seat)``."""
        status = G.status(self.state)
        assert isinstance(status, Commit) and seat in status.seats, status
        G.check(self.state, seat, tuple(move))
        if self.copies:
            G.check(self.copies[seat], seat, tuple(move))
        self.sealed[seat] = tuple(move)
        self.feed(Committed(seat))
        self.settle()

    def hunt(self, seat: int, *values: int) -> None:
        self.move(seat, "hunt", len(values))
        self.seal(seat, "cards", tuple(sorted(values)))

    def join(self, seat: int, *values: int) -> None:
        self.move(seat, "join")
        self.seal(seat, "cards", tuple(sorted(values)))

    def pass_(self, *seats: int) -> None:
        for seat in seats:
            self.move(seat, "pass")

    # ------------------------------------------------------------------ looking
    def row(self) -> list[str]:
        return [self.cards[u] for u in self.state.row if u in self.state.planted]

    def unicorn(self, label: str) -> int:
        return next(u for u in self.state.row if self.cards[u] == label)

    def scheme(self, seat: int, label: str) -> int:
        return next(
            h for h, lab in self.cards.items() if lab == label and self.state.owner.get(h) == seat
        )

    def drawn(self, seat: int) -> list[str]:
        return [self.cards[h] for h in self.state.drawn[seat]]

    def plant(self, seat: int, keep: str, on: str) -> None:
        """Plant the drawn scheme ``keep`` on the row unicorn ``on``; discard the other."""
        pair = self.state.drawn[seat]
        k = next(h for h in pair if self.cards[h] == keep)
        d = next(h for h in pair if h != k)
        label = "" if self.state.opts.expert else self.cards[d]
        self.move(seat, "plant", k, self.unicorn(on), d, label)

    def collection(self, seat: int) -> list[str]:
        return [self.cards.get(u) or self.state.card_of[u] for u in self.state.collections[seat]]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return G.view(self.state, seat)  # type: ignore[return-value]

    def turn(self) -> Turn:
        status = G.status(self.state)
        assert isinstance(status, Turn), status
        return status

    def legal(self, seat: int) -> list[tuple[Any, ...]]:
        return G.legal_moves(self.state, seat)

    # ------------------------------------------------------------------ bots
    def play(self, bots: Sequence[Any], rng: random.Random, max_inputs: int = 5000) -> None:
        """Let the bots play to the end, each choosing from its own copy's view and legal
        moves (the omniscient state must list the same)."""
        while True:
            self.settle()
            status = G.status(self.state)
            if isinstance(status, GameOver):
                return
            seat = status.seat if isinstance(status, Turn) else status.seats[0]  # type: ignore[union-attr]
            own = self.copies[seat] if self.copies else self.state
            legal = G.legal_moves(own, seat)
            assert legal, f"seat {seat} has no legal move in {status}"
            move = bots[seat].choose(G.view(own, seat), legal, rng)
            assert move in legal
            if isinstance(status, Commit):
                self.seal(seat, *move)
            else:
                self.move(seat, *move)
            assert self.inputs < max_inputs, "the game did not end"

"""A rigged Unikato table for rule tests: chosen hands, display, starting tile and bag.

It keeps the omniscient state plus one copy per seat fed only what that seat may know, and
checks and applies every move in all of them; after every input it asserts that every copy
agrees on the public view and that each seat's view is the same from its copy and from the
omniscient state. So each rule test also exercises partial knowledge.

Scenes: ``scene`` (or ``lay``) puts tiles from the bag straight onto the grid and ``empty_bag`` /
``empty_display`` remove tiles from play, in every state alike (test-only surgery, so a test
need not play fifty turns to reach a crowded grid or an empty bag).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanparty.games.localdealer import for_seat
from lanparty.games.unikato import UNIKATO, UnikatoState
from lanparty.games.unikato.flow import learn
from lanparty.games.unikato.tiles import CODE, LABEL
from protocol.contract import (
    CoinResult,
    Deal,
    Dealt,
    JointCoin,
    Request,
    Result,
    Revealed,
    RevealToAll,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)

G = UNIKATO


class Rig:
    def __init__(
        self,
        hands: Sequence[Sequence[str]],
        display: Sequence[str] = ("xBlK", "xPlK", "xOlK"),
        start: str = "cOsW",
        bag: Sequence[str] = (),
        scene: Sequence[tuple[int, int, str]] = (),
        coin: int = 0,
        copies: bool = True,
        **options: Any,
    ) -> None:
        self.n = len(hands)
        self.options = options
        self.state: UnikatoState = G.setup(self.n, options)
        self.copies = [G.setup(self.n, options) for _ in range(self.n)] if copies else []
        self.cards: dict[int, str] = {}
        self.plans = [(list(hands), list(display), start, [t for _, _, t in scene] + list(bag))]
        self.coin = coin
        self.results: list[Result] = []
        self.settle()
        for x, y, label in scene:
            self.lay(x, y, label)

    @property
    def states(self) -> list[UnikatoState]:
        return [self.state, *self.copies]

    # ------------------------------------------------------------------ dealer
    def plan_next_round(
        self,
        hands: Sequence[Sequence[str]],
        display: Sequence[str] = ("xBlK", "xPlK", "xOlK"),
        start: str = "cOsW",
        bag: Sequence[str] = (),
    ) -> None:
        self.plans.append((list(hands), list(display), start, list(bag)))

    def _order(self, labels: Sequence[str]) -> list[str]:
        """The bag's order for the next round: hands (filled up to 10 with unnamed tiles),
        display, start, the named bag front, then every other tile. Unnamed tiles are taken
        from the end of the code order (crosses, large, black: far from the usual start)."""
        hands, display, start, front = self.plans.pop(0) if self.plans else ([], [], "", [])
        named = [t for h in hands for t in h] + list(display) + ([start] if start else [])
        named += front
        assert len(set(named)) == len(named), f"a tile is named twice: {named}"
        assert all(t in CODE for t in named), f"not a tile: {named}"
        spare = [t for t in reversed(labels) if t not in named]
        order: list[str] = []
        for s in range(self.n):
            hand = list(hands[s]) if s < len(hands) else []
            while len(hand) < 10:
                hand.append(spare.pop(0))
            order += hand
        order += list(display) + spare[: 3 - len(display)]
        spare = spare[3 - len(display) :]
        if start:
            order.append(start)
        else:
            order.append(spare.pop(0))
        order += front + spare
        assert sorted(order) == sorted(labels)
        return order

    def fulfil(self, req: Request) -> Result:
        if isinstance(req, JointCoin):
            return CoinResult(self.coin)
        if isinstance(req, Shuffle):
            self.cards.update(zip(req.handles, self._order(req.cards), strict=True))
            return Shuffled(req.deck, req.handles)
        if isinstance(req, Deal):
            return Dealt(req.seat, req.handles, tuple(self.cards[h] for h in req.handles))
        assert isinstance(req, RevealToAll), req
        return Revealed(req.handles, tuple(self.cards[h] for h in req.handles))

    def settle(self) -> None:
        while isinstance(status := G.status(self.state), TableOps):
            result = self.fulfil(status.requests[0])
            self.results.append(result)
            G.resolve(self.state, result)
            for seat, copy in enumerate(self.copies):
                G.resolve(copy, for_seat(result, seat))
        self.agree()

    def agree(self) -> None:
        public = G.view(self.state, None)
        assert "hand" not in public
        for seat, copy in enumerate(self.copies):
            assert G.view(copy, None) == public
            assert G.view(copy, seat) == G.view(self.state, seat)

    # ------------------------------------------------------------------ scenes
    def lay(self, x: int, y: int, label: str) -> None:
        """Put ``label`` (from the bag) on cell (x, y) in every state."""
        h = self.handle_of(label)
        for st in self.states:
            assert h in st.bag, f"{label} is not in the bag"
            st.bag.remove(h)
            learn(st, h, CODE[label])
            st.board.add((x, y), CODE[label])
            st.placed.append((x, y, h))
        self.agree()

    def empty_bag(self) -> None:
        self.trim_bag(0)

    def empty_display(self) -> None:
        self.trim_display(0)

    def trim_display(self, keep: int) -> None:
        """Keep only the first ``keep`` display tiles."""
        for st in self.states:
            del st.display[keep:]
        self.agree()

    def trim_bag(self, keep: int) -> None:
        """Keep only the ``keep`` tiles on top of the bag."""
        for st in self.states:
            del st.bag[: len(st.bag) - keep]
            st.calm_turn = not st.bag
        self.agree()

    def keep(self, seat: int, labels: Sequence[str]) -> None:
        """Take every tile but ``labels`` out of ``seat``'s hand (out of play)."""
        for st in self.states:
            st.hands[seat] = [h for h in st.hands[seat] if self.cards[h] in labels]
        self.agree()

    # ------------------------------------------------------------------ players
    def move(self, seat: int, *move: Any) -> None:
        for st in self.states:
            G.check(st, seat, move)
        for st in self.states:
            G.apply(st, seat, move)
        self.settle()

    def handle_of(self, label: str) -> int:
        live = {h for h in self.cards if h >= self.state.next_handle - 81}
        return next(h for h in live if self.cards[h] == label)

    def place_move(self, seat: int, label: str, x: int, y: int) -> tuple[Any, ...]:
        return ("place", self.handle_of(label), label, x, y)

    def place(self, seat: int, label: str, x: int, y: int) -> None:
        self.move(seat, *self.place_move(seat, label, x, y))

    def exchange_move(self, seat: int, label: str, take: str) -> tuple[Any, ...]:
        return ("exchange", self.handle_of(label), label, self.source(take))

    def exchange(self, seat: int, label: str, take: str) -> None:
        self.move(seat, *self.exchange_move(seat, label, take))

    def draw(self, seat: int, source: str) -> None:
        self.move(seat, "draw", self.source(source))

    def source(self, label: str) -> int | str:
        return "bag" if label == "bag" else self.handle_of(label)

    def hand(self, seat: int) -> list[str]:
        return sorted(self.cards[h] for h in self.state.hands[seat])

    def display(self) -> list[str]:
        return [LABEL[self.state.card_of[h]] for h in self.state.display]

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return G.view(self.state, seat)  # type: ignore[return-value]

    def turn(self) -> int:
        status = G.status(self.state)
        assert isinstance(status, Turn), status
        return status.seat

    def legal(self, seat: int) -> list[tuple[Any, ...]]:
        return G.legal_moves(self.state, seat)

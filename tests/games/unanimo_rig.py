"""A rigged Unanimo table for rule tests: chosen subjects, chosen words, chosen closes.

It drives the game as the table would (coin, sealed hand-ins with ``Committed``, an optional
``CommitTimeout``, openings in the order ``Open`` asks) and feeds every input to one copy per
seat too; the sealed words are held here, never in a state, until they are opened.
"""

from __future__ import annotations

from typing import Any

from lanparty.games.unanimo import UNANIMO, UnanimoState
from lanparty.games.unanimo.rules import unused
from lanparty.games.unanimo.subjects import SUBJECTS
from protocol.contract import (
    CoinResult,
    Commit,
    Committed,
    CommitTimeout,
    Move,
    Open,
    Result,
    TableOps,
)

G = UNANIMO


def card(name: str) -> int:
    """The index of the subject card whose English name is ``name``."""
    return next(i for i, names in enumerate(SUBJECTS) if names[0] == name)


class Rig:
    def __init__(self, n: int, **options: Any) -> None:
        self.n = n
        self.state: UnanimoState = G.setup(n, options)
        self.copies = [G.setup(n, options) for _ in range(n)]
        self.held: dict[int, Move] = {}

    def feed(self, result: Result) -> None:
        G.resolve(self.state, result)
        for copy in self.copies:
            G.resolve(copy, result)

    def move(self, seat: int, move: Move) -> None:
        G.check(self.state, seat, move)
        G.apply(self.state, seat, move)
        for copy in self.copies:
            G.check(copy, seat, move)
            G.apply(copy, seat, move)
        self.agree()

    def agree(self) -> None:
        mine = G.encode_state(self.state)
        assert all(G.encode_state(c) == mine for c in self.copies)

    def draw(self, name: str) -> None:
        """Answer the subject coin so that card ``name`` comes up."""
        assert isinstance(G.status(self.state), TableOps)
        self.feed(CoinResult(unused(self.state).index(card(name))))
        assert isinstance(G.status(self.state), Commit)

    def hand_in(self, seat: int, *words: str) -> None:
        """``seat`` seals its words: checked now, held here, only ``Committed`` is fed."""
        move: Move = ("words", tuple(words))
        G.check(self.state, seat, move)
        self.held[seat] = move
        self.feed(Committed(seat))

    def close(self) -> None:
        st = G.status(self.state)
        assert isinstance(st, Commit) and st.closer is not None
        self.feed(CommitTimeout(st.seats))

    def open_all(self) -> list[int]:
        """Open every held move in the order ``Open`` asks; return that order."""
        order = []
        while isinstance(st := G.status(self.state), Open):
            seat = st.seats[0]
            order.append(seat)
            self.move(seat, self.held.pop(seat))
        return order

    def play_card(self, name: str, words: dict[int, tuple[str, ...]]) -> None:
        """Draw ``name``; every seat in ``words`` hands in (the others are closed out);
        open; everyone is done with objections."""
        self.draw(name)
        for seat, ws in words.items():
            self.hand_in(seat, *ws)
        if len(words) < self.n:
            self.close()
        self.open_all()
        self.all_done()

    def all_done(self) -> None:
        while self.state.phase == 3:  # objections
            seat = next(s for s in range(self.n) if not self.state.done[s])
            self.move(seat, ("done",))

    def reading(self) -> list[tuple[str, tuple[int, ...], int, str | None]]:
        """The current (or last) reading as (word, writers, points, rejected)."""
        view = G.view(self.state, None)
        return [
            (a["word"], tuple(a["writers"]), a["points"], a["rejected"]) for a in view["reading"]
        ]

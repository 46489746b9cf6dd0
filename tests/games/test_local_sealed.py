"""The local table (tests, simulator, offline play) runs sealed phases like the network does:
every seat seals from its own view at once, the moves are held outside the game until Open,
and a closable phase may be closed before everyone handed in."""

from __future__ import annotations

import random

from lanparty.games.localdealer import LocalTable
from tests.protocol.test_sealed import Guess, _Pick


def test_sealed_moves_are_held_until_open_and_every_copy_agrees() -> None:
    table = LocalTable(Guess(), 3, {}, random.Random(1), copies=True)
    table.record = True
    outcome = table.play([_Pick()] * 3)
    assert outcome.finished and len(table.state.picks) == 3
    assert all(copy.picks == table.state.picks for copy in table.copies)
    kinds = [type(x).__name__ if who is None else "move" for who, x in table.log]
    assert kinds.index("move") > max(i for i, k in enumerate(kinds) if k == "Committed")


def test_a_closable_phase_may_close_early() -> None:
    table = LocalTable(Guess(closer=0), 3, {}, random.Random(2), copies=True, late=1.0)
    outcome = table.play([_Pick()] * 3)
    assert outcome.finished and table.state.absent == {0, 1, 2} and table.state.picks == {}

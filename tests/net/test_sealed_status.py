"""What a person's status line says in a sealed phase (``NetSeat.status_line``), fed by real
protocol peers: asked for words (a game with an editor), asked for a move laid face down
(any other), handed in and waiting, or waiting for another seat to seal its move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.table.networked import NetSeat
from protocol.contract import Commit
from protocol.harness import Harness

NAMES = ["Ann", "Bea", "Cy"]


def _feeder(h: Harness, seats: list[NetSeat]) -> Callable[[], None]:
    """A function that gives each seat the events its party has had since the last call."""
    fed = [0] * len(seats)

    def sync() -> None:
        for i, seat in enumerate(seats):
            for event in h.events[i][fed[i] :]:
                seat.observe(event)
            fed[i] = len(h.events[i])

    return sync


def _statuses(game: str, options: dict[str, object]) -> set[tuple[int, tuple[int, ...], str]]:
    """(seat, seats owing a sealed move, that seat's status line) at every sealed step."""
    bot = bots_for(game)["heuristic"]
    h = Harness(GAMES, game, 3, options, [bot() for _ in range(3)], seed=1, names=NAMES)
    seats = [NetSeat(p) for p in h.parties]
    sync = _feeder(h, seats)
    seen: set[tuple[int, tuple[int, ...], str]] = set()
    h.pump()
    sync()
    for _ in range(2000):
        status = h.host.status()
        if isinstance(status, Commit):
            seen.update((s.seat, status.seats, s.status_line()) for s in seats)
        if not h.step():
            break
        h.pump()
        sync()
    return seen


def test_a_hunter_is_asked_for_a_move_and_the_others_wait_for_its_seal() -> None:
    seen = _statuses("unicorns", {})
    for seat, owing, line in seen:
        if seat in owing:
            assert line == "your move"
        else:
            assert line == f"waiting for {', '.join(NAMES[s] for s in owing)} to seal a move"
    assert {seat for seat, owing, _ in seen if seat not in owing} == {0, 1, 2}


class _Late:
    """Hands in nothing while writing (a person still thinking); otherwise as ``inner``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def choose(self, view, legal, rng):
        return None if view["phase"] == "writing" else self.inner.choose(view, legal, rng)


def test_words_are_asked_for_and_a_seat_that_handed_in_waits() -> None:
    bot = bots_for("unanimo")["heuristic"]
    bots = [bot(), bot(), _Late(bot())]
    h = Harness(GAMES, "unanimo", 3, {"cards": 1}, bots, seed=1, names=NAMES)
    seats = [NetSeat(p) for p in h.parties]
    sync = _feeder(h, seats)
    h.pump()
    sync()
    assert [s.status_line() for s in seats] == ["your turn to write"] * 3
    h.step()  # Ann and Bea hand in their words; Cy is still writing
    h.pump()
    sync()
    assert h.host.status() == Commit((2,), 0, 0)
    assert [s.status_line() for s in seats] == ["handed in; waiting for Cy"] * 2 + [
        "your turn to write"
    ]


def test_a_seat_whose_words_are_on_their_way_waits_for_the_others_not_for_itself() -> None:
    """Handed in, its commitment not logged yet: still owing to the table, but the person
    waits for the others only ("czekamy na: ty" once said "waiting for: you")."""
    bot = bots_for("unanimo")["heuristic"]
    h = Harness(GAMES, "unanimo", 3, {"cards": 1}, [bot() for _ in range(3)], seed=1,
                names=NAMES)  # fmt: skip
    seats = [NetSeat(p) for p in h.parties]
    sync = _feeder(h, seats)
    h.pump()
    sync()
    bea = h.parties[1]
    bea.play(("words", ("kot",)))  # sealed, not yet sent to the host
    assert bea.table.sealed_now() and 1 in h.host.status().seats  # type: ignore[union-attr]
    assert seats[1].status_line() == "handed in; waiting for Ann, Cy"

"""A hard bot's search at an offline table runs off the screen's loop (issue 25): the table
hands the search to a worker thread (``LocalTable.think_with``), says who is thinking, and
plays the move when it comes back. The game is the same as when the bots choose in place:
the same moves, the same story, for the same seed, even when the person hands in their
words while a bot still thinks."""

from __future__ import annotations

import queue
import random
import threading
from collections.abc import Callable
from typing import Any

import pytest

from lanparty.games.bots import bot_at, bots_for
from lanparty.games.search import Think
from lanparty.table.local import BOT_NAMES, LocalTable
from lanparty.table.localnight import LocalNight
from protocol.contract import Commit, Move

#: A budget the rollouts reach long before the clock: the moves depend on the seed alone.
THINK = Think(rollouts=24, seconds=60.0)


#: One round, one card: a short game.
SHORT: dict[str, dict[str, Any]] = {"kato": {"rounds": 1}, "unanimo": {"cards": 1}}


def _table(game: str, bots: int, seed: int) -> LocalTable:
    names, options = ["ann", *BOT_NAMES[:bots]], SHORT[game]
    hard = [bot_at(game, "hard", options, THINK) for _ in range(bots)]
    return LocalTable(game, names, [None, *hard], options, seed)


class Threads:
    """An offload to real threads; their results wait here until the test hands them on
    (as a screen's loop would, on its own thread)."""

    def __init__(self) -> None:
        self.done: queue.Queue[tuple[Callable[[tuple[bool, Any]], None], tuple[bool, Any]]]
        self.done = queue.Queue()
        self.threads: set[str] = set()

    def __call__(self, job: Callable[[], Move | None],
                 done: Callable[[tuple[bool, Any]], None]) -> None:  # fmt: skip
        def work() -> None:
            self.threads.add(threading.current_thread().name)
            self.done.put((done, (True, job())))

        threading.Thread(target=work, daemon=True).start()

    def hand_on(self) -> None:
        """The next thought, handed back on this thread."""
        done, result = self.done.get(timeout=60)
        done(result)


def _play(
    game: str, bots: int, seed: int, threads: Threads | None, eager: bool
) -> tuple[list[str], int]:
    """The whole story of a game, and how many sealed moves the person handed in while a
    bot thought: the person plays as a heuristic player would; with ``threads``, the bots
    think in them, and (``eager``) the person hands in a sealed move while a bot still
    thinks."""
    early = 0
    table = _table(game, bots, seed)
    if threads is not None:
        table.think_with(threads)
    me, rng = bots_for(game)["heuristic"](), random.Random(0)
    told: list[str] = []
    for _ in range(5000):
        table.advance()
        told += table.take_log()
        if table.over():
            return told, early
        if table.thinking() is not None:
            assert table.status_line() == f"{table.names[table.thinking()]} is thinking…"
            assert threads is not None
            sealed = isinstance(table.game.status(table.copies[0]), Commit)
            if not (eager and sealed and table.may_move()):
                threads.hand_on()
                continue
            early += 1
        elif not table.may_move():
            continue
        legal = table.legal_moves()
        move = me.choose(table.view(), [*legal, None] if table.can_decline() else legal, rng)
        if move is None:
            table.decline()
        else:
            table.submit(move)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "bots", "seed"), [("kato", 2, 3), ("unanimo", 2, 1)])
def test_bots_thinking_in_threads_play_the_same_game(game: str, bots: int, seed: int) -> None:
    in_place, _ = _play(game, bots, seed, None, eager=False)
    threads = Threads()
    aside, early = _play(game, bots, seed, threads, eager=True)
    assert threads.threads and threading.current_thread().name not in threads.threads
    assert aside == in_place
    assert early > 0 or game != "unanimo"  # words handed in while a bot thought: held


def test_a_night_passes_its_threads_and_listeners_to_the_next_game() -> None:
    def make(game: str, options: dict[str, Any], seats: int, number: int) -> LocalTable:
        return _table(game, seats - 1, number)

    night = LocalNight(make, "kato", {"rounds": 1}, 2)
    heard: list[int] = []
    threads = Threads()
    night.think_with(threads)
    night.listen(lambda: heard.append(1))
    first = night.table
    while not night.over():
        night.advance()
        if night.table.thinking() is not None:
            threads.hand_on()
        elif night.may_move():
            night.submit(night.legal_moves()[0])
    assert heard  # each thought that came in was told
    assert night.next_game("again") == ""
    assert night.table is not first and night.table._offload is threads
    assert len(night.table._listeners) == 1

"""Every registered game, every kind of move that shows a hidden card: a peer that sends the
move with a false label (one the game would accept, so only the proof can tell) is refused
by the host, named as the culprit, and the false card never enters anyone's state.

The kinds come from an honest game played first (the moves whose ``Game.reveals`` is not
empty), so a new game's revealing moves are covered by registering it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from protocol import Rejected
from protocol._bodies import MoveBody
from protocol._messages import Entry
from protocol.contract import IllegalMove, Move
from protocol.harness import Harness

SEATS = 3


def _harness(name: str, seed: int) -> Harness:
    factories = list(bots_for(name).values())
    bots = [factories[(seed + s) % len(factories)]() for s in range(SEATS)]
    return Harness(GAMES, name, SEATS, dict(PLUGINS[name].short), bots, seed=seed)


def _revealing_kinds(name: str) -> set[str]:
    """The kinds of move that showed a card in an honest game (peers' and the host's)."""
    h = _harness(name, seed=1)
    h.run()
    game = GAMES[name]
    kinds = set()
    for se in h.host.table.log.entries:
        body = se.entry.body
        if isinstance(body, MoveBody):
            move = game.moves.read(body.move)
            if game.reveals(move):
                kinds.add(str(move[0]))
    return kinds


def _swap(value: Any, old: str, new: str) -> Any:
    """``value`` with every string ``old`` in it replaced by ``new`` (lists stay lists)."""
    if value == old:
        return new
    if isinstance(value, list | tuple):
        return type(value)(_swap(v, old, new) for v in value)
    return value


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_false_label_on_every_revealing_move_is_refused_and_named(name: str) -> None:
    game = GAMES[name]
    kinds = _revealing_kinds(name)
    if name != "unanimo":  # words are written, not dealt: Unanimo shows no hidden card
        assert kinds, f"{name}: no move showed a card in a whole game"
    for kind in sorted(kinds):
        for seed in range(1, 40):
            h = _harness(name, seed)
            told: list[tuple[int, str, str, Move]] = []  # seat, true and false label, move

            def lie(
                entry: Entry, h: Harness = h, told: list[Any] = told, kind: str = kind
            ) -> Entry | None:
                body = entry.body
                if not isinstance(body, MoveBody):
                    return None
                move = game.moves.read(body.move)
                shown = game.reveals(move)
                if str(move[0]) != kind or not shown:
                    return None
                handle, truth = next(iter(shown.items()))
                table = h.host.table
                seat = next(m.seat for m in table.members if m.key == entry.author)
                for other in table.cards.origin[handle][1]:
                    if other == truth:
                        continue
                    forged: Move = _swap(move, truth, other)
                    if game.reveals(forged).get(handle) != other:
                        continue
                    try:
                        game.check(table.state, seat, forged)
                    except IllegalMove:
                        continue
                    told.append((seat, truth, other, forged))
                    return replace(entry, body=replace(body, move=forged))
                return None  # no other label the game would take here: stay honest

            for party in range(1, SEATS):
                h.tamper(party, lie)
            h.run(max_moves=5_000)
            if not told:
                continue
            seat, truth, other, forged = told[0]
            liar = h.by_seat(seat).table.me
            assert liar is not None
            refused = [e.error for e in h.events[0] if isinstance(e, Rejected)]
            assert refused, f"{name} {kind}: a false {other!r} (truly {truth!r}) was accepted"
            assert refused[0].culprit == liar.identity.public.fingerprint
            assert f"the {other!r} the move claims" in refused[0].reason
            for party in h.parties:  # the forged move is in nobody's log
                moves = [game.moves.read(se.entry.body.move) for se in party.table.log.entries
                         if isinstance(se.entry.body, MoveBody)]  # fmt: skip
                assert forged not in moves
            break
        else:
            pytest.fail(f"{name}: no game gave a peer a {kind!r} move to lie about")

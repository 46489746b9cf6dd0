"""Unikato on the real protocol (in-process harness, real crypto): a whole game ends with a
clean audit, and a tile placed under a label it does not have is refused, its author named."""

from __future__ import annotations

from dataclasses import replace

from lanparty.games.unikato import UNIKATO
from lanparty.games.unikato.bots import HeuristicBot
from lanparty.games.unikato.tiles import LABEL
from protocol import Rejected
from protocol._bodies import MoveBody
from protocol._messages import Entry
from protocol.contract import Turn
from protocol.harness import Harness

GAMES = {"unikato": UNIKATO}


def test_a_whole_game_on_the_protocol_ends_with_a_clean_audit() -> None:
    h = Harness(GAMES, "unikato", 2, {"first": "host"}, [HeuristicBot(), HeuristicBot()], seed=3)
    h.run()
    assert h.done
    outcomes = {UNIKATO.outcome(p.table.state) for p in h.parties}
    assert len(outcomes) == 1 and next(iter(outcomes)).finished
    for p in h.parties:
        assert p.table.report is not None and p.table.report.complete
        assert p.table.report.findings == ()
    assert not [e for events in h.events for e in events if isinstance(e, Rejected)]


def test_a_tile_placed_under_a_false_label_is_refused_and_named() -> None:
    h = Harness(GAMES, "unikato", 2, {"first": "host"}, [HeuristicBot(), HeuristicBot()], seed=4)
    h.pump()
    while not (isinstance(status := h.host.status(), Turn) and status.seat == 1):
        assert h.step()
        h.pump()
    peer = h.by_seat(1)
    party = h.parties.index(peer)
    told: dict[str, object] = {}

    def lie(e: Entry) -> Entry | None:
        body = e.body
        if not isinstance(body, MoveBody) or body.move[0] not in ("place", "exchange"):
            return None
        truth = body.move[2]
        told["claim"] = claim = next(t for t in LABEL if t != truth)
        told["handle"] = body.move[1]
        return replace(e, body=replace(body, move=(*body.move[:2], claim, *body.move[3:])))

    h.tamper(party, lie)
    before = UNIKATO.view(h.host.table.state, None)
    assert h.step()
    h.pump()
    [rejected] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert rejected.seat == 1
    assert f"card {told['handle']} is not the {told['claim']!r} the move claims" in rejected.reason
    assert UNIKATO.view(h.host.table.state, None) == before  # nothing of it was applied

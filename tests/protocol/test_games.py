"""Whole KaTO games through the harness: real protocol, real crypto, every peer verifying."""

from __future__ import annotations

import pytest

from protocol import Phase, Rejected, Stopped, TableClosed, audit_transcript
from protocol.harness import Harness

from .conftest import Honest


def _play(games, seats, options, seed):
    h = Harness(games, "kato", seats, options, [Honest() for _ in range(seats)], seed=seed)
    h.run()
    return h


def _assert_agree(h):
    parties = h.parties
    assert [p.phase for p in parties] == [Phase.CLOSED] * len(parties)
    transcripts = {p.transcript() for p in parties}
    assert len(transcripts) == 1, "every peer's final log is identical"
    game = h.host.table.game
    views = [game.view(p.table.state, None) for p in parties]
    assert all(v == views[0] for v in views)
    outcomes = {game.outcome(p.table.state) for p in parties}
    assert len(outcomes) == 1 and next(iter(outcomes)).finished
    for p, events in zip(parties, h.events, strict=True):
        assert not [e for e in events if isinstance(e, Rejected | Stopped)]
        closed = [e for e in events if isinstance(e, TableClosed)]
        assert len(closed) == 1 and closed[0].report.ok
        assert p.table.report is not None and p.table.report.ok
    return transcripts.pop()


@pytest.mark.parametrize(
    ("seats", "options"),
    [(2, {"rounds": 1}), (4, {"rounds": 1})],
)
def test_whole_game(games, seats, options):
    h = _play(games, seats, options, seed=seats)
    transcript = _assert_agree(h)
    assert [p.seat for p in h.parties] == list(range(seats))
    assert h.moves > 0
    report = audit_transcript(transcript, games)
    assert report.ok and report.complete


def test_whole_game_seven_seats(games):
    h = _play(games, 7, {"rounds": 1, "hand_size": 2, "first": "host"}, seed=0)
    _assert_agree(h)

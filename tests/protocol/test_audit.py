"""The end-of-game audit, live and offline: an unchallenged illegal Wild Draw Four is named
with its seat and log position; an honest game passes; a doctored transcript does not."""

from __future__ import annotations

import pytest

from protocol import Phase, RemoteProtocolError, audit_transcript, pack, read_transcript, unpack
from protocol._bodies import (
    MoveBody,
)

from .conftest import Bluffer, Honest, play_until


def _bluffed(h):
    return h.bots[0].bluffs > 0 and h.host.phase is Phase.CLOSED


def test_audit_names_an_unchallenged_illegal_wild_draw_four(games):
    h = play_until(games, lambda: [Bluffer(), Honest(challenge=False)], _bluffed, seeds=range(12))
    reports = [p.table.report for p in h.parties]
    assert all(r == reports[0] for r in reports)
    findings = [f for f in reports[0].findings if f.rule == "illegal-wild-draw-four"]
    assert findings and not reports[0].ok
    log = h.host.table.log.entries
    for f in findings:
        assert f.seat == 0
        body = log[f.pos].entry.body
        assert isinstance(body, MoveBody) and body.move[0] == "play" and body.move[2][-1] == "W+4"
        assert log[f.pos].entry.author == h.host.identity.public.raw
    # every peer signed the same verdict, and the file says the same offline
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    offline = audit_transcript(h.peers[0].transcript(), games)
    assert offline == reports[0]


def test_offline_audit_refuses_a_doctored_transcript(games):
    h = play_until(
        games, lambda: [Honest(), Honest()], lambda h: h.host.phase is Phase.CLOSED, seeds=[3]
    )
    data = h.host.transcript()
    assert audit_transcript(data, games).ok
    items = read_transcript(data)
    # a changed move: its signature no longer holds
    pos = next(i for i, (raw, _, _) in enumerate(items) if b"draw" in raw or b"play" in raw)
    raw, sig, seq = items[pos]
    bad = raw.replace(b"draw", b"pass") if b"draw" in raw else raw.replace(b"play", b"pass")
    doctored = unpack(data, 1 << 28)
    doctored["entries"][pos] = [bad, sig, seq]
    with pytest.raises(RemoteProtocolError):
        audit_transcript(pack(doctored), games)
    # a transcript cut before the sign-offs is reported incomplete
    cut = unpack(data, 1 << 28)
    cut["entries"] = cut["entries"][:-1]
    report = audit_transcript(pack(cut), games)
    assert not report.complete and not report.ok

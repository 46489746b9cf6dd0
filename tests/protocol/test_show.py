"""Show to one (KaTO's challenge): the hand reaches the challenger only, and a false claim by
either side is provable from signed data."""

from __future__ import annotations

from dataclasses import replace

from crypto import CryptoError
from protocol import Phase, Rejected, Stopped
from protocol._bodies import (
    MoveBody,
    Show,
    ShowAck,
)

from .conftest import Bluffer, Honest, play_until


def _shown(h):
    return bool(h.host.table.shows) and h.host.phase is Phase.CLOSED


def _stopped(h):
    return all(p.phase is Phase.STOPPED for p in h.parties)


def test_shown_hand_reaches_the_challenger_only(games):
    h = play_until(
        games, lambda: [Honest(challenge=True), Bluffer(), Honest()], _shown, seats=3,
        seeds=range(12),
    )  # fmt: skip
    assert h.host.table.report.ok  # the challenger's verdict was true
    for show in h.host.table.shows:
        recipient = h.by_seat(show.recipient)
        holder_labels = {
            hd: lb for hd, lb in h.by_seat(show.holder).table.known.items() if hd in show.handles
        }
        assert {hd: recipient.table.known[hd] for hd in show.handles} == holder_labels
        for p in h.parties:
            if p.seat in (show.recipient, show.holder):
                continue
            public = p.table.cards.public
            assert all(hd not in p.table.known or hd in public for hd in show.handles)
            try:
                p.table.me.seal.open(show.box, b"any")
            except CryptoError:
                pass
            else:  # pragma: no cover - a box that opens for the wrong key is a break
                raise AssertionError("the box opened for someone else")


def test_holder_sealing_a_bad_box_is_named(games):
    def bad_box(h):
        h.tamper(1, lambda e: replace(e, body=Show(bytes(80))) if e.body.KIND == "show" else None)

    h = play_until(
        games, lambda: [Honest(challenge=True), Bluffer()], _stopped, seeds=range(12),
        tamper=bad_box,
    )  # fmt: skip
    holder = h.peers[0]
    for events in h.events:
        [stop] = [e for e in events if isinstance(e, Stopped)]
        assert stop.error.culprit == holder.table.me.identity.public.fingerprint
        assert stop.error.seat == 1 and len(stop.error.evidence) == 2


def test_challenger_lying_about_the_box_is_named(games):
    def false_complaint(h):
        seal = h.peers[0].table.me.seal.secret_bytes()
        h.tamper(1, lambda e: replace(e, body=ShowAck(seal)) if e.body.KIND == "show_ack" else None)

    h = play_until(
        games, lambda: [Bluffer(), Honest(challenge=True)], _stopped, seeds=range(12),
        tamper=false_complaint,
    )  # fmt: skip
    challenger = h.peers[0]
    for events in h.events:
        [stop] = [e for e in events if isinstance(e, Stopped)]
        assert stop.error.culprit == challenger.table.me.identity.public.fingerprint
        assert "opens and verifies" in stop.error.reason


def test_false_verdict_is_refused_by_the_holder(games):
    """The holder's copy knows its own hand, so a false verdict is refused as illegal (signed by
    the challenger: the evidence), and the game goes on with the true one."""
    flipped = {"guilty": "innocent", "innocent": "guilty"}

    def lie(h):
        def change(e):
            if isinstance(e.body, MoveBody) and e.body.move[0] == "verdict":
                return replace(e, body=MoveBody(("verdict", flipped[e.body.move[1]])))
            return None

        h.tamper(1, change)

    h = play_until(
        games, lambda: [Bluffer(), Honest(challenge=True)], _shown, seeds=range(12), tamper=lie
    )
    [rejected] = [e for e in h.events[0] if isinstance(e, Rejected)]
    assert "verdict is false" in rejected.error.reason
    assert rejected.error.culprit == h.peers[0].table.me.identity.public.fingerprint
    assert h.host.table.report.ok
    assert len({p.transcript() for p in h.parties}) == 1

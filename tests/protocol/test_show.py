"""Show to one (KaTO's challenge): the hand reaches the challenger only, and a false claim by
either side is provable from signed data."""

from __future__ import annotations

from dataclasses import replace

from crypto import CryptoError
from lanparty.games.bots import Autopilot
from protocol import Applied, Phase, Rejected, Stopped
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


class Asked:
    """A challenger's strategy that keeps every list of moves it is asked to choose from."""

    def __init__(self) -> None:
        self.bot = Honest(challenge=True)
        self.asked: list[list[object]] = []

    def choose(self, view, legal, rng):
        self.asked.append(list(legal))
        return self.bot.choose(view, legal, rng)


def test_a_bot_challengers_verdict_is_sent_without_a_bot_choice(games):
    """The verdict is a signed move of the challenger's seat, made by its program from the
    shown hand: the strategy is never asked about it, and every copy checks it as before."""
    strategies: list[Asked] = []

    def bots():
        strategies.append(Asked())
        return [Autopilot("kato", strategies[-1]), Bluffer()]

    h = play_until(games, bots, _shown, seeds=range(12))
    verdicts = [
        e for e in h.events[0] if isinstance(e, Applied) and e.move and e.move[0] == "verdict"
    ]
    assert verdicts and all(e.seat == 0 for e in verdicts)  # signed by the challenger's seat
    assert any(("challenge",) in legal for legal in strategies[-1].asked)
    assert not any(m and m[0] == "verdict" for legal in strategies[-1].asked for m in legal)
    assert h.host.table.report.ok  # true verdicts: the audit agrees with every one
    assert len({p.transcript() for p in h.parties}) == 1

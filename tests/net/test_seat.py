"""A person's seat at a networked table (``NetSeat``), fed by a real protocol peer one frame
at a time: the progress it shows while the deck is shuffled, and a log that names only the
cards this seat may know."""

from __future__ import annotations

import random
import re

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.narrate import card_name
from lanparty.net.seat import NetSeat
from protocol import Host, Peer, Phase
from protocol._frames import FrameReader, frame


def _frames(data: bytes) -> list[bytes]:
    reader = FrameReader()
    reader.feed(data)
    out = []
    while (payload := reader.next_frame()) is not None:
        out.append(frame(payload))
    return out


def test_progress_and_a_private_log_through_a_whole_round() -> None:
    host = Host(Identity(), "Ann", GAMES, "kato", {"rounds": 1}, 3)
    bob, cy = Peer(Identity(), "Bob", GAMES), Peer(Identity(), "Cy", GAMES)
    cids = [host.connect(), host.connect()]
    seat = NetSeat(bob, "kato")
    bot = bots_for("kato")["heuristic"]()
    rng = random.Random(1)
    statuses: list[str] = []
    lines: list[str] = []
    held: set[str] = set()  # every card Bob ever held

    def feed_bob(data: bytes) -> None:
        for f in _frames(data):
            bob.receive_data(f)
            while (event := bob.next_event()) is not None:
                seat.observe(event)
            statuses.append(seat.status_line())
            lines.extend(seat.take_log())

    for _ in range(5000):
        if host.phase in (Phase.CLOSED, Phase.STOPPED):
            break
        moved = False
        for peer, cid in ((bob, cids[0]), (cy, cids[1])):
            data = peer.data_to_send()
            if data:
                host.receive_data(cid, data)
                moved = True
        for peer, cid in ((bob, cids[0]), (cy, cids[1])):
            data = host.data_to_send(cid)
            if data:
                moved = True
                feed_bob(data) if peer is bob else peer.receive_data(data)
        while host.next_event() is not None:
            pass
        while cy.next_event() is not None:
            pass
        if moved:
            continue
        if host.racing() is not None:  # quiet: the race window has passed
            host.close_race()
            continue
        # Quiet: someone moves (the person's seat through its queue, like the UI does).
        for party in (host, bob, cy):
            legal = party.legal_moves() if party.may_move() and not party.busy else []
            if party is bob and legal and not bob.busy:
                seat.submit(bot.choose(bob.view(), legal, rng))
                seat.act(bob)
                break
            if party is not bob and legal:
                party.play(bot.choose(party.view(), legal, rng))
                break
        held.update(card_name(label) for _, label in bob.view().get("hand", []))
    assert host.phase is Phase.CLOSED and bob.phase is Phase.CLOSED
    assert seat.over() and seat.audit.startswith("Audit passed")
    assert "seat 1 of 3 (Ann) shuffling and proving…" in statuses
    assert "seat 2 of 3 (you) shuffling and proving…" in statuses
    assert "seat 3 of 3 (Cy) shuffling and proving…" in statuses
    assert "Round 1: the cards are shuffled and dealt" in lines
    assert any(line.startswith("You take ") for line in lines)
    assert any(line.startswith("You play ") or line.startswith("You draw") for line in lines)
    assert lines[-1].startswith("Audit passed")
    # Bob is told the cards he takes, and only how many the others take.
    for line in lines:
        if line.startswith("You take "):
            assert set(line.removeprefix("You take ").split(", ")) <= held, line
        if line.startswith(("Ann takes", "Cy takes")):
            assert re.fullmatch(r"(Ann|Cy) takes \d+ cards?", line), line

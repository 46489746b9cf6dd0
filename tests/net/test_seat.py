"""A person's seat at a networked table (``NetSeat``), fed by a real protocol peer one frame
at a time: the progress it shows while the deck is shuffled, and a log that names only the
cards this seat may know."""

from __future__ import annotations

import random
import re
from typing import Any

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.games.kato.narrate import card_name
from lanparty.table.networked import NetSeat
from protocol import Host, Peer, Phase
from protocol._frames import FrameReader, frame
from protocol.contract import Move

from ..protocol.conftest import Bluffer, Honest


def _frames(data: bytes) -> list[bytes]:
    reader = FrameReader()
    reader.feed(data)
    out = []
    while (payload := reader.next_frame()) is not None:
        out.append(frame(payload))
    return out


class Run:
    """A 3-seat table (host Ann, Bob the person through his ``NetSeat``, Cy) played to the
    end one frame at a time; ``bots[s]`` chooses for seat ``s``."""

    def __init__(self, bots: list[Any], options: dict[str, Any], seed: int = 1) -> None:
        self.host = Host(Identity(), "Ann", GAMES, "kato", options, 3)
        self.bob, self.cy = Peer(Identity(), "Bob", GAMES), Peer(Identity(), "Cy", GAMES)
        self.cids = [self.host.connect(), self.host.connect()]
        self.seat = NetSeat(self.bob)
        self.bots = bots
        self.rng = random.Random(seed)
        self.statuses: list[str] = []
        self.lines: list[str] = []
        self.held: set[str] = set()  # every card Bob ever held
        self.typed: list[Move] = []  # what Bob typed

    def feed_bob(self, data: bytes) -> None:
        for f in _frames(data):
            self.bob.receive_data(f)
            while (event := self.bob.next_event()) is not None:
                self.seat.observe(event)
            self.statuses.append(self.seat.status_line())
            self.lines.extend(self.seat.take_log())
            # After every input: cards taken just before the game ends are held too.
            self.held.update(card_name(label) for _, label in self.bob.view().get("hand", []))

    def play(self) -> None:  # noqa: C901
        host, bob, cy, seat = self.host, self.bob, self.cy, self.seat
        for _ in range(5000):
            if host.phase in (Phase.CLOSED, Phase.STOPPED):
                return
            moved = False
            for peer, cid in ((bob, self.cids[0]), (cy, self.cids[1])):
                data = peer.data_to_send()
                if data:
                    host.receive_data(cid, data)
                    moved = True
            for peer, cid in ((bob, self.cids[0]), (cy, self.cids[1])):
                data = host.data_to_send(cid)
                if data:
                    moved = True
                    self.feed_bob(data) if peer is bob else peer.receive_data(data)
            while host.next_event() is not None:
                pass
            while cy.next_event() is not None:
                pass
            if moved:
                continue
            if host.racing() is not None:  # quiet: the race window has passed
                host.close_race()
                continue
            # Quiet: someone moves. Bob's seat is asked to act after every input, as the node
            # does (it sends the forced moves nobody types), and takes what Bob types.
            if seat.act(bob):
                continue
            for s, party in enumerate((host, bob, cy)):
                if party is bob:
                    legal = seat.legal_moves()
                    if legal:
                        self.typed.append(self.bots[s].choose(bob.view(), legal, self.rng))
                        seat.submit(self.typed[-1])
                        seat.act(bob)
                        break
                    continue
                legal = party.legal_moves() if party.may_move() and not party.busy else []
                if legal:
                    party.play(self.bots[s].choose(party.view(), legal, self.rng))
                    break


def test_progress_and_a_private_log_through_a_whole_round() -> None:
    bot = bots_for("kato")["heuristic"]()
    run = Run([bot, bot, bot], {"rounds": 1})
    run.play()
    host, bob, seat = run.host, run.bob, run.seat
    statuses, lines, held = run.statuses, run.lines, run.held

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


def test_a_persons_verdict_is_sent_by_the_program() -> None:
    """Bob challenges a bluffed Wild Draw Four and types nothing else: his seat sends the
    verdict read from the hand shown to him, and the log says whose hand and which colour."""
    for seed in range(12):
        run = Run([Bluffer(), Honest(challenge=True), Honest()], {"rounds": 1}, seed)
        run.play()
        if ("challenge",) in run.typed:
            break
    else:
        raise AssertionError("no seed made Bob challenge")
    assert not any(m[0] == "verdict" for m in run.typed)
    verdict = re.compile(r"Verdict: (Ann|Cy)'s hand, shown to you, has (a|no) \w+ card: \w+")
    verdicts = [line for line in run.lines if line.startswith("Verdict: ") and "to you" in line]
    assert verdicts and all(verdict.fullmatch(line) for line in verdicts), verdicts
    assert any(re.match(r"(Ann|Cy)'s hand, shown to you: ", line) for line in run.lines)
    assert run.host.phase is Phase.CLOSED and run.seat.audit.startswith("Audit passed")

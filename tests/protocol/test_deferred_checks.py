"""Shuffle proofs checked beside the table (``defer_checks``, as the network layer runs them in
a worker thread): the host relays a shuffle once its place and author are right, the next
shuffler proves on it at once, and still no card of that deck is opened by anyone before
every proof of it was checked; a bad proof stops the table naming its author."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from protocol import Entry, Phase, Stopped
from protocol._bodies import MoveBody, SharesBody, Show, ShuffleBody
from protocol.harness import Harness

from .conftest import Honest

OPTIONS = {"rounds": 1, "first": "host", "hand_size": 4}


def _kinds(party) -> list[str]:
    return [se.entry.body.KIND for se in party.table.log.entries]


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_every_game_plays_to_the_end_with_checks_beside_the_table(name: str) -> None:
    factories = list(bots_for(name).values())
    bots = [factories[s % len(factories)]() for s in range(3)]
    h = Harness(GAMES, name, 3, dict(PLUGINS[name].short), bots, seed=4, defer_checks=True)
    h.run()
    assert h.done
    for party in h.parties:
        assert party.phase is Phase.CLOSED and not party.table.checking
        assert party.table.report is not None and party.table.report.complete


def test_nothing_is_opened_while_a_proof_is_unchecked() -> None:
    h = Harness(GAMES, "kato", 4, OPTIONS, [Honest() for _ in range(4)], seed=2,
                defer_checks=True, hold_checks=True)  # fmt: skip
    h.pump()
    # Every shuffle is in: nobody waited for a check to prove its own.
    for party in h.parties:
        assert _kinds(party).count("shuffle") == 4
        assert party.table.checking
        assert "shares" not in _kinds(party) and not party.table.known
        assert party.table.duty() is None and party.legal_moves() == []
    assert h.host.table.waiting_on() == (0, "shares")
    assert h.run_checks() == 4 * 3  # each party checks the three shuffles it did not make
    h.hold_checks = False
    h.run()
    assert h.done and all(p.table.report is not None and p.table.report.ok for p in h.parties)


def test_a_bad_proof_from_the_second_shuffler_stops_the_table_and_opens_nothing() -> None:
    h = Harness(GAMES, "kato", 4, OPTIONS, [Honest() for _ in range(4)], seed=3,
                defer_checks=True)  # fmt: skip

    def swap(e: Entry) -> Entry | None:
        if not isinstance(e.body, ShuffleBody):
            return None
        deck = list(e.body.deck)
        deck[0], deck[1] = deck[1], deck[0]
        return replace(e, body=replace(e.body, deck=tuple(deck)))

    second = 1  # the first peer to join: seat 1, the second to shuffle
    h.tamper(second, swap)
    h.run()
    assert h.parties[second].seat == 1
    liar = h.parties[second].table.me
    assert liar is not None
    honest = [p for i, p in enumerate(h.parties) if i != second]
    for i, party in enumerate(h.parties):
        if party not in honest:
            continue
        stops = [e.error for e in h.events[i] if isinstance(e, Stopped)]
        assert stops, f"party {i} did not stop"
        assert "bad shuffle proof" in stops[0].reason
        assert stops[0].culprit == liar.identity.public.fingerprint and stops[0].seat == 1
        assert party.phase is Phase.STOPPED
        t = party.table
        assert not t.known, f"party {i} opened a card of a deck that was never proved"
        for se in t.log.entries:
            body = se.entry.body
            assert not isinstance(body, SharesBody | Show)
            assert not (isinstance(body, MoveBody) and body.reveal)

"""Shuffle proofs checked in worker threads at real nodes over loopback TCP, and bots that
leave them to the host that started them, but only while every seat is one of theirs."""

from __future__ import annotations

from dataclasses import replace

import pytest
import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.node import PeerClient
from lanparty.net.server import HostServer
from lanparty.table.botseat import BotDriver
from protocol import Entry, Event, Host, Peer, Phase, Stopped
from protocol._bodies import ShuffleBody
from protocol._messages import SignedEntry

OPTIONS = {"rounds": 1, "hand_size": 3}


class _Swapper(Peer):
    """A peer whose shuffle entry goes out with two cards swapped after proving: its proof
    no longer holds (what a cheating shuffler's program would send)."""

    def _propose(self, se: SignedEntry) -> None:
        e: Entry = se.entry
        if isinstance(e.body, ShuffleBody):
            deck = list(e.body.deck)
            deck[0], deck[1] = deck[1], deck[0]
            me = self.table.me
            assert me is not None
            se = SignedEntry.create(me.identity, replace(e, body=replace(e.body, deck=tuple(deck))))
        super()._propose(se)


def _keys(*ids: Identity) -> frozenset[bytes]:
    return frozenset(i.public.raw for i in ids)


@pytest.mark.parametrize("ours", [True, False])
async def test_bots_leave_proofs_to_their_host_only_while_every_seat_is_theirs(
    ours: bool,
) -> None:
    ids = [Identity() for _ in range(3)]
    peers = [Peer(i, name, GAMES) for i, name in zip(ids, ("bea", "carl", "dan"), strict=True)]
    host_id = Identity()
    # Our bots know the host and each other; a stranger (dan's key, unknown to them) changes
    # everything: they check every proof themselves, as any peer does.
    fellows = ids if ours else ids[:2]
    trust = [_keys(host_id, *fellows)] * 2 + [frozenset()]
    host, _, clients = await _play_with(host_id, peers, trust)
    for party in (host, *peers):
        assert party.phase is Phase.CLOSED, party.table.stop_error
    assert all(p.transcript() == host.transcript() for p in peers)
    left = [c.proof_checks.left_to_host for c in clients]
    # Every shuffle but a peer's own (a round whose deck runs out is shuffled again).
    others = [sum(se.entry.body.KIND == "shuffle" and se.entry.author != i.public.raw
                  for se in host.table.log.entries) for i in ids]  # fmt: skip
    if ours:
        assert left[:2] == others[:2] and left[2] == 0
    else:
        assert left == [0, 0, 0]


async def _play_with(host_id: Identity, peers: list[Peer], trust: list[frozenset[bytes]]) -> tuple[
    Host, list[list[Event]], list[PeerClient]
]:  # fmt: skip
    kinds = bots_for("kato")
    seats = len(peers) + 1
    events: list[list[Event]] = [[] for _ in range(seats)]
    host = Host(host_id, "ana", GAMES, "kato", OPTIONS, seats)
    server = HostServer(host, BotDriver(kinds["heuristic"](), 0, react=0), events[0].append)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    clients = []
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve, listeners)
            for i, peer in enumerate(peers, start=1):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                driver = BotDriver(kinds["random"](), i, react=0)
                client = PeerClient(peer, stream, driver, events[i].append, trusted=trust[i - 1])
                clients.append(client)
                nursery.start_soon(client.run)
    return host, events, clients


async def test_a_bad_proof_checked_in_a_thread_stops_every_node_naming_the_shuffler() -> None:
    cheat = _Swapper(Identity(), "bea", GAMES)
    honest = Peer(Identity(), "carl", GAMES)
    host_id = Identity()
    host, events, _ = await _play_with(host_id, [cheat, honest], [frozenset()] * 2)
    liar = cheat.table.me
    assert liar is not None
    for party, evs in ((host, events[0]), (honest, events[2])):
        stops = [e.error for e in evs if isinstance(e, Stopped)]
        assert stops and "bad shuffle proof" in stops[0].reason
        assert stops[0].culprit == liar.identity.public.fingerprint
        assert party.phase is Phase.STOPPED
        assert not party.table.known  # no card of the unproved deck was opened

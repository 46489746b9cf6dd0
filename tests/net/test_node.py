"""A whole KaTO game among a host and peers over real loopback TCP, in one trio run."""

from __future__ import annotations

import pytest
import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.node import BotDriver, HostServer, run_peer
from protocol import Event, Host, Peer, Phase, TableClosed


@pytest.mark.parametrize("seats", [2, 3])
async def test_peers_play_a_round_over_tcp(seats: int) -> None:
    kinds = bots_for("kato")
    events: list[list[Event]] = [[] for _ in range(seats)]
    host = Host(Identity(), "ana", GAMES, "kato", {"rounds": 1}, seats)
    server = HostServer(host, BotDriver(kinds["heuristic"](), 0), events[0].append)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    peers = [Peer(Identity(), name, GAMES) for name in ("bea", "carl")[: seats - 1]]
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve, listeners)
            for i, peer in enumerate(peers, start=1):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                driver = BotDriver(kinds["random"](), i)
                nursery.start_soon(run_peer, peer, stream, driver, events[i].append)
    for party, evs in zip([host, *peers], events, strict=True):
        assert party.phase is Phase.CLOSED
        closed = [e for e in evs if isinstance(e, TableClosed)]
        assert closed and closed[0].report.complete
        # Bots may bluff a Wild Draw Four (legal unless challenged); the audit names each one.
        assert all(f.rule == "illegal-wild-draw-four" for f in closed[0].report.findings)
    assert all(p.transcript() == host.transcript() for p in peers)

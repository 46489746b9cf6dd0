"""Sealed moves through the real node code: eight peers over loopback TCP commit at the same
instant and none is lost; a timed phase is closed by its closer's clock, never by a watchdog
hurrying a seat that is still deciding."""

from __future__ import annotations

import trio
import trio.testing

from crypto import Identity
from lanparty.net.node import BotDriver, run_peer
from lanparty.net.server import HostServer
from protocol import Event, Host, Peer, Phase, PhaseClosed

from ..protocol.test_sealed import Guess, _Pick


async def test_eight_peers_commit_at_once_over_loopback_and_none_is_lost() -> None:
    games = {"guess": Guess(max_seats=8)}
    host = Host(Identity(), "p0", games, "guess", {}, 8)
    server = HostServer(host, BotDriver(_Pick(), 0, react=0), lambda e: None)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    peers = [Peer(Identity(), f"p{i}", games) for i in range(1, 8)]
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve, listeners)
            for i, peer in enumerate(peers, start=1):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                nursery.start_soon(run_peer, peer, stream, BotDriver(_Pick(), i, react=0),
                                   lambda e: None)  # fmt: skip
    kinds = [se.entry.body.KIND for se in host.table.log.entries]
    assert kinds.count("seal_commit") == 8 and kinds.count("seal_open") == 8
    assert all(p.phase is Phase.CLOSED for p in (host, *peers))
    assert len({p.transcript() for p in (host, *peers)}) == 1
    assert all(len(p.table.state.picks) == 8 for p in (host, *peers))


class _Undecided:
    """A person who never hands anything in."""

    def choose(self, view, legal, rng):
        return None


async def test_a_timed_phase_is_closed_by_its_closer_not_by_a_watchdog(autojump_clock) -> None:
    """The host (the closer, timer 30 s) and bea hand in; carl never does. No watchdog halts
    carl (a person writing has no deadline): the closer's clock ends the phase at 30 s, carl
    picks nothing, and the game ends for everyone."""
    games = {"guess": Guess(closer=0)}
    host = Host(Identity(), "ana", games, "guess", {}, 3)
    events: list[Event] = []
    server = HostServer(host, BotDriver(_Pick(), 0, react=0), events.append, duty_timeout=5)
    bea, carl = Peer(Identity(), "bea", games), Peer(Identity(), "carl", games)
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve)
            for peer, bot in ((bea, _Pick()), (carl, _Undecided())):
                a, b = trio.testing.memory_stream_pair()
                nursery.start_soon(server.handle, a)
                nursery.start_soon(run_peer, peer, b, BotDriver(bot, 1, react=0),
                                   lambda e: None)  # fmt: skip
            start = trio.current_time()
            while not any(isinstance(e, PhaseClosed) for e in events):
                await server._progress.wait()
            closed = trio.current_time() - start
    assert 30 <= closed < 31
    assert all(p.phase is Phase.CLOSED for p in (host, bea, carl))
    assert all(sorted(p.table.state.absent) == [carl.seat] for p in (host, bea, carl))

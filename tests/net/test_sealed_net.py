"""Sealed moves through the real node code: eight peers over loopback TCP commit at the same
instant and none is lost; a timed phase is closed by its closer's clock, never by a watchdog
hurrying a seat that is still deciding; a seat restarted mid-phase opens what it saved."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from crypto import Identity, KeyShare, SealKey
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.node import run_peer
from lanparty.net.server import HostServer
from lanparty.table.botseat import BotDriver
from lanparty.table.keeping import keeping_seat, saved_peer
from protocol import Event, Host, Peer, Phase, PhaseClosed, SealedMove

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


@pytest.mark.parametrize("closer", [0, 1], ids=["the host closes", "a peer closes"])
async def test_a_timed_phase_is_closed_by_its_closer_not_by_a_watchdog(
    autojump_clock: Any, closer: int
) -> None:
    """The closer (timer 30 s: the host, or bea) and one other hand in; carl never does. No
    watchdog halts carl (a person writing has no deadline): the closer's clock ends the
    phase at 30 s, carl picks nothing, and the game ends for everyone."""
    games = {"guess": Guess(closer=closer)}
    host = Host(Identity(), "ana", games, "guess", {}, 3)
    events: list[Event] = []
    server = HostServer(
        host, BotDriver(_Pick(), 0, react=0), events.append, duty_timeout=5, inline_checks=True
    )  # virtual time: no proof in a thread
    bea, carl = Peer(Identity(), "bea", games), Peer(Identity(), "carl", games)
    with trio.fail_after(600):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve)
            for peer, bot in ((bea, _Pick()), (carl, _Undecided())):
                a, b = trio.testing.memory_stream_pair()
                nursery.start_soon(server.handle, a)
                nursery.start_soon(partial(run_peer, inline_checks=True), peer, b,
                                   BotDriver(bot, 1, react=0), lambda e: None)  # fmt: skip
            start = trio.current_time()
            while not any(isinstance(e, PhaseClosed) for e in events):
                await server._progress.wait()
            closed = trio.current_time() - start
    assert 30 <= closed < 31
    assert all(p.phase is Phase.CLOSED for p in (host, bea, carl))
    assert all(sorted(p.table.state.absent) == [carl.seat] for p in (host, bea, carl))


async def test_a_seat_restarted_mid_writing_opens_the_words_it_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carl's program seals his Unanimo words and dies. The words were saved with his seat:
    the restarted program (``join --resume``'s ``saved_peer``) opens them although its
    player now hands in nothing, and the game ends with Carl's words read."""
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    heuristic = bots_for("unanimo")["heuristic"]
    host = Host(Identity(), "ana", GAMES, "unanimo", {"cards": 1}, 3)
    server = HostServer(host, BotDriver(heuristic(), 0, react=0), lambda e: None, grace=60)
    bea = Peer(Identity(), "bea", GAMES, key=KeyShare(), seal=SealKey())
    carl = Peer(Identity(), "carl", GAMES, key=KeyShare(), seal=SealKey())
    sealed = trio.Event()

    def crash_after_sealing(event: Event) -> None:
        if isinstance(event, SealedMove):
            sealed.set()

    sink = keeping_seat(crash_after_sealing, carl, "127.0.0.1:1", lambda text: None)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve)
            a, b = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle, a)
            nursery.start_soon(run_peer, bea, b, BotDriver(heuristic(), 1, react=0),
                               lambda e: None)  # fmt: skip
            a, b = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle, a)
            carl_runs = trio.CancelScope()
            nursery.start_soon(_run_until, carl, b, BotDriver(heuristic(), 2, react=0),
                               sink, carl_runs)  # fmt: skip
            await sealed.wait()
            carl_runs.cancel()  # the process dies with its words sealed, not opened
            await b.aclose()
            carl2, saved = saved_peer(None)
            assert saved.sealed and carl2.table.sealed_blob() == saved.sealed
            a, b = trio.testing.memory_stream_pair()
            nursery.start_soon(server.handle, a)
            nursery.start_soon(run_peer, carl2, b, BotDriver(_NoWords(heuristic()), 2, react=0),
                               lambda e: None)  # fmt: skip
    assert all(p.phase is Phase.CLOSED for p in (host, bea, carl2))
    assert len({p.transcript() for p in (host, bea, carl2)}) == 1
    kinds = [se.entry.body.KIND for se in host.table.log.entries]
    assert kinds.count("seal_open") == 3  # carl's words were read, not lost
    assert not any(host.table.state.absent)  # nobody lost their words


class _NoWords:
    """A player who writes nothing more (the words are sealed already) and plays on."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return None if view.get("phase") == "writing" else self.bot.choose(view, legal, rng)


async def _run_until(
    peer: Peer, stream: trio.abc.Stream, driver: BotDriver, sink: Any, scope: trio.CancelScope
) -> None:
    with scope:
        await run_peer(peer, stream, driver, sink)

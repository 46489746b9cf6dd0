"""A hard bot at a networked seat: it thinks in a worker thread (the connection keeps
running) and plays a whole game over real loopback TCP, from its seat's view only."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence

import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bot_at
from lanparty.games.search import SearchBot, Think
from lanparty.net.node import run_peer
from lanparty.net.server import HostServer
from lanparty.table.botseat import BotDriver
from protocol import Event, Host, Peer, Phase, TableClosed
from protocol.contract import Move, Plain


class _Where:
    """A slow bot that notes the thread each of its choices is made in."""

    slow = True

    def __init__(self, bot: object) -> None:
        self.bot, self.threads = bot, set[str]()

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        self.threads.add(threading.current_thread().name)
        return self.bot.choose(view, legal, rng)  # type: ignore[attr-defined, no-any-return]


async def test_a_hard_bot_plays_a_round_over_tcp_thinking_in_a_thread() -> None:
    options = {"rounds": 1}
    events: list[list[Event]] = [[], []]
    host = Host(Identity(), "ana", GAMES, "kato", options, 2)
    hard = bot_at("kato", "hard", options, Think(rollouts=8, seconds=5.0))
    assert getattr(hard, "slow", False)
    where = _Where(hard)
    server = HostServer(host, BotDriver(where, 0, react=0), events[0].append)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    peer = Peer(Identity(), "bea", GAMES)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(server.serve, listeners)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            driver = BotDriver(bot_at("kato", "normal"), 1, react=0)
            nursery.start_soon(run_peer, peer, stream, driver, events[1].append)
    for party, evs in zip([host, peer], events, strict=True):
        assert party.phase is Phase.CLOSED
        closed = [e for e in evs if isinstance(e, TableClosed)]
        assert closed and closed[0].report.complete
    searched = hard.bot  # type: ignore[attr-defined]
    assert isinstance(searched, SearchBot) and searched.times  # it searched
    assert threading.main_thread().name not in where.threads  # in worker threads
    assert peer.transcript() == host.transcript()

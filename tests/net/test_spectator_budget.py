"""How the host's writers share the link between seats and spectators (issue 20), through a
real ``HostServer`` over in-memory streams: a spectator is sent nothing while a seat still has
bytes queued, and the spectators of one address are sent at most their budget, however often
they come back and ask for the whole log again."""

from __future__ import annotations

import trio
import trio.testing

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.admission import Buckets
from lanparty.net.server import HostServer
from lanparty.table.botseat import BotDriver
from protocol import (
    Challenge,
    FrameReader,
    Host,
    Peer,
    Relay,
    Watch,
    decode_message,
    encode_message,
    frame,
)


def _server(**kwargs: object) -> HostServer:
    host = Host(Identity(), "ann", GAMES, "kato", {"rounds": 1}, 4)
    driver = BotDriver(bots_for("kato")["heuristic"](), 0, react=0)
    return HostServer(host, driver, lambda e: None, **kwargs)  # type: ignore[arg-type]


async def _seat(nursery: trio.Nursery, server: HostServer, name: str) -> trio.abc.Stream:
    """A peer that joins over a lockstep stream (the host's sends wait for our reads); once
    it is seated nobody reads for it: the stream is returned for the test to read."""
    ours, theirs = trio.testing.lockstep_stream_pair()
    nursery.start_soon(server.handle, theirs)
    peer = Peer(Identity(), name, GAMES)
    while peer.seat is None:
        peer.receive_data(await ours.receive_some())
        if out := peer.data_to_send():
            await ours.send_all(out)
    return ours


async def _drain(stream: trio.abc.Stream) -> None:
    async for _ in stream:
        pass


class Spectator:
    """A ``watch`` from position 0 over a memory stream; counts the relays it gets and their
    bytes. With ``leave``, it hangs up once it holds every entry the host had when it came."""

    def __init__(self, leave: bool = False) -> None:
        self.leave = leave
        self.relays = 0
        self.log_bytes = 0
        self.more = trio.Event()  # set (and replaced) on each relay

    async def run(self, nursery: trio.Nursery, server: HostServer) -> None:
        ours, theirs = trio.testing.memory_stream_pair()
        nursery.start_soon(server.handle, theirs)
        reader = FrameReader(1 << 24)
        held = -1
        async with ours:
            async for data in ours:
                reader.feed(data)
                while (payload := reader.next_frame()) is not None:
                    msg = decode_message(payload)
                    if isinstance(msg, Challenge):
                        held = msg.pos
                        await ours.send_all(frame(encode_message(Watch(0))))
                    elif isinstance(msg, Relay):
                        self.relays += 1
                        self.log_bytes += len(payload) + 4
                        self.more.set()
                        self.more = trio.Event()
                if self.leave and self.relays >= held >= 0:
                    return


async def test_a_spectator_is_sent_nothing_while_a_seat_has_bytes_queued() -> None:
    server = _server()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.serve)
        bob = await _seat(nursery, server, "bob")  # seated; from now on nobody reads for it
        watcher = Spectator()
        nursery.start_soon(watcher.run, nursery, server)
        await trio.testing.wait_all_tasks_blocked()
        assert watcher.relays == 2  # the opening and bob's join
        cy = await _seat(nursery, server, "cy")  # relayed to bob (stuck) and to the spectator
        await trio.testing.wait_all_tasks_blocked()
        assert watcher.relays == 2, "the spectator went before a seat's relay"
        nursery.start_soon(_drain, bob)  # bob reads: its queue goes out, then the spectator's
        while watcher.relays < 3:
            await watcher.more.wait()
        assert watcher.relays == 3
        nursery.cancel_scope.cancel()
    del cy


async def test_one_address_is_sent_at_most_its_budget_however_often_it_asks(
    autojump_clock: trio.testing.MockClock,
) -> None:
    burst, rate = 4096, 1024
    server = _server(pulls=Buckets(burst, rate), inline_checks=True)  # virtual time
    pulled: list[Spectator] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.serve)
        for name in ("bob", "cy"):  # a log of a few entries, each pull some 1.5 KB
            nursery.start_soon(_drain, await _seat(nursery, server, name))
        started = trio.current_time()
        with trio.move_on_after(60):
            while True:  # ten times a second: a new connection, the whole log from 0
                watcher = Spectator(leave=True)
                pulled.append(watcher)
                nursery.start_soon(watcher.run, nursery, server)
                await trio.sleep(0.1)
        spent = trio.current_time() - started
        nursery.cancel_scope.cancel()
    sent = sum(w.log_bytes for w in pulled)
    allowed = burst + rate * spent
    print(f"{len(pulled)} pulls in {spent:.0f} s: {sent} bytes of log sent (budget {allowed:.0f})")
    assert sent <= allowed
    assert sent > allowed / 2  # they did pull: the budget held them, not anything else

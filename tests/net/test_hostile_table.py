"""A stranger on the LAN against a table of real processes playing a game: a connection that
never reads, a flood of connections that never say hello, a replayed hello. The game goes on
to the end with the audit passed; nobody honest is blamed (issue 9)."""

from __future__ import annotations

from pathlib import Path

import trio

from crypto import Identity
from protocol import (
    PROTOCOL_VERSION,
    Challenge,
    FrameReader,
    Hello,
    decode_message,
    encode_message,
    frame,
    pack,
)
from protocol._messages import hello_signature

from .procs import table
from .relay import Relay


def _passed(*results: dict[str, object]) -> None:
    for r in results:
        assert r["audit_ok"] and not r["stopped"], r


async def _connect(endpoint: str, source: str | None = None) -> trio.SocketStream:
    ip, _, port = endpoint.rpartition(":")
    return await trio.open_tcp_stream(ip, int(port), local_address=source)


async def test_a_connection_that_never_reads_cannot_freeze_the_table(tmp_path: Path) -> None:
    """A stranger says hello and then reads nothing (with a tiny receive window): relays pile
    up for it. They once did in the host's own task, which blocked on it for good."""
    async with table(tmp_path) as t:
        endpoint = await t.host("--seats", "2", "--grace", "0")
        ip, _, port = endpoint.rpartition(":")
        sock = trio.socket.socket()
        sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 1024)
        await sock.connect((ip, int(port)))
        stranger = trio.SocketStream(sock)
        reader = FrameReader()
        while (payload := reader.next_frame()) is None:
            reader.feed(await stranger.receive_some(4096))
        challenge = decode_message(payload)
        assert isinstance(challenge, Challenge)
        who = Identity()
        hello = Hello(who.public.raw, 0, hello_signature(who, challenge.nonce, 0))
        await stranger.send_all(frame(encode_message(hello)))
        await t.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann", "--json")
        hugo, ann = await t.result("host"), await t.result("ann")
        _passed(hugo, ann)
        await stranger.aclose()


async def _trickle(endpoint: str, sources: list[str], each: int) -> None:
    """Keep ``each`` connections open from every source address, each sending one byte a
    second and never a whole frame; reopen any the host closes."""

    async def one(source: str) -> None:
        while True:
            try:
                stream = await _connect(endpoint, source)
            except OSError:
                await trio.sleep(0.1)
                continue
            async with stream:
                try:
                    while True:
                        await stream.send_all(b"\x00")
                        with trio.move_on_after(1):
                            if not await stream.receive_some(1 << 16):
                                break  # the host hung up: come back at once
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass

    async with trio.open_nursery() as nursery:
        for source in sources:
            for _ in range(each):
                nursery.start_soon(one, source)


async def test_a_flood_of_connections_cannot_keep_players_out(tmp_path: Path) -> None:
    """40 connections from five other addresses, each sending a byte a second, kept open all
    game: players still join, and a seated player killed mid-game takes its seat back. They
    once held every slot: joiners were told the host vanished, and a seat's return was
    blocked until the table halted blaming the victim."""
    async with table(tmp_path) as t:
        endpoint = await t.host("--seats", "3", "--grace", "60")
        flooding = trio.CancelScope()

        async def flood() -> None:
            with flooding:
                await _trickle(endpoint, [f"127.0.0.{i}" for i in range(2, 7)], 8)

        t.nursery.start_soon(flood)
        for nick in ("ann", "bob"):
            await t.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick, "--json")
        await t.until("host", "seats fixed")
        await t.until("bob", "seats fixed")
        bob = await t.restart("bob")
        results = [await t.result(who) for who in ("host", "ann", bob)]
        flooding.cancel()
        _passed(*results)


async def test_a_replayed_hello_cannot_take_a_seat_or_leave_for_it(tmp_path: Path) -> None:
    """Ann's connection breaks and she comes back; a stranger who saw her first frame on the
    new connection replays it on its own, then says it leaves. It once was bound to Ann's
    seat, and its leave halted the table blaming her."""
    async with table(tmp_path) as t:
        endpoint = await t.host("--seats", "2", "--grace", "30")
        recorder = Relay(int(endpoint.rpartition(":")[2]), cut_after=45_000)
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        relay = listeners[0].socket.getsockname()[1]
        t.nursery.start_soon(trio.serve_listeners, recorder.handle, listeners)
        await t.start("ann", "join", "--bot", "--connect", f"127.0.0.1:{relay}", "--nick",
                      "ann", "--json", "--grace", "30")  # fmt: skip
        await recorder.recorded.wait()
        leave = {"sig": bytes(64)} if PROTOCOL_VERSION > 1 else {}
        async with await _connect(endpoint) as stranger:
            await stranger.send_all(recorder.second[0])
            await stranger.send_all(frame(pack({"v": PROTOCOL_VERSION, "type": "leave", **leave})))
            with trio.move_on_after(5):
                async for _ in stranger:  # until the host hangs up on us
                    pass
        hugo, ann = await t.result("host"), await t.result("ann")
        _passed(hugo, ann)
        assert not any("left the table" in x for x in t.err["host"]), t.err["host"]

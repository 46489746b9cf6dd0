"""A stranger on the LAN against a table of real processes playing a game: a connection that
never reads, a flood of connections that never say hello, a replayed hello. The game goes on
to the end with the audit passed; nobody honest is blamed (issue 9)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
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

from .relay import Relay

LANPARTY = [sys.executable, "-m", "lanparty"]


class Procs:
    """The table's processes (each with its own data directory) and their stderr lines."""

    def __init__(self, tmp: Path, nursery: trio.Nursery) -> None:
        self.tmp = tmp
        self.nursery = nursery
        self.procs: dict[str, trio.Process] = {}
        self.err: dict[str, list[str]] = {}
        self._said: dict[str, trio.Event] = {}

    async def start(self, who: str, *args: str, home: str | None = None) -> trio.Process:
        path = self.tmp / (home or who)
        path.mkdir(exist_ok=True)
        env = {**os.environ, "LANPARTY_HOME": str(path)}
        proc = await trio.lowlevel.open_process([*LANPARTY, *args], env=env, stdout=-1, stderr=-1)
        self.procs[who] = proc
        self.err[who] = []
        self.nursery.start_soon(self._read, who, proc)
        return proc

    async def _read(self, who: str, proc: trio.Process) -> None:
        assert proc.stderr is not None
        buffer = b""
        async for chunk in proc.stderr:
            buffer += chunk
            *done, buffer = buffer.split(b"\n")
            for line in done:
                self.err[who].append(line.decode())
                for key, event in list(self._said.items()):
                    if key.startswith(who + "\0") and key.split("\0", 1)[1] in line.decode():
                        event.set()

    async def until(self, who: str, text: str) -> str:
        """Wait until ``who`` writes a line containing ``text``; that line."""
        key = f"{who}\0{text}"
        self._said.setdefault(key, trio.Event())
        if not any(text in x for x in self.err[who]):
            await self._said[key].wait()
        return next(x for x in self.err[who] if text in x)

    async def host(self, *args: str) -> str:
        """A bot host (hugo); its HOST:PORT once it listens."""
        await self.start("host", "host", "kato", "--bot", "--local", "--nick", "hugo", "--json",
                         "--option", "rounds=1", *args)  # fmt: skip
        line = await self.until("host", "table ")
        return line.split(" on ")[1].split(" ")[0]

    async def result(self, who: str) -> dict[str, object]:
        """``who``'s JSON summary once it ended (exit 0 and no traceback required)."""
        proc = self.procs[who]
        assert proc.stdout is not None
        data = b""
        async for chunk in proc.stdout:
            data += chunk
        await proc.wait()
        text = "\n".join(self.err[who])
        assert proc.returncode == 0 and "Traceback" not in text, (who, data, text)
        result: dict[str, object] = json.loads(data)
        return result

    def kill(self) -> None:
        for proc in self.procs.values():
            if proc.returncode is None:
                proc.kill()


@asynccontextmanager
async def table(tmp: Path, timeout: float = 150) -> AsyncIterator[Procs]:
    """A table of processes for the test's block; if the block fails, what each process
    said is printed (pytest shows it with the failure)."""
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            procs = Procs(tmp, nursery)
            try:
                yield procs
            except BaseException:
                for who, lines in procs.err.items():
                    print(f"--- {who}:", *lines[-40:], sep="\n")
                raise
            finally:  # nothing outlives the test
                procs.kill()
                nursery.cancel_scope.cancel()


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
        t.procs["bob"].send_signal(signal.SIGKILL)
        await t.procs["bob"].wait()
        await t.start("bob2", "join", "--bot", "--resume", "--json", home="bob")
        await t.until("host", "bob is back")
        results = [await t.result(who) for who in ("host", "ann", "bob2")]
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

"""Spectators over real processes (issue 16): ``lanparty watch`` follows a KaTO and a Unanimo
table of bot processes through a recording relay. Every byte it receives is the table's
public log (the host's own transcript, entry for entry), every state it shows is one the
engine reaches for no seat (``lanparty replay`` of the host's transcript), and its own
transcript is the host's byte for byte. A spectator that stops reading does not hold up the
table; the host caps spectators (``--spectators N``) or takes none (``--no-spectators``)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import pytest
import trio

from lanparty.commands.replay import _plain
from lanparty.games import GAMES
from protocol import (
    Challenge,
    FrameReader,
    Relay,
    SignedEntry,
    Watch,
    decode_message,
    encode_message,
    frame,
    read_transcript,
)
from protocol._table import Table

from .procs import Procs, table


class Tap:
    """A TCP relay to the host that keeps every byte the host sends through it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.down = bytearray()
        self.first_relay = trio.Event()

    async def handle(self, client: trio.SocketStream) -> None:
        upstream = await trio.open_tcp_stream("127.0.0.1", self.port)
        async with client, upstream, trio.open_nursery() as nursery:

            async def pump(src: trio.abc.Stream, dst: trio.abc.Stream, down: bool) -> None:
                try:
                    async for data in src:
                        if down:
                            self.down += data
                            if len(_frames(bytes(self.down))) > 1:
                                self.first_relay.set()
                        await dst.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                nursery.cancel_scope.cancel()

            nursery.start_soon(pump, upstream, client, True)
            nursery.start_soon(pump, client, upstream, False)


def _frames(data: bytes) -> list[object]:
    reader = FrameReader(1 << 24)
    reader.feed(data)
    out = []
    while (payload := reader.next_frame()) is not None:
        out.append(decode_message(payload))
    return out


async def _stdout(proc: trio.Process, into: list[str]) -> None:
    """Read a process's stdout as it comes (a full pipe would stall the spectator)."""
    assert proc.stdout is not None
    buffer = b""
    async for chunk in proc.stdout:
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        into.extend(line.decode() for line in lines)


async def _host(t: Procs, game: str, *args: str) -> str:
    """A bot host of ``game`` on loopback; its HOST:PORT."""
    await t.start("host", "host", game, "--bot", "--local", "--nick", "hugo", "--json",
                  "--react", "0", *args)  # fmt: skip
    line = await t.until("host", "table ")
    return line.split(" on ")[1].split(" ")[0]


@pytest.mark.parametrize(("game", "options"), [("kato", ["--option", "rounds=1"]),
                                               ("unanimo", ["--option", "cards=1"])])
async def test_a_spectator_sees_only_the_public_table_and_every_public_state(
    tmp_path: Path, game: str, options: list[str]
) -> None:
    async with table(tmp_path) as t:
        endpoint = await _host(t, game, "--seats", "3", "--bots", "1", *options)
        tap = Tap(int(endpoint.rsplit(":", 1)[1]))
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        t.nursery.start_soon(trio.serve_listeners, tap.handle, listeners)
        via = f"127.0.0.1:{listeners[0].socket.getsockname()[1]}"
        watcher = await t.start("watcher", "watch", "--connect", via, "--json")
        lines: list[str] = []
        t.nursery.start_soon(_stdout, watcher, lines)
        await tap.first_relay.wait()  # it follows the table before the last seat is taken
        await t.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann", "--json")
        hugo = await t.result("host")
        assert await watcher.wait() == 0, t.err["watcher"]
        assert hugo["audit_ok"], hugo
    *states, end = [json.loads(line) for line in lines]
    assert end["end"] and end["audit_ok"] and not end["stopped"], end
    # Its transcript is the host's, byte for byte.
    host_file = Path(str(hugo["transcript"]))
    assert Path(end["transcript"]).read_bytes() == host_file.read_bytes()
    # Every byte it received: the challenge, then the host's log as relayed, nothing else.
    got = _frames(bytes(tap.down))
    assert isinstance(got[0], Challenge)
    logged = read_transcript(host_file.read_bytes())
    assert all(isinstance(m, Relay) for m in got[1:])
    assert [(m.raw, m.sig, m.seq) for m in got[1:]] == logged  # type: ignore[attr-defined]
    # What it showed after each entry is the public state a table copy with no secret
    # reaches at that entry (the copy checks every signature and proof as it applies).
    copy = Table(GAMES)
    public: list[object] = []
    for raw, sig, seq in logged:
        copy.apply(SignedEntry.parse(raw, sig), seq)
        view = copy.game.view(copy.state, None) if copy.game and copy.state is not None else {}
        public.append(json.loads(json.dumps(_plain(view))))
    assert [s["pos"] for s in states] == list(range(len(logged)))
    assert [s["view"] for s in states] == public
    assert all(s["view"].get("seat") is None and "hand" not in s["view"] for s in states)


async def test_a_spectator_that_stops_reading_holds_up_nothing_and_spectators_are_capped(
    tmp_path: Path,
) -> None:
    async with table(tmp_path) as t:
        endpoint = await _host(t, "kato", "--seats", "2", "--spectators", "1",
                               "--option", "rounds=1")  # fmt: skip
        ip, _, port = endpoint.rpartition(":")
        sock = trio.socket.socket()
        sock.setsockopt(trio.socket.SOL_SOCKET, trio.socket.SO_RCVBUF, 1024)
        await sock.connect((ip, int(port)))
        stalled = trio.SocketStream(sock)
        reader = FrameReader()
        while (payload := reader.next_frame()) is None:
            reader.feed(await stalled.receive_some(4096))
        assert isinstance(decode_message(payload), Challenge)
        await stalled.send_all(frame(encode_message(Watch(0))))
        # The one place is taken: the next spectator is told so and ends at once.
        second = await t.start("second", "watch", "--connect", endpoint, "--json")
        lines: list[str] = []
        await _stdout(second, lines)
        assert await second.wait() == 1
        assert "1 spectators are watching already" in json.loads(lines[-1])["stopped"]
        # The stalled spectator reads nothing all game: the table plays on to its end.
        await t.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann", "--json")
        hugo, ann = await t.result("host"), await t.result("ann")
        assert hugo["audit_ok"] and ann["audit_ok"] and not hugo["stopped"], (hugo, ann)
        await stalled.aclose()


async def test_a_table_without_spectators_says_so(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        endpoint = await _host(t, "kato", "--seats", "2", "--no-spectators")
        watcher = await t.start("watcher", "watch", "--connect", endpoint, "--json")
        lines: list[str] = []
        await _stdout(watcher, lines)
        assert await watcher.wait() == 1
        assert json.loads(lines[-1])["stopped"].endswith("this table takes no spectators")


async def test_a_spectator_finds_the_table_by_name_over_mdns(tmp_path: Path) -> None:
    name = f"watched {os.getpid()}-{secrets.token_hex(2)}"
    async with table(tmp_path) as t:
        endpoint = await _host(t, "kato", "--seats", "2", "--name", name, "--option", "rounds=1")
        watcher = await t.start("watcher", "watch", name, "--local", "--json")
        lines: list[str] = []
        t.nursery.start_soon(_stdout, watcher, lines)
        await t.until("watcher", f"watching '{name}' at {endpoint}")
        await t.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann", "--json")
        assert (await t.result("host"))["audit_ok"]
        assert await watcher.wait() == 0
    assert json.loads(lines[-1])["audit_ok"]

"""A peer's connection breaks mid-game (a Wi-Fi blip): it reconnects, rejoins its seat, and
the game goes on to the end with the audit passed. Real processes on loopback; the break is
made by a TCP relay in the test (:mod:`tests.net.relay`), cutting the connection after a given
amount of traffic."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import trio

from .relay import Relay

LANPARTY = [sys.executable, "-m", "lanparty"]


async def _lines(stream: trio.abc.ReceiveStream, out: list[str], seen: trio.Event, text: str):
    """Collect ``stream``'s lines into ``out``; set ``seen`` once a line contains ``text``."""
    buffer = b""
    async for chunk in stream:
        buffer += chunk
        *done, buffer = buffer.split(b"\n")
        for line in done:
            out.append(line.decode())
            if text in out[-1]:
                seen.set()


@pytest.mark.parametrize("cut_after", [2_000, 45_000, 90_000])
async def test_a_broken_connection_is_rejoined_and_the_game_completes(
    tmp_path: Path, cut_after: int
) -> None:
    """Cut at the key shares, during the joint shuffle, and around the deal (a 2-seat game
    of 2 rounds sends about 170 KB from the host to the peer)."""

    def env(who: str) -> dict[str, str]:
        return {**os.environ, "LANPARTY_HOME": str(tmp_path / who)}

    host_err: list[str] = []
    ann_err: list[str] = []
    listening, reconnected = trio.Event(), trio.Event()
    procs: list[trio.Process] = []
    with trio.fail_after(180):
        try:
            async with trio.open_nursery() as readers:
                host_cmd = ["host", "kato", "--bot", "--local", "--seats", "2", "--nick", "hugo",
                            "--option", "rounds=2", "--json", "--grace", "30"]  # fmt: skip
                host = await trio.lowlevel.open_process(
                    [*LANPARTY, *host_cmd], env=env("host"), stdout=-1, stderr=-1
                )
                procs.append(host)
                readers.start_soon(_lines, host.stderr, host_err, listening, "table ")
                await listening.wait()
                port = int(host_err[0].split(" on 127.0.0.1:")[1].split(" ")[0])
                cutter = Relay(port, cut_after)
                async with trio.open_nursery() as relaying:
                    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
                    relay = listeners[0].socket.getsockname()[1]
                    relaying.start_soon(trio.serve_listeners, cutter.handle, listeners)
                    ann_cmd = ["join", "--bot", "--connect", f"127.0.0.1:{relay}", "--nick",
                               "ann", "--json", "--grace", "30"]  # fmt: skip
                    ann = await trio.lowlevel.open_process(
                        [*LANPARTY, *ann_cmd], env=env("ann"), stdout=-1, stderr=-1
                    )
                    procs.append(ann)
                    readers.start_soon(_lines, ann.stderr, ann_err, reconnected, "Reconnected")
                    hugo, ann_result = await _results(host, ann)
                    relaying.cancel_scope.cancel()
        finally:  # nothing outlives the test
            for proc in procs:
                if proc.returncode is None:
                    proc.kill()
    assert cutter.cut.is_set() and cutter.connections == 2
    assert reconnected.is_set(), ann_err
    # The host may see ann's new hello before the old connection's end (then it only says
    # she is back: the new connection replaced the old one), or after (then it waited).
    back = [i for i, x in enumerate(host_err) if "ann is back" in x]
    lost = [i for i, x in enumerate(host_err) if "ann lost the connection; waiting up to 30" in x]
    assert back and all(i < back[0] for i in lost), host_err
    assert hugo["audit_ok"] and ann_result["audit_ok"], (hugo, ann_result)
    assert not hugo["stopped"] and not ann_result["stopped"]
    assert hugo["rounds"] == 2 and hugo["names"] == ["hugo", "ann"]
    saved = [p.read_bytes() for who in ("host", "ann")
             for p in (tmp_path / who / "transcripts").glob("*.lptx")]  # fmt: skip
    assert len(saved) == 2 and saved[0] == saved[1]


async def _results(host: trio.Process, ann: trio.Process) -> tuple[dict, dict]:
    """Wait for both processes; their JSON summaries (host's first)."""
    results = []
    for proc in (host, ann):
        assert proc.stdout is not None
        data = b""
        async for chunk in proc.stdout:
            data += chunk
        await proc.wait()
        assert proc.returncode == 0, data
        results.append(json.loads(data))
    return results[0], results[1]

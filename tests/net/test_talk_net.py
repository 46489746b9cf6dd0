"""Table talk between real processes on loopback (issue 24): a person hosting, a person
joining and a spectator, each a ``lanparty`` process in the plain mode (typed to on stdin,
read on stdout, as a screen reader would), talk in the waiting room and at the game; the
spectator reads every line and, as the host lets spectators talk, says one too; a line
typed too fast is refused to its author alone and the table goes on. At the host, each
connection's talk waits behind its game frames, and a slow reader loses talk first."""

from __future__ import annotations

import os
import re
from pathlib import Path

import trio
import trio.testing

from lanparty.net.link import TALK_LINES, Link

from .procs import table


async def test_talk_between_peers_with_a_spectator_reading(tmp_path: Path) -> None:
    name = f"talk {os.getpid()}"
    async with table(tmp_path, timeout=120) as procs:
        await procs.start("ann", "host", "kato", "--local", "--seats", "2", "--nick", "Ann",
                          "--name", name, "--option", "rounds=1", "--spectators-talk",
                          "--grace", "0", "--plain", stdin=True, follow=True)  # fmt: skip
        opened = await procs.until_out("ann", "is open on ")
        found = re.search(r"is open on (127\.0\.0\.1:\d+)", opened)
        assert found is not None
        endpoint = found[1]
        await procs.start("zed", "watch", "--connect", endpoint, "--nick", "Zed", "--plain",
                          stdin=True, follow=True)  # fmt: skip
        await procs.until_out("zed", "Ann joined (seat 0)")
        await procs.start("bea", "join", "--connect", endpoint, "--nick", "Bea", "--plain",
                          "--grace", "0", stdin=True, follow=True)  # fmt: skip
        await procs.until_out("ann", "Bea joined (seat 1)")

        await procs.type("bea", "say good luck, Ann")
        for who in ("ann", "bea", "zed"):
            await procs.until_out(who, "Bea: good luck, Ann")
        await procs.type("zed", '"go Bea!')
        for who in ("ann", "bea", "zed"):
            await procs.until_out(who, "Zed (watching): go Bea!")
        await procs.until_out("bea", "the cards are shuffled and dealt")  # talk goes on at the game
        await procs.type("ann", "say thanks, both of you")
        for who in ("ann", "bea", "zed"):
            await procs.until_out(who, "Ann: thanks, both of you")

        for n in range(8):  # faster than anyone may talk
            await procs.type("bea", f"say line {n}")
        await procs.until_out("bea", "Not said: you are talking too fast; wait")
        for who in ("ann", "zed"):
            await procs.until_out(who, "Bea: line 0")
        assert not any("Not said" in line for line in procs.out["ann"] + procs.out["zed"])

        await procs.type("ann", "quit")
        await procs.type("ann", "y")
        with trio.fail_after(30):
            for who in ("ann", "bea", "zed"):
                await procs.procs[who].wait()
        for who in ("bea", "zed"):
            assert procs.procs[who].returncode == 0, who
            assert not any("Traceback" in line for line in procs.err[who]), who
        said = [line for line in procs.out["zed"] if ": line " in line]
        assert said and all(line.startswith("Bea: line ") for line in said)
        assert len(said) <= 5  # Bea's burst at most: the rest never left Bea's program


async def test_a_connection_sends_talk_after_its_game_frames_and_drops_talk_first() -> None:
    ours, _theirs = trio.testing.memory_stream_pair()
    link = Link(ours, "?")
    link.push([b"relay 1"], [b"line %d" % n for n in range(TALK_LINES + 8)])
    link.push([b"relay 2"])  # a game frame queued after the talk still goes first
    sent = []
    while (chunk := link.next_chunk()) is not None:
        sent.append(chunk)
    assert sent[:2] == [(b"relay 1", False), (b"relay 2", False)]
    # A reader that has let this much talk pile up loses the oldest lines, never a frame.
    assert [text for text, talk in sent[2:] if talk] == [
        b"line %d" % n for n in range(8, TALK_LINES + 8)
    ]

"""A host that rolls a resumed seat back, over real processes (issue 20).

Ann plays at a real host process; what her seat holds of the log is on her disk before each
entry she signs leaves her machine (checked on every frame she sends). Both programs then
die. The host comes back (``lanparty host --resume``) from its journal cut a few entries
before the last one Ann had applied — as a host would that wants to see her act twice from
one position — and Ann's program comes back (``lanparty join --resume``): it refuses that
log, naming the host, and signs nothing for it.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
import trio

from crypto import Identity, KeyShare, SealKey
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.node import PeerClient
from lanparty.store import held_path, journal_path, saved_seats
from lanparty.table.botseat import BotDriver
from lanparty.table.keeping import keeping_seat
from protocol import (
    Event,
    FrameReader,
    Holding,
    Peer,
    Propose,
    decode_entry,
    decode_message,
    frame,
    read_transcript,
)
from protocol._held import Held

from .test_hostile_table import _connect, table


class Watched(trio.abc.Stream):
    """Ann's connection: before each frame she sends leaves, it checks that a proposal is
    already on her disk as what she last signed."""

    def __init__(self, inner: trio.abc.Stream, held: list[Path]) -> None:
        self.inner, self.held, self.checked = inner, held, 0
        self.reader = FrameReader()

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        self.reader.feed(bytes(data))
        while (payload := self.reader.next_frame()) is not None:
            msg = decode_message(payload)
            if isinstance(msg, Propose) and decode_entry(msg.raw).body.KIND != "join":
                kept = Held.from_bytes(self.held[0].read_bytes())
                assert kept.signed is not None and kept.signed.raw == msg.raw
                self.checked += 1
        await self.inner.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.inner.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        return await self.inner.receive_some(max_bytes)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _relays(data: bytes) -> list[bytes]:
    """A journal's relay frames, each whole."""
    reader, out = FrameReader(1 << 24), []
    reader.feed(data)
    while (payload := reader.next_frame()) is not None:
        out.append(frame(payload, 1 << 24))
    return out


async def test_a_host_restarted_from_an_earlier_cut_is_refused_by_the_resumed_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann_home = tmp_path / "ann"
    monkeypatch.setenv("LANPARTY_HOME", str(ann_home))
    async with table(tmp_path, timeout=120) as t:
        host = await t.start("host", "host", "kato", "--bot", "--local", "--nick", "hugo", "--json",
                             "--seats", "2", "--grace", "30", "--option", "rounds=1")  # fmt: skip
        line = await t.until("host", "table ")
        endpoint = line.split(" on ")[1].split(" ")[0]
        ann = Peer(Identity(), "ann", GAMES, key=KeyShare(), seal=SealKey())
        signed, enough = [0], trio.Event()
        held_file: list[Path] = []

        def sink(event: Event) -> None:
            if isinstance(event, Holding) and ann.seat is not None:  # not her join
                signed[0] += 1
                if not held_file:
                    held_file.append(held_path(saved_seats()[0]))
                if signed[0] >= 8:  # her key, shuffle, shares, coin, and some of the game
                    enough.set()

        stream = Watched(await _connect(endpoint), held_file)
        client = PeerClient(ann, stream, BotDriver(bots_for("kato")["random"](), 3, react=0.1),
                            keeping_seat(sink, ann, endpoint, lambda text: None))  # fmt: skip
        async with trio.open_nursery() as playing:
            playing.start_soon(client.run)
            await enough.wait()
            host.send_signal(signal.SIGKILL)  # both programs die here
            playing.cancel_scope.cancel()
        await host.wait()
        assert stream.checked >= 7
        held = Held.from_bytes(held_file[0].read_bytes())
        assert held_file[0].stat().st_mode & 0o777 == 0o600  # hers alone

        # The host's journal, cut three entries before the last Ann had applied.
        [hosted] = saved_seats(tmp_path / "host", host=True)
        journal = journal_path(hosted, tmp_path / "host")
        relays = _relays(journal.read_bytes())
        assert len(relays) > held.applied
        cut = held.applied - 3
        journal.write_bytes(b"".join(relays[:cut]))
        await t.start("again", "host", "--resume", "--bot", "--json", "--grace", "0",
                      home="host")  # fmt: skip
        await t.until("again", "table ")
        await t.start("ann", "join", "--resume", "--bot", "--json", home="ann")
        proc = t.procs["ann"]
        assert proc.stdout is not None
        out = b"".join([chunk async for chunk in proc.stdout])
        await proc.wait()
        # Ann refused the log at the host's challenge (before she said who she is: for the
        # host a stranger hung up, and it waits for her), or, if the host's bot moved before
        # she came, at the first entry that differs (the host then halts: she left). Ctrl-C
        # ends a host still waiting; its transcript stays, named on stdout or stderr.
        again = t.procs["again"]
        if again.returncode is None:
            again.send_signal(signal.SIGINT)
        assert again.stdout is not None
        said = b"".join([chunk async for chunk in again.stdout]).decode()
        await again.wait()
        told = "\n".join(t.err["again"])
        assert "Traceback" not in told
        if said.strip():
            transcript = Path(str(json.loads(said)["transcript"]))
        else:
            transcript = Path(told.split("transcript saved: ")[1].split()[0])
    result = json.loads(out)
    assert proc.returncode == 1 and "Traceback" not in "\n".join(t.err["ann"])
    stopped = str(result["stopped"])
    host_key = hosted.secrets()[0].public.fingerprint
    # The host is named: by its name where the seat's copy holds the table's members when
    # it refuses (words first), else by its key (the moment depends on the replay's pace).
    names = list(result.get("names") or [])
    named = host_key in stopped or bool(names and stopped.startswith(f"{names[0]} (seat 0): "))
    assert "rolled this seat back" in stopped and named, result
    # Ann signed nothing for the rolled back log: no entry of hers after the cut in the
    # restarted host's transcript (its journal is gone with it).
    entries = read_transcript(transcript.read_bytes())
    me = ann.table.me
    assert me is not None and len(entries) >= cut
    assert not any(decode_entry(raw).author == me.identity.public.raw
                   for raw, _sig, _seq in entries[cut:])  # fmt: skip

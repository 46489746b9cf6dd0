"""Fuzzing a real host process for a whole game: strangers send random and mutated frames on
fresh connections all along, and one seated player (a real peer in this process, playing with
a bot) slips mutated frames, a huge move and an entry too large to relay between its honest
ones. Each bad frame costs the sender its connection; the player comes back (its hello
answers the new challenge) and plays on. The host survives, the game ends with the audit
passed, and every transcript is the same.

``LANPARTY_FUZZ_ROUNDS`` makes the game (and so the fuzzing) longer, ``LANPARTY_FUZZ_SEED``
picks another sequence of mutations.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import trio

from crypto import Identity, KeyShare, SealKey
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.node import PeerClient
from lanparty.net.server import MAX_SEAT_FAULTS
from lanparty.table.botseat import BotDriver
from protocol import (
    MAX_ENTRY,
    PROTOCOL_VERSION,
    Event,
    FrameReader,
    Peer,
    Phase,
    Propose,
    Refused,
    TableClosed,
    encode_message,
    frame,
    pack,
    unpack,
)
from protocol._bodies import MoveBody

from .hostile import loopback_sources
from .test_hostile_table import _connect, _passed, table


def mutate(rng: random.Random, payload: bytes) -> bytes:
    """``payload`` with bytes flipped, cut, spliced, or one field of its map replaced."""
    how = rng.choice(["flip", "cut", "splice", "field", "random"])
    if how == "flip":
        i = rng.randrange(len(payload))
        return payload[:i] + bytes([payload[i] ^ rng.randrange(1, 256)]) + payload[i + 1 :]
    if how == "cut":
        return payload[: rng.randrange(len(payload))]
    if how == "splice":
        i = rng.randrange(len(payload) + 1)
        return payload[:i] + rng.randbytes(rng.randrange(1, 64)) + payload[i:]
    if how == "random":
        return rng.randbytes(rng.randrange(1, 300))
    value = unpack(payload, 1 << 20)
    assert isinstance(value, dict)
    value[rng.choice(sorted(value))] = rng.choice(
        [None, -1, 2**64 - 1, "x" * rng.randrange(1, 5000), rng.randbytes(33), [[]], {"a": 1}]
    )
    return pack(value)


class Mallory(Peer):
    """A seated player whose program misbehaves between honest frames: on some of its sends
    during the game a mutated copy of a frame it received follows its honest ones, and on its
    first turn come a move of NULs and an entry too large to relay. All are refused; all but
    the move of NULs cost it the connection."""

    def __init__(self, rng: random.Random, budget: int) -> None:
        super().__init__(Identity(), "mallory", GAMES, key=KeyShare(), seal=SealKey())
        self.rng = rng
        self.budget = budget  # mutated frames left to send
        self.seen: list[bytes] = []  # payloads sent or received, to mutate
        self.oversized: list[bytes] | None = None  # made at its first turn, one a send
        self._spent: bytes | None = None  # the challenge whose connection a mutation ended

    def receive_data(self, data: bytes) -> None:
        reader = FrameReader()
        reader.feed(data)
        while (payload := reader.next_frame()) is not None and len(self.seen) < 200:
            self.seen.append(payload)
        super().receive_data(data)

    def data_to_send(self) -> bytes:
        honest = super().data_to_send()
        nonce = self._nonce
        if not honest or nonce is None:
            return honest
        if self.oversized is None and self.seat is not None and self.may_move():
            self.oversized = self._make_oversized()
        if self.oversized:  # refused (the second for good), and the game goes on
            if len(self.oversized) == 1:
                self._spent = nonce
            return self.oversized.pop(0) + honest
        if nonce == self._spent or self.table.phase is not Phase.GAME:  # a seated player's
            return honest
        if self.budget and self.seen and self.rng.random() < 0.3:
            self.budget -= 1
            self._spent = nonce
            return honest + frame(mutate(self.rng, self.rng.choice(self.seen)), 1 << 21)
        return honest

    def _make_oversized(self) -> list[bytes]:
        """A move with a long value of NULs (a refusal once quoted such a value whole and
        killed the host), then a move just under the propose limit (it once fit a proposal
        but not its relay, and the host died after applying it)."""
        nul = self.table.entry(MoveBody(("\x00" * 60_000,)))
        pad = MAX_ENTRY - len(self.table.entry(MoveBody(("draw", ""))).raw) - 8
        just = self.table.entry(MoveBody(("draw", "y" * pad)))
        assert len(just.raw) <= MAX_ENTRY
        return [frame(encode_message(Propose(se.raw, se.sig))) for se in (nul, just)]


async def _strangers(
    endpoint: str, rng: random.Random, seen: list[bytes], scope: trio.CancelScope, count: list[int]
) -> None:
    """Fresh connections, one after another until ``scope`` is cancelled, each sending one
    random or mutated frame (or raw garbage) and reading until the host hangs up; ``count``
    gets one per connection. Each comes from another address (strangers on a LAN), so the
    host's rate of new connections per address lets every one reach the protocol."""
    sources = loopback_sources()
    with scope:
        while True:
            try:
                stream = await _connect(endpoint, next(sources))
            except OSError:
                await trio.sleep(0.05)
                continue
            count.append(1)
            async with stream:
                if seen and rng.random() < 0.7:
                    data = frame(mutate(rng, rng.choice(seen)), 1 << 21)
                elif rng.random() < 0.5:
                    data = frame(pack({"v": PROTOCOL_VERSION, "type": rng.choice(
                        ["hello", "propose", "leave", "relay", "halt", "challenge"])}))  # fmt: skip
                else:
                    data = rng.randbytes(rng.randrange(1, 2000))
                try:
                    await stream.send_all(data)
                    with trio.move_on_after(2):
                        async for _ in stream:
                            pass
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass


async def test_fuzzing_strangers_and_a_seated_player_cannot_end_the_host(tmp_path: Path) -> None:
    seed = int(os.environ.get("LANPARTY_FUZZ_SEED", "7"))
    rounds = int(os.environ.get("LANPARTY_FUZZ_ROUNDS", "1"))
    rng = random.Random(seed)
    async with table(tmp_path, timeout=150 * rounds) as t:
        endpoint = await t.host("--seats", "3", "--grace", "30", "--option", f"rounds={rounds}")
        await t.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann", "--json")
        # Each frame that costs it a connection counts; one fewer than would halt the table.
        budget = MAX_SEAT_FAULTS - 2
        mallory = Mallory(random.Random(seed + 1), budget=budget)
        events: list[Event] = []
        game_over = trio.Event()

        def sink(event: Event) -> None:
            events.append(event)
            if isinstance(event, TableClosed):
                game_over.set()

        async def connect() -> trio.abc.Stream:
            return await _connect(endpoint)

        client = PeerClient(mallory, await connect(), BotDriver(bots_for("kato")["random"](), 3),
                            sink, connect=connect, grace=30)  # fmt: skip
        fuzzing, strangers = trio.CancelScope(), []
        t.nursery.start_soon(_strangers, endpoint, rng, mallory.seen, fuzzing, strangers)
        await client.run()
        fuzzing.cancel()
        hugo, ann = await t.result("host"), await t.result("ann")
    _passed(hugo, ann)
    assert mallory.phase is Phase.CLOSED and mallory.oversized == [] and mallory.budget < budget
    assert game_over.is_set() and len(strangers) > 10
    kept = {
        p.read_bytes() for who in ("host", "ann") for p in (tmp_path / who).glob("transcripts/*")
    }
    assert kept == {mallory.transcript()}
    # The move of NULs was refused quoting a short excerpt, and the game went on; the move
    # too large for a relay cost mallory its connection, as did each mutated frame.
    [nul] = [e.reason for e in events if isinstance(e, Refused) and "\\x00" in e.reason]
    assert len(nul) <= 300 and nul.isprintable()
    # Each fatal refusal is told as "mallory (seat N) was refused: …", the name first; an
    # entry refused without hanging up as "refused an entry: mallory (seat N): …" (the move
    # of NULs): no line begins with a key's fingerprint. (Seat 1 or 2: ann and mallory sit
    # down in whichever order they reach the host.)
    who = f"mallory (seat {mallory.seat})"
    assert mallory.seat in (1, 2)
    refused = [x for x in t.err["host"] if x.startswith(f"{who} was refused: ")]
    nuls = [x for x in t.err["host"] if x.startswith("refused an entry: ") and "\\x00" in x]
    assert len(nuls) == 1 and nuls[0].startswith(f"refused an entry: {who}: ")
    assert not any(re.match(r"(refused (an entry: )?)?[0-9A-Z]{4}-", x) for x in t.err["host"])
    assert any("a move entry of" in x and "at most" in x for x in refused), t.err["host"]
    assert len(refused) == 1 + budget - mallory.budget, (refused, mallory.budget)
    assert sum("mallory is back" in x for x in t.err["host"]) == len(refused)
    print(f"{len(strangers)} stranger connections; {len(refused)} of mallory's cost it one")

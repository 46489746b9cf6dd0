"""A seated player against a real host process: its program is honest but for one validly
signed move of no declared shape — a list where a card's handle goes — sent at its turn, or
into a race for a KaTO call or catch. Such a move once raised a ``TypeError`` inside KaTO's
``reveals``: in a race it ended the host's process, at a turn it halted the table as an
"internal error" naming nobody. Now the host refuses it naming the player, and the game
goes on to its end with the audit passed, for every game (issue 20)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio

from crypto import Identity, KeyShare, SealKey, fingerprint
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.net.node import PeerClient
from lanparty.table.botseat import BotDriver
from protocol import Event, Peer, Phase, Propose, Refused, TableClosed, encode_message, frame
from protocol._bodies import MoveBody
from protocol.contract import Move, Plain, Turn

from .test_hostile_table import _connect, _passed, table

#: Per game, a move with a list where a number goes (the first is KaTO's that killed hosts).
CRAFTED: dict[str, Move] = {
    "kato": ("play", ([1],), ("r5",), ""),
    "unikato": ("place", [1], "cOsW", 0, 0),
    "unanimo": ("object", ["x"]),
    "unicorns": ("hunt", [1]),
}


class Crafty(Peer):
    """A seated player whose program slips one crafted move before its honest frames: at
    the first moment it may move (``race``: the first race it may enter, while another seat
    holds the turn)."""

    def __init__(self, crafted: Move, race: bool) -> None:
        super().__init__(Identity(), "mallory", GAMES, key=KeyShare(), seal=SealKey())
        self.crafted, self.race = crafted, race
        self.sent_at: int | None = None
        self.refused_once = False

    def receive_data(self, data: bytes) -> None:
        super().receive_data(data)
        self.refused_once |= any(isinstance(e, Refused) for e in self._events)

    def data_to_send(self) -> bytes:
        honest = super().data_to_send()
        st = self.status()
        passed = self.sent_at is not None and len(self.table.log) > self.sent_at
        if passed and not self.refused_once:
            self.sent_at = None  # another seat's move took the position first: again
        if self.sent_at is not None or self._nonce is None or not isinstance(st, Turn):
            return honest
        if self.seat not in (st.seat, *st.also) or self.table.checking:
            return honest
        contested = bool(st.also) and not st.free
        if self.race and not (contested and st.seat != self.seat):
            return honest
        if not self.race and contested:
            return honest
        se = self.table.entry(MoveBody(self.crafted))
        self.sent_at = se.entry.pos
        return frame(encode_message(Propose(se.raw, se.sig))) + honest


class NeverCalls:
    """A KaTO bot that never calls KaTO and plays a card whenever it can (so it soon plays
    down to one card, which opens a race)."""

    def __init__(self) -> None:
        self.bot = bots_for("kato")["random"]()

    def choose(self, view: dict[str, Plain], legal: Sequence[Move | None],
               rng: random.Random) -> Move | None:  # fmt: skip
        quiet = [m for m in legal if m is None or "kato" not in m]
        plays = [m for m in quiet if m is not None and m[0] == "play"]
        return self.bot.choose(view, plays or quiet or list(legal), rng)


async def _play(tmp_path: Path, game: str, options: dict[str, str], race: bool) -> None:
    seats = GAMES[game].min_seats
    opts = [x for k, v in {**PLUGINS[game].short, **options}.items()
            for x in ("--option", f"{k}={str(v).lower()}")]  # fmt: skip
    async with table(tmp_path, timeout=120) as t:
        await t.start("host", "host", game, "--bot", "--local", "--nick", "hugo", "--json",
                      "--seats", str(seats), "--grace", "0", *opts)  # fmt: skip
        line = await t.until("host", "table ")
        endpoint = line.split(" on ")[1].split(" ")[0]
        for i in range(seats - 2):
            await t.start(f"bot{i}", "join", "--bot", "--connect", endpoint, "--nick",
                          f"bot{i}", "--json")  # fmt: skip
        cheat = Crafty(CRAFTED[game], race)
        bot = NeverCalls() if game == "kato" else bots_for(game)["random"]()
        events: list[Event] = []

        def sink(event: Event) -> None:
            events.append(event)
            if race and isinstance(event, Refused) and "malformed move" in event.reason:
                client.leave()  # a game to the target would take long: its point is made

        async def connect() -> trio.abc.Stream:
            return await _connect(endpoint)

        client = PeerClient(cheat, await connect(), BotDriver(bot, 5, react=0.2), sink,
                            connect=connect, grace=30)  # fmt: skip
        await client.run()
        code = 1 if race else 0  # stopped: mallory left
        results = [await t.result("host", code),
                   *[await t.result(f"bot{i}", code) for i in range(seats - 2)]]  # fmt: skip
        host_lines = t.err["host"]
    assert cheat.sent_at is not None, "the crafted move never went out"
    if race:  # the host lived on: it sequenced, and then halted the table as mallory left
        assert cheat.phase is Phase.STOPPED
        assert "mallory (seat 1) left the table" in str(results[0]["stopped"]), results[0]
    else:
        _passed(*results)
        assert cheat.phase is Phase.CLOSED and any(isinstance(e, TableClosed) for e in events)
    # Refused, naming the player and the move's fault; it cost nothing else.
    [why] = [e.reason for e in events if isinstance(e, Refused) and "malformed move" in e.reason]
    assert "argument" in why and "is not" in why, why
    # Told by name first ("refused an entry: mallory (seat 1): …"): the key adds nothing.
    fp = fingerprint(cheat.table.me.identity.public.raw)  # type: ignore[union-attr]
    named = [x for x in host_lines if x.startswith("refused an entry: mallory (seat 1): ")]
    assert any("malformed move" in x and fp not in x for x in named), host_lines


@pytest.mark.parametrize("game", sorted(CRAFTED))
async def test_a_move_of_no_shape_at_a_turn_is_refused_naming_the_player(
    tmp_path: Path, game: str
) -> None:
    await _play(tmp_path, game, {}, race=False)


async def test_a_move_of_no_shape_in_a_race_is_refused_and_the_host_lives(tmp_path: Path) -> None:
    # Two cards each, the cheat (seat 1) first, and a game to the target score: the cheat,
    # who plays whenever it can and never calls, soon plays down to one card, which opens a
    # race (as does the host when it forgets to call); it leaves once its move was refused.
    await _play(tmp_path, "kato", {"hand_size": "2", "first": "host", "rounds": "0"}, race=True)

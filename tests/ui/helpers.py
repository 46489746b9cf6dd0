"""Helpers for the UI tests: seeded local tables and a scripted human."""

from __future__ import annotations

import random

from lanparty.games.bots import RandomBot, bots_for
from lanparty.table.local import BOT_NAMES, LocalTable


def make_table(seed: int, bots: int = 3, kind: str = "heuristic", **options) -> LocalTable:
    factory = bots_for("kato")[kind]
    players = [None, *(factory() for _ in range(bots))]
    return LocalTable("kato", ["Ann", *BOT_NAMES[:bots]], players, options, seed)


class Scripted:
    """A human played by a bot strategy through the public session interface only."""

    def __init__(self, seed: int, kind: str = "heuristic", call_with_play: bool = True) -> None:
        self.bot = bots_for("kato")[kind]() if kind != "random" else RandomBot()
        self.rng = random.Random(seed)
        self.call_with_play = call_with_play  # False: never 'play N kato', call it after

    def act(self, table: LocalTable) -> None:
        legal = table.legal_moves()
        if not self.call_with_play:
            legal = [m for m in legal if m[4:] != ("kato",)]
        options = [*legal, None] if table.can_decline() else list(legal)
        move = self.bot.choose(table.view(), options, self.rng)
        if move is None:
            table.decline()
        else:
            table.submit(move)


def play_out(table: LocalTable, human: Scripted, limit: int = 20_000) -> int:
    """Play to the end; return the number of human actions."""
    actions = 0
    while True:
        table.advance()
        if table.over():
            return actions
        assert table.legal_moves(), "advance returned without anything for the human to do"
        human.act(table)
        actions += 1
        assert actions < limit

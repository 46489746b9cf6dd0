"""A plain session of ``lanparty play kato --offline`` (two heuristic bots, one short round),
shared by the plain-mode and the offline-night tests: the lines a heuristic player types to
the end of a game, the story it is told, and the program run on those lines."""

from __future__ import annotations

import random
import subprocess
import sys

from lanparty.games.bots import bots_for
from lanparty.table.local import LocalTable

from .tmux import REPO

OPTIONS = {"rounds": 1, "hand_size": 3}
ARGS = ["play", "kato", "--offline", "--bots", "2", "--seed", "7", "--nick", "ann",
        *(x for k, v in OPTIONS.items() for x in ("--option", f"{k}={v}"))]  # fmt: skip


def typed_game(seed: int = 7) -> tuple[list[str], list[str]]:
    """The lines a heuristic player types to the end of the game ``ARGS`` sets up when the
    dealer's seed is ``seed`` (Enter for a chance let go), and the story it is told."""
    kind = bots_for("kato")["heuristic"]
    table = LocalTable("kato", ["ann", "Bea", "Carl"], [None, kind(), kind()], OPTIONS, seed)
    me, rng = kind(), random.Random(0)
    typed: list[str] = []
    told: list[str] = []
    while True:
        table.advance()
        told += table.take_log()
        if table.over():
            return typed, told
        legal = table.legal_moves()
        move = me.choose(table.view(), [*legal, None] if table.can_decline() else legal, rng)
        if move is None:
            table.decline()
            typed.append("")
        else:
            typed.append(table.screen.command_for(move, table.view())[0])
            table.submit(move)


def play_plain(lines: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    """Run the session ``ARGS`` (plus ``extra``) with ``lines`` as its input, a pipe."""
    return subprocess.run(
        [sys.executable, "-m", "lanparty", *ARGS, *extra], input="".join(f"{x}\n" for x in lines),
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )  # fmt: skip

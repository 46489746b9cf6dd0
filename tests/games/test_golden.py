"""Golden playthroughs: a seeded game's every input and every view, pinned in a text file.

Regenerate after an intended behaviour change with ``LANPARTY_REGEN_GOLDEN=1 pytest
tests/games/test_golden.py`` and review the diff like code.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from lanparty.games import GAMES
from lanparty.games.bots import RandomBot, bots_for
from lanparty.games.kato.bots import HeuristicBot
from lanparty.games.localdealer import LocalTable, for_seat
from protocol.contract import GameOver, TableOps, result_to_plain

GOLDEN = Path(__file__).parent / "golden"
CASES: dict[str, tuple[str, int, dict[str, Any], int]] = {
    "kato_2p_default": ("kato", 2, {"rounds": 1}, 7),
    "kato_3p_cones_multi": (
        "kato",
        3,
        {"rounds": 1, "hand_size": 5, "cones": 2, "multi_play": True, "first": "host"},
        12,  # a seed with a Wild Draw Four challenge (guilty) in it
    ),
    # chains with bonuses, exchanges with the display, draws from the display and the bag
    "unikato_2p": ("unikato", 2, {"rounds": 1, "first": "host"}, 17),
}


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def playthrough(name: str, seats: int, options: dict[str, Any], seed: int) -> str:
    game = GAMES[name]
    table = LocalTable(game, seats, options, random.Random(seed), copies=True)
    table.record = True
    strong = HeuristicBot if name == "kato" else bots_for(name)["heuristic"]
    bots = [strong() if s % 2 == 0 else RandomBot() for s in range(seats)]
    lines = [f"# {name} seats={seats} seed={seed} options={dump(options)}"]
    while True:
        status = game.status(table.state)
        if isinstance(status, GameOver):
            break
        if isinstance(status, TableOps):
            result = table.resolve_one()
            assert result is not None
            lines.append(f"> table {dump(result_to_plain(for_seat(result, None)))}")
        else:
            table.step(bots)
            seat, move = table.log[-1]
            lines.append(f"> seat {seat} {dump(move)}")
        lines.append(f"  public {dump(game.view(table.copies[0], None))}")
        for seat in range(seats):
            # Each seat's view from its own copy: what that peer's screen would show.
            lines.append(f"  seat{seat} {dump(game.view(table.copies[seat], seat))}")
    lines.append(f"# outcome {dump(game.outcome(table.state).__repr__())}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_playthrough(case: str) -> None:
    text = playthrough(*CASES[case])
    path = GOLDEN / f"{case}.txt"
    if os.environ.get("LANPARTY_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path.name} changed; regenerate and review if intended"

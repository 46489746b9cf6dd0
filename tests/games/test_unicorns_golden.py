"""A golden Kill the Unicorns playthrough: a seeded 4-seat game's every input (table results as
a spectator gets them, moves, sealed hand-ins), seat 0's log in words as its own copy tells it,
and the final outcome and public view, pinned in ``golden/unicorns_4p.txt``.

Regenerate after an intended behaviour change with ``LANPARTY_REGEN_GOLDEN=1 pytest
tests/games/test_unicorns_golden.py`` and review the diff like code.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from lanparty.games.bots import RandomBot
from lanparty.games.localdealer import LocalTable, for_seat
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.narrate import UnicornsNarrator
from protocol.contract import result_to_plain

GOLDEN = Path(__file__).parent / "golden" / "unicorns_4p.txt"
NAMES = ("Ann", "Bea", "Carl", "Dora")
SEED = 4


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def playthrough(seed: int) -> str:
    """Play the game, then replay its log into a fresh copy for seat 0, telling it in words."""
    table = LocalTable(UNICORNS, 4, {}, random.Random(seed), copies=True)
    table.record = True
    table.play([HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()])
    lines = [f"# unicorns seats=4 seed={seed} options={{}}"]
    mine = UNICORNS.setup(4, {})
    narrator = UnicornsNarrator(0, NAMES)
    told = 0
    for actor, item in table.log:
        before = UNICORNS.view(mine, 0)
        if actor is None:
            lines.append(f"> table {dump(result_to_plain(for_seat(item, None)))}")  # type: ignore[arg-type]
            UNICORNS.resolve(mine, for_seat(item, 0))  # type: ignore[arg-type]
        else:
            lines.append(f"> seat {actor} {dump(item)}")
            UNICORNS.check(mine, actor, item)  # type: ignore[arg-type]
            UNICORNS.apply(mine, actor, item)  # type: ignore[arg-type]
        narrator.narrate(actor, item, before, UNICORNS.view(mine, 0))
        lines.extend(f"  | {line}" for line in narrator.lines[told:])
        told = len(narrator.lines)
    assert UNICORNS.encode_state(mine) == UNICORNS.encode_state(table.copies[0])
    lines.append(f"# outcome {UNICORNS.outcome(table.state)!r}")
    lines.append(f"# public {dump(UNICORNS.view(table.state, None))}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    text = playthrough(SEED)
    if os.environ.get("LANPARTY_REGEN_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    assert text == expected, f"{GOLDEN.name} changed; regenerate and review if intended"

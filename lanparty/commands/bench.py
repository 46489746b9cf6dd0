"""``lanparty bench [GAME] [--players N] [--json] [--lan-model]``: measure real peer processes
on loopback and print the figures (a table, or one JSON object); asserts nothing. What is
measured, and what each figure is: :mod:`lanparty.bench.measure`; ``--lan-model``:
:mod:`lanparty.bench.model`.

Exit code 0 if the game finished and its audit passed (``audit_ok``), 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from lanparty import i18n
from lanparty.commands.common import Command, net_errors
from lanparty.errors import NetError
from lanparty.games import DEFAULT_GAME, GAMES, get_game
from lanparty.i18n import N_

__all__ = ["COMMAND", "run_bench", "table_text"]

_ROWS = [  # figure, unit, target set by the issue
    ("discovery_s", "s", "≤ 2 s"), ("discovery_startup_s", "s", ""),
    ("joint_shuffle_s", "s", "≤ 0.8 s at 4"), ("joint_shuffle_from_prev_s", "s", ""),
    ("lan_model_joint_shuffle_s", "s", "≤ 0.5 s at 4"),
    ("lan_model_prove_s", "s", ""), ("lan_model_check_s", "s", ""),
    ("deal_s", "s", ""), ("first_deal_s", "s", "≤ 3 s"),
    ("move_latency_ms_p50", "ms", "≤ 20 ms"),
    ("move_latency_ms_p99", "ms", ""), ("moves", "", ""), ("lost_races", "", ""),
    ("round_wall_s", "s", ""), ("game_s", "s", ""), ("table_wall_s", "s", ""),
    ("entries", "", ""), ("peak_rss_mb", "MiB", "≤ 150 MB per peer"),
]  # fmt: skip


def table_text(r: Mapping[str, Any]) -> str:
    """The figures as a readable table."""
    lines = [
        f"lanparty bench: {r['players']} peer processes on loopback, {r['game']} "
        f"({r['cards']} cards shuffled), a short game; python {r['python']}, "
        f"trio {r['trio']}, {r['cpu_count']} CPUs",
        f"{'figure':28}{'value':>12}  target",
    ]
    for key, unit, target in _ROWS:
        if key.startswith("lan_model") and key not in r:
            continue  # measured with --lan-model only
        value = r.get(key)
        text = "n/a" if value is None else f"{value} {unit}".strip()
        lines.append(f"{key:28}{text:>12}  {target}".rstrip())
    peers = ", ".join(f"{p} {mb}" for p, mb in r["peak_rss_mb_per_peer"].items())
    lines.append(f"{'peak RSS per peer (MiB)':28}  {peers}")
    lines.append(f"{'discovery samples (s)':28}  {r['discovery_samples_s']}")
    verdict = "passed" if r["audit_ok"] else f"FAILED {r['stopped']}".strip()
    lines.append(f"{'game':28}  winners {r['winners']}; audit {verdict}")
    return "\n".join(lines)


def run_bench(args: argparse.Namespace) -> int:
    """``lanparty bench [--players N] [--json]``: 0 if the game ended with its audit passed
    (and every figure was measured), 1 otherwise; raises :class:`NetError` if a process
    could not be run."""
    try:
        game = get_game(args.game)
    except KeyError as exc:
        raise NetError(str(exc.args[0])) from None
    if not game.min_seats <= args.players <= game.max_seats:
        raise NetError(f"--players must be {game.min_seats}..{game.max_seats} for {game.name}")
    from lanparty.bench.measure import measure  # processes and traces: loaded to measure
    from lanparty.bench.model import lan_model

    result = measure(args.players, game.name)
    if getattr(args, "lan_model", False) and result["cards"]:
        result.update(lan_model(args.players, result["cards"]))
    print(json.dumps(result) if args.json else table_text(result))
    required = ("discovery_s", "joint_shuffle_s", "deal_s", "move_latency_ms_p50")
    ok = result["audit_ok"] and all(result.get(k) is not None for k in required)
    return 0 if ok else 1


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", nargs="?", default=DEFAULT_GAME,
                   help=i18n._("the game to play (default {game}): {games}").format(
                       game=DEFAULT_GAME, games=", ".join(sorted(GAMES))))  # fmt: skip
    p.add_argument("--players", type=int, default=4, help=i18n._("peer processes (default 4)"))
    p.add_argument("--json", action="store_true", help=i18n._("print the figures as JSON"))
    p.add_argument("--lan-model", action="store_true",
                   help=i18n._("also the joint shuffle as if each peer had a machine of its "
                   "own: proof and check times measured here, composed along the message "
                   "order"))  # fmt: skip



COMMAND = Command(
    "bench", N_("measure real peer processes on loopback"), configure, net_errors(run_bench)
)

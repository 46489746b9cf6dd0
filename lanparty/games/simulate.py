"""Engine-only benchmark: ``python -m lanparty.games.simulate kato --players 4 --games 1000``.

Plays whole games with the local dealer: one heuristic bot (its seat rotating game by game)
against random bots. Every move is checked and applied as a peer would; the bots' choices
(views and legal-move listings included) are part of the time. Prints one JSON object.

With ``--bots hard,normal[,...]`` (one level per seat) the levels play each other instead:
game ``g`` seats entry ``j`` of the list at seat ``(j + g) % players``, so every level starts
as often as the others; the object then also holds, per entry of ``--bots``, ``win_rate``
(a tie's share counted), its 95 % Wilson interval ``win_rate_ci95`` and ``mean_score``, and
per level ``think_ms_p50``/``think_ms_p99`` (the time a bot takes to choose a move, forced
moves and single choices included).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence

from protocol.contract import Move, Plain

from . import GAMES, PLUGINS
from .bots import bot_at, bots_for, level_of
from .localdealer import LocalTable
from .search import DEFAULT_THINK, Think
from .strategy import Bot, RandomBot


def run(
    name: str, players: int, games: int, seed: int, options: dict[str, object]
) -> dict[str, float]:
    """Play ``games`` games; return the measurements printed by ``main``."""
    game = GAMES[name]
    factories = bots_for(name)
    strong = factories.get("heuristic", factories["random"])
    rng = random.Random(seed)
    moves = rounds = 0
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        hero = g % players
        bots = [strong() if s == hero else factories["random"]() for s in range(players)]
        table = LocalTable(game, players, options, rng)  # type: ignore[arg-type]
        outcome = table.play(bots)
        moves += table.moves
        rounds += len(outcome.rounds)
        if hero in outcome.winners:
            wins += 1 / len(outcome.winners)
    return {
        **_pace(games, moves, rounds, time.perf_counter() - start),
        "heuristic_win_rate": round(wins / games, 4),
    }


def _pace(games: int, moves: int, rounds: int, elapsed: float) -> dict[str, float]:
    """The fields every run prints: how many games and moves, and how fast."""
    return {
        "games": games,
        "moves": moves,
        "games_per_s": round(games / elapsed, 2),
        "moves_per_s": round(moves / elapsed),
        "rounds_per_game": round(rounds / games, 3),
    }


class _Timed:
    """A bot whose every choice is timed into ``times``."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The bot's choice, timed."""
        start = time.perf_counter()
        move = self.bot.choose(view, legal, rng)
        self.times.append(time.perf_counter() - start)
        return move


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95 % for ``z`` = 1.96)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank); 0 if there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def run_levels(
    name: str,
    levels: Sequence[str],
    games: int,
    seed: int,
    options: dict[str, object],
    think: Think = DEFAULT_THINK,
) -> dict[str, object]:
    """Play ``games`` games of the bots ``levels`` (one per seat, rotating game by game);
    the measurements ``main`` prints for ``--bots``."""
    game = GAMES[name]
    players = len(levels)
    rng = random.Random(seed)
    wins = [0.0] * players
    scores = [0.0] * players
    times: dict[str, list[float]] = {level: [] for level in levels}
    moves = rounds = 0
    start = time.perf_counter()
    for g in range(games):
        at = [(j + g) % players for j in range(players)]  # entry j sits at seat at[j]
        seated: list[Bot] = [RandomBot()] * players
        for j, level in enumerate(levels):
            bot = bot_at(name, level, options, think)  # type: ignore[arg-type]
            seated[at[j]] = _Timed(bot, times[level])
        table = LocalTable(game, players, options, rng)  # type: ignore[arg-type]
        outcome = table.play(seated)
        moves += table.moves
        rounds += len(outcome.rounds)
        for j in range(players):
            if at[j] in outcome.winners:
                wins[j] += 1 / len(outcome.winners)
            scores[j] += outcome.totals[at[j]]
    return {
        **_pace(games, moves, rounds, time.perf_counter() - start),
        "bots": list(levels),
        "win_rate": [round(w / games, 4) for w in wins],
        "win_rate_ci95": [[round(x, 4) for x in wilson(w, games)] for w in wins],
        "mean_score": [round(s / games, 3) for s in scores],
        "think_ms_p50": {lv: round(_quantile(t, 0.5) * 1000, 3) for lv, t in times.items()},
        "think_ms_p99": {lv: round(_quantile(t, 0.99) * 1000, 3) for lv, t in times.items()},
        "think_rollouts": think.rollouts,
        "rollout_cap": _cap(name, think),
        "think_s": think.seconds,
    }


def _cap(name: str, think: Think) -> int:
    """The rollouts a hard bot of game ``name`` may play a move under ``think`` (the budget's
    own for a game without a search)."""
    search = PLUGINS[name].search
    return search().cap(think) if search is not None else think.rollouts


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, run, print the JSON object."""
    parser = argparse.ArgumentParser(
        prog="python -m lanparty.games.simulate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("game", choices=sorted(GAMES), help="the game to play")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dealer and bots")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="a table option, e.g. --option target=200 --option cone_mode='\"draw10\"'",
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="LEVELS",
        help="one level per seat, comma-separated (easy, normal, hard), e.g. hard,normal",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=DEFAULT_THINK.seconds * 1000,
        help="a hard bot's wall-clock cap per move, in ms",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=DEFAULT_THINK.rollouts,
        help="a hard bot's rollout budget per move (a game with cheap rollouts, as KaTO, "
        "plays a multiple of it: the printed rollout_cap)",
    )
    args = parser.parse_args(argv)
    options: dict[str, object] = {}
    for item in args.option:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    if args.games < 1:
        parser.error("--games must be at least 1")
    result: dict[str, object]
    if args.bots is None:
        result = dict(run(args.game, args.players, args.games, args.seed, options))
    else:
        levels = [level_of(word) for word in args.bots.split(",")]
        if None in levels:
            parser.error("--bots takes levels easy, normal, hard, comma-separated")
        if "--players" in (argv if argv is not None else sys.argv) and len(levels) != args.players:
            parser.error("--bots needs one level per seat (as many as --players)")
        think = Think(args.rollouts, args.think_ms / 1000)
        result = run_levels(
            args.game, [str(lv) for lv in levels], args.games, args.seed, options, think
        )
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Engine-only benchmark: ``python -m lanparty.games.simulate kato --players 4 --games 1000``.

Plays whole games with the local dealer: one heuristic bot (its seat rotating game by game)
against random bots. Every move is checked and applied as a peer would; the bots' choices
(views and legal-move listings included) are part of the time. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence

from . import GAMES
from .bots import bots_for
from .localdealer import LocalTable


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
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "moves": moves,
        "games_per_s": round(games / elapsed, 2),
        "moves_per_s": round(moves / elapsed),
        "rounds_per_game": round(rounds / games, 3),
        "heuristic_win_rate": round(wins / games, 4),
    }


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
    result = run(args.game, args.players, args.games, args.seed, options)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

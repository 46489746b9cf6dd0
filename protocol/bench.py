"""Benchmark: whole games through the in-process harness (real protocol, real crypto, every
peer's verification in this one process). Prints one JSON object.

    python -m protocol.bench --game kato --players 4 --games 3

``game_wall_s`` and ``round_wall_s`` are medians over the games; ``setup_s`` is the median time
from opening the table to the first move (joins, key shares, the joint shuffle and the deal of
round 1); the ``*_cpu_s`` fields are the same spans in this process's CPU time (robust on a
busy machine); ``moves``, ``entries`` and ``bytes`` are medians per game; ``crypto_share`` is the
fraction of time spent in cryptography, measured with cProfile on one extra game; ``audit_ok``
says every game ended with every peer signing the same audit verdict and the offline audit of
the transcript (not timed) agreeing with it; ``findings`` counts the rules the audits found
broken (a bot may make a move the audit names, e.g. a bluff it could not know was one).
With ``--catch-up``, ``catch_up_s`` is the median time a spectator that arrives once the table
closed takes to check and apply the whole log (``log_bytes``, what the host sends it).
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import json
import pstats
import statistics
import time
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from crypto import verified_afresh

from ._frames import frame
from ._messages import NONCE_BYTES, Challenge, encode_message
from ._offline import audit_transcript
from ._roles import Phase
from ._watcher import Watcher
from .contract import Game, Plain
from .harness import Chooser, Harness


def _options(pairs: list[str]) -> dict[str, Plain]:
    out: dict[str, Plain] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        value: Plain = text
        if text in ("true", "false"):
            value = text == "true"
        elif text.lstrip("-").isdigit():
            value = int(text)
        out[name] = value
    return out


def play(
    games: Mapping[str, Game[Any]],
    game: str,
    players: int,
    options: Mapping[str, Plain],
    bots: list[Chooser],
    seed: int,
    catch_up: bool = False,
) -> dict[str, Any]:
    """Play one game; returns its timings and sizes (``catch_up``: also how long a spectator
    that arrives once the table closed takes to check and apply its whole log)."""
    t0, c0 = time.perf_counter(), time.process_time()
    h = Harness(games, game, players, options, bots, seed=seed)
    h.pump()
    setup, setup_cpu = time.perf_counter() - t0, time.process_time() - c0
    g = h.host.table.game
    assert g is not None
    marks, cpu_marks = [t0], [c0]
    rounds = 0
    while not h.done:
        if not h.step():
            break
        h.pump()
        state = h.host.table.state
        done_rounds = len(g.outcome(state).rounds)
        if done_rounds > rounds:
            rounds = done_rounds
            marks.append(time.perf_counter())
            cpu_marks.append(time.process_time())
    end, cpu_end = time.perf_counter(), time.process_time()
    if len(marks) > 1:
        marks[-1], cpu_marks[-1] = end, cpu_end  # the last round includes audit and sign-off
    report = h.host.table.report
    closed = all(p.phase is Phase.CLOSED for p in h.parties)
    offline = audit_transcript(h.host.transcript(), games) if closed else None
    caught = spectator_catch_up(games, h.host.relays_since(0)) if catch_up else 0.0
    return {
        "catch_up_s": caught,
        "log_bytes": sum(map(len, h.host.relays_since(0))),
        "game_wall_s": end - t0,
        "round_walls": [b - a for a, b in itertools.pairwise(marks)] or [end - t0],
        "game_cpu_s": cpu_end - c0,
        "round_cpus": [b - a for a, b in itertools.pairwise(cpu_marks)] or [cpu_end - c0],
        "setup_cpu_s": setup_cpu,
        "rounds": rounds,
        "setup_s": setup,
        "moves": h.moves,
        "entries": len(h.host.table.log),
        "bytes": h.bytes,
        "audit_ok": bool(closed and report is not None and offline == report),
        "findings": len(report.findings) if report else -1,
    }


def spectator_catch_up(games: Mapping[str, Game[Any]], relays: list[bytes]) -> float:
    """Seconds a spectator (:class:`Watcher`) takes to check and apply ``relays`` (a whole
    log's relay frames, as the host sends a newcomer)."""
    w = Watcher(games)
    w.receive_data(frame(encode_message(Challenge(bytes(NONCE_BYTES), len(relays), bytes(32)))))
    t0 = time.perf_counter()
    w.receive_data(b"".join(relays))
    took = time.perf_counter() - t0
    if w.stopped is not None:
        raise RuntimeError(f"the spectator stopped: {w.stopped}")
    return took


def crypto_share(run: Any) -> float:
    """Fraction of ``run()``'s profiled time spent in cryptography (our crypto package,
    libsodium through PyNaCl, and the ``cryptography`` package)."""
    prof = cProfile.Profile()
    prof.runcall(run)
    stats = pstats.Stats(prof)
    total = crypto = 0.0
    for (filename, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        tottime = row[2]
        total += tottime
        where = f"{filename} {name}"
        if any(k in where for k in ("/crypto/", "nacl", "_sodium", "cryptography", "ed25519")):
            crypto += tottime
    return crypto / total if total else 0.0


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, run the games, print the JSON summary."""
    ap = argparse.ArgumentParser(prog="python -m protocol.bench", description=__doc__)
    ap.add_argument("--game", required=True, help="a registered game's name")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=None,
                    help="rounds per game, for a game with a 'rounds' option (default: the "
                    "game's short game, e.g. one round)")
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--no-profile", action="store_true", help="skip the crypto_share run")
    ap.add_argument("--catch-up", action="store_true",
                    help="also time a spectator that arrives at the end (catch_up_s)")
    args = ap.parse_args(argv)

    # The games and their bots, found where every game registers (the ``lanparty.games``
    # entry points): the protocol package itself depends on no application (layers point
    # down), and this tool names none.
    plugins = {ep.name: ep for ep in entry_points(group="lanparty.games")}
    if args.game not in plugins:
        ap.error(f"unknown game {args.game!r}; registered: {', '.join(sorted(plugins))}")
    plugin = plugins[args.game].load()
    GAMES: Mapping[str, Game[Any]] = {args.game: plugin.game}  # noqa: N806
    specs = {spec.name for spec in plugin.game.option_specs}
    rounds = {"rounds": args.rounds} if args.rounds is not None and "rounds" in specs else {}
    options = {**plugin.short, **rounds, **_options(args.option)}
    factory = plugin.bots()[args.bot]

    def one(seed: int) -> dict[str, Any]:
        bots: list[Chooser] = [factory() for _ in range(args.players)]
        return play(GAMES, args.game, args.players, options, bots, seed, args.catch_up)

    with verified_afresh():  # one process stands for every peer: each verifies in full
        runs = [one(seed) for seed in range(args.games)]
        share = 0.0 if args.no_profile else crypto_share(lambda: one(args.games))
    med = statistics.median
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "games": args.games,
                "game_wall_s": round(med(r["game_wall_s"] for r in runs), 3),
                "round_wall_s": round(med(w for r in runs for w in r["round_walls"]), 3),
                "rounds": sum(r["rounds"] for r in runs),
                "setup_s": round(med(r["setup_s"] for r in runs), 3),
                "game_cpu_s": round(med(r["game_cpu_s"] for r in runs), 3),
                "round_cpu_s": round(med(w for r in runs for w in r["round_cpus"]), 3),
                "setup_cpu_s": round(med(r["setup_cpu_s"] for r in runs), 3),
                "moves": med(r["moves"] for r in runs),
                "entries": med(r["entries"] for r in runs),
                "bytes": med(r["bytes"] for r in runs),
                "log_bytes": med(r["log_bytes"] for r in runs),
                "catch_up_s": round(med(r["catch_up_s"] for r in runs), 3),
                "crypto_share": round(share, 3),
                "audit_ok": all(r["audit_ok"] for r in runs),
                "findings": sum(r["findings"] for r in runs),
            }
        )
    )


if __name__ == "__main__":
    main()

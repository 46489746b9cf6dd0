"""A night at one table over the network: real peer processes on loopback play a game, then
the next ones the host offers (``host --then``), over the same TCP connections; every game
keeps its own transcript, which audits on its own and names the game before it (the
``night`` link of its opening entry). A player who leaves between games leaves one seat
fewer; a player whose program dies between games (after it said it stays) comes back with
``join --resume`` and plays the next game."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

from .procs import LANPARTY, Procs, table

QUICK = ("--react", "0")


def _audit(path: str) -> dict[str, object]:
    """``lanparty audit --json FILE``: the file audited on its own."""
    done = subprocess.run([*LANPARTY, "audit", "--json", path], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    verdict: dict[str, object] = json.loads(done.stdout)
    return verdict


def _chained(games: list[dict[str, object]]) -> None:
    """Each transcript audits on its own, and each game's night link names the game before
    it: the night's first table, the one just finished and its closing digest, its number."""
    verdicts = [_audit(str(g["transcript"])) for g in games]
    first = verdicts[0]
    assert first["night"] is None and first["verdict"] == "passed"
    for number, (before, now) in enumerate(itertools.pairwise(verdicts), 2):
        assert now["verdict"] == "passed" and now["game"] == games[number - 1]["game"]
        assert now["night"] == {"first": first["table"], "after": before["table"],
                                "digest": before["closing"], "number": number}  # fmt: skip
        assert now["table"] == games[number - 1]["table"]


def _board(home: Path, *args: str) -> dict[str, Any]:
    """``lanparty night --json ARGS`` with ``home`` as the data directory: a night's board."""
    done = subprocess.run([*LANPARTY, "night", "--json", *args], capture_output=True,
                          text=True, timeout=120, check=False,
                          env={**os.environ, "LANPARTY_HOME": str(home)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    board: dict[str, Any] = json.loads(done.stdout)
    return board


def _same_board(board: dict[str, Any]) -> dict[str, Any]:
    """What every peer's board of one night must agree on (not where each kept its files,
    nor when it saved them)."""
    games = [{k: g[k] for k in ("number", "game", "table", "status", "counted")}
             for g in board["games"]]  # fmt: skip
    return {"night": board["night"], "games": games, "standings": board["standings"]}


def _scoreboard(tmp: Path, homes: list[str], host: list[dict[str, Any]]) -> None:
    """The night's board is the same on every peer (``lanparty night --json`` with its own
    data directory) and the same recomputed from the host's transcripts alone (``--check
    --files``); it counts every game played, and each game's placing points sum to
    n(n-1)/2; each game's end told the board so far."""
    boards = {who: _same_board(_board(tmp / who)) for who in homes}
    first = boards[homes[0]]
    assert all(b == first for b in boards.values()), boards
    files = [str(g["transcript"]) for g in host]
    recomputed = _same_board(_board(tmp / homes[0], "--check", "--files", *files))
    assert recomputed == first
    assert [g["table"] for g in first["games"]] == [g["table"] for g in host]
    assert all(g["status"] == "passed" and g["counted"] for g in first["games"])
    for number, game in enumerate(host):
        n = len(game["names"])
        points = [Fraction(r["games"][number]) for r in first["standings"]]
        assert sum(points) == Fraction(n * (n - 1), 2), (number, points)
        said = "game" if number == 0 else "games"
        assert str(game["night"]).startswith(f"The night so far ({number + 1} {said}): ")


async def _join(procs: Procs, who: str, at: str, *args: str) -> None:
    await procs.start(who, "join", "--bot", "--connect", at, "--nick", who, "--json",
                      "--seed", str(len(procs.procs)), *QUICK, *args)  # fmt: skip


async def test_a_night_of_three_games_over_the_same_connections(tmp_path: Path) -> None:
    """KaTO, then ``next unanimo``, then ``again``: four peers and a spectator, who follows
    every game on its one connection; then the night's board is the same on every peer and
    from the host's transcripts alone."""
    async with table(tmp_path) as procs:
        at = await procs.host("--then", "unanimo:cards=1,again", *QUICK)
        await procs.start("eve", "watch", "--connect", at, "--json")
        for who in ("ann", "bob", "cyd"):
            await _join(procs, who, at)
        host = await procs.results("host")
        seats = host[0]["names"]  # in the order the players sat down for the first game
        assert [g["names"] for g in host] == [seats] * 3  # kept for the next ones
        assert [g["game"] for g in host] == ["kato", "unanimo", "unanimo"]
        assert [g["number"] for g in host] == [1, 2, 3]
        assert all(g["audit_ok"] and not g["stopped"] for g in host)
        # the host accepted four connections in all: one per player and the spectator's,
        # each kept all night
        assert [g["connections"] for g in host] == [4, 4, 4]
        for who in ("ann", "bob", "cyd"):
            games = await procs.results(who)
            assert [g["table"] for g in games] == [g["table"] for g in host]
            assert [g["connections"] for g in games] == [1, 1, 1]  # connected once
            assert all(g["names"] == seats for g in games)
        _chained(host)
        watched = await procs.results("eve")
        end = watched[-1]
        assert end["end"] and end["audit_ok"] and len(end["transcripts"]) == 3
        assert sum(1 for line in watched if line.get("pos") == 0) == 3  # each table from 0
        for path, game in zip(end["transcripts"], host, strict=True):
            assert _audit(str(path))["table"] == game["table"]
        _scoreboard(tmp_path, ["host", "ann", "bob", "cyd", "eve"], host)


async def test_a_player_who_leaves_leaves_one_seat_fewer_too_few_for_unanimo(
    tmp_path: Path,
) -> None:
    """bob goes after the first game: Unanimo again (3 players at least) cannot start with
    the two who stay, the host is told, and the next game of its list is offered in its
    place."""
    async with table(tmp_path) as procs:
        at = await procs.host(*QUICK, "--option", "cards=1", "--seats", "3",
                              "--then", "again,kato:rounds=1", game="unanimo")  # fmt: skip
        await _join(procs, "ann", at)
        await _join(procs, "bob", at, "--games", "1")  # goes after the first game
        await procs.until("host", "bob leaves the table")
        await procs.until("host", "too few players stayed for unanimo: 2 of the 3 it needs")
        host = await procs.results("host")
        stayed = [name for name in host[0]["names"] if name != "bob"]  # in their old order
        assert [g["game"] for g in host] == ["unanimo", "kato"]
        assert host[1]["names"] == stayed and host[1]["number"] == 2
        assert len(await procs.results("bob")) == 1
        assert [g["names"] for g in await procs.results("ann")][1] == stayed
        _chained(host)


async def test_a_seat_lost_between_games_resumes_and_plays_the_next(tmp_path: Path) -> None:
    async with table(tmp_path) as procs:
        at = await procs.host(*QUICK, "--option", "cards=1", "--then", "again", game="unanimo")
        for who in ("ann", "bob", "cyd"):
            await _join(procs, who, at)
        await procs.until("host", "bob stays for the next game")
        procs.procs["bob"].send_signal(signal.SIGKILL)  # its program dies between games
        await procs.procs["bob"].wait()
        await procs.start("bob2", "join", "--bot", "--resume", "--json", *QUICK, home="bob")
        host = await procs.results("host")
        assert [g["game"] for g in host] == ["unanimo", "unanimo"]
        assert host[1]["names"] == host[0]["names"] and host[1]["audit_ok"]
        [back] = await procs.results("bob2")
        assert back["table"] == host[1]["table"] and back["audit_ok"]
        _chained(host)


def test_then_is_checked_before_anything_starts(tmp_path: Path) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    args = ["host", "kato", "--bot", "--local", "--then", "again,chess"]
    done = subprocess.run([*LANPARTY, *args], capture_output=True, text=True, timeout=60,
                          check=False, env=env)  # fmt: skip
    assert done.returncode == 2 and "--then: unknown game 'chess'" in done.stderr, done.stderr

"""A spectator takes a free seat at a night's next game, over the network: a host that lets
spectators sit (``host --spectators-sit``), one player, and two spectators — one that takes
a seat whenever offered (``watch --sit``), one that only watches. Game 2 seats the first in
the seat left beside the players who stayed, under its own key and name; it plays there as
any seat, is offered game 3 as a player and stays; every transcript audits, and the night's
board counts its games, the same on every peer."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from .procs import Procs, table
from .test_night_net import QUICK, _audit, _board, _chained, _join, _same_board


async def _watch(procs: Procs, who: str, at: str, *args: str) -> None:
    """``who`` watches the table at ``at``, once it is connected. Its JSON lines are read as
    they come: a spectator blocked on a full pipe could not answer the offer of a seat,
    which the host waits for (a minute at most) before it seats anyone."""
    await procs.start(who, "watch", "--connect", at, "--json", "--nick", who, *args,
                      follow=True)  # fmt: skip
    await procs.until(who, "Connected to ")


async def _watched(procs: Procs, who: str) -> list[dict[str, object]]:
    """``who``'s JSON lines once it ended (its summary last), with exit status 0."""
    await procs.until_out(who, '"end": true')
    proc = procs.procs[who]
    await proc.wait()
    assert proc.returncode == 0 and "Traceback" not in "\n".join(procs.err[who])
    return [json.loads(line) for line in procs.out[who] if line.strip()]


async def test_a_spectator_takes_a_free_seat_and_plays_on(tmp_path: Path) -> None:
    async with table(tmp_path) as procs:
        at = await procs.host("--seats", "2", "--spectators-sit",
                              "--then", "again,unanimo:cards=1", *QUICK)  # fmt: skip
        await _watch(procs, "zed", at, "--sit")
        await _watch(procs, "eve", at)
        await _join(procs, "ann", at)
        await procs.until("host", "zed (watching, key ")  # it asked for a free seat
        host = await procs.results("host")
        assert [g["game"] for g in host] == ["kato", "kato", "unanimo"]
        first = host[0]["names"]
        assert sorted(first) == ["ann", "hugo"]
        # the players who stayed first, in their order; then the spectator, in the seat left
        assert host[1]["names"] == [*first, "zed"]
        assert host[2]["names"] == [*first, "zed"]  # offered game 3 as a player: it stayed
        assert all(g["audit_ok"] and not g["stopped"] for g in host)
        _chained(host)
        for game in host[1:]:
            assert _audit(str(game["transcript"]))["names"] == [*first, "zed"]
        zed = await _watched(procs, "zed")
        end = zed[-1]
        assert end["end"] and end["audit_ok"] and not end["stopped"]
        assert len(end["transcripts"]) == 3
        for path, game in zip(end["transcripts"], host, strict=True):
            assert _audit(str(path))["table"] == game["table"]
        watched = await _watched(procs, "eve")  # watched all three, never seated
        assert watched[-1]["audit_ok"] and len(watched[-1]["transcripts"]) == 3
        assert len(await procs.results("ann")) == 3
        # the night's board: the same on every peer and from the host's transcripts alone;
        # zed is on it from game 2, its placing counted as any seat's
        boards = [_same_board(_board(tmp_path / who)) for who in ("host", "ann", "zed", "eve")]
        assert all(b == boards[0] for b in boards), boards
        files = [str(g["transcript"]) for g in host]
        assert _same_board(_board(tmp_path / "zed", "--check", "--files", *files)) == boards[0]
        assert [g["table"] for g in boards[0]["games"]] == [g["table"] for g in host]
        assert all(g["status"] == "passed" and g["counted"] for g in boards[0]["games"])
        [row] = [r for r in boards[0]["standings"] if r["name"] == "zed"]
        assert row["games"][0] is None and None not in row["games"][1:], row
        for number, game in enumerate(host):
            n = len(game["names"])
            points = [Fraction(r["games"][number]) for r in boards[0]["standings"]
                      if r["games"][number] is not None]  # fmt: skip
            assert sum(points) == Fraction(n * (n - 1), 2), (number, points)
        friends = json.loads((tmp_path / "zed" / "friends.json").read_text())
        assert {"ann", "hugo"} <= set(json.dumps(friends).replace('"', " ").split())

"""The night's scoreboard: every game played at one table in a night, added up by placings.

A night is the games a table plays one after another (``again``, ``next GAME``). Each
game's ``open`` entry names the night it belongs to (its ``night`` field: the night's first
table, the table just finished and that table's closing digest, and the game's number), so
the night is read from the transcripts alone, and every peer (or anyone holding the files
later) computes the same board. A table whose ``open`` names no night starts one.

**The placing rule** (``lanparty rules night``). Games score differently (cards, words,
unicorns), so a night adds up *placings*, not scores: in each game a player earns one point
for every player who finished below them and half a point for every player who finished
level with them. The winners (the game's own rule: highest total, Kill the Unicorns' double
rainbow…) are above everyone else and level with each other; the other players are ranked by
their totals. With four players: 3, 2, 1 and 0 points, two winners 2½ each. Only a game whose
transcript passes the audit counts; a game that stopped (someone left, vanished) or does not
verify counts for nothing, for everyone.

Auditing a transcript re-checks every proof (seconds for a long game), so each file's result
is kept in ``night-cache.json`` beside the transcripts, by the file's digest: a file that
changes is audited again, and ``check=True`` audits them all again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from lanparty import store
from lanparty.replay.audit import audit_file
from protocol.contract import Outcome

__all__ = [
    "GameResult",
    "Night",
    "Standing",
    "game_results",
    "nights",
    "placing_points",
]

_CACHE_FILE = "night-cache.json"
_CACHE_VERSION = 1
_STAMP = re.compile(r"^(\d{8})-(\d{6})-")
TABLE_BYTES, KEY_BYTES, DIGEST_BYTES = 16, 32, 32


def placing_points(outcome: Outcome) -> tuple[Fraction, ...]:
    """Each seat's placing points for one finished game: one for every player who finished
    below it, ½ for every player level with it (winners above the rest and level with each
    other; the rest by their totals)."""
    n = len(outcome.totals)
    rank = [(s in outcome.winners, outcome.totals[s]) for s in range(n)]
    return tuple(
        sum(
            (
                Fraction(1)
                if rank[s] > rank[o]
                else Fraction(1, 2)
                if rank[s] == rank[o]
                else Fraction(0)
                for o in range(n)
                if o != s
            ),
            Fraction(0),
        )
        for s in range(n)
    )


@dataclass(frozen=True, slots=True)
class GameResult:
    """One transcript as the scoreboard reads it. ``points`` is ``None`` for a game that
    counts for nothing (it stopped, or does not verify: ``status``)."""

    path: str
    table: bytes
    game: str
    first: bytes  # the night's first table (this table's own id when it starts one)
    number: int  # 1 for the game that starts a night
    after: bytes  # the table before it in the night (b"" for the first)
    digest: bytes  # that table's closing digest, as this game's open names it
    closing: bytes  # this table's own closing digest (b"" if nobody signed off)
    names: tuple[str, ...]
    keys: tuple[bytes, ...]
    status: str  # "passed", "incomplete" or "failed", as ``lanparty audit`` says
    points: tuple[Fraction, ...] | None
    when: str  # "YYYY-MM-DD HH:MM", from the file's name (or its time)

    def to_plain(self) -> dict[str, Any]:
        """A JSON-able form (bytes in hex, points as strings such as ``"5/2"``)."""
        plain = asdict(self)
        for name in ("table", "first", "after", "digest", "closing"):
            plain[name] = plain[name].hex()
        plain["keys"] = [k.hex() for k in self.keys]
        plain["points"] = None if self.points is None else [str(p) for p in self.points]
        return plain

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> GameResult:
        """The inverse of :meth:`to_plain`; raises ``ValueError``, ``KeyError`` or
        ``TypeError`` for anything else (a damaged cache entry)."""
        points = d["points"]
        return cls(
            str(d["path"]),
            bytes.fromhex(d["table"]),
            str(d["game"]),
            bytes.fromhex(d["first"]),
            int(d["number"]),
            bytes.fromhex(d["after"]),
            bytes.fromhex(d["digest"]),
            bytes.fromhex(d["closing"]),
            tuple(str(n) for n in d["names"]),
            tuple(bytes.fromhex(k) for k in d["keys"]),
            str(d["status"]),
            None if points is None else tuple(Fraction(p) for p in points),
            str(d["when"]),
        )


def _link(night: object, table: bytes) -> tuple[bytes, int, bytes, bytes] | None:
    """(first, number, after, digest) from an ``open`` entry's ``night`` field; the table's
    own start of a night for ``None``; ``None`` for anything malformed."""
    if night is None:
        return table, 1, b"", b""
    if not isinstance(night, dict):
        return None
    first, after, digest, number = (night.get(k) for k in ("first", "after", "digest", "number"))
    if not (
        isinstance(first, bytes)
        and len(first) == TABLE_BYTES
        and isinstance(after, bytes)
        and len(after) == TABLE_BYTES
        and isinstance(digest, bytes)
        and len(digest) == DIGEST_BYTES
        and type(number) is int
        and number >= 2
    ):
        return None
    return first, number, after, digest


def _when(path: Path) -> str:
    """When the game was saved: the stamp its file name starts with, else the file's time."""
    found = _STAMP.match(path.name)
    if found:
        day, hour = found.groups()
        return f"{day[:4]}-{day[4:6]}-{day[6:]} {hour[:2]}:{hour[2:4]}"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))


def read_game(path: Path) -> GameResult | None:
    """Audit the transcript at ``path`` and read what the scoreboard needs; ``None`` for a
    file that is not a transcript of a table (unreadable, another version, damaged before
    its seats were known). Raises nothing else."""
    from lanparty.errors import NetError

    try:
        verdict = audit_file(str(path))
    except NetError:
        return None
    link = _link(verdict.night, verdict.table)
    if link is None or len(verdict.table) != TABLE_BYTES or not verdict.authors:
        return None
    first, number, after, digest = link
    outcome = verdict.outcome
    counts = verdict.passed and outcome is not None and outcome.finished
    points = placing_points(outcome) if counts and outcome is not None else None
    if points is not None and len(points) != len(verdict.authors):
        points = None  # the seats and the scores disagree: nothing to add up
    return GameResult(
        str(path),
        verdict.table,
        verdict.game,
        first,
        number,
        after,
        digest,
        verdict.closing,
        tuple(verdict.names),
        tuple(verdict.authors),
        verdict.status,
        points,
        _when(path),
    )


def _digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=32, person=b"lp-night-cache")
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _load_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != _CACHE_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def _save_cache(path: Path, files: dict[str, Any]) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"version": _CACHE_VERSION, "files": files}), "utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only home: the board is computed all the same


def game_results(
    paths: Iterable[Path] | None = None,
    *,
    check: bool = False,
    base: Path | None = None,
    told: Callable[[Path], None] | None = None,
) -> list[GameResult]:
    """Every game among ``paths`` (the saved transcripts by default), each audited once
    (its result kept in the cache under ``base``, the data directory by default, unless
    ``check``: every file audited again); ``told(path)`` is called before each audit.
    Files that are not transcripts are left out. Raises nothing for a bad file."""
    home = base or store.home()
    files = (
        sorted(paths) if paths is not None else sorted(store.transcripts_dir(home).glob("*.lptx"))
    )
    cache_path = home / _CACHE_FILE
    cache = {} if check else _load_cache(cache_path)
    kept: dict[str, Any] = {}
    results: list[GameResult] = []
    for path in files:
        try:
            key = f"{path.name}:{_digest(path)}"
        except OSError:
            continue
        result = None
        if key in cache:
            try:
                result = None if cache[key] is None else GameResult.from_plain(cache[key])
            except (ValueError, KeyError, TypeError):
                cache.pop(key)
        if key not in cache:
            if told is not None:
                told(path)
            result = read_game(path)
        kept[key] = None if result is None else result.to_plain()
        if result is not None:
            results.append(result)
    if paths is None or not check:
        _save_cache(cache_path, {**({} if paths is None else cache), **kept})
    return results


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line on a night's board: their latest name, their key, their placing
    points per game (``None``: not at that table, or the game counts for nothing) and in
    all; ``place`` is 1 for the leader (players level share a place)."""

    name: str
    key: bytes
    games: tuple[Fraction | None, ...]
    total: Fraction
    place: int


@dataclass
class Night:
    """The games of one night, by number (one transcript per table: copies of a table's
    file, as two programs on one machine keep, count once)."""

    first: bytes
    games: list[GameResult] = field(default_factory=list)

    @property
    def when(self) -> str:
        """When its first game known here was saved."""
        return min(g.when for g in self.games)

    @property
    def latest(self) -> str:
        """When its last game known here was saved."""
        return max(g.when for g in self.games)

    def missing(self) -> list[int]:
        """The numbers of the night's games before its last one that no transcript here
        holds."""
        have = {g.number for g in self.games}
        return [n for n in range(1, max(have) + 1) if n not in have]

    def unlinked(self) -> list[GameResult]:
        """Games whose ``open`` names, as the game before them, a table or closing digest
        other than the transcript here of that game: they count for nothing."""
        by_number = {g.number: g for g in self.games}
        return [
            g
            for g in self.games
            if g.number > 1
            and g.number - 1 in by_number
            and (by_number[g.number - 1].table, by_number[g.number - 1].closing)
            != (g.after, g.digest)
        ]

    def counted(self, game: GameResult) -> bool:
        """Whether ``game`` adds to the board: it passed the audit and, if the game before
        it is here, it follows that game."""
        return game.points is not None and game not in self.unlinked()

    def standings(self) -> list[Standing]:
        """Every player of the night, leader first (players level: in the order they first
        sat down)."""
        order: list[bytes] = []
        names: dict[bytes, str] = {}
        for game in self.games:
            for name, key in zip(game.names, game.keys, strict=True):
                if key not in names:
                    order.append(key)
                names[key] = name  # the latest name they used
        columns: dict[bytes, list[Fraction | None]] = {k: [] for k in order}
        for game in self.games:
            seat = {k: s for s, k in enumerate(game.keys)}
            counted = self.counted(game)
            for key in order:
                s = seat.get(key)
                columns[key].append(
                    game.points[s] if counted and s is not None and game.points else None
                )
        totals = {k: sum((p for p in columns[k] if p is not None), Fraction(0)) for k in order}
        ranked = sorted(order, key=lambda k: -totals[k])
        return [
            Standing(
                names[k],
                k,
                tuple(columns[k]),
                totals[k],
                1 + sum(totals[o] > totals[k] for o in order),
            )
            for k in ranked
        ]


def nights(results: Sequence[GameResult]) -> list[Night]:
    """The nights ``results`` make up, the most recent last; within a night, the games by
    number (a table's copies kept once)."""
    grouped: dict[bytes, Night] = {}
    seen: set[bytes] = set()
    # A table's copies: the one that counts is kept (a damaged copy beside a good one).
    for result in sorted(results, key=lambda r: (r.points is None, r.when, r.path)):
        if result.table in seen:
            continue
        seen.add(result.table)
        grouped.setdefault(result.first, Night(result.first)).games.append(result)
    for night in grouped.values():
        night.games.sort(key=lambda g: (g.number, g.when))
    return sorted(grouped.values(), key=lambda n: (n.latest, n.first))

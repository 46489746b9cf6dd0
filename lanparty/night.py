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
is kept in ``night-cache.json`` beside the transcripts, by the file's digest (a file that
changes is audited again): :mod:`lanparty.replay.night` audits the files, and a table that
has just verified its own game at the end (the same checks) puts its result there too. This
module is the board itself: the placings, the nights the results make up, the cache, and the
board in one line and as JSON (the full board on screen: :mod:`lanparty.ui.nightboard`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from crypto import fingerprint
from lanparty import store
from lanparty.i18n import _, ngettext
from lanparty.text import printable
from protocol import NightLink
from protocol.contract import Outcome

__all__ = [
    "CACHE_FILE",
    "GameResult",
    "Night",
    "Standing",
    "board_line",
    "cache_key",
    "file_digest",
    "kept_nights",
    "night_json",
    "night_line",
    "night_link",
    "nights",
    "placing_points",
    "points_text",
    "record",
    "remember",
    "remembered",
    "saved_when",
]

CACHE_FILE = "night-cache.json"
CACHE_VERSION = 1
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


def night_link(night: NightLink | None, table: bytes) -> tuple[bytes, int, bytes, bytes]:
    """(first, number, after, digest) of a table from its ``open`` entry's night link (as
    the protocol read and checked it): the table's own start of a night for ``None``."""
    if night is None:
        return table, 1, b"", b""
    return night.first, night.number, night.after, night.digest


def saved_when(path: Path) -> str:
    """When the game was saved: the stamp its file name starts with, else the file's time."""
    found = _STAMP.match(path.name)
    if found:
        day, hour = found.groups()
        return f"{day[:4]}-{day[4:6]}-{day[6:]} {hour[:2]}:{hour[2:4]}"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))


def file_digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=32, person=b"lp-night-cache")
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def cache_key(path: Path) -> str:
    """The key of the transcript at ``path`` in the cache: its name and its contents'
    digest (a file that changes is read again). Raises ``OSError`` if it cannot be read."""
    return f"{path.name}:{file_digest(path)}"


def remembered(path: Path) -> dict[str, Any]:
    """The cache file at ``path``: each transcript's reading by :func:`cache_key` (``None``
    for a file that is no transcript); empty if it is missing, damaged or of another
    version. Raises nothing."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def remember(path: Path, files: dict[str, Any]) -> None:
    """Replace the cache file at ``path`` with ``files`` (atomically: several programs may
    share a data directory; the last one's cache wins, and what it lacks is read again
    later). Raises nothing: a read-only home keeps no cache."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "files": files}), "utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only home: the board is computed all the same


def record(result: GameResult, path: Path, base: Path | None = None) -> None:
    """Remember ``result`` as the reading of the transcript at ``path``: a table that has
    just checked its own game to the end (the audit's checks, made at the table) puts it in
    the cache under ``base`` (the data directory by default). Raises nothing."""
    try:
        key = cache_key(path)
    except OSError:
        return
    cache = (base or store.home()) / CACHE_FILE
    remember(cache, {**remembered(cache), key: result.to_plain()})


def kept_nights(base: Path | None = None) -> list[Night]:
    """The nights of the games whose reading is remembered under ``base`` (the data
    directory by default) and whose transcript is still there: what ``lanparty night`` and
    the tables' ends have read; no file is audited. Raises nothing."""
    home = base or store.home()
    here = {p.name for p in store.transcripts_dir(home).glob("*.lptx")}
    results = []
    for key, plain in remembered(home / CACHE_FILE).items():
        if plain is None or key.rpartition(":")[0] not in here:
            continue
        try:
            results.append(GameResult.from_plain(plain))
        except (ValueError, KeyError, TypeError):
            continue
    return nights(results)


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


def points_text(points: Fraction | None) -> str:
    """``"2½"``, ``"½"``, ``"3"``; ``"·"`` for no points (not at that table, or the game
    counts for nothing)."""
    if points is None:
        return "·"
    whole, half = divmod(points * 2, 2)
    if half:
        return f"{int(whole)}½" if whole else "½"
    return str(int(whole))


def night_line(night: Night) -> str:
    """The board in one line, for the end of a game and the lobby: ``"The night so far
    (3 games): Ana 6½ · Bea 6½ · Carl 2"``."""
    n = len(night.games)
    said = ngettext(
        "The night so far ({n} game): {board}", "The night so far ({n} games): {board}", n
    )
    return said.format(n=n, board=board_line(night))


def board_line(night: Night) -> str:
    """Every player's points in the night, leader first: ``"Ana 6½ · Bea 6½ · Carl 2"``;
    a night none of whose games counts (each stopped or did not verify) says so instead of
    giving everyone 0."""
    if not any(night.counted(game) for game in night.games):
        return _("none counts (a game that stopped or does not verify counts for nothing)")
    return " · ".join(f"{printable(r.name)} {points_text(r.total)}" for r in night.standings())


def night_json(night: Night) -> dict[str, Any]:
    """The board as plain data: the night's id, its games (with whether each counts) and
    every player's points per game and total (as strings such as ``"5/2"``)."""
    return {
        "night": night.first.hex(),
        "games": [
            {
                "number": g.number,
                "game": g.game,
                "table": g.table.hex(),
                "when": g.when,
                "status": g.status,
                "counted": night.counted(g),
                "path": g.path,
            }
            for g in night.games
        ],
        "missing": night.missing(),
        "standings": [
            {
                "name": r.name,
                "key": r.key.hex(),
                "fingerprint": fingerprint(r.key),
                "place": r.place,
                "total": str(r.total),
                "games": [None if p is None else str(p) for p in r.games],
            }
            for r in night.standings()
        ],
    }

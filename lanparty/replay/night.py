"""Each saved transcript audited and read for the night's scoreboard (:mod:`lanparty.night`
holds the board itself, the placing rule and the cache of results)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from lanparty import store
from lanparty.night import (
    CACHE_FILE,
    TABLE_BYTES,
    GameResult,
    cache_key,
    night_link,
    placing_points,
    remember,
    remembered,
    saved_when,
)
from lanparty.replay.audit import audit_file

__all__ = ["game_results", "read_game"]


def read_game(path: Path) -> GameResult | None:
    """Audit the transcript at ``path`` and read what the scoreboard needs; ``None`` for a
    file that is not a transcript of a table (unreadable, another version, damaged before
    its seats were known). Raises nothing else."""
    from lanparty.errors import NetError

    try:
        verdict = audit_file(str(path))
    except NetError:
        return None
    table = verdict.table_id
    if table is None or len(table) != TABLE_BYTES or not verdict.authors:
        return None  # it does not verify as far as its table's opening
    first, number, after, digest = night_link(verdict.night, table)
    outcome = verdict.outcome
    counts = verdict.passed and outcome is not None and outcome.finished
    points = placing_points(outcome) if counts and outcome is not None else None
    if points is not None and len(points) != len(verdict.authors):
        points = None  # the seats and the scores disagree: nothing to add up
    return GameResult(
        str(path),
        table,
        verdict.game,
        first,
        number,
        after,
        digest,
        verdict.closing or b"",
        tuple(verdict.names),
        tuple(verdict.authors),
        verdict.status,
        points,
        saved_when(path),
    )


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
    cache_path = home / CACHE_FILE
    cache = {} if check else remembered(cache_path)
    kept: dict[str, Any] = {}
    results: list[GameResult] = []
    for path in files:
        try:
            key = cache_key(path)
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
        remember(cache_path, {**({} if paths is None else cache), **kept})
    return results

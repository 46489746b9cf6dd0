"""The figures of one traced game, from its peers' trace files (:mod:`lanparty.trace`):
parse each ``<nick>.jsonl``, index when every peer applied each log entry
(:class:`EntryLog`), and measure the spans :mod:`lanparty.bench.measure` reports
(:func:`analyse`; what each figure is: that module's docstring)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "HOST",
    "EntryLog",
    "TraceEvent",
    "Traces",
    "analyse",
    "deal_s",
    "event_times",
    "first_deal_s",
    "joint_shuffle",
    "move_latencies_ms",
    "parse_trace",
    "peak_rss_mb",
    "percentile",
    "read_traces",
    "rounded",
    "table_times",
]

TraceEvent = Mapping[str, Any]
Traces = Mapping[str, Sequence[TraceEvent]]
"""Each peer's trace events (its nick → the events of its ``.jsonl`` file, in file order)."""

HOST = "host"
"""The host's nick: its trace is ``host.jsonl``."""
_INPUTS = ("move", "seal_commit", "seal_open")


def parse_trace(text: str) -> list[dict[str, Any]]:
    """The events of one trace file; a line that is not a JSON object (a process killed while
    writing) is skipped."""
    events = []
    for line in text.splitlines():
        with suppress(ValueError):
            event = json.loads(line)
            if isinstance(event, dict) and "ev" in event and "t" in event:
                events.append(event)
    return events


def read_traces(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Every ``<nick>.jsonl`` in ``folder``, parsed."""
    return {p.stem: parse_trace(p.read_text("utf-8")) for p in sorted(folder.glob("*.jsonl"))}


@dataclass
class EntryLog:
    """The table log as the traces saw it: each position's seat and kind, and when each peer
    applied it."""

    peers: tuple[str, ...]
    kinds: dict[int, tuple[int | None, str]] = field(default_factory=dict)
    applied: dict[int, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def from_traces(cls, traces: Traces) -> EntryLog:
        """Index every ``applied`` event of every peer (the first one per position)."""
        log = cls(tuple(traces))
        for peer, events in traces.items():
            for e in events:
                if e["ev"] == "applied":
                    log.kinds.setdefault(e["pos"], (e.get("seat"), e["kind"]))
                    log.applied.setdefault(e["pos"], {}).setdefault(peer, e["t"])
        return log

    def everywhere(self, pos: int) -> float | None:
        """When the entry at ``pos`` had been applied at every peer (None if some never did)."""
        times = self.applied.get(pos, {})
        if not self.peers or any(p not in times for p in self.peers):
            return None
        return max(times.values())

    def first(self, kinds: Sequence[str], after: int = -1) -> int | None:
        """The first position after ``after`` whose kind is one of ``kinds``."""
        found = [p for p, (_, k) in self.kinds.items() if p > after and k in kinds]
        return min(found) if found else None


def _span(start: float | None, end: float | None) -> float | None:
    return None if start is None or end is None else end - start


def _shuffles(log: EntryLog) -> tuple[int, int] | None:
    """The first and last position of the first run of ``shuffle`` entries."""
    first = log.first(("shuffle",))
    if first is None:
        return None
    last = first
    while log.kinds.get(last + 1, (None, ""))[1] == "shuffle":
        last += 1
    return first, last


def joint_shuffle(log: EntryLog) -> tuple[float | None, float | None]:
    """``(joint_shuffle_s, joint_shuffle_from_prev_s)`` of the first joint shuffle; ``None``
    where the traces lack a time.

    Both end when the last ``shuffle`` entry of the run was applied at every peer. In KaTO the
    run follows the key shares and a commit-reveal coin. A trace stamps ``applied`` when the
    driver drains the event, after the protocol also computed this peer's next duty, and the
    host relays an entry together with its own next one: so the last coin opening, the entry
    just before the first shuffle, is stamped only after seat 0's shuffle proof. Hence
    ``joint_shuffle_s`` starts when the entry *two* before the first shuffle was applied at
    every peer (the coin opening, a hash opening, follows within milliseconds), and
    ``joint_shuffle_from_prev_s`` at the coin opening's stamp at the last peer (it misses
    seat 0's proof)."""
    run = _shuffles(log)
    if run is None or run[0] < 2:
        return None, None
    end = log.everywhere(run[1])
    return _span(log.everywhere(run[0] - 2), end), _span(log.everywhere(run[0] - 1), end)


def deal_s(log: EntryLog) -> float | None:
    """From the first joint shuffle's last entry applied everywhere until the last entry
    before the first game input (the deal) is applied everywhere."""
    run = _shuffles(log)
    if run is None:
        return None
    last = run[1]
    move = log.first(_INPUTS, after=last)
    if move is None or move - 1 == last:
        return None
    return _span(log.everywhere(last), log.everywhere(move - 1))


def first_deal_s(log: EntryLog, spawned: float, host: str = HOST) -> float | None:
    """From ``spawned`` until the host applied the last entry before the first game input."""
    move = log.first(_INPUTS)
    if move is None:
        return None
    return _span(spawned, log.applied.get(move - 1, {}).get(host))


def move_latencies_ms(traces: Traces, log: EntryLog) -> tuple[list[float], int]:
    """``(latencies, lost)``: for every ``play`` whose position holds a game input by the
    same seat, milliseconds until that entry was applied at every peer; ``lost`` counts the
    plays whose position another entry took."""
    latencies: list[float] = []
    lost = 0
    for e in (e for events in traces.values() for e in events if e["ev"] == "play"):
        seat, kind = log.kinds.get(e["pos"], (None, ""))
        if seat != e["seat"] or kind not in _INPUTS:
            lost += 1
        elif (done := log.everywhere(e["pos"])) is not None:
            latencies.append((done - e["t"]) * 1000)
    return latencies, lost


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank ``q``-th percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))]


def event_times(traces: Traces, ev: str, peer: str | None = None) -> list[float]:
    """When ``peer`` (or any peer) recorded ``ev``, in file order."""
    peers = [peer] if peer is not None else list(traces)
    return [e["t"] for p in peers for e in traces.get(p, ()) if e["ev"] == ev]


def _last_everywhere(traces: Traces, ev: str) -> float | None:
    """When the last peer recorded ``ev`` (None unless every peer did)."""
    firsts = [min(event_times(traces, ev, p), default=None) for p in traces]
    return None if not firsts or None in firsts else max(t for t in firsts if t is not None)


def table_times(traces: Traces, host: str) -> dict[str, float | None]:
    """``round_wall_s`` (host start → last ``over``), ``game_s`` (host ``seats`` → last
    ``over``) and ``table_wall_s`` (host start → last ``closed``)."""
    start, seats = event_times(traces, "start", host), event_times(traces, "seats", host)
    last_over, last_closed = _last_everywhere(traces, "over"), _last_everywhere(traces, "closed")
    return {
        "round_wall_s": _span(start[0] if start else None, last_over),
        "game_s": _span(seats[0] if seats else None, last_over),
        "table_wall_s": _span(start[0] if start else None, last_closed),
    }


def peak_rss_mb(traces: Traces) -> dict[str, float]:
    """Each peer's peak RSS in MiB, from its ``closed`` event (peers without one are left out)."""
    return {
        peer: float(e["rss_mb"]) for peer, events in traces.items()
        for e in events if e["ev"] == "closed" and "rss_mb" in e
    }  # fmt: skip


def analyse(traces: Traces, host: str = HOST) -> dict[str, Any]:
    """Every game figure computed from the traces (``None`` where a figure is missing)."""
    log = EntryLog.from_traces(traces)
    shuffle, shuffle_prev = joint_shuffle(log)
    latencies, lost = move_latencies_ms(traces, log)
    rss = peak_rss_mb(traces)
    return {
        "joint_shuffle_s": rounded(shuffle, 3),
        "joint_shuffle_from_prev_s": rounded(shuffle_prev, 3),
        "deal_s": rounded(deal_s(log), 3),
        "move_latency_ms_p50": rounded(percentile(latencies, 50), 2),
        "move_latency_ms_p99": rounded(percentile(latencies, 99), 2),
        "moves": len(latencies),
        "lost_races": lost,
        **{k: rounded(v, 3) for k, v in table_times(traces, host).items()},
        "entries": len(log.kinds),
        "peak_rss_mb": max(rss.values()) if rss else None,
        "peak_rss_mb_per_peer": rss,
    }


def rounded(value: float | None, digits: int) -> float | None:
    """``value`` rounded to ``digits`` (``None`` stays ``None``)."""
    return None if value is None else round(value, digits)

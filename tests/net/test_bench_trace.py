"""``lanparty bench``: the trace analysis on small hand-written traces of a 3-peer table, and
one real 2-peer run end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lanparty.bench.traces import (
    EntryLog,
    analyse,
    deal_s,
    joint_shuffle,
    move_latencies_ms,
    parse_trace,
    peak_rss_mb,
    percentile,
    table_times,
)

PEERS = ("host", "bot-1", "bot-2")
#: The log: (seat, kind) per position. Keys and a coin precede the joint shuffle (7..9), the
#: deal (10..12) follows it, then moves.
LOG = [(None, "open"), (None, "join"), (None, "join"), (0, "key"), (1, "key"), (2, "key"),
       (2, "coin_open"), (0, "shuffle"), (1, "shuffle"), (2, "shuffle"), (0, "shares"),
       (1, "shares"), (2, "shares"), (1, "move"), (2, "move"), (0, "move")]  # fmt: skip
LAG = {"host": 0.0, "bot-1": 0.1, "bot-2": 0.2}
#: (peer, pos) → applied time, where it is not 10 + pos + LAG[peer]
LATE = {("host", 9): 19.5}


def _applied(peer: str, pos: int) -> float:
    return LATE.get((peer, pos), 10.0 + pos + LAG[peer])


def _traces(skip: tuple[str, int] | None = None) -> dict[str, list[dict[str, Any]]]:
    traces: dict[str, list[dict[str, Any]]] = {}
    for peer in PEERS:
        events: list[dict[str, Any]] = [{"ev": "start", "t": 9.0 + LAG[peer], "pid": 1}]
        for pos, (seat, kind) in enumerate(LOG):
            if (peer, pos) != skip:
                t = _applied(peer, pos)
                events.append({"ev": "applied", "t": t, "pos": pos, "seat": seat, "kind": kind})
        if peer == "host":
            events.append({"ev": "seats", "t": 12.5, "n": 3})
        events.append({"ev": "over", "t": {"host": 25.5, "bot-1": 25.6, "bot-2": 25.9}[peer]})
        rss = {"host": 50.5, "bot-1": 40.0, "bot-2": 41.0}[peer]
        closed = {"host": 26.0, "bot-1": 26.1, "bot-2": 26.3}[peer]
        events.append({"ev": "closed", "t": closed, "rss_mb": rss})
        traces[peer] = events
    # bot-1 plays at 13 and wins; bot-2 races for 13, loses, then plays 14; the host plays 15
    traces["bot-1"].append({"ev": "play", "t": 22.9, "pos": 13, "seat": 1})
    traces["bot-2"].append({"ev": "play", "t": 22.95, "pos": 13, "seat": 2})
    traces["bot-2"].append({"ev": "play", "t": 23.5, "pos": 14, "seat": 2})
    traces["host"].append({"ev": "play", "t": 24.8, "pos": 15, "seat": 0})
    return traces


def test_an_entry_is_applied_everywhere_when_the_last_peer_applied_it() -> None:
    log = EntryLog.from_traces(_traces(skip=("bot-1", 11)))
    assert log.kinds[7] == (0, "shuffle") and log.kinds[1] == (None, "join")
    assert log.everywhere(4) == pytest.approx(14.2)  # bot-2, the slowest
    assert log.everywhere(9) == pytest.approx(19.5)  # the host was last there
    assert log.everywhere(11) is None  # bot-1 never applied it
    assert log.everywhere(99) is None
    assert log.first(("shuffle",)) == 7 and log.first(("move",), after=13) == 14


def test_joint_shuffle_starts_two_entries_before_the_first_shuffle() -> None:
    log = EntryLog.from_traces(_traces())
    shuffle, from_prev = joint_shuffle(log)
    # end: pos 9 applied everywhere (19.5); start: pos 5 everywhere (15.2) / pos 6 (16.2)
    assert shuffle == pytest.approx(19.5 - 15.2)
    assert from_prev == pytest.approx(19.5 - 16.2)


def test_deal_runs_from_the_last_shuffle_to_the_entry_before_the_first_move() -> None:
    log = EntryLog.from_traces(_traces())
    assert deal_s(log) == pytest.approx(22.2 - 19.5)
    assert deal_s(EntryLog.from_traces(_traces(skip=("bot-2", 12)))) is None


def test_shuffle_and_deal_need_a_shuffle() -> None:
    traces = {p: [e for e in ev if e.get("kind") != "shuffle"] for p, ev in _traces().items()}
    log = EntryLog.from_traces(traces)
    assert joint_shuffle(log) == (None, None) and deal_s(log) is None


def test_move_latency_until_every_peer_applied_it_and_lost_races_are_skipped() -> None:
    traces = _traces()
    latencies, lost = move_latencies_ms(traces, EntryLog.from_traces(traces))
    # 13: 23.2 - 22.9; 14: 24.2 - 23.5; 15: 25.2 - 24.8; bot-2's race for 13 is lost
    assert sorted(latencies) == pytest.approx([300.0, 400.0, 700.0])
    assert lost == 1
    partial = _traces(skip=("host", 14))
    latencies, lost = move_latencies_ms(partial, EntryLog.from_traces(partial))
    assert sorted(latencies) == pytest.approx([300.0, 400.0]) and lost == 1


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 50) == 50 and percentile(values, 99) == 99
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.0
    assert percentile([5.0], 99) == 5.0 and percentile([], 50) is None


def test_table_times_and_memory() -> None:
    traces = _traces()
    times = table_times(traces, "host")
    assert times["round_wall_s"] == pytest.approx(25.9 - 9.0)
    assert times["game_s"] == pytest.approx(25.9 - 12.5)
    assert times["table_wall_s"] == pytest.approx(26.3 - 9.0)
    assert peak_rss_mb(traces) == {"host": 50.5, "bot-1": 40.0, "bot-2": 41.0}
    traces["bot-2"] = [e for e in traces["bot-2"] if e["ev"] not in ("over", "closed")]
    times = table_times(traces, "host")
    assert times["round_wall_s"] is None and times["table_wall_s"] is None
    assert "bot-2" not in peak_rss_mb(traces)


def test_analyse_gathers_every_figure() -> None:
    figures = analyse(_traces(), "host")
    assert figures["joint_shuffle_s"] == pytest.approx(4.3)
    assert figures["deal_s"] == pytest.approx(2.7)
    assert figures["move_latency_ms_p50"] == pytest.approx(400.0)
    assert figures["move_latency_ms_p99"] == pytest.approx(700.0)
    assert (figures["moves"], figures["lost_races"], figures["entries"]) == (3, 1, len(LOG))
    assert figures["round_wall_s"] == pytest.approx(16.9)
    assert figures["peak_rss_mb"] == 50.5 and len(figures["peak_rss_mb_per_peer"]) == 3


def test_parse_trace_skips_a_torn_line() -> None:
    text = '{"ev": "start", "t": 1.5, "pid": 7}\n{"ev": "applied", "t": 2.0, "po'
    assert parse_trace(text) == [{"ev": "start", "t": 1.5, "pid": 7}]
    assert parse_trace("[1, 2]\n\n") == []


def test_bench_with_two_peers_end_to_end(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "bench", "--players", "2", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    r = json.loads(proc.stdout)
    assert (r["players"], r["cards"], r["audit_ok"]) == (2, 108, True)
    assert isinstance(r["python"], str) and isinstance(r["trio"], str)
    assert isinstance(r["cpu_count"], int) and r["cpu_count"] >= 1
    for key in ("discovery_s", "discovery_startup_s", "joint_shuffle_s", "deal_s",
                "move_latency_ms_p50", "move_latency_ms_p99", "round_wall_s", "game_s",
                "table_wall_s", "peak_rss_mb"):  # fmt: skip
        assert isinstance(r[key], float) and r[key] > 0, key
    assert len(r["discovery_samples_s"]) == 3 and all(s > 0 for s in r["discovery_samples_s"])
    assert r["discovery_startup_s"] < r["discovery_s"]
    assert r["move_latency_ms_p50"] <= r["move_latency_ms_p99"]
    assert isinstance(r["moves"], int) and r["moves"] > 0
    assert r["joint_shuffle_s"] + r["deal_s"] < r["game_s"] < r["round_wall_s"]
    assert len(r["peak_rss_mb_per_peer"]) == 2 and "host" in r["peak_rss_mb_per_peer"]
    assert r["peak_rss_mb"] == max(r["peak_rss_mb_per_peer"].values())
    assert list(tmp_path.iterdir()) == []  # the temporary directories are gone


def test_cards_counts_every_deck_of_the_first_joint_shuffle() -> None:
    """A batch shuffles all its decks in one run of ``shuffle`` entries, the run
    ``joint_shuffle_s`` times: its ``cards`` are every deck's (one deck of 108 in KaTO; in
    Kill the Unicorns the 20 unicorns and an 8-card scheme deck per seat)."""
    from lanparty.bench.measure import _cards

    assert _cards("kato", 4) == 108
    assert _cards("unicorns", 4) == 20 + 4 * 8 and _cards("unicorns", 3) == 20 + 3 * 8

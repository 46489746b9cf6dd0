"""``lanparty demo``: a whole table of bot processes that find each other over mDNS on
loopback, play KaTO to the end and pass the audit; the host keeps the one transcript."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_demo_plays_a_whole_game_across_processes(tmp_path: Path) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "demo", "kato", "--players", "4", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["ok"] and result["audit_ok"] and result["exit_codes"] == [0, 0, 0, 0]
    assert len(result["names"]) == 4 and result["winners"]
    assert max(result["scores"]) >= 500  # played to the target score
    # One transcript for the table, the host's: the bots the demo started keep none.
    saved = sorted((tmp_path / "transcripts").glob("*.lptx"))
    assert [str(p) for p in saved] == [result["transcript"]]
    # stderr is not a terminal: no progress, nothing at all; stdout is the JSON alone.
    assert proc.stderr == "" and len(proc.stdout.strip().splitlines()) == 1


def test_join_without_a_table_fails_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "join", "nosuchtable", "--bot", "--local",
           "--timeout", "1"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert "no open table 'nosuchtable' found" in proc.stderr
    assert "Traceback" not in proc.stderr

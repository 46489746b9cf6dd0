"""``lanparty demo unicorns``: bot processes find each other over mDNS on loopback, play Kill
the Unicorns to the end (every hunt sealed, schemes planted, turned over and peeked at) and
pass the audit; ``lanparty audit`` of the saved transcript agrees offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("players", "options"), [(4, []), (3, ["--option", "expert=true"])], ids=["4", "3-expert"]
)
def test_a_demo_of_unicorns_plays_four_days_and_passes_the_audit(
    tmp_path: Path, players: int, options: list[str]
) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "demo", "unicorns", "--players", str(players),
           "--json", *options]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] and result["audit_ok"] and result["findings"] == []
    assert result["exit_codes"] == [0] * players and result["winners"]
    assert 1 <= result["rounds"] <= 4  # four days, unless a double rainbow ended it at once
    log = Path(result["transcript"]).read_bytes()
    assert log.count(b"seal_commit") == log.count(b"seal_open") >= players  # sealed hunts
    audit = subprocess.run([sys.executable, "-m", "lanparty", "audit", result["transcript"]],
                           capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "audit passed" in audit.stdout and "rules broken none" in audit.stdout
    assert f"unicorns (characters=choose, expert={'true' if options else 'false'}," in audit.stdout

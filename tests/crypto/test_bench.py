"""The benchmark command keeps working and reports every figure the issue asks for."""

from __future__ import annotations

import json
import subprocess
import sys

REQUIRED = {
    "cards",
    "players",
    "scalarmult_us",
    "shuffle_prove_s",
    "shuffle_verify_s",
    "joint_shuffle_s",
    "deal_card_ms",
    "dleq_prove_ms",
    "dleq_verify_ms",
    "python",
    "libsodium",
}


def test_bench_prints_one_json_object_with_every_figure() -> None:
    cmd = [sys.executable, "-m", "crypto.bench", "--cards", "6", "--players", "2", "--repeat", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120)
    result = json.loads(proc.stdout)
    assert set(result) >= REQUIRED
    assert result["cards"] == 6 and result["players"] == 2
    assert all(result[k] > 0 for k in REQUIRED - {"python", "libsodium", "cards", "players"})


def test_bench_refuses_bad_arguments() -> None:
    cmd = [sys.executable, "-m", "crypto.bench", "--players", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--players must be 2..10" in proc.stderr
    assert "Traceback" not in proc.stderr

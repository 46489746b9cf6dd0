"""``lanparty demo``: a whole table of bot processes that find each other over mDNS on
loopback, play KaTO to the end and pass the audit; the host keeps the one transcript. On a
terminal a status line tells how far the game got, and is gone at the end; ``--json`` output
stays one clean line."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lanparty.commands import demo as democmd
from lanparty.games import GAMES
from protocol import SignedEntry, audit_transcript, read_transcript
from protocol._bodies import MoveBody

from ..ui.tmux import REPO, Pane


def _demo_on_a_terminal(home: Path, out: Path) -> tuple[int, str]:
    """Run a 4-bot demo to a target of 200 points with --json into ``out``, its stderr a
    terminal (tmux); its exit code and what the terminal showed while it ran (the status
    lines seen)."""
    command = (f"cd {REPO} && LANPARTY_HOME={home} {sys.executable} -m lanparty demo kato "
               f"--players 4 --option target=200 --json > {out}")  # fmt: skip
    pane = Pane(home, command, "tmux-256color")
    seen: set[str] = set()
    end = time.monotonic() + 240
    try:
        while not (pane.rc_file.exists() and pane.rc_file.read_text().strip()):
            seen.update(line.strip() for line in pane.screen().splitlines() if "demo kato:" in line)
            assert time.monotonic() < end, f"the demo did not end; screen:\n{pane.screen()}"
            time.sleep(0.2)  # between looks at the screen: the peers need the CPU
        assert "demo kato:" not in pane.screen()  # the status line is wiped at the end
        return pane.exit_code(), "\n".join(sorted(seen))
    finally:
        pane.kill()


def test_demo_plays_a_whole_game_across_processes(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    if shutil.which("tmux"):
        code, status = _demo_on_a_terminal(tmp_path, out)
        assert "seated" in status or "shuffling" in status or "playing: " in status, status
    else:  # stderr a pipe: no status line at all
        env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
        cmd = [sys.executable, "-m", "lanparty", "demo", "kato", "--players", "4", "--option",
               "target=200", "--json"]  # fmt: skip
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
        assert proc.stderr == ""
        code = proc.returncode
        out.write_text(proc.stdout)
    assert code == 0, out.read_text()
    assert len(out.read_text().splitlines()) == 1  # stdout: the JSON alone
    result = json.loads(out.read_text())
    assert result["ok"] and result["audit_ok"] and result["exit_codes"] == [0, 0, 0, 0]
    assert len(result["names"]) == 4 and result["winners"]
    assert max(result["scores"]) >= 200  # played to the target score
    # One transcript for the table, the host's: the bots the demo started keep none.
    saved = sorted((tmp_path / "transcripts").glob("*.lptx"))
    assert [str(p) for p in saved] == [result["transcript"]]


def test_a_demo_of_unanimo_plays_every_card_with_sealed_words(tmp_path: Path) -> None:
    """Four bot processes write their words sealed, open them together, score every card,
    and the audit passes: the general table runs a game of simultaneous sealed input."""
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "demo", "unanimo", "--players", "4", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] and result["audit_ok"] and result["exit_codes"] == [0, 0, 0, 0]
    assert result["rounds"] == 3 and min(result["scores"]) > 0  # three cards, words agreed
    log = (Path(result["transcript"])).read_bytes()
    assert log.count(b"seal_commit") == log.count(b"seal_open") == 4 * 3


def test_a_demo_of_unikato_lays_revealed_tiles_and_passes_the_audit(tmp_path: Path) -> None:
    """Four bot processes play Unikato over mDNS: the bag shuffled and dealt by all, every
    tile laid or put on the display revealed with proof, the round won, the audit passed
    live and again offline; no tile is laid twice."""
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "demo", "unikato", "--players", "4", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=240)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    result = json.loads(proc.stdout)
    assert result["ok"] and result["audit_ok"] and result["exit_codes"] == [0, 0, 0, 0]
    assert result["findings"] == [] and result["rounds"] == 1 and result["winners"]
    # One round: the winner laid their last tile (0), or a blocked round ended it.
    assert max(result["scores"]) <= 0 and sum(result["rounds_won"]) >= 1
    data = Path(result["transcript"]).read_bytes()
    moves = [body.move for raw, sig, _ in read_transcript(data)
             if isinstance(body := SignedEntry.parse(raw, sig).entry.body, MoveBody)]  # fmt: skip
    kinds = {str(m[0]) for m in moves}
    assert {"place", "done"} <= kinds and kinds <= {"place", "done", "exchange", "draw", "pass"}
    laid = [m[2] for m in moves if m[0] == "place"]
    assert len(laid) == len(set(laid)) >= 10  # each of the 81 tiles exists once
    report = audit_transcript(data, GAMES)
    assert report.ok and report.complete and report.findings == ()


def test_the_demo_says_whose_transcript_it_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    result: dict[str, Any] = {
        "names": ["host-bot", "bot-1"], "scores": [512, 40], "winners": ["host-bot"],
        "audit_ok": True, "findings": [], "stopped": "", "transcript": "/t/x.lptx",
        "moves": 300, "rounds": 4, "times_s": {}, "ok": True, "wall_s": 9.5,
        "exit_codes": [0, 0], "players": 2,
    }  # fmt: skip
    monkeypatch.setattr(democmd, "_demo", lambda args, progress: result)
    args = argparse.Namespace(game="kato", players=2, seed=1, json=False)
    assert democmd.run_demo(args) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == (
        "transcript: /t/x.lptx (the host's copy; the other bots keep none)"
    )
    assert out.count("transcript:") == 1


def test_join_without_a_table_fails_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "join", "nosuchtable", "--bot", "--local",
           "--timeout", "1"]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert "no open table 'nosuchtable' found" in proc.stderr
    assert "Traceback" not in proc.stderr

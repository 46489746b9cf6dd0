"""``lanparty replay FILE``: a transcript verified first, then every public state of the game
in order, as the engine gives it to a spectator."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from lanparty.commands.main import main
from lanparty.commands.replay import _plain, replay_recorded
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.replay.audit import audit_file
from lanparty.replay.course import build_course
from protocol import unpack
from protocol._bodies import MoveBody, SealedOpen, ShuffleBody
from protocol.contract import Game
from protocol.harness import Harness


@functools.cache
def _played(name: str) -> Harness:
    """A whole 3-seat game of ``name`` between random bots (played once for every test of
    this file); KaTO's runs out of cards once, so a replay goes through a reshuffle."""
    random_bot = bots_for(name)["random"]
    h = Harness(GAMES, name, 3, dict(PLUGINS[name].short), [random_bot() for _ in range(3)],
                seed=3)  # fmt: skip
    h.run()
    if name == "kato":
        shuffles = sum(isinstance(e.entry.body, ShuffleBody) for e in h.host.table.log.entries)
        assert shuffles > 3, "the seed's game needs a reshuffle (3 seats shuffle each deck)"
    return h


def _game(name: str, tmp_path: Path) -> tuple[Harness, Path]:
    h = _played(name)
    path = tmp_path / f"{name}.lptx"
    path.write_bytes(h.host.transcript())
    return h, path


def test_a_damaged_transcript_is_not_replayed_as_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _game("kato", tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 20] ^= 0x01  # early: the audit stops there (in the middle: 1.6 s, twice)
    path.write_bytes(bytes(data))
    assert main(["replay", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["verified"] and out["verdict"] == "failed"
    assert main(["replay", str(path)]) == 1
    assert "NOT verified" in capsys.readouterr().out


class _Inputs:
    """A game that delegates to ``game`` and keeps every input the audit feeds it."""

    def __init__(self, game: Game[Any]) -> None:
        self._game = game
        self.seats = 0
        self.options: dict[str, Any] = {}
        self.inputs: list[tuple[int | None, Any]] = []

    def setup(self, seats: int, options: Mapping[str, Any]) -> Any:
        self.seats, self.options = seats, dict(options)
        return self._game.setup(seats, options)

    def apply(self, state: Any, seat: int, move: Any) -> None:
        self.inputs.append((seat, move))
        self._game.apply(state, seat, move)

    def resolve(self, state: Any, result: Any) -> None:
        self.inputs.append((None, result))
        self._game.resolve(state, result)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_the_json_is_the_engine_replaying_the_log(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every state ``--json`` prints is the engine's view for no seat after that input, the
    log's moves and the table's results replayed through the engine directly: every public
    state the engine reaches, the moves by seat in log order, the last one what a spectator
    of the finished table sees."""
    h, path = _game(name, tmp_path)
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] and out["game"] == name and out["verdict"] == "passed"
    states = out["states"]
    assert [s["step"] for s in states] == list(range(len(states)))
    assert states[-1]["view"] == _plain(GAMES[name].view(h.host.table.state, None))
    game = GAMES[name]
    fed = _Inputs(game)
    audit_file(str(path), {name: fed})
    t = h.host.table
    logged = []
    for se in t.log.entries:
        body = se.entry.body
        if isinstance(body, MoveBody):
            logged.append(game.moves.read(body.move))  # type: ignore[arg-type]
        elif isinstance(body, SealedOpen):
            logged.append(game.moves.read(unpack(body.opening.value, 1 << 20)))  # type: ignore[arg-type]
    assert [m for s, m in fed.inputs if s is not None] == logged
    state = game.setup(fed.seats, fed.options)
    assert len(states) == len(fed.inputs) > 5
    for i, (seat, item) in enumerate(fed.inputs):
        if seat is None:
            game.resolve(state, item)
            assert states[i]["input"] == type(item).__name__
        else:
            game.apply(state, seat, item)
            assert states[i]["input"] == _plain(item)
        assert states[i]["by"] == seat
        assert states[i]["view"] == _plain(game.view(state, None)), f"step {i}"


GOLDEN = Path(__file__).resolve().parents[1] / "data" / "kato_2p.lptx"


def _piped(*args: str) -> subprocess.CompletedProcess[str]:
    """``lanparty replay ARGS | cat``: the real program, its output a pipe."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run([sys.executable, "-m", "lanparty", *args], capture_output=True,
                          text=True, timeout=120, env={**env, "LANG": "C.UTF-8"})  # fmt: skip


def test_a_replay_into_a_pipe_tells_the_game_as_the_viewer_does() -> None:
    """``lanparty replay FILE | cat``: the verdict, then the game's narration move by move
    (what the viewer says of each move), then the final scores; no raw move."""
    proc = _piped("replay", str(GOLDEN))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "kato · p0, p1 · verified: every signature, proof, share and move checked"
    assert lines[1:6] == [
        "      The coin picks p1 to start",
        "      Round 1: the cards are shuffled and dealt",
        "      Turned over: Yellow Reverse",
        "      Play goes the other way, so the dealer starts",
        "      p0 to play",
    ]
    assert lines[6:8] == ["   1  p0 plays Yellow Skip", "      p1 misses a turn"]
    assert not any(re.search(r"play \[\d+\]|\['[a-z]", line) for line in lines), proc.stdout
    # Every line the viewer says, in its order, then the viewer's final scores.
    _verdict, recorder = replay_recorded(str(GOLDEN))
    assert recorder is not None
    course = build_course("kato", ["p0", "p1"], recorder.seats, recorder.options,
                          recorder.inputs)  # fmt: skip
    said = [line for frame in course.frames for line in frame.said]
    assert [line.strip().split("  ", 1)[-1] for line in lines[1 : 1 + len(said)]] == said
    assert lines[1 + len(said) :] == ["Final scores", "★ p0   3", "  p1   0",
                                      "p0 wins the game!"]  # fmt: skip


def test_a_piped_replay_is_told_in_the_readers_language_and_plain_asks_for_it() -> None:
    proc = _piped("--lang", "pl", "replay", "--plain", str(GOLDEN))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert "   1  p0 zagrywa: Żółta Pomiń" in proc.stdout.splitlines(), proc.stdout
    assert "Koniec gry: wygrywa p0!" in proc.stdout and "Wyniki końcowe" in proc.stdout


def test_a_replay_cut_short_by_its_reader_ends_quietly() -> None:
    """``lanparty replay FILE | head -0``: no traceback when the reader has left."""
    proc = subprocess.Popen([sys.executable, "-m", "lanparty", "replay", str(GOLDEN)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader leaves before the first line (the audit comes first)
    with proc.stderr:
        err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err

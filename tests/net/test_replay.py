"""``lanparty replay FILE``: a transcript verified first, then every public state of the game
in order, as the engine gives it to a spectator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lanparty.cli import main
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.replaycmd import _plain
from protocol._bodies import MoveBody, SealedOpen
from protocol.harness import Harness


def _game(name: str, tmp_path: Path) -> tuple[Harness, Path]:
    factories = list(bots_for(name).values())
    h = Harness(GAMES, name, 3, dict(PLUGINS[name].short), [f() for f in factories[:1] * 3],
                seed=2)  # fmt: skip
    h.run()
    path = tmp_path / f"{name}.lptx"
    path.write_bytes(h.host.transcript())
    return h, path


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_the_json_is_every_public_state_the_engine_reaches(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h, path = _game(name, tmp_path)
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verified"] and out["game"] == name and out["verdict"] == "passed"
    states = out["states"]
    t = h.host.table
    # The moves (sealed ones as they are opened), in log order and by seat, are the log's.
    movers = [t.member(se.entry.author).seat for se in t.log.entries
              if isinstance(se.entry.body, MoveBody | SealedOpen)]  # fmt: skip
    assert [s["by"] for s in states if s["by"] is not None] == movers
    # The last state is what a spectator of the finished table sees.
    assert states[-1]["view"] == _plain(GAMES[name].view(t.state, None))
    assert [s["step"] for s in states] == list(range(len(states)))


def test_a_damaged_transcript_is_not_replayed_as_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, path = _game("kato", tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    assert main(["replay", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert not out["verified"] and out["verdict"] == "failed"
    assert main(["replay", str(path)]) == 1
    assert "NOT verified" in capsys.readouterr().out

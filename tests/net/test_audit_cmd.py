"""``lanparty audit FILE``: a transcript saved by a real game across processes passes (exit
0); a damaged or truncated file fails in one line naming where (exit 1); an empty, missing or
oversized file cannot be audited (one line, exit 2); a transcript that stops early is
incomplete, everything in it verified (exit 3); a rule broken that nobody challenged is
listed. On a terminal a status line shows the progress; elsewhere stderr stays empty."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from lanparty.commands.main import main
from lanparty.games import GAMES
from lanparty.replay.audit import MAX_TRANSCRIPT, too_large
from protocol import Phase, pack, read_transcript, unpack
from protocol._bodies import MoveBody
from protocol._messages import ENTRY_VERSION, relay_signature
from protocol.contract import Turn
from protocol.harness import Harness

from ..protocol.conftest import Bluffer, Honest, play_until
from ..ui.tmux import REPO, Pane


def _lanparty(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANPARTY_HOME": str(home)}
    cmd = [sys.executable, "-m", "lanparty", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The JSON summary of a real 2-process KaTO round hosted by ``ana`` with one bot."""
    home = tmp_path_factory.mktemp("home")
    proc = _lanparty("host", "kato", "--bot", "--local", "--seats", "2", "--bots", "1",
                     "--option", "rounds=1", "--nick", "ana", "--json", "--quiet",
                     home=home)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["audit_ok"] and summary["names"][0] == "ana" and len(summary["names"]) == 2
    return summary


@pytest.fixture
def saved(game: dict[str, Any]) -> Path:
    """The host's saved transcript of that round."""
    return Path(game["transcript"])


def _refused(capsys: pytest.CaptureFixture[str], path: Path | str, code: int = 2) -> str:
    """The one line ``lanparty audit PATH`` says on stderr, ending with ``code`` (2: cannot
    be audited, 1: the audit failed)."""
    assert main(["audit", str(path)]) == code
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    prefix = "lanparty audit: FAILED: " if code == 1 else "lanparty audit: error: "
    assert len(lines) == 1 and lines[0].startswith(prefix), err
    return lines[0]


def test_a_real_transcript_passes(game: dict[str, Any], saved: Path, tmp_path: Path) -> None:
    proc = _lanparty("audit", str(saved), home=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == ""
    out = proc.stdout
    assert all(f" {name} [" in out for name in game["names"])
    assert "kato" in out and "complete     yes" in out
    assert "rules broken none" in out or "that nobody challenged:" in out  # a bot may bluff
    assert out.strip().splitlines()[-1] == "audit passed"


def test_json_verdict(
    game: dict[str, Any], saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(saved), "--json"]) == 0
    v = json.loads(capsys.readouterr().out)
    assert v["verdict"] == "passed" and v["audit_ok"] is True and v["complete"] is True
    assert v["game"] == "kato" and v["names"] == game["names"] and v["seats"] == 2
    assert v["entries"] == len(read_transcript(saved.read_bytes()))
    assert v["game_over"] and v["winners"] == game["winners"] and v["scores"] == game["scores"]
    assert all(f["rule"] == "illegal-wild-draw-four" for f in v["findings"])  # bluffs only
    assert v["kinds"]["signoff"] == 2


def test_a_flipped_byte_is_refused(saved: Path, tmp_path: Path) -> None:
    data = bytearray(saved.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "flipped.lptx"
    bad.write_bytes(bytes(data))
    proc = _lanparty("audit", str(bad), home=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert f"{bad} is not a valid lanparty transcript" in proc.stderr
    assert "log position" in proc.stderr  # says where the damage is
    proc = _lanparty("audit", str(bad), "--json", home=tmp_path)
    assert proc.returncode == 1 and proc.stderr == ""
    v = json.loads(proc.stdout)
    assert v["verdict"] == "failed" and v["audit_ok"] is False
    assert v["error"].startswith(f"{bad} is not a valid lanparty transcript")
    assert isinstance(v["error_pos"], int) and f"log position {v['error_pos']}" in v["error"]


def test_the_verdict_in_polish_and_spanish_and_the_json_in_english(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(saved), "--json"]) == 0
    english = capsys.readouterr().out
    assert main(["--lang", "pl", "audit", str(saved), "--json"]) == 0
    assert capsys.readouterr().out == english  # for scripts: English in any language
    assert main(["--lang", "pl", "audit", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "kompletny      tak: stół zamknięty: wszystkie 2 miejsca podpisały audyt" in out
    assert out.strip().splitlines()[-1] == "audyt zaliczony"
    assert main(["--lang", "es", "replay", str(saved)]) == 0
    out, err = capsys.readouterr()
    assert "verificada: comprobadas todas las firmas, pruebas, partes y jugadas" in out
    assert "estados públicos; --json imprime cada uno" in err
    data = bytearray(saved.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "flipped.lptx"
    bad.write_bytes(bytes(data))
    assert main(["--lang", "es", "audit", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"lanparty audit: FALLIDA: {bad} no es una transcripción de lanparty "
                          "válida: ")  # fmt: skip
    assert "posición" in err and "log position" not in err
    assert main(["--lang", "es", "replay", str(bad)]) == 1
    assert "NO verificada (fallida): " in capsys.readouterr().out


def test_every_flipped_byte_is_refused_in_one_line(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = saved.read_bytes()
    bad = tmp_path / "flipped.lptx"
    for i in range(7, len(data), len(data) // 25):
        flipped = bytearray(data)
        flipped[i] ^= 0x40
        bad.write_bytes(bytes(flipped))
        if flipped[i - 2 : i] == b"\xa1v" or data[i - 2 : i] == b"\xa1v":
            # The flip hit an entry's version: the file reads as another version's (exit 2).
            assert "entry version" in _refused(capsys, bad, 2)
            continue
        assert "not a valid lanparty transcript" in _refused(capsys, bad, 1)


def test_truncated_empty_garbage_and_missing_files(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "cut.lptx"
    cut.write_bytes(saved.read_bytes()[: len(saved.read_bytes()) * 2 // 3])
    assert "is not a valid lanparty transcript" in _refused(capsys, cut, 1)
    empty = tmp_path / "empty.lptx"
    empty.write_bytes(b"")
    assert "is empty" in _refused(capsys, empty)
    garbage = tmp_path / "garbage.lptx"
    garbage.write_bytes(b"this is not a transcript\n" * 40)
    assert "is not a valid lanparty transcript" in _refused(capsys, garbage, 1)
    other = tmp_path / "other.lptx"
    other.write_bytes(pack({"v": ENTRY_VERSION, "type": "something-else", "entries": []}))
    assert "not a lanparty transcript" in _refused(capsys, other, 1)
    newer = tmp_path / "newer.lptx"  # not a forgery: a file this program cannot read
    newer.write_bytes(pack({"v": ENTRY_VERSION + 1, "type": "lanparty-transcript",
                            "entries": []}))  # fmt: skip
    assert (f"entry version {ENTRY_VERSION + 1}, this program reads version {ENTRY_VERSION}"
            in _refused(capsys, newer))  # fmt: skip
    older = tmp_path / "older.lptx"  # a game of the edwards25519 protocol
    older.write_bytes(pack({"v": 1, "type": "lanparty-transcript", "entries": []}))
    assert f"entry version 1, this program reads version {ENTRY_VERSION}" in _refused(
        capsys, older
    )
    assert "cannot read" in _refused(capsys, tmp_path / "missing.lptx")
    assert "cannot read" in _refused(capsys, tmp_path)  # a directory


def test_a_transcript_that_stops_early_is_incomplete(
    game: dict[str, Any], saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = unpack(saved.read_bytes(), 1 << 28)
    assert isinstance(value, dict)
    entries = value["entries"]
    last = game["names"][1]  # seat 1 signs off last
    before_signoff = tmp_path / "no-signoff.lptx"
    before_signoff.write_bytes(pack({**value, "entries": entries[:-1]}))
    assert main(["audit", str(before_signoff)]) == 3
    out = capsys.readouterr().out
    assert "stopped early" in out and "1 of 2 seats signed off" in out and "winner:" in out
    n = len(entries) - 1
    assert out.strip().splitlines()[-1] == (
        f"incomplete: stopped at entry {n}, waiting for {last} (seat 1)'s sign-off; "
        "everything up to there verified"
    )
    assert "audit FAILED" not in out
    mid_game = tmp_path / "mid-game.lptx"
    mid_game.write_bytes(pack({**value, "entries": entries[:20]}))
    assert main(["audit", str(mid_game), "--json"]) == 3
    v = json.loads(capsys.readouterr().out)
    assert v["complete"] is False and v["game_over"] is False and v["verdict"] == "incomplete"
    assert v["entries"] == 20 and v["findings"] == [] and v["names"] == game["names"]
    assert v["stopped"].startswith("stopped at entry 20, waiting for ")
    assert v["waiting_for"]["seat"] in (0, 1) and v["error"] is None
    assert main(["audit", str(mid_game)]) == 3
    out = capsys.readouterr().out
    assert "the rules that depend on hidden cards could not be checked" in out


def test_an_unchallenged_bluff_is_listed_and_the_audit_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    h = play_until(
        GAMES,
        lambda: [Bluffer(), Honest(challenge=False)],
        lambda h: h.bots[0].bluffs > 0 and h.host.phase is Phase.CLOSED,
        seeds=range(12),
    )
    path = tmp_path / "bluff.lptx"
    path.write_bytes(h.peers[0].transcript())
    findings = [f for f in h.host.table.report.findings if f.rule == "illegal-wild-draw-four"]
    assert findings
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    host_name = h.host.table.members[0].name
    for f in findings:
        assert f"illegal-wild-draw-four: seat 0 ({host_name}), log position {f.pos}" in out
    assert "complete     yes" in out and "that nobody challenged:" in out
    assert out.strip().endswith("audit passed")
    assert main(["audit", str(path), "--json"]) == 0
    v = json.loads(capsys.readouterr().out)
    assert v["complete"] is True and v["audit_ok"] is True
    assert {(f["rule"], f["seat"], f["name"], f["pos"]) for f in v["findings"]} >= {
        ("illegal-wild-draw-four", 0, host_name, f.pos) for f in findings
    }


def _peak_rss(*args: str, home: Path) -> tuple[int, str, int]:
    """Exit code, stderr and peak resident memory (bytes) of ``lanparty ARGS`` in a child.

    The peak is the child's own (``VmHWM``): ``ru_maxrss`` would count this process's memory
    too, which the child held until its ``exec``.
    """
    code = (
        "import re, sys\n"
        "from lanparty.commands.main import main\n"
        "code = main(sys.argv[1:])\n"
        "with open('/proc/self/status') as f:\n"
        "    print(re.search(r'VmHWM:\\s*(\\d+) kB', f.read())[1])\n"
        "sys.exit(code)\n"
    )
    env = {**os.environ, "LANPARTY_HOME": str(home)}
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, timeout=120)  # fmt: skip
    return proc.returncode, proc.stderr, int(proc.stdout.strip().splitlines()[-1]) * 1024


def test_memory_stays_small_for_a_file_over_the_limit_or_just_under_it(tmp_path: Path) -> None:
    _, _, baseline = _peak_rss("audit", str(tmp_path / "missing.lptx"), home=tmp_path)
    # one byte over the limit (a sparse file): refused by its size, before it is read
    over = tmp_path / "over.lptx"
    with over.open("wb") as f:
        f.truncate(MAX_TRANSCRIPT + 1)
    code, err, rss = _peak_rss("audit", str(over), home=tmp_path)
    assert code == 2
    assert err == f"lanparty audit: error: {too_large(str(over), MAX_TRANSCRIPT + 1)}\n"
    assert "67108865 bytes, the limit is 64 MiB (67108864 bytes)" in err
    assert rss < baseline + (8 << 20)
    # just under it: a well-formed file of 58 000 one-KiB entries is read in full (its form is
    # checked before the replay), a chunk at a time; its first entry is junk
    item = pack([b"x" * 1000, bytes(64), bytes(64)])
    head = b"\x83" + pack("entries") + b"\xdc\xe2\x90"  # an array of 58 000
    tail = pack("type") + pack("lanparty-transcript") + pack("v") + pack(ENTRY_VERSION)
    under = tmp_path / "under.lptx"
    under.write_bytes(head + item * 58_000 + tail)
    assert MAX_TRANSCRIPT - (8 << 20) < under.stat().st_size < MAX_TRANSCRIPT
    code, err, rss = _peak_rss("audit", str(under), home=tmp_path)
    assert code == 1 and "is not a valid lanparty transcript" in err and "[log position 0]" in err
    assert rss < baseline + (16 << 20)  # the whole file decoded would take hundreds of MiB


def test_a_file_is_streamed_as_it_would_be_read_whole(saved: Path) -> None:
    data = saved.read_bytes()
    expected = [tuple(item) for item in unpack(data, len(data))["entries"]]  # type: ignore[index]
    with saved.open("rb") as f:
        assert read_transcript(f) == expected


def test_trailing_bytes_are_refused_before_the_replay(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    longer = tmp_path / "longer.lptx"
    longer.write_bytes(saved.read_bytes() + b"\x00")
    line = _refused(capsys, longer, 1)
    assert line.endswith("is not a valid lanparty transcript: trailing bytes after the transcript")


def test_a_transcript_piped_in_is_read_whole(saved: Path, tmp_path: Path) -> None:
    value = unpack(saved.read_bytes(), 1 << 28)
    assert isinstance(value, dict)
    cut = pack({**value, "entries": value["entries"][:20]})
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "lanparty", "audit", "/dev/stdin", "--json"],
                          input=cut, capture_output=True, env=env, timeout=120)  # fmt: skip
    assert proc.returncode == 3, proc.stderr
    v = json.loads(proc.stdout)
    assert v["entries"] == 20 and v["complete"] is False


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_a_terminal_is_shown_the_progress_and_then_a_clean_verdict(
    saved: Path, tmp_path: Path
) -> None:
    raw = tmp_path / "raw"
    # The program waits for Enter, so everything it writes to the terminal is captured.
    command = f"cd {REPO} && read go && {sys.executable} -m lanparty audit {saved}"
    pane = Pane(tmp_path, command, "tmux-256color")
    try:
        pane.tmux("pipe-pane", "-t", "lp", f"cat > {raw}")
        pane.keys("Enter")
        assert pane.exit_code() == 0
        pane.wait(lambda: b"audit passed" in raw.read_bytes(), "the whole output")
        stream = raw.read_bytes().decode(errors="replace")
        assert f"\rauditing {saved.name}: " in stream  # a status line, rewritten in place
        screen = pane.joined()  # (a long path wraps: lines joined again)
        assert "audit passed" in screen and "auditing" not in screen  # and wiped at the end
        assert f"\ntranscript   {saved}" in "\n" + screen.split("read go")[-1].lstrip("\n")
    finally:
        pane.kill()


def test_a_withheld_coin_opening_is_recorded_as_the_seat_or_the_host(
    game: dict[str, Any], saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The log ends where seat 1 owed its coin opening: whoever withheld it (that seat, or the
    host who relays it and saw the other openings first) could have steered the coin, and
    the log cannot tell which; the verdict says both."""
    value = unpack(saved.read_bytes(), 1 << 28)
    assert isinstance(value, dict)
    entries = value["entries"]
    kinds = [unpack(raw, 1 << 24)["kind"] for raw, _sig, _seq in entries]  # type: ignore[index]
    cut = [i for i, k in enumerate(kinds) if k == "coin_open"][1]  # seat 1's
    path = tmp_path / "withheld.lptx"
    path.write_bytes(pack({**value, "entries": entries[:cut]}))
    assert main(["audit", str(path), "--json"]) == 3
    v = json.loads(capsys.readouterr().out)
    assert v["waiting_for"] == {"seat": 1, "name": game["names"][1], "owed": "coin_open",
                                "withheld": True}  # fmt: skip
    assert main(["audit", str(path)]) == 3
    out = capsys.readouterr().out
    assert f"either {game['names'][1]} (seat 1) or the host withheld it" in out
    assert "the log cannot tell which" in out and "coin opening" in out.splitlines()[-1]


def test_a_crafted_move_in_a_transcript_fails_the_audit_in_one_line(tmp_path: Path) -> None:
    """A transcript where seat 1 signed, at its own turn, a KaTO play naming a card by a list
    instead of a handle (it once raised a TypeError inside the rules and ended ``lanparty
    audit`` with a traceback): the audit fails (exit 1) in one line that names seat 1."""
    h = Harness(GAMES, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=8)
    h.pump()
    while h.host.status() != Turn(1):  # seat 1's turn: the move is due from it
        assert h.step()
        h.pump()
    peer = h.peers[0]
    crafted = peer.table.entry(MoveBody(("play", ([1],), ("r5",), "")))
    log = h.host.table.log
    entries = [[s.raw, s.sig, q] for s, q in zip(log.entries, log.seqs, strict=True)]
    entries.append([crafted.raw, crafted.sig, relay_signature(h.host.identity, crafted.raw)])
    path = tmp_path / "crafted.lptx"
    path.write_bytes(pack({"v": ENTRY_VERSION, "type": "lanparty-transcript",
                           "entries": entries}))  # fmt: skip
    proc = _lanparty("audit", str(path), home=tmp_path)
    assert proc.returncode == 1 and proc.stdout == "", proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "malformed move" in proc.stderr and f"log position {len(log)}" in proc.stderr
    assert str(peer.table.me.identity.public.fingerprint) in proc.stderr  # type: ignore[union-attr]


def test_the_game_counts_on_the_nights_board(
    game: dict[str, Any], saved: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table's end counts its game on the night's board (its summary says the board in
    a line); ``lanparty night`` shows that board from what the table recorded, and the same
    board audited again from the file alone."""
    names, winners = game["names"], game["winners"]
    if len(winners) == 1:
        loser = next(n for n in names if n not in winners)
        assert game["night"] == f"The night so far (1 game): {winners[0]} 1 · {loser} 0"
    else:  # a drawn round: the placing point is shared
        assert sorted(winners) == sorted(names)
        line = game["night"].removeprefix("The night so far (1 game): ")
        assert sorted(line.split(" · ")) == sorted(f"{n} ½" for n in names), game["night"]
    monkeypatch.setenv("LANPARTY_HOME", str(saved.parents[1]))
    assert main(["night", "--json"]) == 0
    kept = json.loads(capsys.readouterr().out)
    assert main(["night", "--json", "--check", "--files", str(saved)]) == 0
    audited = json.loads(capsys.readouterr().out)
    assert kept["standings"] == audited["standings"]
    assert {r["name"] for r in kept["standings"]} == set(names)
    assert sum(float(Fraction(r["total"])) for r in kept["standings"]) == 1

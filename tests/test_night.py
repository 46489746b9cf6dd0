"""The night's scoreboard: placing points, a night's games added up from their transcripts
(what counts and what does not), the cache of audits, and ``lanparty night``."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from lanparty.commands import main as cli
from lanparty.night import GameResult, night_line, nights, placing_points, points_text
from lanparty.replay.night import game_results
from lanparty.ui.nightboard import night_text
from protocol.contract import Outcome

DATA = Path(__file__).parent / "data"
HALF = Fraction(1, 2)


def _outcome(totals: tuple[int, ...], winners: tuple[int, ...]) -> Outcome:
    return Outcome(totals, (totals,), winners, True)


@pytest.mark.parametrize(
    ("totals", "winners", "points"),
    [
        ((10, 5, 5, 0), (0,), (3, 1.5, 1.5, 0)),  # a tie below the winner is shared
        ((7, 7, 3), (0, 1), (1.5, 1.5, 0)),  # two winners, level with each other
        ((9, 8, 5), (2,), (1, 0, 2)),  # a winner by the game's own rule, not the most points
        ((0, 0), (), (0.5, 0.5)),  # nobody above anybody
    ],
)
def test_placing_points(
    totals: tuple[int, ...], winners: tuple[int, ...], points: tuple[float, ...]
) -> None:
    got = placing_points(_outcome(totals, winners))
    assert got == tuple(Fraction(p) for p in points)
    n = len(totals)
    assert sum(got) == Fraction(n * (n - 1), 2)  # every pair of players shares one point


def _game(
    number: int,
    keys: str,
    points: tuple[float, ...] | None,
    *,
    table: str = "",
    after: str = "",
    closing: str = "",
    digest: str = "",
    status: str = "passed",
    when: str = "",
) -> GameResult:
    """A game of the night ``n1``: its players are named by their keys' letters."""
    pad = lambda s, n: s.encode().ljust(n, b".")  # noqa: E731
    return GameResult(
        path=f"/saved/{table or number}.lptx",
        table=pad(table or f"t{number}", 16),
        game="kato",
        first=pad("t1", 16),
        number=number,
        after=pad(after or f"t{number - 1}", 16) if number > 1 else b"",
        digest=pad(digest or f"closing{number - 1}", 32) if number > 1 else b"",
        closing=pad(closing or f"closing{number}", 32),
        names=tuple(k.upper() for k in keys),
        keys=tuple(pad(k, 32) for k in keys),
        status=status,
        points=None if points is None else tuple(Fraction(p) for p in points),
        when=when or f"2026-12-06 20:0{number}",
    )


def test_a_night_adds_up_placings_and_leaves_out_what_does_not_count() -> None:
    games = [
        _game(1, "abcd", (3, 2, 1, 0)),
        _game(2, "abc", (0.5, 0.5, 2)),  # d left after game 1
        _game(3, "abc", None, status="incomplete"),  # stopped: nothing for anybody
        _game(4, "abc", (2, 1, 0), digest="not-what-game-3-closed-on"),  # a broken link
        _game(6, "abc", (0, 1, 2)),  # game 5 is not here
    ]
    [night] = nights(list(reversed(games)))
    assert [g.number for g in night.games] == [1, 2, 3, 4, 6]
    assert night.unlinked() == [games[3]]
    assert night.missing() == [5]
    rows = night.standings()
    assert [(r.name, r.total, r.place) for r in rows] == [
        ("C", Fraction(5), 1),
        ("A", Fraction(7, 2), 2),
        ("B", Fraction(7, 2), 2),
        ("D", Fraction(0), 4),
    ]
    assert rows[3].games == (Fraction(0), None, None, None, None)  # D: only game 1
    text = night_text(night)
    assert "★ C" in text and "3½" in text
    assert "Game 3 (KaTO) counts for nothing: it stopped before the end." in text
    assert "Game 4 (KaTO) counts for nothing: it does not follow game 3" in text
    assert "No transcript here of game 5 of this night." in text
    assert max(len(line) for line in text.splitlines()) <= 80
    assert night_line(night) == "The night so far (5 games): C 5 · A 3½ · B 3½ · D 0"


def test_a_night_whose_only_game_stopped_gives_nobody_0_in_its_line() -> None:
    [night] = nights([_game(1, "abc", None, status="incomplete")])
    line = night_line(night)
    assert line == (
        "The night so far (1 game): none counts (a game that stopped or does not verify"
        " counts for nothing)"
    )
    assert " 0" not in line


def test_copies_of_one_table_count_once_and_the_good_copy_wins() -> None:
    """Two programs on one machine keep a file each of the same table: it counts once, and
    a damaged copy beside a good one does not hide it."""
    good = _game(1, "ab", (1, 0))
    bad = _game(1, "ab", None, status="failed", when="2026-12-06 19:00")
    [night] = nights([bad, good])
    assert night.games == [good]


def test_nights_are_told_apart_and_the_latest_is_last() -> None:
    early = _game(1, "ab", (1, 0), when="2026-12-05 20:00")
    later = _game(1, "ab", (0, 1), table="tX", when="2026-12-06 21:00")
    later = GameResult(**{**{f: getattr(later, f) for f in GameResult.__slots__},
                          "first": later.table})  # fmt: skip
    found = nights([later, early])
    assert [n.first for n in found] == [early.first, later.table]
    assert [n.games for n in found] == [[early], [later]]


def test_points_are_written_with_halves() -> None:
    assert [points_text(p) for p in (None, Fraction(0), HALF, Fraction(5, 2), Fraction(3))] == [
        "·", "0", "½", "2½", "3",
    ]


def test_a_real_transcript_counts_and_a_damaged_copy_does_not(tmp_path: Path) -> None:
    """From files: the game in tests/data passes its audit and counts; the same file with
    one byte changed does not verify and counts for nothing (the good copy is the one
    kept); each file is audited once, then remembered, unless asked to check again."""
    good = tmp_path / "20261206-200000-kato-good.lptx"
    shutil.copy(DATA / "kato_2p.lptx", good)
    raw = bytearray(good.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    bad = tmp_path / "20261206-200001-kato-bad.lptx"
    bad.write_bytes(bytes(raw))
    audited: list[str] = []
    results = game_results([good, bad], base=tmp_path, told=lambda p: audited.append(p.name))
    assert sorted(audited) == sorted([good.name, bad.name])
    by_name = {Path(r.path).name: r for r in results}
    assert by_name[good.name].status == "passed" and by_name[good.name].points is not None
    assert sum(by_name[good.name].points or ()) == 1  # two players: one point between them
    if bad.name in by_name:  # a damaged entry, or a file no longer read as a transcript
        assert by_name[bad.name].points is None
    [night] = nights(results)
    assert night.games[0].path == str(good)
    assert night.games[0].number == 1 and night.first == night.games[0].table

    audited.clear()
    again = game_results([good, bad], base=tmp_path, told=lambda p: audited.append(p.name))
    assert audited == [] and again == results  # remembered by each file's digest
    game_results([good], base=tmp_path, check=True, told=lambda p: audited.append(p.name))
    assert audited == [good.name]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_night_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    code, _out, err = _run(capsys, "night")
    assert code == 2 and "no game played here yet" in err
    saved = tmp_path / "transcripts"
    saved.mkdir(exist_ok=True)
    shutil.copy(DATA / "kato_2p.lptx", saved / "20261206-200000-kato-ana.lptx")
    code, out, _err = _run(capsys, "night")
    assert code == 0 and out.startswith("Night of December 6, 2026 · 1 game")
    assert "★ p0" in out
    code, out, _err = _run(capsys, "night", "--json")
    board = json.loads(out)
    assert [(r["name"], r["total"]) for r in board["standings"]] == [("p0", "1"), ("p1", "0")]
    assert board["games"][0]["counted"] is True
    code, out, _err = _run(capsys, "night", "--list")
    assert code == 0 and out.startswith("  1  ") and "p0 leads with 1" in out
    code, _out, err = _run(capsys, "night", "7")
    assert code == 2 and "no night 7" in err
    code, out, _err = _run(capsys, "night", "--files", str(DATA / "kato_2p.lptx"), "--json")
    assert code == 0 and json.loads(out)["standings"][0]["name"] == "p0"
    code, _out, err = _run(capsys, "night", "--files", str(tmp_path / "nothing.lptx"))
    assert code == 2 and "no such file" in err


def test_the_lobby_shows_the_last_night_kept_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's end records its game (:func:`record`); the lobby's greeting gives the last
    night in a line, and ``night`` shows its board; nothing kept: it says so."""
    from lanparty.night import kept_nights, record
    from lanparty.ui import lobbymodel

    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    lobby = lobbymodel._Lobby("ann")
    said: list[str] = []
    assert lobbymodel._choose("night", lobby, lambda line, *_: said.append(line)) is None
    assert said == ["no night kept here yet: play a game (or run lanparty night)"]
    saved = tmp_path / "transcripts"
    saved.mkdir(exist_ok=True)
    path = saved / "20261206-200000-kato-ana.lptx"
    shutil.copy(DATA / "kato_2p.lptx", path)
    record(_game(1, "ab", (1, 0), when="2026-12-06 20:00"), path)
    gone = saved / "20261206-210000-kato-gone.lptx"
    gone.write_bytes(b"x")
    record(_game(2, "ab", (0, 1)), gone)
    gone.unlink()  # a transcript deleted since: its game is not on the board
    assert [len(n.games) for n in kept_nights()] == [1]
    greeting = [text for text, _style in lobby.greeting("loopback", again=False)]
    assert "Your last night (2026-12-06 20:00): A 1 · B 0 (type night for the board)" in greeting
    said.clear()
    lobbymodel._choose("night", lobby, lambda line, *_: said.append(line))
    assert said[0] == "Night of December 6, 2026 · 1 game" and "★ A" in said[3]

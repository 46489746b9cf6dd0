"""Friends in the lobby, without a terminal: a table announced by a friend's key is marked,
one whose host goes by a friend's name with another key is flagged (its row a warning), in
the events, the tables region at any width and ``list``; a forgotten friend is neither."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth

from crypto import Identity
from lanparty import friends as store
from lanparty.net.discovery import TableAd
from lanparty.ui.lobbymodel import _choose, _Lobby
from lanparty.ui.lobbyscreen import tables_rows
from protocol import PROTOCOL_VERSION

BEA = Identity().public


def _ad(name: str, host: str, fingerprint: str) -> TableAd:
    return TableAd(name, "kato", 4, 3, PROTOCOL_VERSION, fingerprint, host, "10.0.0.2", 4000,
                   instance=name)  # fmt: skip


FRIENDS = _ad("Bea's kato", "Bea", BEA.fingerprint)
SQUAT = replace(_ad("Bea's uno", "bea", "MALL-ORY0-93TD-HB0R"), address="10.0.0.9")
STRANGER = _ad("Ivo's kato", "Ivo", "8QXM-K2PA-93TD-HB0R")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    store.record([(BEA.raw, "Bea")], today="2026-12-01", base=tmp_path)
    return tmp_path


def _text(rows: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(t for _s, t in row) for row in rows]


def test_a_friends_table_is_marked_and_a_friends_name_with_another_key_flagged(
    home: Path,
) -> None:
    lobby = _Lobby("Zed")
    for ad in (FRIENDS, SQUAT, STRANGER):
        lobby.seen(ad)
    assert lobby.lines[0].endswith(f"host Bea [{BEA.fingerprint}] at 10.0.0.2:4000 · ★ friend: Bea")
    assert lobby.lines[1].endswith("· ⚠ not the Bea you played with on 2026-12-01")
    assert lobby.lines[2].endswith("at 10.0.0.2:4000")  # a stranger: nothing said
    shown: list[str] = []
    _choose("list", lobby, lambda line, cls="": shown.append(line))
    assert shown[1].endswith("· ⚠ not the Bea you played with on 2026-12-01")
    rows = tables_rows(lobby, 140)
    friend, squat, _stranger = (_text([row])[0] for row in rows[1:])
    assert friend.endswith("★ friend: Bea") and squat.endswith("⚠ not the Bea you played with "
                                                               "on 2026-12-01")  # fmt: skip
    assert [row[0][0] for row in rows[1:]] == ["", "class:warn", ""]  # the flagged row stands out
    # At 80 columns the notes go under the name, the flagged table's in the warning's colour.
    rows = tables_rows(lobby, 80)
    assert all(get_cwidth(line) <= 80 for line in _text(rows))
    assert rows[4][0] == ("class:warn", "     10.0.0.9:4000   ⚠ not the Bea you played with on "
                                        "2026-12-01")  # fmt: skip
    assert "★ friend: Bea" in _text(rows)[2]


def test_a_forgotten_friend_is_neither_marked_nor_flagged(home: Path) -> None:
    store.forget(BEA.raw, base=home)
    lobby = _Lobby("Zed")
    for ad in (FRIENDS, SQUAT):
        lobby.seen(ad)
    assert not any("friend" in line for line in lobby.lines)
    assert not any("friend" in line for line in _text(tables_rows(lobby, 140)))


def test_a_damaged_friends_file_is_said_as_the_lobby_opens(home: Path) -> None:
    (home / "friends.json").write_text("{")
    lobby = _Lobby("Zed")
    said = [line for line, cls in lobby.greeting("lo", False) if cls == "class:warn"]
    assert len(said) == 1 and said[0].startswith(f"{home / 'friends.json'} is damaged")
    lobby.seen(FRIENDS)  # no friend known: nothing marked, nothing broken
    assert "friend" not in lobby.lines[0]

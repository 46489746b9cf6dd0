"""The lobby's tables region without a terminal: the tables as an aligned list, two rows a
table where one is too narrow, never wider than the window, peers' strings made safe, the
kept seats, and a window too small saying so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth

from lanparty.net.discovery import TableAd
from lanparty.ui.lobbymodel import _Lobby
from lanparty.ui.lobbyscreen import tables_region, tables_rows
from protocol import PROTOCOL_VERSION

ANA = TableAd("Ana's kato", "kato", 4, 3, PROTOCOL_VERSION, "7QXM-K2PA-93TD-HB0R", "ana",
              "10.0.0.2", 4000, instance="Ana's kato")  # fmt: skip
LONG = replace(ANA, name="The long night of the unicorns", game="unicorns", host="carlos",
               fingerprint="8QXM-K2PA-93TD-HB0R", address="192.168.100.200", port=45678,
               instance="long", lang="pl")  # fmt: skip


@pytest.fixture
def lobby(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _Lobby:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))  # no saved seats to offer
    return _Lobby("Zed")


def _text(rows: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(t for _s, t in row) for row in rows]


def test_tables_are_one_aligned_row_each_on_a_wide_window(lobby: _Lobby) -> None:
    lobby.seen(ANA)
    lobby.seen(LONG)
    rows = _text(tables_rows(lobby, 140))
    assert len(rows) == 3
    title, ana, long = rows
    assert ana.startswith("  1  Ana's kato  ") and long.startswith("  2  The long night")
    for word, a, b in (("game", "kato", "unicorns"), ("seats", "1 of 4", "1 of 4"),
                       ("host", "ana [7QXM", "carlos [8QXM"),
                       ("address", "10.0.0.2:4000", "192.168.100.200:45678")):  # fmt: skip
        at = [row.index("  " + cell) + 2 for row, cell in ((title, word), (ana, a), (long, b))]
        assert at[0] == at[1] == at[2], (word, rows)
    assert long.endswith("writing language: Polish")


def test_a_narrow_window_puts_the_address_under_the_name(lobby: _Lobby) -> None:
    lobby.seen(ANA)
    lobby.seen(LONG)
    rows = _text(tables_rows(lobby, 80))
    assert all(get_cwidth(row) <= 80 for row in rows)
    assert rows[1].startswith("  1  Ana's kato") and "ana [7QXM-K2PA-93TD-HB0R]" in rows[1]
    assert rows[2].strip().startswith("10.0.0.2:4000")
    assert rows[2].index("10.0.0.2") == rows[1].index("Ana's kato")
    assert "192.168.100.200:45678" in rows[4] and "writing language: Polish" in rows[4]
    # Narrower still: the names are cut (…), nothing spills over the edge.
    rows = _text(tables_rows(lobby, 60))
    assert all(get_cwidth(row) <= 60 for row in rows), rows
    assert "…" in rows[3]


def test_a_peers_strings_are_shown_safe(lobby: _Lobby) -> None:
    lobby.seen(replace(ANA, name="evil\x1b[2Jname", host="h\x07st"))
    shown = "\n".join(_text(tables_rows(lobby, 140)))
    assert "\x1b" not in shown and "\x07" not in shown


def test_kept_seats_and_an_empty_list(lobby: _Lobby) -> None:
    from crypto import Identity, KeyShare, SealKey
    from lanparty.store import SavedSeat

    assert _text(tables_rows(lobby, 80)) == ["  no tables yet (they appear here as they open)"]
    secrets = (Identity(), KeyShare(), SealKey())
    lobby.resumable = [SavedSeat.of(b"\xbf" * 16, "Bo", "10.0.0.7:4000", secrets)]
    assert _text(tables_rows(lobby, 80))[-1] == (
        "  resume: your seat as Bo at table bfbfbfbfbfbf (10.0.0.7:4000)")  # fmt: skip


def test_a_small_window_says_so_and_a_long_list_says_how_many_more(lobby: _Lobby) -> None:
    text = "".join(t for _s, t in tables_region(lobby, 80, 10))
    assert text == "Make the window at least 40×11 to see the tables (now 80×10)\n"
    assert "Make the window" in "".join(t for _s, t in tables_region(lobby, 30, 24))
    for n in range(30):
        lobby.seen(replace(ANA, name=f"t{n}", instance=f"t{n}"))
    lines = "".join(t for _s, t in tables_region(lobby, 140, 24)).splitlines()
    assert len(lines) == 24 - 8  # the header, input, status and 5 rows of events left
    assert lines[0].startswith("─ ")
    assert lines[-1] == "  … 17 more rows: make the window taller, or type list"

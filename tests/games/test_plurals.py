"""Counts are said with real plural forms (issue 21: "1 card(s)"): every count KaTO and Unikato
show goes through ``ngettext``, so English says "1 pt" and "2 pts", "-1 point" and "-2
points", and Polish picks among its three forms; no message says "(s)"."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from lanparty import i18n
from lanparty.games import GAMES
from lanparty.games.kato import screen as kato_screen
from lanparty.games.localdealer import LocalTable
from lanparty.games.unikato import screen as unikato_screen
from lanparty.games.unikato.narrate import UnikatoNarrator
from protocol.contract import Plain

POT = Path(__file__).resolve().parents[2] / "lanparty" / "locale" / "lanparty.pot"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _dealt(game: str, seats: int, options: dict[str, Plain]) -> dict[str, Plain]:
    """Seat 0's view once the first deal is done."""
    table = LocalTable(GAMES[game], seats, options, random.Random(1), copies=True)
    table.resolve_pending()
    return GAMES[game].view(table.copies[0], 0)  # type: ignore[no-any-return]


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _style, text in fragments)


def test_kato_scores_say_pt_for_one_point() -> None:
    view = {**_dealt("kato", 3, {"rounds": 2}), "scores": [1, 2, 0]}
    lines = _text(kato_screen.table(view, ["Ann", "Bea", "Cy"])).splitlines()
    said = {name: line for line in lines for name in ("Ann", "Bea", "Cy") if name in line}
    assert said["Ann"].rstrip().endswith(" 1 pt")
    assert said["Bea"].rstrip().endswith(" 2 pts")
    assert said["Cy"].rstrip().endswith(" 0 pts")
    i18n.set_language("pl")
    polish = _text(kato_screen.table(view, ["Ann", "Bea", "Cy"]))
    assert "1 pkt" in polish and "2 pkt" in polish


def test_unikato_scores_say_point_for_one_point() -> None:
    view = {**_dealt("unikato", 3, {"rounds": 2, "first": "host"}), "scores": [-1, -2, -5]}
    header = _text(unikato_screen.table(view, ["Ann", "Bea", "Cy"], 200))
    assert "(-1 point)" in header and "(-2 points)" in header and "(-5 points)" in header
    i18n.set_language("pl")
    header = _text(unikato_screen.table(view, ["Ann", "Bea", "Cy"], 200))
    assert "(-1 punkt)" in header and "(-2 punkty)" in header and "(-5 punktów)" in header
    i18n.set_language("es")
    header = _text(unikato_screen.table(view, ["Ann", "Bea", "Cy"], 200))
    assert "(-1 punto)" in header and "(-2 puntos)" in header


def test_unikato_tells_how_many_tiles_a_tile_touches_with_a_plural() -> None:
    view = _dealt("unikato", 2, {"first": "host"})
    # A tile touching two: put a tile right of the start and one below that cell's left.
    before = {**view, "grid": [[0, 0, "cOsW"], [1, 1, "sOsG"]], "bonus": False, "action": 1}
    told = UnikatoNarrator(1, ["Ann", "Bea"])
    told.narrate(0, ("place", 999, "cOsG", 0, 1), before, before)
    assert told.lines[-1].endswith(", touching 2 tiles: a bonus action")


def test_no_message_says_s_in_brackets() -> None:
    with POT.open("rb") as f:
        catalog = read_po(f)
    said = [m.id for m in catalog if m.id and "(s)" in str(m.id)]
    assert said == []

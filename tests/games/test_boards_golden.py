"""Every game's board as the full-screen table draws it at 80×24 (its 80×16 board area) and on
a wide terminal (140×40: 83×37 beside the story), kept as text a reviewer can read
(``tests/games/golden/boards/GAME.txt``): at the start, on a turn of the seat, in a sealed or
timed phase where the game has one, and at the end, with the header above each. Regenerate
with ``LANPARTY_REGEN_GOLDEN=1`` and review the difference."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from boards_rig import Moment, moments, rows_of, screens

from lanparty.games.screens import board_area

GOLDEN = Path(__file__).parent / "golden" / "boards"
NAMES = ("Ann", "Bea", "Carl", "Dora")
SEATS = {"kato": 4, "unikato": 4, "unanimo": 4, "unicorns": 4}
OPTIONS: dict[str, dict[str, object]] = {"kato": {"rounds": 1}}

#: The moments drawn: what each one is, and how to find it in a seeded game (the first
#: moment of seat 0 that answers yes).
Finder = Callable[[Moment], bool]
WHEN: dict[str, list[tuple[str, Finder]]] = {
    "kato": [("a turn", lambda m: bool(m.legal)),
             ("a later turn", lambda m: bool(m.legal) and m.step > 30)],
    "unikato": [("a turn", lambda m: bool(m.legal) and m.view.get("phase") == "action"),
                ("a chain being laid", lambda m: m.view.get("phase") == "placing")],
    "unanimo": [("the sealed writing", lambda m: m.view.get("phase") == "writing"),
                ("the objections", lambda m: m.view.get("phase") == "objections")],
    "unicorns": [("the characters", lambda m: m.view.get("phase") == "character"),
                 ("the sealed hunt cards", lambda m: m.view.get("phase") == "commit"
                  and bool(m.legal)),
                 ("the black market", lambda m: m.view.get("phase") == "market")],
}  # fmt: skip


def drawn(game: str) -> str:
    """The golden text of ``game``: each moment's header and board, at both sizes."""
    screen = screens(game)[0]
    names = NAMES[: SEATS[game]]
    seen = [m for m in moments(game, SEATS[game], 7, OPTIONS.get(game, {}))
            if m.view.get("seat") == 0]  # fmt: skip
    picks = [(what, next(m for m in seen if found(m))) for what, found in WHEN[game]]
    picks.append(("the end", seen[-1]))
    out: list[str] = []
    for what, moment in picks:
        for columns, rows in ((80, 24), (140, 40)):
            width, height = board_area(columns, rows)
            board = screen.board(moment.view, names, width, height, moment.legal, "")  # type: ignore[attr-defined]
            header = screen.header(moment.view, names)  # type: ignore[attr-defined]
            out.append(f"── {game}: {what}, {columns}×{rows} (board {width}×{height}) ──")
            out.append(f"[header] {header}")
            out += [line.rstrip() for line in rows_of(board)]
            out.append("")
    return "\n".join(out)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_boards_read_as_kept(game: str) -> None:
    text = drawn(game)
    path = GOLDEN / f"{game}.txt"
    if os.environ.get("LANPARTY_REGEN_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{path.name} changed: regenerate, review"

"""Unanimo's screen, without a terminal: what its command line answers and completes."""

from __future__ import annotations

import re

import pytest

from lanparty.games.screens import ParseError
from lanparty.games.unanimo.screen import UnanimoScreen
from lanparty.ui.commands import completions


@pytest.mark.parametrize(
    ("view", "said"),
    [
        ({"phase": "writing", "seat": 0, "writing": [1, 2]}, "you have handed in your words"),
        ({"phase": "objections", "seat": 0}, "the editor opens by itself when the next card"),
    ],
)
def test_write_when_there_is_nothing_to_write_says_why(view: dict, said: str) -> None:
    with pytest.raises(ParseError, match=said):
        UnanimoScreen(lang="en").parse("write", [], "write", view)


def _reading_view() -> dict:
    """Seat 0 after the words of card 1 opened: three words to read, none objected to."""
    reading = [
        {"word": w, "key": w, "by": 0, "writers": [0, 1], "points": 2, "rejected": None}
        for w in ("snow", "cold", "ice")
    ]
    return {"seat": 0, "phase": "objections", "card": 1, "subject": {"card": 1, "en": "Winter"},
            "reading": reading, "verdicts": [], "done": [False, True, True]}  # fmt: skip


def test_completion_offers_objections_only_to_the_words_read_so_far() -> None:
    now = [0.0]
    screen = UnanimoScreen(lang="en", clock=lambda: now[0])
    view = _reading_view()
    legal = [("done",), *(("object", w) for w in ("snow", "cold", "ice"))]
    screen.table(view, ["Ann", "Bea", "Carl"], 80)  # the reading begins on this screen
    assert completions("o", screen, view, legal) == [("object 1", "object to “snow”")]
    with pytest.raises(ParseError, match="1 to 1"):
        screen.parse("object", ["3"], "object 3", view)
    now[0] = 60.0  # the whole reading has been shown
    assert [c for c, _ in completions("o", screen, view, legal)] == [
        "object 1", "object 2", "object 3",
    ]  # fmt: skip
    assert screen.parse("object", ["3"], "object 3", view) == ("object", "ice")


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def test_the_board_fits_a_narrow_terminal_and_cuts_no_sentence() -> None:
    """Eight players, one objecting, six still to vote: every line of the board fits in 60
    columns, and what the vote line says is all there, over several lines."""
    names = ["Annabelle", "Bartholomew", "Carolina", "Dorothea", "Emiliano", "Francesca",
             "Gwendolyn", "Hieronymus"]  # fmt: skip
    view = _reading_view() | {
        "players": 8, "cards": 3, "leader": 0, "threshold": 24, "timer": 0, "phase": "vote",
        "scores": [0] * 8, "handed_in": [True] * 8, "absent": [False] * 8, "done": [False] * 8,
        "vote": {"key": "snow", "by": 1, "ballots": [None] * 8, "needed": 4,
                 "waiting": [0, 2, 3, 4, 5, 6, 7]},
    }  # fmt: skip
    screen = UnanimoScreen(lang="en")
    board = _text(screen.table(view, names, 60) + screen.hand(view, 60, [("vote", "keep")]))
    assert all(len(line) <= 60 for line in board.splitlines()), board
    assert len(re.findall(r"pts this card +total +0\b", board)) == 8, board  # names give way
    said = " ".join(board.split())
    assert (
        "Bartholomew objects to “snow”: keep it or reject it? 4 votes to reject are enough to "
        "reject it (waiting "
        "for you, Carolina, Dorothea, Emiliano, Francesca, Gwendolyn, Hieronymus)"
    ) in said

"""Unanimo's screen, without a terminal: what its command line answers and completes."""

from __future__ import annotations

import pytest

from lanparty.games.unanimo.screen import UnanimoScreen
from lanparty.ui.base import ParseError
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

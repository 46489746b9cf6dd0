"""Unanimo's screen, without a terminal: what its command line answers."""

from __future__ import annotations

import pytest

from lanparty.games.unanimo.screen import UnanimoScreen
from lanparty.ui.base import ParseError


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

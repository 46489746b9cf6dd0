"""Below the smallest board a game can be drawn in, ``TooSmall`` says so (issue 23): a board
narrower than the game's least width, or given fewer rows than it needs, is never drawn cut;
the size a ``TooSmall`` asks for is enough to draw the board whole."""

from __future__ import annotations

import pytest
from boards_rig import NAMES, check, check_too_small, played, screens

from lanparty.games import GAMES
from lanparty.games.screens import TooSmall


@pytest.mark.parametrize("game", sorted(GAMES))
def test_below_the_smallest_board_it_says_too_small(game: str) -> None:
    """Narrower than the game's least width, or shorter than its board: ``TooSmall``,
    asking for a size that is enough; never a board cut to fit."""
    names = NAMES[: GAMES[game].max_seats]
    options = {"rounds": 1} if game == "kato" else {}
    screen = screens(game)[0]
    board = screen.board  # type: ignore[attr-defined]
    small = 0
    for moment in played(game, options, (3,))[::9]:
        with pytest.raises(TooSmall) as raised:
            board(moment.view, names, 30, 40, moment.legal, "")
        assert raised.value.columns > 30
        for width, rows in ((80, 5), (60, 10), (45, 40), (100, 3)):
            try:
                check(board, moment, names, width, rows)
            except TooSmall:
                small += 1
            check_too_small(board, moment, names, width, rows)
    assert small, "no board was ever too small"

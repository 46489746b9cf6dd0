"""The pieces boards are laid out with (lanparty/games/cells.py, layout.py) and the screen
contract that carries them (screens.Screen, gather_screen): a text's width as the terminal
counts it, wrapping that never cuts, columns that line up, the first layout that fits or
``TooSmall``, and every game's screen with a board, a header and a score sheet of its own."""

from __future__ import annotations

import types

import pytest
from prompt_toolkit.utils import get_cwidth

from lanparty.games import PLUGINS
from lanparty.games.cells import cells, cut, pad
from lanparty.games.layout import extent, fit_first, flow, in_columns, join, lines, table_rows, wrap
from lanparty.games.screens import Fragments, Screen, TooSmall, gather_screen


def _text(fragments: Fragments) -> str:
    return "".join(t for _s, t in fragments)


@pytest.mark.parametrize("text", ["root", "李小龍", "Zoe\u0308", "ÉMILE", "[░P✚✚░]", "▶ ★ ↺ ●",
                                  "o/ +3", "Ż\u200dółć", "ｆｕｌｌ"])  # fmt: skip
def test_cells_count_as_the_terminal_does(text: str) -> None:
    assert cells(text) == get_cwidth(text)


def test_cut_and_pad_count_cells() -> None:
    assert cut("李小龍李小龍", 7) == "李小龍…"
    assert cells(cut("李小龍李小龍", 6)) <= 6
    assert cut("short", 9) == "short"
    assert pad("李", 4) == "李  " and pad("7", 3, ">") == "  7"


def test_wrap_breaks_at_spaces_and_never_cuts() -> None:
    said = wrap([("class:a", "one two three"), ("", " four five")], 9, 2)
    assert [_text(line) for line in said] == ["one two", "  three", "  four", "  five"]
    assert [_text(line) for line in wrap([("", "unbreakable-word here")], 5)] == [
        "unbreakable-word", "here"]  # fmt: skip
    assert _text(wrap([("", "  indented first")], 40)[0]) == "  indented first"


def test_flow_keeps_items_whole_and_wraps_a_long_one() -> None:
    items = [[("", "aaa")], [("", "bbb")], [("", "ccc")]]
    assert [_text(line) for line in flow(items, 8, " ")] == ["aaa bbb", "ccc"]
    assert [_text(line) for line in flow(items, 8, " ", 2, 4)] == ["aaa", "  bbb", "  ccc"]
    long = [[("", "a long item")]]
    assert [_text(line) for line in flow(long, 7)] == ["a long", "item"]


def test_table_rows_line_up_by_cells() -> None:
    rows = [[[("", "李小龍")], [("", "1 card")], [("", "0 pts")]],
            [[("", "Bartholomew")], [("", "12 cards")], [("", "120 pts")]]]  # fmt: skip
    drawn = [_text(line) for line in table_rows(rows, "<<>")]
    starts = {get_cwidth(line[: line.index(cell)]) for line, cell in zip(
        drawn, ("1 card", "12 cards"), strict=True)}  # fmt: skip
    ends = {get_cwidth(line) for line in drawn}
    assert len(starts) == 1 and len(ends) == 1, drawn


def test_in_columns_fills_down_then_across() -> None:
    items = [[("", name)] for name in ("a", "bb", "c", "d", "e")]
    assert [_text(line) for line in in_columns(items, 2, 1)] == ["a  d", "bb e", "c"]


def test_fit_first_picks_the_first_that_fits_or_asks_for_enough() -> None:
    roomy = lambda w: join([[("", "x" * 30)]] * 6)  # noqa: E731
    compact = lambda w: join([[("", "y" * 20)]] * 3)  # noqa: E731
    assert _text(fit_first(40, 10, [roomy, compact], 20)).startswith("x")
    assert _text(fit_first(25, 10, [roomy, compact], 20)).startswith("y")
    with pytest.raises(TooSmall) as small:
        fit_first(25, 2, [roomy, compact], 20)
    assert (small.value.columns, small.value.rows) == (25, 3)
    with pytest.raises(TooSmall) as narrow:
        fit_first(10, 10, [roomy, compact], 20)
    assert (narrow.value.columns, narrow.value.rows) == (20, 3)


def test_extent_and_lines() -> None:
    drawn: Fragments = [("a", "one\ntwo"), ("", " 李\n")]
    assert lines(drawn) == [[("a", "one")], [("a", "two"), ("", " 李")]]
    assert extent(drawn) == (6, 2)


def test_a_screen_without_a_board_stacks_table_and_hand_whole_or_too_small() -> None:
    module = types.ModuleType("fake_screen")
    module.__dict__.update(
        STYLES={}, ALIASES={}, HELP=(),
        table=lambda view, names, width: [("", "table line\n")],
        hand=lambda view, width, legal: [("", "hand line\n")],
        prompt=lambda view, can: "> ", parse=lambda *a: ("x",),
        command_for=lambda move, view: ("", ""), humanize=str,
        final=lambda view, names: [],
    )  # fmt: skip
    screen = gather_screen(module)
    assert isinstance(screen, Screen) and screen.header is None and screen.scores is None
    assert _text(screen.board({}, [], 20, 2, (), "")) == "table line\nhand line\n"
    with pytest.raises(TooSmall) as small:
        screen.board({}, [], 20, 1, (), "")
    assert small.value.rows == 2
    with pytest.raises(TooSmall):
        screen.board({}, [], 5, 9, (), "")


@pytest.mark.parametrize("game", sorted(PLUGINS))
def test_every_game_draws_its_own_board_header_and_score_sheet(game: str) -> None:
    screen = PLUGINS[game].screen()
    assert callable(screen.header) and callable(screen.scores)  # type: ignore[attr-defined]
    assert getattr(screen.board, "__func__", None) is not Screen._stacked


@pytest.mark.parametrize("game", sorted(PLUGINS))
def test_a_game_that_did_not_end_has_no_final_table(game: str) -> None:
    """A table that stopped has no result (issue 23: "Final scores: 0 0 0", "by day: ·"):
    the final table of a view mid-game is empty; at the end it names the winners."""
    from boards_rig import NAMES, moments

    from lanparty.games import GAMES

    screen = PLUGINS[game].screen()
    seats = GAMES[game].min_seats
    options = {"rounds": 1} if game == "kato" else {}
    seen = list(moments(game, seats, 1, options))
    names = NAMES[:seats]
    middle = seen[len(seen) // 2].view
    assert middle.get("phase") != "over" and screen.final(middle, names) == []
    assert seen[-1].view.get("phase") == "over"
    assert "★" in _text(screen.final(seen[-1].view, names))


def test_a_spectator_is_told_they_hold_no_cards() -> None:
    """``play 1`` from a spectator said "your cards are numbered 1 to 0" (issue 23)."""
    from lanparty.games.screens import ParseError

    kato = PLUGINS["kato"].screen()
    with pytest.raises(ParseError, match="you are watching"):
        kato.parse("play", ["1"], "play 1", {"seat": None, "phase": "play"})
    with pytest.raises(ParseError, match="you hold no cards"):
        kato.parse("play", ["1"], "play 1", {"seat": 0, "phase": "play", "hand": []})
    unikato = PLUGINS["unikato"].screen()
    with pytest.raises(ParseError, match="you are watching"):
        unikato.parse("place", ["1"], "place 1", {"seat": None, "phase": "action"})

"""A level for each bot: ``--level hard,normal,easy`` read, checked and handed to each bot
a command starts, and each bot's level shown where the players are listed (the board, the
lines of a table filling, the ``--json`` summary)."""

from __future__ import annotations

import pytest

from lanparty import i18n
from lanparty.commands.common import CliError
from lanparty.commands.netargs import check_levels, levels
from lanparty.games.bots import bot_at, bot_label, levels_for, levels_of
from lanparty.games.search import SearchBot, Think
from lanparty.table.hosting import _bot_args
from lanparty.table.local import LocalTable
from lanparty.table.outcome import Outcome, summary
from lanparty.table.plan import TablePlan
from lanparty.ui.layout import draw_board


def plain_text(fragments: list[tuple[str, str]]) -> str:
    """The text the fragments show."""
    return "".join(text for _style, text in fragments)


def test_a_list_of_levels_is_read_in_order() -> None:
    assert levels_of("hard,Normal, easy") == ("hard", "normal", "easy")
    assert levels_of("random,heuristic") == ("easy", "normal")  # the old names
    assert levels_of("hard") == ("hard",)
    for wrong in ("", "hard,", "hard,,easy", "hard,genius", "hard;easy"):
        assert levels_of(wrong) is None, wrong


def test_levels_for_each_bot() -> None:
    assert levels_for((), 3) == ("normal",) * 3
    assert levels_for(("hard",), 3) == ("hard",) * 3
    assert levels_for(("hard", "easy"), 2) == ("hard", "easy")
    assert levels_for(("hard", "easy"), 3) is None
    assert levels_for(("hard", "easy", "easy"), 2) is None


def test_the_command_line_checks_the_list_against_the_bots() -> None:
    assert levels("hard,easy") == ("hard", "easy")
    assert check_levels(("hard", "easy"), 2) == ("hard", "easy")
    assert check_levels(("hard",), 5) == ("hard",)
    assert check_levels((), 2) == ()
    with pytest.raises(CliError, match=r"one per bot comma-separated: 3 levels here, got "
                       r"'hard,easy'"):  # fmt: skip
        check_levels(("hard", "easy"), 3)


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("pl", "--level przyjmuje jeden poziom dla wszystkich botów albo po jednym na bota, "
               "po przecinku: tu 3 poziomy, podano 'hard,easy'"),
        ("es", "--level admite un nivel para todos los bots, o uno por bot separados por "
               "comas: aquí 3 niveles, se dio 'hard,easy'"),
    ],
)  # fmt: skip
def test_the_list_error_is_translated(lang: str, line: str) -> None:
    i18n.set_language(lang)
    try:
        with pytest.raises(CliError) as caught:
            check_levels(("hard", "easy"), 3)
        assert str(caught.value) == line
        assert (
            bot_label("Bea", "hard")
            == {"pl": "Bea (bot, trudny)", "es": "Bea (bot, difícil)"}[lang]
        )
    finally:
        i18n.set_language("en")


def test_each_bot_a_host_starts_gets_its_own_level() -> None:
    """A host's bots in the order it starts them (Bea, Carl, …); a headless host given one
    level more has its own first (else its own is normal); one level is every bot's; none
    passes no ``--level``."""
    plan = TablePlan(bots=2, level=("hard", "easy"))
    assert [_bot_args(plan, i) for i in range(2)] == [["--level", "hard"], ["--level", "easy"]]
    plan = TablePlan(bot=True, bots=2, level=("normal", "hard", "easy"), react=0.0)
    assert plan.own_level() == "normal"
    react = ["--react", "0.0", "--level"]
    assert [_bot_args(plan, i) for i in range(2)] == [[*react, "hard"], [*react, "easy"]]
    plan = TablePlan(bot=True, bots=2, level=("hard", "easy"))
    assert (plan.own_level(), plan.started_level(0), plan.started_level(1)) == (
        "normal", "hard", "easy")  # fmt: skip
    plan = TablePlan(bot=True, bots=3, level=("hard",))
    assert [plan.own_level(), *map(plan.started_level, range(3))] == ["hard"] * 4
    assert _bot_args(TablePlan(bots=2), 1) == []
    assert TablePlan(bot=True).own_level() == "normal"
    assert TablePlan(bot=True, level=("easy",)).own_level() == "easy"  # join --bot
    assert check_levels(("normal", "hard", "easy"), 2, own=True) == ("normal", "hard", "easy")
    assert check_levels(("hard", "easy"), 2, own=True) == ("hard", "easy")
    with pytest.raises(CliError):
        check_levels(("normal", "hard", "easy"), 2)  # one more: only a headless host's


def test_the_summary_lists_each_seats_level() -> None:
    out = Outcome(names=("ann", "Bea", "Carl"), levels=[None, "hard", "easy"])
    assert summary(out)["levels"] == [None, "hard", "easy"]
    assert summary(Outcome(names=("ann", "Bea")))["levels"] == [None, None]
    out.bot_levels["AAAA"] = "hard"
    out.next_game()  # a night: the same bots, the same levels
    assert out.bot_levels == {"AAAA": "hard"}


def test_the_board_lists_each_bot_with_its_level() -> None:
    """``play --offline``'s table: the players' list says each bot's level; the story
    names the bots as they are called."""
    bots = [None, bot_at("kato", "hard", think=Think.given(0.05)), bot_at("kato", "easy")]
    assert isinstance(bots[1].bot, SearchBot)  # type: ignore[union-attr]
    table = LocalTable("kato", ["ann", "Bea", "Carl"], bots, {}, 7,
                       levels=[None, "hard", "easy"])  # fmt: skip
    assert table.listed == ("ann", "Bea (bot, hard)", "Carl (bot, easy)")
    table.advance()  # the deal, and the bots' moves up to ours
    board = plain_text(draw_board(table, 80, 24, "", None))
    assert "Bea (bot, hard)" in board and "Carl (bot, easy)" in board
    assert "ann (you)" in board
    # Only the list says the level: whatever else the board says of a bot names it so.
    for game in ("unikato", "unanimo", "unicorns"):
        three = [None, bot_at(game, "easy"), bot_at(game, "easy")]
        other = LocalTable(game, ["ann", "Bea", "Carl"], three, {}, 7,
                           levels=[None, "hard", "easy"])  # fmt: skip
        other.advance()
        shown = plain_text(draw_board(other, 120, 40, "", None))
        assert "Bea (bot, hard)" in shown and "Carl (bot, easy)" in shown, (game, shown)
        assert shown.count("(bot,") == 2, (game, shown)
    plain = LocalTable("kato", ["ann", "Bea"], [None, bot_at("kato", "easy")], {}, 7)
    plain.advance()
    assert plain.listed == plain.names  # no levels given: the names alone (the goldens')
    assert "(bot" not in plain_text(draw_board(plain, 80, 24, "", None))

"""Typed commands → moves, legal moves → completions, and the table's text: no terminal."""

from __future__ import annotations

import re

import pytest

from lanparty import i18n
from lanparty.games import PLUGINS
from lanparty.games.kato import screen as render
from lanparty.games.kato.screen import SCREEN, SIMPLE_MOVES, command_for, hand_of, humanize
from lanparty.games.screens import Fragments, ParseError
from lanparty.ui import commands
from lanparty.ui.commands import META_COMMANDS, Action

from .helpers import Scripted, make_table

ALIASES = {**SCREEN.aliases, **commands.ALIASES}


def parse(text, view, can_decline=False):
    return commands.parse(text, SCREEN, view, can_decline)


def completions(text, view, legal, can_decline=False):
    return commands.completions(text, SCREEN, view, legal, can_decline)


def help_text():
    return commands.help_text(SCREEN)

HAND = [(10, "r7"), (14, "g7"), (12, "b+2"), (11, "W"), (13, "W+4")]  # as shown
VIEW = {
    "seat": 0,
    "players": 3,
    "round": 2,
    "phase": "play",
    "current": 0,
    "direction": -1,
    "top": "r5",
    "colour": "r",
    "pending": None,
    "counts": [5, 1, 9],
    "deck": 70,
    "kato": None,
    "drawn": None,
    "scores": [12, 40, 0],
    "winners": [],
    "hand": HAND,
}


def text(fragments: Fragments) -> str:
    return "".join(t for _, t in fragments)


def test_play_by_index() -> None:
    assert parse("play 1", VIEW) == Action("move", ("play", (10,), ("r7",), ""))
    assert parse("  P   2 ", VIEW).move == ("play", (14,), ("g7",), "")


def test_wild_takes_a_colour_word_or_letter() -> None:
    assert parse("play 4 red", VIEW).move == ("play", (11,), ("W",), "r")
    assert parse("play 5 B", VIEW).move == ("play", (13,), ("W+4",), "b")


def test_hand_is_shown_by_colour_then_rank_wilds_last() -> None:
    mixed = dict(VIEW, hand=[(1, "W"), (2, "b0"), (3, "r+2"), (4, "rS"), (5, "r9"), (6, "y1")])
    assert [label for _, label in hand_of(mixed)] == ["r9", "rS", "r+2", "y1", "b0", "W"]
    assert parse("play 6 green", mixed).move == ("play", (1,), ("W",), "g")


def test_the_kato_call_goes_with_the_play() -> None:
    assert parse("play 1 kato", VIEW).move == ("play", (10,), ("r7",), "", "kato")
    assert parse("p 4 red kato", VIEW).move == ("play", (11,), ("W",), "r", "kato")
    assert parse("play 4 kato red", VIEW).move == ("play", (11,), ("W",), "r", "kato")
    with pytest.raises(ParseError, match=re.escape("play 4 red|yellow|green|blue kato")):
        parse("play 4 kato", VIEW)
    called = ("play", (11,), ("W",), "y", "kato")
    assert command_for(called, VIEW) == ("play 4 yellow kato", "Wild → yellow, calling KaTO")


def test_several_cards_in_order() -> None:
    assert parse("play 2 1", VIEW).move == ("play", (14, 10), ("g7", "r7"), "")


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("play", "play which card"),
        ("play 9", "numbered 1 to 5"),
        ("play 0", "numbered 1 to 5"),
        ("play x", "not a card number"),
        ("play 4", "Wild needs a colour"),
        ("play 1 blue", "only a wild names a colour"),
        ("draw 2", "takes no arguments"),
        ("colour pink", "name a colour"),
        ("verdict guilty", "unknown command 'verdict'"),  # the program announces it
        ("dance", "unknown command 'dance'"),
        ("go", "not a moment to wait"),
    ],
)
def test_mistakes_say_why(typed: str, reason: str) -> None:
    with pytest.raises(ParseError, match=reason):
        parse(typed, VIEW)


def test_simple_and_meta_commands() -> None:
    for name in ("draw", "pass", "accept", "challenge", "kato", "catch"):
        assert parse(name, VIEW) == Action("move", (name,))
    assert parse("color green", VIEW).move == ("colour", "g")
    assert parse("help", VIEW).kind == "help"
    assert parse("rules", VIEW).kind == "rules"
    assert parse("quit", VIEW).kind == "quit"
    assert parse("exit", VIEW).kind == "quit"


def test_help_lists_every_command_and_every_short_form() -> None:
    shown = help_text()
    for word in (*SIMPLE_MOVES, *META_COMMANDS, "play", "colour", "go", "start"):
        assert re.search(rf"^  (\S+ / )?{re.escape(word)}\b", shown, re.M), word
    example = {"play": " 1", "colour": " red"}
    for alias, command in ALIASES.items():
        assert f"{alias} = {command}" in shown
        # The list is the parser's own table: each short form does what its command does.
        typed = example.get(command, "")
        assert parse(alias + typed, VIEW, True) == parse(command + typed, VIEW, True)
    assert {"p", "d", "q", "?"} <= set(ALIASES)
    assert max(len(line) for line in shown.splitlines()) < 80


def test_empty_line_lets_an_out_of_turn_chance_go() -> None:
    assert parse("", VIEW, can_decline=True).kind == "go"
    assert parse("go", VIEW, can_decline=True).kind == "go"
    assert parse("", VIEW).kind == "nothing"


def test_completions_list_legal_moves_then_meta() -> None:
    legal = [
        ("play", (10,), ("r7",), ""),
        ("play", (11,), ("W",), "r"),
        ("play", (11,), ("W",), "y"),
        ("draw",),
    ]
    got = completions("", VIEW, legal)
    assert [c for c, _ in got] == ["play 1", "play 4 red", "play 4 yellow", "draw", *_META]
    assert dict(got)["play 1"] == "Red 7"
    assert dict(got)["play 4 red"] == "Wild → red"
    assert [c for c, _ in completions("play 4", VIEW, legal)] == ["play 4 red", "play 4 yellow"]
    assert [c for c, _ in completions("PL", VIEW, legal)][:1] == ["play 1"]
    assert [c for c, _ in completions("d", VIEW, legal)] == ["draw"]
    assert completions("zz", VIEW, legal) == []
    assert [c for c, _ in completions("", VIEW, [("kato",)], can_decline=True)] == [
        "kato",
        "go",
        *_META,
    ]


_META = ["help", "rules", "scores", "quit"]


def test_every_legal_move_round_trips_through_its_command() -> None:
    """What the completer offers, typed back, is exactly the legal move."""
    seen = 0
    for seed in (1, 2):
        table = make_table(seed, bots=2, kind="random", target=80, multi_play=True)
        human = Scripted(seed, "random")
        while True:
            table.advance()
            if table.over():
                break
            view = table.view()
            for move in table.legal_moves():
                typed, _ = command_for(move, view)
                assert parse(typed, view, table.can_decline()).move == move
                seen += 1
            human.act(table)
    assert seen > 300


def test_humanize_names_cards_in_engine_reasons() -> None:
    assert humanize("r7 cannot be played now") == "Red 7 cannot be played now"
    assert humanize("card 4 is not 'W+4'") == "card 4 is not 'Wild Draw Four'"
    assert humanize("it is not seat 2's turn") == "it is not seat 2's turn"


def test_table_shows_the_public_state() -> None:
    shown = text(render.table(VIEW, ["Ann", "Bea", "Carl"]))
    assert "Round 2" in shown and "counter-clockwise" in shown
    assert "Red 5" in shown and "red" in shown
    assert "▶ Ann (you)" in shown
    assert "Bea" in shown and " 1 card " in shown and "KaTO" in shown
    assert "40 pts" in shown
    pending = dict(VIEW, pending={"kind": "draw", "total": 4, "from": 1}, kato=1)
    shown = text(render.table(pending, ["Ann", "Bea", "Carl"]))
    assert "4 cards to draw" in shown and "no KaTO yet" in shown


def test_the_challenge_on_show_names_the_hand_the_colour_and_the_verdict() -> None:
    challenge = {"by": 0, "of": 1, "colour": "g", "verdict": None, "shown": ["g2", "r7"]}
    mine = text(render.table(dict(VIEW, challenge=challenge), ["Ann", "Bea", "Carl"]))
    assert "Challenge: Bea's hand, shown to you  green decides\n Green 2   Red 7  \n" in mine
    judged = dict(challenge, by=2, verdict="guilty")
    del judged["shown"]
    seen = text(render.table(dict(VIEW, challenge=judged), ["Ann", "Bea", "Carl"]))
    assert "Challenge: Bea's hand, shown to Carl  green decides: guilty\n" in seen
    assert "Challenge" not in text(render.table(VIEW, ["Ann", "Bea", "Carl"]))


def test_hand_is_numbered_coloured_and_wrapped() -> None:
    fragments = render.hand_lines(VIEW, width=30)
    assert ("class:card.r", " Red 7 ") in fragments
    assert ("class:card.w", " Wild Draw Four ") in fragments
    lines = text(fragments).splitlines()
    assert lines[0] == "Your hand:"
    assert all(len(line) <= 30 for line in lines)
    assert "1:" in lines[1] and "5:" in lines[-1]
    assert len(lines) > 2


def test_narrow_widths_do_not_break_rendering() -> None:
    for width in (1, 10, 20):
        assert text(render.table(VIEW, ["A very long nickname indeed", "Bea", "Carl"], width))
        assert "5:" in text(render.hand_lines(VIEW, width))


def test_final_scores_name_the_winner() -> None:
    over = dict(VIEW, phase="over", scores=[12, 510, 30], winners=[1])
    shown = text(render.final_scores(over, ["Ann", "Bea", "Carl"]))
    assert shown.index("Bea") < shown.index("Carl") < shown.index("Ann")
    assert "★ Bea" in shown and "Bea wins the game!" in shown
    mine = text(render.final_scores(dict(over, winners=[0]), ["Ann", "Bea", "Carl"]))
    assert "You win the game!" in mine


@pytest.mark.parametrize("lang", ["pl", "es"])
def test_help_in_the_language_keeps_the_commands_and_fits_the_terminal(lang: str) -> None:
    try:
        i18n.set_language(lang)
        for game, plugin in PLUGINS.items():
            screen = plugin.screen()
            shown = commands.help_text(screen)
            for word in META_COMMANDS:  # typed as they are: never translated
                assert re.search(rf"^  {word} ", shown, re.M), (game, word)
            assert max(len(line) for line in shown.splitlines()) < 80, game
            flat = " ".join(line.strip() for line in shown.splitlines())
            for alias, command in {**screen.aliases, **commands.ALIASES}.items():
                assert f"{alias} = {command}" in shown, (game, alias)  # never cut at its "="
            assert "plant decoy 2" in flat or game != "unicorns"
    finally:
        i18n.set_language("en")


def test_say_and_its_short_form_keep_the_text_as_typed() -> None:
    assert parse("say Good LUCK, Bea", {}) == Action("say", arg="Good LUCK, Bea")
    assert parse('  "Well   played  ', {}) == Action("say", arg="Well   played")
    assert parse("SAY hi", {}) == Action("say", arg="hi")
    for empty in ("say", '"', "say   "):
        with pytest.raises(ParseError, match="say what"):
            parse(empty, {})
    with pytest.raises(ParseError, match="unknown command"):
        parse("sayonara", {})  # a word that begins like it is not talk


def test_say_is_offered_only_where_there_is_someone_to_talk_to() -> None:
    offered = commands.completions("s", SCREEN, {}, [], talk=True)
    assert ("say ", "say something to the table") in offered
    assert all(c != "say " for c, _m in commands.completions("s", SCREEN, {}, []))
    assert "say TEXT" in commands.help_text(SCREEN, talk=True)
    assert "say TEXT" not in commands.help_text(SCREEN, talk=False)

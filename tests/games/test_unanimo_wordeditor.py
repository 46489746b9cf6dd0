"""Unanimo's word editor as pure functions: the mark after every word for as long as it is
there, and what a command typed while it holds words hands in (issue 21: no word lost)."""

from __future__ import annotations

import pytest

from lanparty.games.screens import DraftLeftOutError, ParseError
from lanparty.games.unanimo.fold import normalise
from lanparty.games.unanimo.reading import root_of
from lanparty.games.unanimo.wordeditor import WordEditor

BEACH = 0  # subject card 0: Beach, Plaża, Playa
SIGNS, ROOT = "✗ rejected: not only letters", "✗ rejected: the subject's root"


def editor() -> WordEditor:
    return WordEditor("Beach", BEACH)


def test_every_bad_word_is_marked_wherever_the_cursor_is() -> None:
    lines = ["sand", "r2d2", "beaches", "", "Sand", "x" * 40, "sea"]
    assert editor().marks(lines) == [
        "", SIGNS, ROOT, "", "counts once: as line 1", "✗ cannot be handed in", "",
    ]  # fmt: skip


def test_a_word_past_the_eighth_is_marked_one_too_many() -> None:
    lines = ["sand", "sea", "sun", "waves", "towel", "shells", "wind", "salt", "", "surf"]
    assert editor().marks(lines) == [""] * 9 + ["✗ one word too many (at most 8)"]
    assert editor().problem(lines) == (9, "9 words: at most 8, remove 1")


@pytest.mark.parametrize("lang", ["en", "pl", "es"])
@pytest.mark.parametrize("word", ["beaches", "beach", "playa", "playas", "plaża", "plaże",
                                  "sand", "sunbeach"])  # fmt: skip
def test_the_root_mark_is_the_engines_rule_in_the_tables_language(word: str, lang: str) -> None:
    """The editor asks the engine's own same-root rule, for the table's writing language."""
    engine = root_of(normalise(word, True).bare, BEACH, lang) is not None
    assert (WordEditor("Beach", BEACH, lang=lang).marks([word]) == [ROOT]) is engine


def test_at_a_polish_table_the_polish_root_is_marked_and_not_the_english_one() -> None:
    polish = WordEditor("Plaża (Beach)", BEACH, lang="pl")
    assert polish.marks(["plaże", "beaches"]) == [ROOT, ""]
    assert WordEditor("Beach", BEACH).marks(["plaże", "beaches"]) == ["", ROOT]


def test_words_alone_and_done_hand_in_what_the_editor_holds() -> None:
    lines = ["sand", "", " sea ", "Sand"]
    assert editor().settle(("words", ()), lines) == ("words", ("sand", "sea", "Sand"))
    assert editor().settle(("done",), lines) == ("words", ("sand", "sea", "Sand"))
    assert editor().settle(("words", ()), ["", " "]) == ("words", ())  # none, as asked
    with pytest.raises(ParseError, match="no word in the editor yet"):
        editor().settle(("done",), [""])


def test_what_cannot_be_handed_in_is_said_with_its_line() -> None:
    with pytest.raises(ParseError, match=r"^line 2: the word is longer than 32 characters \("):
        editor().settle(("words", ()), ["sand", "x" * 40])
    with pytest.raises(ParseError, match="9 words: at most 8"):
        editor().settle(("done",), [f"w{c}" for c in "abcdefghi"])


def test_a_line_of_words_that_leaves_out_the_editors_is_asked_about() -> None:
    holding = ["Żaba", "sand"]
    line = ("words", ("SAND", "zaba", "sea"))  # the same words, as the reading compares them
    assert editor().settle(line, holding) == line
    assert editor().settle(("words", ("sea",)), ["", ""]) == ("words", ("sea",))
    with pytest.raises(DraftLeftOutError) as asked:
        editor().settle(("words", ("sea", "sand")), holding)
    assert asked.value.move == ("words", ("sea", "sand"))
    assert str(asked.value) == "Your editor holds “Żaba”, which this line leaves out."


def test_other_moves_are_left_alone() -> None:
    assert editor().settle(("vote", "keep"), ["sand"]) == ("vote", "keep")

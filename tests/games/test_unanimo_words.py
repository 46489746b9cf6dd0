"""Unanimo words: the normalisation (case, spaces, accents, Polish and Spanish letters), what
cannot be handed in, what the reading rejects, the same-root rule and the version pin."""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import unicodedata

import pytest
from unanimo_rig import Rig

from lanparty.games.unanimo import NORMALISATION_VERSION, UNANIMO, fold, roots, subjects
from lanparty.games.unanimo.fold import MAX_LENGTH, WordError, normalise
from protocol.contract import IllegalMove, OptionError


def key(text: str, fold_accents: bool = True) -> str:
    return normalise(text, fold_accents).key


# ----------------------------------------------------------------------------- matching


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Sand", "sand"),
        ("SAND", "sAnD"),
        ("  ice   cream ", "ice cream"),
        ("ice\u00a0cream", "ice cream"),  # a no-break space is a space
        ("rock’n’roll", "rock'n'roll"),  # curly apostrophes are straight ones
        ("well\u2010known", "well-known"),  # so are the other hyphens
        ("ŻÓŁW", "żółw"),  # Polish capitals
        ("ĄĆĘŁŃÓŚŹŻ", "ąćęłńóśźż"),
        ("NIÑO", "niño"),  # Spanish capitals
        ("ÁÉÍÓÚÜÑ", "áéíóúüñ"),
        ("z\u0307aba", "żaba"),  # an accent typed on its own counts as the accented letter
        ("Z\u0307ABA", "żaba"),
        ("nin\u0303o", "niño"),
        ("I\u0307", "i"),
    ],
)
def test_same_word_with_or_without_fold_accents(a: str, b: str) -> None:
    assert key(a, True) == key(b, True)
    assert key(a, False) == key(b, False)


@pytest.mark.parametrize(
    ("accented", "plain"),
    [("żaba", "zaba"), ("Żółw", "zolw"), ("niño", "nino"), ("café", "cafe"), ("ÑANDÚ", "nandu"),
     ("Œuvre", "oeuvre"), ("łódź", "lodz"), ("pingüino", "pinguino")],
)  # fmt: skip
def test_fold_accents_on_ignores_accents_and_off_keeps_them(accented: str, plain: str) -> None:
    assert key(accented, True) == key(plain, True) == plain
    assert key(accented, False) != key(plain, False)
    assert key(accented, False) == key(accented.upper(), False)  # but case is still folded


def test_sharp_s_is_ss_only_when_accents_are_ignored() -> None:
    assert key("Straße", True) == key("STRASSE", True) == "strasse"
    assert key("Straße", False) == "straße" != key("strasse", False)


def test_different_words_stay_different() -> None:
    assert key("Newspaper") != key("Newspapers")
    assert key("Skates") != key("Roller skates")
    assert key("ice cream") != key("icecream") != key("ice-cream")


def test_the_clean_form_keeps_case_and_composes_accents() -> None:
    w = normalise("  Z\u0307aba   Wielka ", False)
    assert (w.clean, w.key, w.bare, w.letters_only) == ("Żaba Wielka", "żaba wielka",
                                                        "zaba wielka", True)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("жаба", "U+0436"),  # another alphabet
        ("🐞", "U+1F41E"),  # emoji
        ("a\tb", "U+0009"),  # control characters
        ("a\nb", "U+000A"),
        ("zero\u200bwidth", "U+200B"),  # format characters
        ("\u202eevil", "U+202E"),
        ("soft\u00adhyphen", "U+00AD"),
        ("x\u0301", "makes no letter"),  # no x with an acute in the table
        ("\u0301a", "makes no letter"),  # an accent on nothing
        ("", "is empty"),
        ("   ", "is empty"),
        ("a" * (MAX_LENGTH + 1), f"longer than {MAX_LENGTH}"),
        (" " * 60 + "abcde", "longer than 64 characters as typed"),
    ],
)
def test_words_that_cannot_be_handed_in(text: str, reason: str) -> None:
    with pytest.raises(WordError, match=re.escape(reason)):
        normalise(text, True)


def test_longest_word_and_trimmed_spaces_are_fine() -> None:
    assert len(key("  " + "b" * MAX_LENGTH + "  ")) == MAX_LENGTH


@pytest.mark.parametrize("text", ["42", "R2-D2", "a+b", "100%", "¡hola!", "-", "'", "€uro"])
def test_digits_and_signs_can_be_handed_in_but_are_not_letters_only(text: str) -> None:
    assert not normalise(text, True).letters_only


@pytest.mark.parametrize("text", ["sand", "rock'n'roll", "well-known", "ice cream", "Żółć"])
def test_letters_spaces_hyphens_apostrophes_are_letters_only(text: str) -> None:
    assert normalise(text, True).letters_only


def test_fold_table_agrees_with_unicode_on_this_python() -> None:
    """The table is written out by hand; check each row against this Python's Unicode data
    (the game itself never asks unicodedata: its tables change between releases)."""
    for small, base in fold._BASE.items():
        assert small.isprintable() and len(base) in (1, 2)
        nfd = unicodedata.normalize("NFD", small)
        if len(nfd) == 2:  # an accented letter: its base is what NFD starts with
            assert base == nfd[0] and (nfd[0], nfd[1]) in fold._COMPOSE
    for (letter, mark), made in fold._COMPOSE.items():
        assert unicodedata.normalize("NFC", letter + mark) == made
    for ch, small in fold._LOWER.items():
        if ch not in "İſ":
            assert ch.lower() == small
    assert "import unicodedata" not in inspect.getsource(fold)


def test_every_polish_and_spanish_letter_is_in_the_table() -> None:
    for letter in "ąćęłńóśźżĄĆĘŁŃÓŚŹŻáéíóúüñÁÉÍÓÚÜÑ":
        assert normalise(letter, True).letters_only


# The tables every key and every rejection depend on. If this digest changes, words may
# match differently than on an older program: raise NORMALISATION_VERSION, then update it.
PINNED = (2, "e93a6ea45b26dc9d1462de7bf9755c0fe710507ef7ba6573d3d485ec7c7ade4e")


def test_the_matching_tables_are_pinned_by_the_version() -> None:
    blob = json.dumps(
        [sorted(fold._LOWER.items()), sorted(fold._BASE.items()),
         sorted([list(k), v] for k, v in fold._COMPOSE.items()), fold._SPACES,
         fold._APOSTROPHES, fold._HYPHENS, fold._SYMBOLS, fold.MAX_LENGTH, fold.MAX_TYPED,
         roots.ENDINGS, sorted((k, sorted(v)) for k, v in roots.DERIVATIONS.items()),
         sorted((k, sorted(v)) for k, v in roots.LITTLE.items()),
         sorted((k, sorted((h, sorted(w)) for h, w in v.items()))
                for k, v in roots.FALSE_FRIENDS.items()),
         roots.MIN_STEM, roots.MIN_REST, roots.LONG_HEAD,
         subjects.SUBJECTS],
        ensure_ascii=True,
    )  # fmt: skip
    digest = hashlib.sha256(blob.encode()).hexdigest()
    assert (NORMALISATION_VERSION, digest) == PINNED


def test_a_table_with_another_normalisation_is_refused_clearly() -> None:
    full = UNANIMO.validate_options({})
    assert full["norm"] == NORMALISATION_VERSION
    other = NORMALISATION_VERSION + 1
    with pytest.raises(OptionError) as err:
        UNANIMO.validate_options({**full, "norm": other})
    assert err.value.option == "norm"
    assert err.value.reason == (
        f"this table matches words with normalisation {other}; "
        f"this program has {NORMALISATION_VERSION}"
    )
    with pytest.raises(OptionError, match="must be int"):
        UNANIMO.validate_options({"norm": "1"})


# The same-root rule's cases are in test_unanimo_roots.py.


# ----------------------------------------------------------------------------- in play


def test_check_refuses_words_it_cannot_compare_naming_the_word() -> None:
    rig = Rig(3)
    rig.draw("Beach")
    st = rig.state
    with pytest.raises(IllegalMove, match=r"word 2 \('жаба'\) has a character"):
        UNANIMO.check(st, 0, ("words", ("sand", "жаба")))
    with pytest.raises(IllegalMove, match="at most 8 words, not 9"):
        UNANIMO.check(st, 0, ("words", tuple(f"w{i}" for i in "abcdefghi")))
    with pytest.raises(IllegalMove, match="list of texts"):
        UNANIMO.check(st, 0, ("words", ("sand", 3)))
    with pytest.raises(IllegalMove, match=r"word 1 .* is empty"):
        UNANIMO.check(st, 0, ("words", (" ",)))
    UNANIMO.check(st, 0, ("words", ("sand", "42", "Plaża", "sand")))  # the reading judges these


def test_rejected_words_score_nothing_and_say_why() -> None:
    rig = Rig(3)
    rig.play_card(
        "Beach",
        {0: ("sand", "42", "beaches", "a+b"), 1: ("Sand", "42", "beaches", "a+b"),
         2: ("SAND", "42", "Plaża", "a+b")},
    )  # fmt: skip
    assert rig.reading() == [
        ("sand", (0, 1, 2), 3, None),
        ("42", (0, 1, 2), 0, "symbols"),
        ("beaches", (0, 1), 0, "root"),
        ("a+b", (0, 1, 2), 0, "symbols"),
        ("Plaża", (2,), 0, None),  # not the table's language (English): no root of Beach
    ]
    assert rig.state.scores == [3, 3, 3]


def test_matching_follows_the_fold_accents_option() -> None:
    for fold_accents in (True, False):
        rig = Rig(3, fold_accents=fold_accents)
        rig.play_card("Frog", {0: ("kałuża",), 1: ("kaluza",), 2: ("KAŁUŻA",)})
        if fold_accents:
            assert rig.state.scores == [3, 3, 3]
        else:  # kałuża (seats 0 and 2) and kaluza (seat 1) are two words
            assert rig.state.scores == [2, 0, 2]
            assert [(w, ws) for w, ws, _, _ in rig.reading()] == [
                ("kałuża", (0, 2)),
                ("kaluza", (1,)),
            ]

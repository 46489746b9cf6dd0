"""Unanimo's same-root rule, its subjects and its word lists, by the rules' decisions
(``/work/shared/rules/unanimo.md``, "Matching and scoring" and "The writing language"):

    words with the same root as the card's subject: Decision: rejected automatically when
    the normalised word and the subject share their stem, or the word begins or ends with
    the subject's stem (compounds: "sunshine" for Sun, "teapot" for Tea, "babies" for Baby),
    for subjects of any length, in each of the three languages; a stem met only inside a
    word ("street" for Tree) does not count.

    ... a table has one writing language ... the root rule and the bots use it.
"""

from __future__ import annotations

import pytest
from unanimo_rig import Rig, card

from lanparty.games.unanimo.associations import BY_LANGUAGE, ideas
from lanparty.games.unanimo.fold import normalise
from lanparty.games.unanimo.reading import root_of
from lanparty.games.unanimo.roots import parts, same_root, stems
from lanparty.games.unanimo.subjects import LANGUAGES, SUBJECTS


def rejected(word: str, subject: str, lang: str) -> bool:
    """Whether the rule rejects ``word`` for a subject named ``subject`` at a table writing
    in ``lang``."""
    name = parts(normalise(subject, True).bare, lang)
    return same_root(normalise(word, True).bare, name, lang) is not None


# (word, the subject's name in the table's language, rejected?)
CASES: dict[str, list[tuple[str, str, bool]]] = {
    "en": [
        # the cases: compounds and inflections of short subjects
        ("babies", "Baby", True), ("sunshine", "Sun", True), ("sunglasses", "Sun", True),
        ("teapot", "Tea", True), ("keyhole", "Key", True), ("babysitter", "Baby", True),
        # a stem met only inside a word no longer counts
        ("street", "Tree", False), ("tarantula", "Ant", False),
        # short heads: what would be silly over-reach
        ("babble", "Baby", False), ("teacher", "Tea", False), ("team", "Tea", False),
        ("tremble", "Tree", False), ("monkey", "Key", False), ("police", "Ice cream", False),
        ("sunday", "Sun", False), ("catch", "Cat", False), ("train", "Rain", False),
        ("winning", "Wine", False), ("planning", "Plane", False), ("planet", "Plane", False),
        ("climbed", "Bed", False), ("working", "King", False), ("knight", "Night", False),
        # the same stem
        ("cats", "Cat", True), ("trees", "Tree", True), ("dancing", "Dance", True),
        ("dancer", "Dance", True), ("shoes", "Shoe", True), ("wines", "Wine", True),
        ("stars", "Star", True), ("glasses", "Glasses", True), ("glass", "Glasses", True),
        ("booking", "Book", True), ("swim", "Swimming pool", True), ("sunny", "Sun", True),
        ("rainy", "Rain", True),
        # compounds beginning or ending with the subject
        ("swimsuit", "Swimming pool", True), ("cupcake", "Cake", True),
        ("hotdogs", "Dog", True), ("sunbeds", "Bed", True), ("bonfire", "Fire", True),
        ("midnight", "Night", True), ("kingdom", "King", True), ("beehive", "Bee", True),
        # any part of the word, any part of the subject; a part of a compound subject
        ("sun cream", "Sun", True), ("cream", "Ice cream", True), ("snow", "Snowman", True),
        ("man", "Snowman", False),
        ("ball", "Football", True), ("hives", "Bee", False), ("gate", "Cat", False),
        # a false friend of one subject is no friend of another
        ("carrots", "Carrot", True), ("police", "Police", True), ("monkeys", "Monkey", True),
        ("carrot", "Car", False), ("teachers", "Teacher", True),
    ],
    "pl": [
        ("koty", "Kot", True), ("kotek", "Kot", True), ("gwiazdy", "Gwiazda", True),
        ("gwiazdka", "Gwiazda", True), ("plaże", "Plaża", True), ("ogrody", "Ogród", True),
        ("pszczoły", "Pszczoła", True), ("Ślimaki", "Ślimak", True), ("konie", "Koń", True),
        ("piesek", "Pies", True), ("herbaty", "Herbata", True), ("łodzie", "Łódź", True),
        # derivations of short heads
        ("konik", "Koń", True), ("zimowy", "Zima", True), ("sernik", "Ser", True),
        ("deszczowy", "Deszcz", True), ("górski", "Góra", True), ("lodowy", "Lody", True),
        ("piłkarz", "Piłka nożna", True), ("czar", "Czarownica", True),
        # short heads where Polish words begin by chance
        ("koniec", "Koń", False), ("kotlet", "Kot", False), ("serce", "Ser", False),
        ("gorący", "Góra", False), ("królik", "Król", False), ("lodówka", "Lody", False),
        ("zimno", "Zima", False), ("psy", "Pies", False), ("piasek", "Plaża", False),
        ("śnieg", "Zima", False), ("lot", "Samolot", False), ("czar", "Czarownica", True),
        ("deska", "Deskorolka", True),
    ],
    "es": [
        ("estrellas", "Estrella", True), ("perritos", "Perro", True), ("gatos", "Gato", True),
        ("playas", "Playa", True), ("abejas", "Abeja", True), ("cafés", "Café", True),
        ("monos", "Mono", True), ("reyes", "Rey", True), ("nieve", "Muñeco de nieve", True),
        # derivations and compounds, subjects of any length (Té has two letters)
        ("tetera", "Té", True), ("té verde", "Té", True), ("soleado", "Sol", True),
        ("girasol", "Sol", True), ("panadero", "Pan", True), ("panadería", "Pan", True),
        ("cafetera", "Café", True), ("lluvioso", "Lluvia", True), ("jardinero", "Jardín", True),
        ("lunar", "Luna", True), ("arco", "Arcoíris", True), ("orden", "Ordenador", True),
        # where Spanish words begin by chance
        ("soldado", "Sol", False), ("solo", "Sol", False), ("pantalla", "Pan", False),
        ("teléfono", "Té", False), ("tema", "Té", False), ("lunes", "Luna", False),
        ("tesoro", "Oro", False), ("monopatín", "Mono", False), ("tarántula", "Araña", False),
        ("de", "Muñeco de nieve", False), ("camping", "Tienda de campaña", False),
        ("arena", "Playa", False), ("leche", "Café", False),
    ],
}  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "word", "subject", "shared"),
    [(lang, *case) for lang, cases in CASES.items() for case in cases],
)
def test_the_same_root_rule_in_each_language(
    lang: str, word: str, subject: str, shared: bool
) -> None:
    """Rules, "Matching and scoring": the same-root decision, case by case."""
    assert rejected(word, subject, lang) is shared


def test_stems_drop_an_ending_of_the_language_and_keep_three_letters() -> None:
    assert stems("swimming", "en") == {"swimming", "swim"}
    assert stems("babies", "en") == {"babies", "baby"}
    assert stems("dancing", "en") == {"dancing", "danc", "dance"}
    assert stems("glass", "en") == {"glass"}  # no plural ending after s
    assert stems("tea", "en") == {"tea"}  # nothing may go: fewer than 3 letters left
    assert stems("gwiazdka", "pl") == {"gwiazdka", "gwiazd", "gwiazdk"}
    assert stems("estrellitas", "es") >= {"estrell", "estrellita"}


def test_only_the_table_s_language_is_compared() -> None:
    """Rules, "The writing language": the root rule uses the table's writing language (a
    Polish word at an English table is no word of the subject's, and the other way round)."""
    beach = card("Beach")
    assert root_of("plaza", beach, "pl") == "plaza"
    assert root_of("plaza", beach, "en") is None
    assert root_of("beaches", beach, "pl") is None
    assert root_of("beaches", beach, "en") == "beach"
    assert root_of("playas", beach, "es") == "playa"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_at_least_110_subjects_in_each_language(lang: str) -> None:
    """Rules, "Components": "at least 110 subjects, each in English, Polish and Spanish"."""
    names = [s[LANGUAGES.index(lang)] for s in SUBJECTS]
    assert len(names) >= 110 and all(n.strip() for n in names)
    assert len({normalise(n, True).key for n in names}) == len(names)  # no card twice


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_subject_has_associations_none_of_which_the_rule_rejects(lang: str) -> None:
    """Rules, "The writing language": the bots write in the table's language; the word
    list never suggests a word that the root rule rejects for its subject (issue 21: the
    English list suggested "sunglasses" for Sun and "teapot" for Tea)."""
    assert set(BY_LANGUAGE[lang]) == {s[0] for s in SUBJECTS}
    for i in range(len(SUBJECTS)):
        words = ideas(i, lang)
        assert len(words) >= 8, (lang, SUBJECTS[i])
        for word in words:
            w = normalise(word, True)
            assert w.letters_only, (lang, word)
            assert root_of(w.bare, i, lang) is None, (lang, SUBJECTS[i], word)


def test_the_reading_rejects_by_the_table_s_language() -> None:
    """A Polish table rejects "plaże" for Plaża and scores "beaches"; an English one the
    other way round."""
    words = {0: ("plaże", "beaches"), 1: ("plaże", "beaches"), 2: ("morze",)}
    for lang, root in (("pl", "plaże"), ("en", "beaches")):
        rig = Rig(3, words=lang)
        rig.play_card("Beach", words)
        said = {w: why for w, _, _, why in rig.reading()}
        assert said[root] == "root" and list(said.values()).count(None) == 2, lang

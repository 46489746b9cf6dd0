"""The rules texts in Polish and Spanish: one per game and language, the same sections and
the same options, commands and values as the English text, and ``rules_text`` finds them."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from lanparty.games import GAMES, options_text, rules_language, rules_text

RULES = Path(str(resources.files("lanparty.games").joinpath("rules")))
LANGS = ("pl", "es")
ALL = ("kato", "unanimo", "unicorns", "unikato")  # every game, registered on this branch or not
BACKTICKED = re.compile(r"`([^`]+)`")


def _sections(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("## ")]


def _one_line(text: str) -> str:
    return " ".join(text.split())  # the texts wrap anywhere


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ALL)
def test_every_game_has_its_rules_in_each_language(name: str, lang: str) -> None:
    english = (RULES / f"{name}.md").read_text("utf-8")
    text = (RULES / lang / f"{name}.md").read_text("utf-8")
    assert text.startswith("# "), "one title first"
    assert len(_sections(text)) == len(_sections(english))
    assert len(re.findall(r"^### ", text, re.M)) == len(re.findall(r"^### ", english, re.M))
    # Options, commands and values are typed as in the English program: every one the English
    # text names is named here too (except a hand-written options list the English may keep).
    named = set(BACKTICKED.findall(english.split("\n## Options\n", 1)[0]))
    missing = named - set(BACKTICKED.findall(text))
    assert not missing, missing
    assert "Table options" not in text and "## Opcje" not in text and "## Opciones" not in text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_rules_text_reads_the_language_and_lists_every_option(name: str, lang: str) -> None:
    body = (RULES / lang / f"{name}.md").read_text("utf-8").rstrip()
    text = rules_text(name, lang)
    assert text.startswith(body + "\n\n")
    options = text[len(body) :]
    assert options == "\n\n" + options_text(name, GAMES[name].option_specs, lang)
    heading = {"pl": "## Opcje stołu", "es": "## Opciones de la mesa"}[lang]
    assert _sections(options) == [heading]
    assert f"lanparty play {name} --option" in options
    for spec in GAMES[name].option_specs:
        assert len(re.findall(rf"^- `{spec.name}` ", text, re.M)) == 1, spec.name
    # a locale's name reads the same text
    assert rules_text(name, {"pl": "pl_PL.UTF-8", "es": "es_ES.UTF-8"}[lang]) == text


@pytest.mark.parametrize("lang", ["", "de", "xx_YY.UTF-8", "../pl", "EN", "C", "pl/../.."])
def test_an_unknown_language_falls_back_to_english(lang: str) -> None:
    for name in GAMES:
        assert rules_text(name, lang) == rules_text(name) == rules_text(name, "en")
    assert rules_language(lang) == "en"


def test_a_missing_file_falls_back_to_english(monkeypatch: pytest.MonkeyPatch) -> None:
    import lanparty.games as games

    monkeypatch.setattr(games, "RULES_LANGUAGES", ("en", "pl", "es", "fr"))
    assert rules_language("fr_FR") == "fr"
    monkeypatch.setitem(games._OPTION_WORDS, "fr", games._OPTION_WORDS["en"])
    for name in GAMES:
        assert rules_text(name, "fr") == rules_text(name)


def test_the_polish_kato_text_uses_the_polish_card_names() -> None:
    text = _one_line(rules_text("kato", "pl"))
    for word in (
        "Pomiń",
        "Zmień kierunek",
        "Dobierz dwie",
        "Dobierz cztery",
        "Zmiana koloru",
        "Pachołek drogowy",
        "KaTO",
        "czerwon",
        "żółt",
        "zielon",
        "niebiesk",
    ):
        assert word in text, word
    prose = BACKTICKED.sub("", text.split("## Opcje stołu")[0])
    for english in ("Skip", "Reverse", "Draw Two", "Draw Four", "Wild", "cone"):
        assert english not in prose, english


def test_the_spanish_unicorns_text_uses_the_seed_terms() -> None:
    text = _one_line(rules_text("unicorns", "es"))
    for word in (
        "unicornio",
        "cartas de caza",
        "esquema",
        "mercado negro",
        "primer jugador",
        "Carnicero Unicornio",
        "Cuerno falso",
        "Algodón de azúcar",
        "Fairy Dust",  # the seed keeps these two names in English
        "Paté",
        "Unicornio apestoso",
        "Trojan Unicorn",
        "Arcoíris",
        "arcoíris doble",
        "Princesa",
        "Chamán",
        "Caballero",
        "Mago",
        "legendario",
        "gnomos",
        "oro",
    ):
        assert word.lower() in text.lower(), word
    prose = BACKTICKED.sub("", text.split("## Opciones de la mesa")[0])
    for english in ("Hunt card", "Scheme", "Black market", "Rainbow", "Butcher", "Shaman"):
        assert english not in prose, english


def test_the_package_data_ships_the_translations() -> None:
    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    assert '"rules/*/*.md"' in pyproject.read_text("utf-8")

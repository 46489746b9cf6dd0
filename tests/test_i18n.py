"""The catalogues: every message marked in the code has an entry in each language (none
missing, none stale, none fuzzy, placeholders kept), Polish plurals, and the choice of the
language (environment, ``--lang``, silent fallback to English)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from lanparty import i18n
from lanparty.commands.main import main
from lanparty.games import GAMES

pytestmark = pytest.mark.xdist_group("i18n")  # one worker: its module fixture is costly

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "lanparty" / "locale"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

Key = tuple[str | None, str]


def _code_messages() -> dict[Key, str | None]:
    """Every marked message in ``lanparty/``: (context, msgid) → msgid_plural (or None)."""
    found: dict[Key, str | None] = {}
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT / "lanparty"), [("**.py", "python")], keywords=DEFAULT_KEYWORDS
    ):
        ids = message if isinstance(message, tuple) else (message,)
        found[(context, ids[0])] = ids[1] if len(ids) > 1 else None
    return found


def _catalogue(path: Path) -> dict[Key, object]:
    with path.open("rb") as f:
        catalog = read_po(f)
    out: dict[Key, object] = {}
    for m in catalog:
        if not m.id:
            continue
        assert not m.fuzzy, f"{path.name}: fuzzy {m.id!r}"
        key = (m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
        out[key] = m
    return out


CATALOGUES = [LOCALE / "lanparty.pot"] + [
    LOCALE / lang / "LC_MESSAGES" / "lanparty.po" for lang in i18n.LANGUAGES
]


@pytest.fixture(scope="module")
def code() -> dict[Key, str | None]:
    return _code_messages()


def test_there_are_messages(code: dict[Key, str | None]) -> None:
    assert (None, "Skip") in code and len(code) > 100


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_every_message_has_an_entry_and_no_entry_is_stale(
    path: Path, code: dict[Key, str | None]
) -> None:
    entries = _catalogue(path)
    assert sorted(set(code) - set(entries), key=str) == [], "missing: run pybabel extract/update"
    assert sorted(set(entries) - set(code), key=str) == [], "stale: run pybabel update"


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_translations_are_complete_and_keep_the_placeholders(lang: str) -> None:
    for (context, msgid), m in _catalogue(LOCALE / lang / "LC_MESSAGES" / "lanparty.po").items():
        ids = m.id if isinstance(m.id, tuple) else (m.id,)  # type: ignore[attr-defined]
        forms = m.string if isinstance(m.string, tuple) else (m.string,)  # type: ignore[attr-defined]
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        assert sorted(set(PLACEHOLDER.findall(ids[0]))) == wanted, msgid
        for form in forms:
            assert form, f"{lang}: untranslated {context or ''} {msgid!r}"
            assert sorted(set(PLACEHOLDER.findall(form))) == wanted, f"{lang}: {form!r}"


def test_polish_plurals() -> None:
    i18n.set_language("pl")
    counts = (1, 2, 4, 5, 12, 22, 25, 112)
    said = [i18n.ngettext("{n} card", "{n} cards", n).format(n=n) for n in counts]
    assert said == [
        "1 karta", "2 karty", "4 karty", "5 kart", "12 kart", "22 karty", "25 kart", "112 kart"
    ]  # fmt: skip


def test_spanish_plurals() -> None:
    i18n.set_language("es")
    assert [i18n.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 2)] == [
        "1 carta", "2 cartas"
    ]


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "es_ES.UTF-8", "LC_ALL": "pl_PL.UTF-8"}, "pl"),
        ({"LANGUAGE": "de:es", "LANG": "pl_PL.UTF-8"}, "es"),
        ({"LC_MESSAGES": "es_AR.utf8"}, "es"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert i18n.detect(environ) == lang


def test_an_unknown_language_is_english_silently() -> None:
    assert i18n.set_language("xx") == "en"
    assert i18n._("Skip") == "Skip"
    assert i18n.set_language("PL") == "pl"
    assert i18n._("Skip") == "Pomiń"


def test_lang_xx_falls_back_to_english_without_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "kato"]) == 0
    english = capsys.readouterr()
    assert main(["--lang", "xx", "rules", "kato"]) == 0
    assert capsys.readouterr() == english
    assert main(["rules", "kato", "--lang=xx"]) == 0
    assert capsys.readouterr() == english
    assert english.err == ""


def test_lang_option_switches_the_language() -> None:
    main(["--lang", "es", "rules", "kato"])
    assert i18n.language() == "es"
    main(["rules", "kato", "--lang", "pl"])
    assert i18n.language() == "pl"


def test_kato_card_names_in_polish_and_spanish() -> None:
    from lanparty.games.kato.narrate import card_name

    labels = ["gS", "rR", "b+2", "W", "W+4", "cone", "y7"]
    i18n.set_language("pl")
    assert [card_name(x) for x in labels] == [
        "Zielona Pomiń", "Czerwona Zmień kierunek", "Niebieska Dobierz dwie", "Zmiana koloru",
        "Dobierz cztery", "Pachołek drogowy", "Żółta 7",
    ]  # fmt: skip
    i18n.set_language("es")
    assert card_name("y7") == "7 amarillo"
    i18n.set_language("en")
    assert card_name("gS") == "Green Skip"


def test_command_line_errors_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    known = ", ".join(sorted(GAMES))
    assert main(["--lang", "pl", "play", "chess"]) == 2
    assert capsys.readouterr().err == f"lanparty play: błąd: nieznana gra 'chess'; znane: {known}\n"
    assert main(["play", "chess", "--lang", "es"]) == 2
    assert capsys.readouterr().err == (
        f"lanparty play: error: juego desconocido 'chess'; conocidos: {known}\n"
    )
    assert main(["--lang", "xx", "play", "chess"]) == 2
    english = f"lanparty play: error: unknown game 'chess'; known: {known}\n"
    assert capsys.readouterr().err == english


def _binds_and_calls_underscore(tree: ast.AST) -> list[str]:
    """Functions that call ``_()`` and also bind ``_`` themselves (``for _ in``, ``a, _ =``):
    there ``_`` is a local and the call fails with ``UnboundLocalError``."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        binds = calls = False
        todo: list[ast.AST] = list(ast.iter_child_nodes(fn))
        while todo:
            node = todo.pop()
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(node, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp):
                continue  # a comprehension's variable is its own
            if isinstance(node, ast.Name) and node.id == "_":
                binds = binds or isinstance(node.ctx, ast.Store)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                calls = calls or node.func.id == "_"
            todo.extend(ast.iter_child_nodes(node))
        if binds and calls:
            found.append(f"{fn.name} (line {fn.lineno})")
    return found


def test_no_function_hides_the_translation_function() -> None:
    for path in sorted((ROOT / "lanparty").rglob("*.py")):
        assert _binds_and_calls_underscore(ast.parse(path.read_text())) == [], path
    hidden = "def f():\n    for _ in x:\n        pass\n    return _('a')\n"
    assert _binds_and_calls_underscore(ast.parse(hidden)) == ["f (line 1)"]


def test_help_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "--help"])
    said = capsys.readouterr().out
    assert "zagraj w tym terminalu przeciwko botom" in said
    assert "język komunikatów: en, pl, es" in said
    with pytest.raises(SystemExit):
        main(["play", "--help", "--lang=es"])
    assert "sin red ni criptografía" in capsys.readouterr().out


def test_the_rules_are_shown_in_the_readers_language() -> None:
    from lanparty.games import rules_for_reader, rules_text

    i18n.set_language("pl")
    assert rules_for_reader("kato") == rules_text("kato", "pl") != rules_text("kato", "en")
    i18n.set_language("en")
    assert rules_for_reader("kato").startswith("# KaTO")


def test_what_a_seat_owes_is_told_as_the_network_layer_tells_it() -> None:
    from types import SimpleNamespace
    from typing import Any

    from lanparty.net.node import _WHAT, describe
    from lanparty.table.networked import waiting_for
    from lanparty.table.stopwords import OWED

    assert OWED == _WHAT  # one list of words, told in two places
    carl = SimpleNamespace(name="Carl")
    table = SimpleNamespace(member_at=lambda s: carl if s == 2 else None)
    party: Any = SimpleNamespace(table=table)
    for kind in [*_WHAT, "unknown"]:
        for seat in (2, 3):
            assert waiting_for(party, seat, kind) == f"waiting for {describe(party, seat, kind)}"
    i18n.set_language("pl")
    assert waiting_for(party, 2, "shuffle") == "czekamy na: tasowanie — Carl (miejsce 2)"

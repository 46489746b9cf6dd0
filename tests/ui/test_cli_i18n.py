"""The command line in Polish and Spanish: every command's ``--help`` (argparse's headings and
errors included, from our catalogue) with no English help left, the table options' help in
``lanparty rules``, the games' refusals of a bad option, and argparse left as it was for any
other parser in the process."""

from __future__ import annotations

import argparse
import ast
import gettext
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from lanparty import i18n
from lanparty.commands import argwords
from lanparty.commands import main as cli
from lanparty.games import GAMES, optionwords

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("pl", "es")
HEADINGS = {"pl": ("użycie: lanparty", "opcje:"), "es": ("uso: lanparty", "opciones:")}
PERCENT = re.compile(r"%(?:\(\w+\))?[sr]")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own exits (help, usage errors)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _helps(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str]]:
    """(command, text) of every help, description and epilog of ``parser`` and its
    subparsers."""
    yield "", parser.description or ""
    yield "", parser.epilog or ""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield "", str(choice.help)
            for name, sub in action.choices.items():
                for where, text in _helps(sub):
                    yield f"{name}{where}", text
        elif action.help not in (None, argparse.SUPPRESS):
            yield action.dest, str(action.help)


@pytest.mark.parametrize("lang", LANGS)
def test_no_help_is_left_in_english(lang: str) -> None:
    i18n.set_language("en")
    english = list(_helps(cli.build_parser()))
    i18n.set_language(lang)
    said = list(_helps(cli.build_parser()))
    assert len(said) == len(english) > 100
    for (where, en), (_where, text) in zip(english, said, strict=True):
        if en:
            assert text != en, (lang, where, en)


@pytest.mark.parametrize("lang", LANGS)
def test_every_commands_help_reads_in_the_language(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    usage, options = HEADINGS[lang]
    for argv in [["--help"], *([c.name, "--help"] for c in cli.SUBCOMMANDS)]:
        code, out, _err = run(capsys, "--lang", lang, *argv)
        assert code == 0 and out.startswith(usage) and f"\n{options}\n" in out, (argv, out)
        for english in ("usage:", "positional arguments", "options:", "show this help"):
            assert english not in out, (argv, english)


def test_lanparty_help_in_polish_and_play_help_in_spanish(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _code, out, _err = run(capsys, "--lang", "pl", "--help")
    assert "argumenty pozycyjne:" in out and "pokaż ten komunikat pomocy i zakończ" in out
    assert "zagraj w tym terminalu przeciwko botom" in out
    _code, out, _err = run(capsys, "--lang", "es", "play", "--help")
    assert out.startswith("uso: lanparty play")
    assert "argumentos posicionales:" in out and "muestra este mensaje de ayuda y sale" in out
    assert "semilla de las decisiones de los bots" in out


def test_argparse_errors_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "--lang", "pl", "play")
    assert code == 2
    assert err == "lanparty play: błąd: wymagane są następujące argumenty: GAME " \
                  "(zobacz lanparty play --help)\n"  # fmt: skip
    _code, _out, err = run(capsys, "--lang", "es", "fly")
    assert "opción no válida: 'fly' (elige entre 'lobby'" in err
    _code, _out, err = run(capsys, "play", "kato", "--bots", "many", "--lang", "es")
    assert "argumento --bots: valor int no válido: 'many'" in err
    _code, _out, err = run(capsys, "--lang", "pl", "host", "kato", "--port", "70000")
    assert "argument --port: port to liczba od 0 do 65535" in err
    _code, _out, err = run(capsys, "--lang", "xx", "play")
    assert err.startswith("lanparty play: error: the following arguments are required: GAME")


def test_argparse_is_left_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "--lang", "pl", "--help")
    i18n.set_language("pl")
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]
    other = argparse.ArgumentParser(prog="other")
    assert other.format_help().startswith("usage: other")
    with argwords.in_language():
        assert argparse.ArgumentParser(prog="x").format_help().startswith("użycie: x")
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]


def test_argparses_words_are_its_own_and_keep_their_placeholders() -> None:
    source = Path(argparse.__file__).read_text()
    for message in argwords.MESSAGES:
        assert repr(message) in source or f'"{message}"' in source, message
    for lang in LANGS:
        path = ROOT / "lanparty" / "locale" / lang / "LC_MESSAGES" / "lanparty.po"
        with path.open("rb") as f:
            catalog = read_po(f)
        for message in argwords.MESSAGES:
            said = str(catalog[message].string)
            assert said and sorted(PERCENT.findall(said)) == sorted(PERCENT.findall(message))


# --------------------------------------------------------------------------- table options


@pytest.mark.parametrize("lang", LANGS)
def test_every_options_help_is_translated(lang: str) -> None:
    helps = {spec.help for game in GAMES.values() for spec in game.option_specs}
    assert sorted(helps - set(optionwords.HELP)) == [], "an option's help not in optionwords"
    assert sorted(set(optionwords.HELP) - helps) == [], "optionwords lists a help no game has"
    i18n.set_language(lang)
    for text in helps:
        assert optionwords.option_help(text) != text, (lang, text)


def _option_reasons() -> set[str]:
    """Every reason an ``OptionError`` is raised with in the games, its varying parts as
    ``{}``."""
    found = set()
    for path in (ROOT / "lanparty" / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "OptionError":
                reason = node.args[1]
                if isinstance(reason, ast.Constant):
                    found.add(str(reason.value))
                else:
                    assert isinstance(reason, ast.JoinedStr), ast.dump(reason)
                    found.add("".join(str(p.value) if isinstance(p, ast.Constant) else "{}"
                                      for p in reason.values))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_of_an_option_reads_in_the_language(lang: str) -> None:
    reasons = _option_reasons()
    assert len(reasons) >= 8
    i18n.set_language(lang)
    for shape in reasons:
        sample = shape.replace("{}", "7")
        said = optionwords.reason(sample)
        assert said != sample and "{" not in said, (lang, shape)


def test_option_refusals_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    _code, _out, err = run(capsys, "--lang", "es", "play", "kato", "--option", "target=0")
    assert err == "lanparty play: error: opción 'target': debe ser al menos 1; se dio 0\n"
    _code, _out, err = run(capsys, "--lang", "pl", "play", "kato", "--option", "stacking=7")
    assert "opcja 'stacking': musi być jedną z wartości: seed, off, full; podano 7" in err
    _code, _out, err = run(capsys, "play", "kato", "--option", "target=0")
    assert err == "lanparty play: error: option 'target': must be at least 1, got 0\n"


def test_rules_list_the_options_in_the_language_of_the_environment() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "pl_PL.UTF-8"
    proc = subprocess.run([sys.executable, "-m", "lanparty", "rules", "kato"], env=env,
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    assert "## Opcje stołu" in proc.stdout
    assert "`hand_size` (domyślnie `7`; od 1 do 20): liczba kart rozdawanych każdemu graczowi" \
        in proc.stdout  # fmt: skip
    assert "cards dealt to each player" not in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lang", "pl", "--connect", "127.0.0.1:1"],
         "lanparty join: błąd: nie można połączyć się z 127.0.0.1:1: "),
        (["nosuchtable", "--local", "--timeout", "1", "--lang", "es"],
         "lanparty join: error: no se encontró la mesa abierta 'nosuchtable' en 1 s"),
    ],
)  # fmt: skip
def test_joining_nowhere_is_told_in_the_language(
    tmp_path: Path, args: list[str], message: str
) -> None:
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "lanparty", "join", "--bot", *args], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr

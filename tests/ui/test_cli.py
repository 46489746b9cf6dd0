"""The command line: help, rules, and one-line errors with exit code 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lanparty.commands import main as cli
from lanparty.games import GAMES, rules_text
from protocol import PROTOCOL_VERSION


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = cli.main(list(argv))
    except SystemExit as exc:  # argparse's own exits (help, usage errors)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_prints_the_games_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "rules", "kato")
    assert code == 0
    assert out == rules_text("kato")


@pytest.mark.parametrize("argv", [["--help"], ["play", "--help"], ["rules", "--help"]])
def test_help_on_every_command(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, _ = run_main(capsys, *argv)
    assert code == 0
    assert out.startswith("usage: lanparty")


def test_every_subcommand_is_registered(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_main(capsys, "--help")
    for command in cli.SUBCOMMANDS:
        assert command.name in out and command.help in out


#: What a level that is none, and a list of the wrong length, are told.
ONE_PER_BOT = (
    "a level is one of easy, normal, hard, or one per bot comma-separated (e.g. hard,easy)"
)
LIST = "--level takes one level for every bot, or one per bot comma-separated"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess"], "unknown game 'chess'; known: kato"),
        (["rules", "chess"], "unknown game 'chess'; known: kato"),
        (["play", "kato", "--option", "colours=5"], "option 'colours': unknown option"),
        (["play", "kato", "--option", "target=0"], "option 'target': must be at least 1"),
        (["play", "kato", "--option", "cone_mode=flip"], "option 'cone_mode': must be one of"),
        (["play", "kato", "--option", "target"], "--option wants KEY=VALUE"),
        (["play", "kato", "--bots", "0"], "--bots must be 1 to 9"),
        (["play", "kato", "--bots", "many"], "argument --bots: invalid int value: 'many'"),
        (["play", "kato", "--seed", "1.5"], "argument --seed: invalid int value"),
        (["play", "kato", "--bot-kind", "genius"], "unknown --bot-kind 'genius'"),
        (["play", "kato", "--level", "expert"], "a level is one of easy, normal, hard"),
        (["play", "kato", "--think", "0"], "a think time is a number of seconds above 0"),
        (["host", "kato", "--level", "genius"], "a level is one of easy, normal, hard"),
        (["play", "kato", "--level", "hard,expert"], f"{ONE_PER_BOT}, got 'hard,expert'"),
        (["play", "kato", "--bots", "3", "--level", "hard,easy"], f"{LIST}: 3 levels here"),
        (["play", "kato", "--offline", "--bots", "1", "--level", "hard,easy"], "1 level here"),
        (["host", "kato", "--bots", "2", "--level", "hard,easy,easy"], "2 levels here"),
        (["host", "kato", "--bot", "--bots", "2", "--level", "a,b,c,d"], ONE_PER_BOT),
        (["host", "kato", "--bot", "--bots", "2", "--level", "hard,easy,easy,easy"], "2 levels"),
        (["join", "--bot", "--level", "hard,easy"], "a level is one of easy, normal, hard, got"),
        (["play", "kato", "--bots", "9", "--option", "hand_size=12"], "do not fit in the deck"),
        (["fly"], "invalid choice: 'fly'"),
    ],
)
def test_mistakes_end_in_one_line_and_code_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run_main(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("lanparty")
    assert message in err
    assert "Traceback" not in err


def test_python_dash_m_reports_a_bad_game_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "lanparty", "play", "nosuchgame"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 2
    known = ", ".join(sorted(GAMES))
    assert proc.stderr == f"lanparty play: error: unknown game 'nosuchgame'; known: {known}\n"
    assert proc.stdout == ""


def test_version_names_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("lanparty ") and f"(protocol {PROTOCOL_VERSION})" in out


@pytest.mark.parametrize(("name", "why"), [("x" * 64, "at most 63 characters"),
                                           ("bad\x1bname", "printable text")])  # fmt: skip
def test_a_table_name_that_cannot_be_announced_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path, name, why
) -> None:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    code, _, err = run_main(capsys, "host", "kato", "--bot", "--local", "--name", name)
    assert code == 2
    assert err.startswith("lanparty host: error: a table name is") and why in err
    assert err.count("\n") == 1 and "\x1b" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["host", "kato", "--port", "70000"], "a port is a number from 0 to 65535"),
        (["host", "kato", "--port", "65536"], "a port is a number from 0 to 65535"),
        (["host", "kato", "--port", "99999"], "a port is a number from 0 to 65535"),
        (["host", "kato", "--port=-1"], "a port is a number from 0 to 65535"),
        (["host", "kato", "--port", "http"], "a port is a number from 0 to 65535"),
        (["join", "--connect", "10.0.0.1:70000"], "HOST:PORT with a port from 1 to 65535"),
        (["join", "--connect", "10.0.0.1:0"], "HOST:PORT with a port from 1 to 65535"),
        (["join", "--connect", "10.0.0.1:-1"], "HOST:PORT with a port from 1 to 65535"),
        (["join", "--connect", "10.0.0.1"], "HOST:PORT with a port from 1 to 65535"),
    ],
)
def test_a_port_out_of_range_is_refused_as_it_is_parsed(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # Parsed only: a port that got through would open a table (or dial one) for real.
    with pytest.raises(SystemExit) as exit_info:
        cli.build_parser().parse_args(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"lanparty {argv[0]}: error: argument --")
    assert message in err


@pytest.mark.parametrize(
    "argv", [["host", "kato", "--port", "0"], ["host", "kato", "--port", "65535"],
             ["join", "--connect", "[::1]:65535"], ["join", "--connect", "host.lan:1"]],
)  # fmt: skip
def test_every_port_in_range_is_taken(argv: list[str]) -> None:
    cli.build_parser().parse_args(argv)


def test_ctrl_c_during_an_audit_is_one_line_and_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from lanparty.commands import audit as auditcmd

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(auditcmd, "audit_file", interrupted)
    code, out, err = run_main(capsys, "audit", "some.lptx")
    assert (code, out, err) == (130, "", "lanparty audit: interrupted\n")

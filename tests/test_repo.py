"""Repository invariants: CI runs the README's test command, and the code is lint- and
type-clean (ruff everywhere, mypy --strict on crypto/, protocol/ and lanparty/)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    commands = _readme_commands()
    test_cmd = next(c for c in commands if "pytest" in c)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_cmd in ci


def test_ci_installs_the_pinned_version_of_every_dependency() -> None:
    """``constraints.txt`` pins every dependency of ``pyproject.toml`` (and the dev extra)
    exactly, and ``.ci/run`` installs with it before the README's test command."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and version, line
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    for req in wanted:
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ \[;]", req)[0]).lower()
        assert name in pins, f"{name} is not pinned in constraints.txt"
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index('export PIP_CONSTRAINT="$PWD/constraints.txt"') < ci.index("pytest")


def test_readme_puts_both_commands_near_the_top() -> None:
    text = (ROOT / "README.md").read_text()
    head = "\n".join(text.splitlines()[:40])
    assert "pytest" in head
    assert "lanparty play" in head


def test_ruff_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_is_clean() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_readmes_screens_are_the_goldens() -> None:
    """Each game's screen in the README is its turn at 80×24 as the end-to-end test keeps it
    (tests/ui/goldens): what a new player sees there is what the program draws."""
    readme = (ROOT / "README.md").read_text()
    shown = re.findall(r"^(KaTO|Unikato|Unanimo|Kill the Unicorns)\b[^\n]*:\n\n```\n(.*?)\n```",
                       readme, re.S | re.M)  # fmt: skip
    games = {"KaTO": "kato", "Unikato": "unikato", "Unanimo": "unanimo",
             "Kill the Unicorns": "unicorns"}  # fmt: skip
    assert sorted(title for title, _ in shown) == sorted(games)
    for title, screen in shown:
        golden = (ROOT / "tests" / "ui" / "goldens" / f"{games[title]}.txt").read_text()
        turn = golden.split("=== turn · 80x24 ===\n", 1)[1].split("\n=== ", 1)[0]
        assert screen == turn.rstrip("\n").rstrip(), title

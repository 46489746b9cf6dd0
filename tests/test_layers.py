"""The layers below the games know no game: no game's name in the code of ``protocol/``,
``lanparty/net/``, the generic UI, the sessions or the command-line wiring (comments and
docstrings may give one as an example), and ``protocol/`` imports nothing of ``lanparty``
and ``lanparty/net/`` nothing of the screen. A game is added in its own folder and one line
of registration."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanparty.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
GENERIC = [
    *sorted((ROOT / "protocol").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "net").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "ui").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "table").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "commands").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "replay").rglob("*.py")),
    *sorted((ROOT / "lanparty" / "bench").rglob("*.py")),
    *sorted((ROOT / "lanparty").glob("*.py")),
]
# Every registered game, and the words its name is made of (unicorns → unicorn).
NAMES = sorted({n for g in GAMES for n in (g, g.rstrip("s"))} | {"kato", "unicorn"})
WORD = re.compile(r"\b(" + "|".join(NAMES) + r")s?\b", re.IGNORECASE)
PART = re.compile("|".join(NAMES), re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (first statement of a module, class or
    function, or a string right after an assignment: an attribute's docstring)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            is_str = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            if is_str and (i == 0 or isinstance(body[i - 1], ast.Assign | ast.AnnAssign)):
                out.add(id(stmt.value))
    return out


def _mentions(path: Path) -> Iterator[str]:
    """Every place in ``path``'s code (not its comments or docstrings) naming a game."""
    tree = ast.parse(path.read_text(), str(path))
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and WORD.search(node.value):
                yield f"{line}: string {node.value[:60]!r}"
        elif isinstance(node, ast.Name) and PART.search(node.id):
            yield f"{line}: name {node.id}"
        elif isinstance(node, ast.Attribute) and PART.search(node.attr):
            yield f"{line}: attribute {node.attr}"
        elif isinstance(node, ast.ImportFrom) and PART.search(node.module or ""):
            yield f"{line}: import from {node.module}"
        elif isinstance(node, ast.Import) and any(PART.search(a.name) for a in node.names):
            yield f"{line}: import"
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and PART.search(node.name):
            yield f"{line}: definition {node.name}"


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_code_names_no_game(path: Path) -> None:
    assert list(_mentions(path)) == []


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def test_the_protocol_imports_no_application_and_the_network_no_screen() -> None:
    protocol = {m for p in (ROOT / "protocol").rglob("*.py") for m in _imports(p)}
    assert not [m for m in protocol if m.split(".")[0] == "lanparty"]
    net = {m for p in (ROOT / "lanparty" / "net").rglob("*.py") for m in _imports(p)}
    assert not [m for m in net if m.startswith(("lanparty.ui", "prompt_toolkit"))]


def test_the_check_finds_a_game_name(tmp_path: Path) -> None:
    """The checker itself: a string or a name that names a game is found, a comment is not."""
    sample = tmp_path / "sample.py"
    sample.write_text('# kato in a comment\nx = "play kato"\nunikato_board = 1\n')
    assert [m.split(":")[0] for m in _mentions(sample)] == ["2", "3"]

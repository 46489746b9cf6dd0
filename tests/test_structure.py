"""The shape of the code, as its imports draw it: the layers import downwards only, no two
modules import each other (directly or round a circle), and a game's engine imports nothing
of the screen, the words or the UI.

Every import counts: at the top of a module, inside a function, under ``TYPE_CHECKING``.
The layers, lowest first (docs/development.md has the picture)::

    crypto ← protocol ← lanparty (shared helpers) ← games, net ← table ← ui ← replay
        ← bench ← commands
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from lanparty.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("crypto", "protocol", "lanparty")

#: Each layer and the modules in it (a prefix of the dotted name), lowest first. ``games``
#: and ``net`` stand side by side: neither imports the other.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("crypto", ("crypto",)),
    ("protocol", ("protocol",)),
    ("shared", ("lanparty",)),  # what every part uses: i18n, text, errors, store, ...
    ("games", ("lanparty.games",)),
    ("net", ("lanparty.net",)),
    ("table", ("lanparty.table",)),
    ("ui", ("lanparty.ui",)),
    ("replay", ("lanparty.replay",)),
    ("bench", ("lanparty.bench",)),
    ("commands", ("lanparty.commands", "lanparty.__main__")),
)
SIDE_BY_SIDE = {frozenset({"games", "net"})}
#: What a game's engine (its ``game`` module and all it imports) never imports.
NOT_IN_AN_ENGINE = (
    "prompt_toolkit",
    "lanparty.i18n",
    "lanparty.ui",
    "lanparty.games.screens",
    "lanparty.games.narration",
    "lanparty.table",
    "lanparty.commands",
)


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the project by its dotted name."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_of(path)] = path
    return found


def _imported(module: str, path: Path) -> Iterator[str]:
    """Every module ``module`` imports (absolute names; ``from x import y`` gives ``x.y``
    where that is a module, else ``x``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield full if full in modules() else base


@cache
def graph() -> dict[str, frozenset[str]]:
    """The project's own imports: module → the project modules it imports."""
    mods = modules()
    out = {}
    for name, path in mods.items():
        targets = set()
        for imported in _imported(name, path):
            while imported and imported not in mods:  # a name inside a module: its module
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        out[name] = frozenset(targets)
    return out


def layer_of(module: str) -> str:
    """The layer ``module`` belongs to (the longest prefix wins)."""
    best, length = "", -1
    for layer, prefixes in LAYERS:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = layer, len(prefix)
    assert best, f"{module} is in no layer: add it to LAYERS"
    return best


def _rank(layer: str) -> int:
    return [name for name, _ in LAYERS].index(layer)


def _upward(module: str, target: str) -> bool:
    low, high = layer_of(module), layer_of(target)
    if frozenset({low, high}) in SIDE_BY_SIDE:
        return True  # side by side: neither may import the other
    return _rank(high) > _rank(low)


def test_every_import_points_down_the_layers() -> None:
    upward = sorted(
        f"{m} ({layer_of(m)}) imports {t} ({layer_of(t)})"
        for m, targets in graph().items()
        for t in targets
        if layer_of(m) != layer_of(t) and _upward(m, t)
    )
    assert upward == []


def circles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere() -> None:
    assert circles(graph()) == []


def test_the_circle_finder_finds_one() -> None:
    """The checker itself: a → b → c → a is one circle; a lone self-import is none."""
    edges = {
        "a": frozenset({"b"}),
        "b": frozenset({"c"}),
        "c": frozenset({"a"}),
        "d": frozenset({"d", "a"}),
    }
    assert circles(edges) == [["a", "b", "c"]]


def engine(game: str) -> set[str]:
    """A game's engine: its ``game`` module and every project module that one imports, on
    and on."""
    seen, todo = set(), [f"lanparty.games.{game}.game"]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo += graph().get(m, ())
    return seen


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_games_engine_imports_no_screen_no_words_and_no_ui(game: str) -> None:
    mods = modules()
    found = sorted(
        f"{m} imports {i}"
        for m in engine(game)
        for i in _imported(m, mods[m])
        if i.startswith(NOT_IN_AN_ENGINE)
    )
    assert found == []


@pytest.mark.parametrize("game", sorted(GAMES))
def test_importing_a_games_engine_loads_no_screen_no_words_and_no_ui(game: str) -> None:
    """The same as Python loads it, package ``__init__`` files and entry points included:
    a fresh interpreter that imports the engine has none of those modules."""
    import subprocess
    import sys

    loaded = f"sorted(m for m in sys.modules if m.startswith({NOT_IN_AN_ENGINE!r}))"
    code = f"import sys; import lanparty.games.{game}.game; print({loaded})"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert proc.stdout.strip() == "[]", proc.stdout


def test_below_the_games_nothing_names_a_game_a_bot_a_screen_or_a_command() -> None:
    """``protocol/`` and ``lanparty/net/`` import no game, no bot, no screen, no command."""
    above = ("games", "table", "ui", "replay", "commands")
    for m, targets in graph().items():
        if layer_of(m) in ("crypto", "protocol", "net"):
            assert not [t for t in targets if layer_of(t) in above], m


def test_an_engine_is_gathered_from_its_modules_by_name() -> None:
    """Every registered game's engine is the one adapter, its parts from its own modules;
    a game whose modules lack a part is told which."""
    from types import ModuleType

    from lanparty.games.engine import Engine, gather

    for name, game in GAMES.items():
        assert type(game) is Engine, name
        for part in ("check", "apply", "view", "encode", "decode", "validate"):
            assert getattr(game.rules, part).__module__.startswith(f"lanparty.games.{name}.")
    bare = ModuleType("bare")
    bare.MIN_SEATS, bare.MAX_SEATS, bare.SPECS = 2, 4, ()  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="no module gives validate"):
        gather("toy", GAMES["kato"].moves, lambda n, o: None, bare)


def test_the_command_line_loads_no_screen_until_a_command_needs_one() -> None:
    """Every peer process (a bot, a host's helpers) and every one-shot command starts by
    loading the command line: it loads no prompt-toolkit, no screen module and no Babel
    until a command asks for them (a tenth of a second or more of every start), and no
    zeroconf nor ifaddr until a table is announced or looked for (a seat that joins by
    address never needs them; ifaddr runs ``ldconfig`` as it loads)."""
    import subprocess
    import sys

    heavy = ("prompt_toolkit", "lanparty.ui", "babel", "zeroconf", "ifaddr")
    loaded = f"sorted(m for m in sys.modules if m.startswith({heavy!r}))"
    code = f"import sys; import lanparty.commands.main; print({loaded})"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    assert proc.stdout.strip() == "[]", proc.stdout

"""The games: pure, deterministic rules engines behind ``protocol.contract.Game``.

Each game registers one plugin (:mod:`lanparty.games.plugin`) in the ``lanparty.games`` entry
points; ``GAMES`` is every registered engine by name (generic tests and the simulator iterate
it). Each game's rules text (what ``lanparty rules NAME`` shows) is ``rules_text(NAME)``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from importlib import resources
from typing import Any

from protocol.contract import Game, OptionSpec

from .plugin import GamePlugin, load_plugins

PLUGINS: dict[str, GamePlugin] = load_plugins()
"""Every registered game's plugin, by name."""

GAMES: dict[str, Game[Any]] = {name: p.game for name, p in PLUGINS.items()}
"""Every playable game's engine, by name."""

DEFAULT_GAME = "kato" if "kato" in GAMES else min(GAMES)
"""The game a command plays when none is named (``lanparty bench``, examples in help)."""


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; ``KeyError`` lists the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None


def rules_text(name: str) -> str:
    """The rules of ``name`` in the project's own words (Markdown), ending with every table
    option and its default, listed from the game's ``option_specs`` (so they cannot drift)."""
    game = get_game(name)
    text = resources.files(__name__).joinpath("rules", f"{name}.md").read_text("utf-8")
    return f"{text.rstrip()}\n\n{options_text(name, game.option_specs)}"


def options_text(name: str, specs: Sequence[OptionSpec]) -> str:
    """A Markdown section listing ``specs``: name, default, allowed values and help."""
    lines = [
        "## Table options",
        f"Set when the table is opened, e.g. `lanparty play {name} --option NAME=VALUE`.",
    ]
    for spec in specs:
        if spec.choices:
            allowed = ", ".join(_typed(c) for c in spec.choices)
        elif spec.minimum is not None and spec.maximum is not None:
            allowed = f"{spec.minimum} to {spec.maximum}"
        elif spec.minimum is not None:
            allowed = f"at least {spec.minimum}"
        else:
            allowed = "any"
        line = f"- `{spec.name}` (default `{_typed(spec.default)}`; {allowed}): {spec.help}"
        lines += textwrap.wrap(line, 92, subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def _typed(value: bool | int | str) -> str:
    """An option value as it is typed after ``--option NAME=``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = ["GAMES", "get_game", "options_text", "rules_text"]

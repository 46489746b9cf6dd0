"""The games: pure, deterministic rules engines behind ``protocol.contract.Game``.

Each game registers one plugin (:mod:`lanparty.games.plugin`) in the ``lanparty.games`` entry
points; ``GAMES`` is every registered engine by name (generic tests and the simulator iterate
it). Each game's rules text (what ``lanparty rules NAME`` shows) is ``rules_text(NAME)``.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from protocol.contract import Game

from .plugin import GamePlugin, load_plugins

PLUGINS: dict[str, GamePlugin] = load_plugins()
"""Every registered game's plugin, by name."""

GAMES: dict[str, Game[Any]] = {name: p.game for name, p in PLUGINS.items()}
"""Every playable game's engine, by name."""


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; ``KeyError`` lists the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None


def rules_text(name: str) -> str:
    """The rules of ``name`` in the project's own words (Markdown)."""
    get_game(name)
    return resources.files(__name__).joinpath("rules", f"{name}.md").read_text("utf-8")


__all__ = ["GAMES", "PLUGINS", "get_game", "rules_text"]

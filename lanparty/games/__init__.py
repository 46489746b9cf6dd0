"""The games: pure, deterministic rules engines behind ``protocol.contract.Game``.

``GAMES`` is the registry by name; generic tests and the simulator iterate it. Each game's
rules text (what ``lanparty rules NAME`` shows) is ``rules_text(NAME)``.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from protocol.contract import Game

from .kato import KATO

GAMES: dict[str, Game[Any]] = {"kato": KATO}
"""Every playable game by name (``unikato``, ``unanimo``, ``unicorns`` will join)."""


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


__all__ = ["GAMES", "get_game", "rules_text"]

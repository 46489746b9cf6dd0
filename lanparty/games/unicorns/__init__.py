"""Kill the Unicorns: hunt unicorns with sealed bids and hidden schemes, on the game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (requests, results, the course of a hunt), ``rules`` (check/apply/legal moves),
``scoring`` (worth, collections, rainbows), ``view`` (status, views, outcome, audit),
``bots`` (the heuristic strategy), ``game`` (the contract object ``UNICORNS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

# The submodule is imported before the function of the same name is defined: importing a
# submodule for the first time sets the package attribute to it, so a later first import
# would replace ``bots()`` below with the module.
from . import bots as _strategy
from .game import UNICORNS, UnicornsGame
from .state import UnicornsState

if TYPE_CHECKING:
    from lanparty.games.bots import Bot


def bots() -> dict[str, Callable[[], Bot]]:
    """Bot factories by name: ``random`` and ``heuristic``."""
    from lanparty.games.bots import RandomBot

    return {"random": RandomBot, "heuristic": _strategy.HeuristicBot}


__all__ = ["UNICORNS", "UnicornsGame", "UnicornsState", "bots"]

"""Kill the Unicorns: hunt unicorns with sealed bids and hidden schemes, on the game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (requests, results, the course of a hunt), ``rules`` (check/apply/legal moves),
``scoring`` (worth, collections, rainbows), ``view`` (status, views, outcome, audit),
``bots``, ``game`` (the contract object ``UNICORNS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .game import UNICORNS, UnicornsGame
from .state import UnicornsState

if TYPE_CHECKING:
    from lanparty.games.bots import Bot


def bots() -> dict[str, Callable[[], Bot]]:
    """Bot factories by name: ``random`` and ``heuristic``."""
    from lanparty.games.bots import RandomBot

    from .bots import HeuristicBot

    return {"random": RandomBot, "heuristic": HeuristicBot}


__all__ = ["UNICORNS", "UnicornsGame", "UnicornsState", "bots"]

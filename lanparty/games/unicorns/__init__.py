"""Kill the Unicorns: hunt unicorns with sealed bids and hidden schemes, on the game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (requests, results, the course of a hunt), ``rules`` (check/apply/legal moves),
``scoring`` (worth, collections, rainbows), ``view`` (status, views, outcome, audit),
``game`` (the contract object ``UNICORNS``): the pure engine. Then ``bots`` (the heuristic
strategy), ``names`` (English and Spanish names), ``commands``, ``board`` and ``screen`` (the
terminal's part) and ``narrate`` (the log in words), which the plugin below gives lanparty.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from protocol.contract import Seat

from ..bots import Bot, RandomBot
from ..plugin import GamePlugin
from .game import UNICORNS
from .state import UnicornsState

if TYPE_CHECKING:
    from lanparty.games.narration import GameNarrator
    from lanparty.games.screens import GameScreen
    from lanparty.games.search import Searchable


def _bots() -> dict[str, Callable[[], Bot]]:
    """Bot factories by name: ``random`` and ``heuristic``."""
    from .bots import HeuristicBot

    return {"random": RandomBot, "heuristic": HeuristicBot}


def _search() -> Searchable:
    from ..search import Searchable
    from .bots import HeuristicBot
    from .determinize import determinize, labels, sealed, value

    return Searchable(UNICORNS, determinize, labels, HeuristicBot, value=value, sealed=sealed)


def _screen() -> GameScreen:
    from .screen import SCREEN

    return SCREEN


def _narrator(seat: Seat | None, names: Sequence[str], state: Callable[[], Any]) -> GameNarrator:
    from .narrate import UnicornsNarrator

    return UnicornsNarrator(seat, names)


PLUGIN = GamePlugin(UNICORNS, _bots, _screen, _narrator, search=_search)
"""Kill the Unicorns for lanparty (registered in pyproject.toml's ``lanparty.games`` entry
points)."""

__all__ = ["PLUGIN", "UNICORNS", "UnicornsState"]

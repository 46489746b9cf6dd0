"""Unanimo: write the words a subject brings to mind; score for every word others wrote too.

Modules: ``subjects`` (the cards, in English, Polish and Spanish), ``fold`` (how words are
normalised, :data:`NORMALISATION_VERSION`), ``roots`` (the same-root rule), ``options``,
``state`` (the state and its encoding), ``reading`` (the reading and its points), ``rules``
(check/apply/legal moves, results, the card flow), ``view`` (status, views, outcome),
``associations`` and ``bots``, ``game`` (the contract object ``UNANIMO``).
"""

from collections.abc import Callable

from ..bots import Bot
from ..plugin import GamePlugin
from .fold import NORMALISATION_VERSION
from .game import UNANIMO, UnanimoGame
from .state import UnanimoState


def _bots() -> dict[str, Callable[[], Bot]]:
    from .bots import HeuristicBot, RandomBot

    return {"random": RandomBot, "heuristic": HeuristicBot}


PLUGIN = GamePlugin(UNANIMO, _bots)
"""Unanimo for lanparty (registered in pyproject.toml's ``lanparty.games`` entry points)."""

__all__ = ["NORMALISATION_VERSION", "PLUGIN", "UNANIMO", "UnanimoGame", "UnanimoState"]

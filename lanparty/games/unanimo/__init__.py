"""Unanimo: write the words a subject brings to mind; score for every word others wrote too.

Modules: ``subjects`` (the cards, in English, Polish and Spanish), ``fold`` (how words are
normalised, :data:`NORMALISATION_VERSION`), ``roots`` (the same-root rule), ``options``,
``state`` (the state and its encoding), ``reading`` (the reading and its points), ``rules``
(check/apply/legal moves, results, the card flow), ``view`` (status, views, outcome),
``associations`` and ``bots``, ``game`` (the contract object ``UNANIMO``); ``screen`` and
``narrate``, the terminal's part and the log in words.
"""

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from protocol.contract import Seat

from ..bots import Bot
from ..plugin import GamePlugin
from .fold import NORMALISATION_VERSION
from .game import UNANIMO
from .state import UnanimoState

if TYPE_CHECKING:
    from lanparty.games.narration import GameNarrator
    from lanparty.games.screens import GameScreen
    from lanparty.games.search import Searchable


def _bots() -> dict[str, Callable[[], Bot]]:
    from .bots import HeuristicBot, RandomBot

    return {"random": RandomBot, "heuristic": HeuristicBot}


def _search() -> "Searchable":
    from ..search import Searchable
    from .bots import HeuristicBot
    from .determinize import candidates, determinize, labels, value

    return Searchable(
        UNANIMO, determinize, labels, HeuristicBot, value=value, candidates=candidates
    )


def _screen() -> "GameScreen":
    from .screen import UnanimoScreen

    return UnanimoScreen()  # one per seat's terminal: it remembers what it showed


def _narrator(seat: Seat | None, names: Sequence[str], state: Callable[[], Any]) -> "GameNarrator":
    from .narrate import UnanimoNarrator

    return UnanimoNarrator(seat, names)


PLUGIN = GamePlugin(
    UNANIMO,
    _bots,
    _screen,
    _narrator,
    short={"cards": 1},
    language_option="words",
    search=_search,
)
"""Unanimo for lanparty (registered in pyproject.toml's ``lanparty.games`` entry points)."""

__all__ = ["NORMALISATION_VERSION", "PLUGIN", "UNANIMO", "UnanimoState"]

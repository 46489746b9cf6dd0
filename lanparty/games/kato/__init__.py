"""KaTO: the shedding card game, on the common game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (rounds, table requests, results), ``rules`` (check/apply/legal moves), ``view``
(status, views, outcome, audit), ``game`` (the contract object ``KATO``): the pure engine.
Then ``bots``, ``narrate`` (the log in words) and ``screen`` (the terminal's part), which the
plugin below gives lanparty.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from protocol.contract import Move, Plain, Seat

from ..bots import Bot, RandomBot
from ..plugin import GamePlugin
from .game import KATO
from .state import KatoState

if TYPE_CHECKING:
    from lanparty.games.narration import GameNarrator
    from lanparty.games.screens import GameScreen
    from lanparty.games.search import Searchable

#: How often the bots at a table forget to call KaTO with their play, as people do (and
#: must then call on their own, racing whoever would catch them).
FORGETS = 0.4
#: KaTO's rollouts are cheap (about a third of a millisecond here): a hard bot plays this
#: many times its budget's rollouts, still well inside its wall-clock cap.
SCALE = 3


def _bots() -> dict[str, Callable[[], Bot]]:
    from .bots import HeuristicBot

    return {"random": RandomBot, "heuristic": partial(HeuristicBot, forgets=FORGETS)}


def _search() -> Searchable:
    from ..search import Searchable
    from .bots import CarefulBot, HeuristicBot
    from .determinize import DEPTH, candidates, determinize, labels, value
    from .state import clone

    return Searchable(
        KATO,
        determinize,
        labels,
        HeuristicBot,
        value=value,
        depth=DEPTH,
        candidates=candidates,
        own=CarefulBot,
        clone=clone,
        scale=SCALE,
    )


def _forced(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> Move | None:
    from .bots import forced_move

    return forced_move(view, legal)


def _screen() -> GameScreen:
    from .screen import SCREEN

    return SCREEN


def _narrator(seat: Seat | None, names: Sequence[str], state: Callable[[], Any]) -> GameNarrator:
    from .narrate import KatoNarrator

    return KatoNarrator(seat, names, lambda: getattr(state(), "hands", None))


PLUGIN = GamePlugin(KATO, _bots, _screen, _narrator, _forced, short={"rounds": 1}, search=_search)
"""KaTO for lanparty (registered in pyproject.toml's ``lanparty.games`` entry points)."""

__all__ = ["KATO", "PLUGIN", "KatoState"]

"""KaTO: the shedding card game, on the common game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (rounds, table requests, results), ``rules`` (check/apply/legal moves), ``view``
(status, views, outcome, audit), ``bots``, ``game`` (the contract object ``KATO``).
"""

from collections.abc import Callable, Mapping, Sequence
from functools import partial

from protocol.contract import Move, Plain

from ..bots import Bot, RandomBot
from ..plugin import GamePlugin
from .game import KATO, KatoGame
from .state import KatoState

#: How often the bots at a table forget to call KaTO with their play, as people do (and
#: must then call on their own, racing whoever would catch them).
FORGETS = 0.4


def _bots() -> dict[str, Callable[[], Bot]]:
    from .bots import HeuristicBot

    return {"random": RandomBot, "heuristic": partial(HeuristicBot, forgets=FORGETS)}


def _forced(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> Move | None:
    from .bots import forced_move

    return forced_move(view, legal)


PLUGIN = GamePlugin(KATO, _bots, _forced)
"""KaTO for lanparty (registered in pyproject.toml's ``lanparty.games`` entry points)."""

__all__ = ["KATO", "PLUGIN", "KatoGame", "KatoState"]

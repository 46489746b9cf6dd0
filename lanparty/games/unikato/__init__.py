"""Unikato: lay tiles that differ in exactly one feature from every tile they touch.

Modules: ``tiles`` (81 identities, labels, the one-feature relation), ``board`` (the grid and
the placement rule), ``options``, ``state`` (the state and its encoding), ``flow`` (rounds,
table requests, results, turn ends), ``rules`` (check/apply/legal moves), ``view`` (status,
views, outcome, audit), ``bots`` (the heuristic strategy), ``game`` (the contract object
``UNIKATO``).

Not registered in ``lanparty.games.GAMES`` yet; ``bots()`` gives its bot factories.
"""

from collections.abc import Callable

from lanparty.games.bots import Bot, RandomBot

# Importing the submodule ``bots`` here, before the function of that name is defined, keeps
# the package attribute ``bots`` the function: a later ``import ...unikato.bots`` finds the
# module already loaded and does not rebind the attribute.
from .bots import HeuristicBot
from .game import UNIKATO, UnikatoGame
from .state import UnikatoState


def bots() -> dict[str, Callable[[], Bot]]:
    """Bot factories by name: ``"random"`` and ``"heuristic"``."""
    return {"random": RandomBot, "heuristic": HeuristicBot}


__all__ = ["UNIKATO", "HeuristicBot", "UnikatoGame", "UnikatoState", "bots"]

"""KaTO: the shedding card game, on the common game contract.

Modules: ``cards`` (identities), ``options``, ``state`` (the state and its encoding),
``flow`` (rounds, table requests, results), ``rules`` (check/apply/legal moves), ``view``
(status, views, outcome, audit), ``bots``, ``game`` (the contract object ``KATO``).
"""

from .game import KATO, KatoGame
from .state import KatoState

__all__ = ["KATO", "KatoGame", "KatoState"]

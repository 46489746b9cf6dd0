"""What a bot is: a strategy over one seat's view (:class:`Bot`), the random one, and the
shape of a game's forced moves. Nothing here looks a game up (:mod:`lanparty.games.bots`
does): the plugin contract builds on this module.

``choose(view, legal, rng)`` returns one of ``legal``. When the seat is asked out of turn
(``Turn.also``: e.g. KaTO's call or catch), ``legal`` also holds ``None``: doing nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from protocol.contract import Move, Plain

__all__ = ["Bot", "Forced", "RandomBot"]


class Bot(Protocol):
    """A strategy for one seat."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """One element of ``legal`` (``None`` is in it only when asked out of turn)."""
        ...


class RandomBot:
    """Any legal option, uniformly (doing nothing included, when it is one)."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """A uniformly random element of ``legal``."""
        return legal[int(rng.random() * len(legal))]


Forced = Callable[[Mapping[str, Plain], Sequence[Move | None]], Move | None]
"""A game's forced moves: ``(view, legal) -> move`` a seat's program makes by itself, or None."""

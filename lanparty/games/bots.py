"""Bots: strategies over one seat's view. A bot never sees more than its seat's view.

``choose(view, legal, rng)`` returns one of ``legal``. When the seat is asked out of turn
(``Turn.also``: e.g. KaTO's call or catch), ``legal`` also holds ``None``: doing nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from protocol.contract import Move, Plain


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


def bots_for(game: str) -> dict[str, Callable[[], Bot]]:
    """Bot factories by name for ``game`` (from its plugin); every game has ``"random"``."""
    from lanparty.games import PLUGINS

    plugin = PLUGINS.get(game)
    return {"random": RandomBot, **(plugin.bots() if plugin else {})}

"""Bots: strategies over one seat's view. A bot never sees more than its seat's view.

``choose(view, legal, rng)`` returns one of ``legal``. When the seat is asked out of turn
(``Turn.also``: e.g. KaTO's call or catch), ``legal`` also holds ``None``: doing nothing.

Some moves decide nothing (KaTO's challenge verdict, read from the shown hand): a seat's
program makes them itself, for a person or a bot alike (``forced_move``), and the bots that
``bots_for`` makes never get asked about them (``Autopilot``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from protocol.contract import Move, Plain

from .strategy import Bot, Forced, RandomBot

__all__ = ["Autopilot", "Bot", "Forced", "RandomBot", "bots_for", "forced_move"]


def _forced(game: str) -> Forced | None:
    from lanparty.games import PLUGINS

    plugin = PLUGINS.get(game)
    return plugin.forced if plugin is not None else None


def forced_move(game: str, view: Mapping[str, Plain], legal: Sequence[Move | None]) -> Move | None:
    """The move the seat whose ``view`` and ``legal`` moves these are must make now and
    decides nothing about (a person types nothing, a strategy is not asked); ``None`` if the
    seat has a choice (or nothing to do)."""
    forced = _forced(game)
    return forced(view, legal) if forced is not None and legal else None


class Autopilot:
    """A bot whose forced moves are made for it: its strategy is asked only real choices."""

    def __init__(self, game: str, bot: Bot) -> None:
        self.game = game
        self.bot = bot
        self._forced = _forced(game)

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The forced move if there is one, else the strategy's choice."""
        move = self._forced(view, legal) if self._forced and legal else None
        return move if move is not None else self.bot.choose(view, legal, rng)


def bots_for(game: str) -> dict[str, Callable[[], Bot]]:
    """Bot factories by name for ``game`` (from its plugin), each bot on ``Autopilot``; every
    game has at least ``"random"``."""
    from lanparty.games import PLUGINS

    plugin = PLUGINS.get(game)
    kinds: dict[str, Callable[[], Bot]] = {"random": RandomBot, **(plugin.bots() if plugin else {})}
    return {name: partial(_on_autopilot, game, make) for name, make in kinds.items()}


def _on_autopilot(game: str, make: Callable[[], Bot]) -> Bot:
    return Autopilot(game, make())

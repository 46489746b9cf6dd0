"""Bots: strategies over one seat's view. A bot never sees more than its seat's view.

``choose(view, legal, rng)`` returns one of ``legal``. When the seat is asked out of turn
(``Turn.also``: e.g. KaTO's call or catch), ``legal`` also holds ``None``: doing nothing.

Some moves decide nothing (KaTO's challenge verdict, read from the shown hand): a seat's
program makes them itself, for a person or a bot alike (``forced_move``), and the bots that
``bots_for`` makes never get asked about them (``Autopilot``).

Levels (what a player chooses with ``--level``): ``easy`` (the random bot: any legal move,
forgiving), ``normal`` (the game's heuristic bot) and ``hard`` (a search over what its seat
may know: :mod:`lanparty.games.search`). :func:`bot_at` makes one; ``"random"`` and
``"heuristic"`` are still understood, as ``easy`` and ``normal``. ``bots_for`` keeps giving
the two quick kinds by their old names (every test that plays through all of them stays
quick).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from protocol.contract import Move, Plain

from .strategy import Bot, Forced, RandomBot

if TYPE_CHECKING:
    from .search import Think

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "Autopilot",
    "Bot",
    "Forced",
    "RandomBot",
    "bot_at",
    "bot_label",
    "bots_for",
    "forced_move",
    "level_of",
    "level_word",
    "levels_for",
    "levels_of",
]

#: The bots' levels, weakest first.
LEVELS = ("easy", "normal", "hard")
#: The level of a bot nobody chose.
DEFAULT_LEVEL = "normal"
#: The older names of the levels (``--bot-kind``, ``bots_for``).
_ALIASES = {"random": "easy", "heuristic": "normal"}


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
        #: Its strategy thinks long (a search): a table lets it think in the background.
        self.slow: bool = bool(getattr(bot, "slow", False))

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


def level_of(name: str) -> str | None:
    """The level ``name`` stands for (a level, or ``random``/``heuristic``, any case);
    ``None`` if it is none."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    return key if key in LEVELS else None


def levels_of(text: str) -> tuple[str, ...] | None:
    """The levels a comma-separated ``text`` names, in order (``"hard,easy"``: ``("hard",
    "easy")``; each as :func:`level_of` reads it); ``None`` if any word is none, or there is
    none."""
    found = tuple(level_of(word) for word in text.split(","))
    if not found or any(level is None for level in found):
        return None
    return tuple(str(level) for level in found)


def levels_for(levels: Sequence[str], bots: int) -> tuple[str, ...] | None:
    """One level for each of ``bots`` bots, in seat order, from what was asked: none (every
    bot :data:`DEFAULT_LEVEL`), one (every bot that one) or one per bot; ``None`` if
    ``levels`` is a list of another length."""
    if not levels:
        return (DEFAULT_LEVEL,) * bots
    if len(levels) == 1:
        return (levels[0],) * bots
    return tuple(levels) if len(levels) == bots else None


def level_word(level: str) -> str:
    """``level`` in the reader's language (``"hard"``: "difícil"); an unknown one as it is."""
    from lanparty.i18n import pgettext  # words: loaded when shown (an engine loads none)

    words = {
        "easy": pgettext("bots", "easy"),
        "normal": pgettext("bots", "normal"),
        "hard": pgettext("bots", "hard"),
    }
    return words.get(level, level)


def bot_label(name: str, level: str | None) -> str:
    """``name`` as a list of the players shows it: ``"Bea (bot, hard)"`` for a bot of a
    known ``level``, the name alone for anyone else (``level`` ``None``)."""
    if level is None:
        return name
    from lanparty.i18n import _, pgettext

    words = {  # of one bot (a language whose adjectives agree: the word for one bot)
        "easy": pgettext("a bot", "easy"),
        "normal": pgettext("a bot", "normal"),
        "hard": pgettext("a bot", "hard"),
    }
    return _("{name} (bot, {level})").format(name=name, level=words.get(level, level))


def bot_at(
    game: str,
    level: str,
    options: Mapping[str, Plain] | None = None,
    think: Think | None = None,
) -> Bot:
    """A bot of ``level`` (or its old name) for ``game``, on ``Autopilot``. ``options``: the
    table's options (a ``hard`` bot simulates the table it plays at; default: the game's
    defaults); ``think``: a ``hard`` bot's budget per move (default
    :data:`lanparty.games.search.DEFAULT_THINK`). A game without a search plays ``hard`` as
    ``normal``. Raises ``ValueError`` for an unknown level or game."""
    from lanparty.games import PLUGINS

    which = level_of(level)
    plugin = PLUGINS.get(game)
    if which is None or plugin is None:
        raise ValueError(f"no {level!r} bot for {game!r}")
    kinds = plugin.bots()
    normal = kinds.get("heuristic", RandomBot)
    if which == "easy":
        return Autopilot(game, kinds.get("random", RandomBot)())
    if which == "normal" or plugin.search is None:
        return Autopilot(game, normal())
    from .search import DEFAULT_THINK, SearchBot

    bot = SearchBot(plugin.search(), options or {}, think or DEFAULT_THINK)
    return Autopilot(game, bot)

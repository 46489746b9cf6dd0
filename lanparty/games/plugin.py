"""What a game brings to lanparty, in one object found through an entry point.

Every game registers one :class:`GamePlugin` in the ``lanparty.games`` entry-point group
(``pyproject.toml``): its pure engine (``protocol.contract.Game``) and the bots that can play
it; the screen and the narration join it as the presentation layer grows. Nothing below the
games names one: the table, the network and the CLI find a game by the name its table carries,
and a game could ship as a package of its own. The engine stays pure; the plugin is the only
place that ties it to the application.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from protocol.contract import Game, Plain, Seat

from .strategy import Bot, Forced

if TYPE_CHECKING:
    from .narration import GameNarrator
    from .screens import GameScreen
    from .search import Searchable

#: A game's narrator for one seat: ``(seat, names, state)`` where ``state()`` gives the
#: seat's own copy of the game state; ``seat`` ``None``: for no seat (a spectator's or a
#: replay's log, which names every player and calls nobody "you").
NarratorFactory = Callable[[Seat | None, Sequence[str], Callable[[], Any]], "GameNarrator"]

__all__ = ["GROUP", "GamePlugin", "load_plugins"]

#: The entry-point group where games register.
GROUP = "lanparty.games"


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """A game for lanparty: its engine, its bots by kind (``"random"`` at least), its screen
    and its narrator (made when first asked for: the engine never needs them), and its
    forced moves (what a seat's program plays by itself, e.g. a verdict read from a shown
    hand: a person types nothing and a strategy is not asked), the table options of a
    short game (one round: what ``lanparty bench`` plays), and the option a lobby shows as
    the table's writing language."""

    game: Game[Any]
    bots: Callable[[], dict[str, Callable[[], Bot]]]
    screen: Callable[[], GameScreen]
    narrator: NarratorFactory
    forced: Forced | None = None
    short: Mapping[str, Plain] = field(default_factory=dict)
    #: The option that holds the table's writing language (a language code), if the game
    #: has one (Unanimo's ``words``): the lobby shows it beside the table.
    language_option: str | None = None
    #: What the ``hard`` bot's search needs of the game (its determinizer and rollout
    #: policy), made when first asked for; ``None``: ``hard`` plays as ``normal``.
    search: Callable[[], Searchable] | None = None


def load_plugins() -> dict[str, GamePlugin]:
    """Every registered game by its engine's name, in name order.

    Raises ``RuntimeError`` if none is registered (lanparty is not installed: its entry
    points come with ``pip install``) or an entry point is not a :class:`GamePlugin` whose
    name matches its engine's.
    """
    found: dict[str, GamePlugin] = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        plugin = ep.load()
        if not isinstance(plugin, GamePlugin) or plugin.game.name != ep.name:
            raise RuntimeError(f"entry point {ep.name!r} of {GROUP} is not that game's plugin")
        found[ep.name] = plugin
    if not found:
        raise RuntimeError(
            f"no game is registered in {GROUP}: install lanparty (python3 -m pip install -e .)"
        )
    return found

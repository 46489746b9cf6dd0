"""Unikato: lay tiles that differ in exactly one feature from every tile they touch.

Modules: ``tiles`` (81 identities, labels, the one-feature relation), ``board`` (the grid and
the placement rule), ``options``, ``state`` (the state and its encoding), ``flow`` (rounds,
table requests, results, turn ends), ``rules`` (check/apply/legal moves), ``view`` (status,
views, outcome, audit), ``game`` (the contract object ``UNIKATO``): the pure engine. Then
``bots`` (the heuristic strategy), ``glyphs`` (a tile on the screen), ``grid`` (coordinates
and the visible part of the grid), ``screen`` (the terminal's part) and ``narrate`` (the log
in words), which the plugin below gives lanparty.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from protocol.contract import Move, Plain, Seat

from ..bots import Bot, RandomBot
from ..plugin import GamePlugin
from .game import UNIKATO
from .state import UnikatoState

if TYPE_CHECKING:
    from lanparty.games.narration import GameNarrator
    from lanparty.games.screens import GameScreen
    from lanparty.games.search import Searchable


def _bots() -> dict[str, Callable[[], Bot]]:
    from .bots import HeuristicBot

    return {"random": RandomBot, "heuristic": HeuristicBot}


def _search() -> "Searchable":
    from ..search import Searchable
    from .bots import HeuristicBot
    from .determinize import DEPTH, candidates, determinize, labels, value

    def worth(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> list[Move | None]:
        return candidates(view, legal, HeuristicBot().ranked(dict(view), legal))

    return Searchable(
        UNIKATO, determinize, labels, HeuristicBot, value=value, depth=DEPTH, candidates=worth
    )


def _forced(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> Move | None:
    """A pass when it is the only move (nothing fits and there is nothing to exchange): the
    seat's program makes it, nobody is asked."""
    return ("pass",) if list(legal) == [("pass",)] else None


def _screen() -> "GameScreen":
    from .screen import SCREEN

    return SCREEN


def _narrator(seat: Seat | None, names: Sequence[str], state: Callable[[], Any]) -> "GameNarrator":
    from .narrate import UnikatoNarrator

    return UnikatoNarrator(seat, names)


PLUGIN = GamePlugin(
    UNIKATO, _bots, _screen, _narrator, _forced, short={"rounds": 1}, search=_search
)
"""Unikato for lanparty (registered in pyproject.toml's ``lanparty.games`` entry points)."""

__all__ = ["PLUGIN", "UNIKATO", "UnikatoState"]

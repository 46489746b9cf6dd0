"""``UNIKATO``: Unikato behind the game contract of ``protocol.contract`` (its move shapes,
and its modules' functions as :class:`lanparty.games.engine.Rules`)."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    Move,
    Plain,
)
from protocol.shapes import HANDLE, Either, Int, Moves, Text

from ..engine import gather
from . import flow, options, rules, state, view
from .flow import BAG
from .options import make
from .state import UnikatoState
from .tiles import LABEL, N_TILES

_SHOWS = ("place", "exchange")
_TILE = Text.of(LABEL)
#: A cell: the grid grows from the start at (0, 0) one touching tile at a time.
_COORD = Int(-N_TILES, N_TILES)
_SOURCE = Either((HANDLE, Text.of((BAG,))))
MOVES = Moves.of(
    place=(HANDLE, _TILE, _COORD, _COORD),
    exchange=(HANDLE, _TILE, _SOURCE),
    draw=(_SOURCE,),
    done=(),
    **{"pass": ()},
)
"""Every Unikato move and the shape of its arguments (see ``rules``)."""


def _new_state(seats: int, options: Mapping[str, Plain]) -> UnikatoState:
    """A new game; its first status asks for the coin (or round 1's shuffle and deals)."""
    st = UnikatoState(seats, make(seats, options))
    flow.begin(st)
    return st


def _reveals(move: Move) -> Mapping[int, str]:
    """A placement or an exchange shows the tile leaving the hand: ``{handle: label}``
    (empty for any other move). ``move`` has its declared shape."""
    if move[0] not in _SHOWS:
        return {}
    handle, label = move[1], move[2]
    assert type(handle) is int and type(label) is str
    return {handle: label}


UNIKATO = gather("unikato", MOVES, _new_state, options, state, rules, flow, view, reveals=_reveals)
"""Unikato (2-4 players); see ``lanparty/games/rules/unikato.md`` and ``docs/engine.md``."""

"""``UNICORNS``: Kill the Unicorns behind the game contract of ``protocol.contract`` (its
move shapes, and its modules' functions as :class:`lanparty.games.engine.Rules`)."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    Move,
    Plain,
)
from protocol.shapes import HANDLE, Int, Moves, Seq, Text

from ..engine import gather
from . import flow, options, rules, state, view
from .cards import CHARACTERS, COLOURS, HUNT_CARDS, ITEMS, MAX_BID, SCHEMES
from .options import make
from .state import UnicornsState

_VALUE = Int(min(HUNT_CARDS), max(HUNT_CARDS))
"""A hunt card's value."""
MOVES = Moves.of(
    plant=(HANDLE, HANDLE, HANDLE, Text.of(("", *SCHEMES))),
    hunt=(Int(1, MAX_BID),), join=(), boost=(), decline=(),
    cards=(Seq(_VALUE, MAX_BID),),
    peek=(HANDLE,), shift=(HANDLE, HANDLE), reveal=(HANDLE,), give=(HANDLE,),
    colour=(Text.of(COLOURS),), recall=(_VALUE,),
    buy=(Text.of(ITEMS), HANDLE, Text.of(("", *COLOURS)), Seq(_VALUE, len(HUNT_CARDS))),
    character=(Text.of(CHARACTERS),), **{"pass": ()},
)  # fmt: skip
"""Every move of Kill the Unicorns and the shape of its arguments (see ``rules``)."""


def _new_state(seats: int, options: Mapping[str, Plain]) -> UnicornsState:
    """A new game; its first status asks for the coins and the shuffles of day 1."""
    st = UnicornsState(seats, make(seats, options))
    flow.begin(st)
    return st


def _reveals(move: Move) -> Mapping[int, str]:
    """A plant shows its discarded scheme, unless it is discarded face down (``expert``: its
    label is ``""``). No other move shows a hidden card: a planted scheme is revealed by the
    table (``RevealToAll``), a peek by ``ShowToSeat``."""
    if len(move) == rules.ARITY["plant"] and move[0] == "plant":
        discard, label = move[3], move[4]
        if type(discard) is int and type(label) is str and label:
            return {discard: label}
    return {}


UNICORNS = gather(
    "unicorns", MOVES, _new_state, options, state, rules, flow, view, reveals=_reveals
)
"""Kill the Unicorns (3-4 players); see ``lanparty/games/rules/unicorns.md`` and
``docs/engine.md``."""

"""``UNANIMO``: Unanimo behind the game contract of ``protocol.contract`` (its move shapes,
and its modules' functions as :class:`lanparty.games.engine.Rules`)."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import Plain
from protocol.shapes import Moves, Seq, Text

from ..engine import gather
from . import options, rules, state, view
from .fold import MAX_TYPED
from .options import make
from .reading import refresh
from .rules import MAX_WORDS
from .state import BALLOTS, UnanimoState, decode

MOVES = Moves.of(
    words=(Seq(Text(MAX_TYPED), MAX_WORDS),),
    object=(Text(MAX_TYPED),),
    appeal=(Text(MAX_TYPED),),
    vote=(Text.of(BALLOTS),),
    done=(),
)
"""Every Unanimo move and the shape of its arguments (see ``rules``): the words as typed
(``rules`` refuses what cannot be handed in, saying why)."""


def _new_state(seats: int, options: Mapping[str, Plain]) -> UnanimoState:
    """A new game; its first status asks for the coin that draws the first subject."""
    st = UnanimoState(seats, make(seats, options))
    rules.begin(st)
    return st


def _decode(value: Plain) -> UnanimoState:
    """Inverse of ``encode``, the derived reading rebuilt; ``GameError`` if malformed."""
    st = decode(value)
    refresh(st)
    return st


UNANIMO = gather("unanimo", MOVES, _new_state, options, state, rules, view, decode=_decode)
"""Unanimo (3-8 players); see ``lanparty/games/rules/unanimo.md`` and ``docs/engine.md``."""

"""``KATO``: KaTO behind the game contract of ``protocol.contract`` (its move shapes,
and its modules' functions as :class:`lanparty.games.engine.Rules`)."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    Move,
    Plain,
)
from protocol.shapes import HANDLE, Moves, MoveShape, Seq, Text

from ..engine import gather
from . import flow, options, rules, state, view
from .cards import COLOURS, LABEL
from .options import make
from .rules import VERDICTS
from .state import KatoState

#: A play of several cards (``multi_play``) lays number cards of one number: at most 8.
_MOST_PLAYED = 8
_LABELS = Seq(Text.of(LABEL), _MOST_PLAYED, 1)
MOVES = Moves.of(
    play=MoveShape((Seq(HANDLE, _MOST_PLAYED, 1, unique=True), _LABELS,
                    Text.of(("", *COLOURS)), Text.of(("kato",))), optional=1),
    draw=(), accept=(), challenge=(), kato=(), catch=(),
    verdict=(Text.of(VERDICTS),),
    colour=(Text.of(COLOURS),),
    **{"pass": ()},
)  # fmt: skip
"""Every KaTO move and the shape of its arguments (see ``rules``)."""


def _new_state(seats: int, options: Mapping[str, Plain]) -> KatoState:
    """A new game; its first status asks for the coin (or the shuffle)."""
    st = KatoState(seats, make(seats, options))
    flow.begin(st)
    return st


def _reveals(move: Move) -> Mapping[int, str]:
    """A play (with or without the KaTO call) shows the cards it plays: ``{handle: label}``
    (empty for any other move, or a play whose handles and labels do not pair up: ``check``
    refuses that). ``move`` has its declared shape."""
    if move[0] != "play":
        return {}
    handles, labels = move[1], move[2]
    assert isinstance(handles, tuple) and isinstance(labels, tuple)
    if len(handles) != len(labels):
        return {}
    return dict(zip(handles, labels, strict=True))  # type: ignore[arg-type]


KATO = gather("kato", MOVES, _new_state, options, state, rules, flow, view, reveals=_reveals)
"""KaTO (2-10 players); see ``lanparty/games/rules/kato.md`` and ``docs/engine.md``."""

"""``UnicornsGame``: Kill the Unicorns behind the game contract of ``protocol.contract``."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    Move,
    Outcome,
    Plain,
    Result,
    Status,
    Violation,
)
from protocol.shapes import HANDLE, Int, Moves, Seq, Text

from . import flow, rules, state, view
from .cards import CHARACTERS, COLOURS, HUNT_CARDS, ITEMS, MAX_BID, SCHEMES
from .options import MAX_SEATS, MIN_SEATS, SPECS, make, validate
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


class UnicornsGame:
    """Kill the Unicorns (3-4 players); see ``lanparty/games/rules/unicorns.md`` and
    ``docs/engine.md``."""

    name = "unicorns"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS
    moves = MOVES

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """All options with defaults; ``OptionError`` names the first bad one."""
        return validate(given)

    def setup(self, seats: int, options: Mapping[str, Plain]) -> UnicornsState:
        """A new game; its first status asks for the coins and the shuffles of day 1."""
        st = UnicornsState(seats, make(seats, options))
        flow.begin(st)
        return st

    def status(self, state: UnicornsState) -> Status:
        """Which input is due next."""
        return view.status(state)

    def check(self, state: UnicornsState, seat: int, move: Move) -> None:
        """Raise ``IllegalMove`` unless the move is legal now."""
        rules.check(state, seat, move)

    def apply(self, state: UnicornsState, seat: int, move: Move) -> None:
        """Apply a checked move in place."""
        rules.apply(state, seat, move)

    def resolve(self, state: UnicornsState, result: Result) -> None:
        """Apply a result in place (``BadResult`` if it answers nothing pending)."""
        flow.resolve(state, result)

    def reveals(self, move: Move) -> Mapping[int, str]:
        """A plant shows its discarded scheme, unless it is discarded face down (``expert``:
        its label is ``""``). No other move shows a hidden card: a planted scheme is revealed
        by the table (``RevealToAll``), a peek by ``ShowToSeat``."""
        if len(move) == rules.ARITY["plant"] and move[0] == "plant":
            discard, label = move[3], move[4]
            if type(discard) is int and type(label) is str and label:
                return {discard: label}
        return {}

    def legal_moves(self, state: UnicornsState, seat: int) -> list[Move]:
        """Every legal move of ``seat`` that this copy can name."""
        return rules.legal_moves(state, seat)

    def view(self, state: UnicornsState, seat: int | None) -> dict[str, Plain]:
        """What ``seat`` (``None``: a spectator) may know."""
        return view.view(state, seat)

    def outcome(self, state: UnicornsState) -> Outcome:
        """Scores, per-day gains, winners."""
        return view.outcome(state)

    def encode_state(self, state: UnicornsState) -> Plain:
        """Canonical plain encoding."""
        return _encode(state)

    def decode_state(self, value: Plain) -> UnicornsState:
        """Inverse of ``encode_state``."""
        return state.decode(value)

    def audit(self, state: UnicornsState, cards: Mapping[int, str]) -> list[Violation]:
        """No rule depends on a card that stays hidden: always empty (see ``view.audit``)."""
        return view.audit(state, cards)


_encode = state.encode
UNICORNS = UnicornsGame()

"""``UnikatoGame``: Unikato behind the game contract of ``protocol.contract``."""

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
from protocol.shapes import HANDLE, Either, Int, Moves, Text

from . import flow, rules, state, view
from .flow import BAG
from .options import MAX_SEATS, MIN_SEATS, SPECS, make, validate
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


class UnikatoGame:
    """Unikato (2-4 players); see ``lanparty/games/rules/unikato.md`` and ``docs/engine.md``."""

    name = "unikato"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS
    moves = MOVES

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """All options with defaults; ``OptionError`` names the first bad one."""
        return validate(given)

    def setup(self, seats: int, options: Mapping[str, Plain]) -> UnikatoState:
        """A new game; its first status asks for the coin (or round 1's shuffle and deals)."""
        st = UnikatoState(seats, make(seats, options))
        flow.begin(st)
        return st

    def status(self, state: UnikatoState) -> Status:
        """Which input is due next."""
        return view.status(state)

    def check(self, state: UnikatoState, seat: int, move: Move) -> None:
        """Raise ``IllegalMove`` unless the move is legal now."""
        rules.check(state, seat, move)

    def apply(self, state: UnikatoState, seat: int, move: Move) -> None:
        """Apply a checked move in place."""
        rules.apply(state, seat, move)

    def resolve(self, state: UnikatoState, result: Result) -> None:
        """Apply the result of the oldest pending request in place (``BadResult`` if not)."""
        flow.resolve(state, result)

    def legal_moves(self, state: UnikatoState, seat: int) -> list[Move]:
        """Every legal move of ``seat`` that this copy can name."""
        return rules.legal_moves(state, seat)

    def view(self, state: UnikatoState, seat: int | None) -> dict[str, Plain]:
        """What ``seat`` (``None``: a spectator) may know."""
        return view.view(state, seat)

    def outcome(self, state: UnikatoState) -> Outcome:
        """Scores per round, totals, winners."""
        return view.outcome(state)

    def encode_state(self, state: UnikatoState) -> Plain:
        """Canonical plain encoding."""
        return _encode(state)

    def decode_state(self, value: Plain) -> UnikatoState:
        """Inverse of ``encode_state``; ``GameError`` if malformed."""
        return _decode(value)

    def reveals(self, move: Move) -> Mapping[int, str]:
        """A placement or an exchange shows the tile leaving the hand: ``{handle: label}``
        (empty for any other move). ``move`` has its declared shape."""
        if move[0] not in _SHOWS:
            return {}
        handle, label = move[1], move[2]
        assert type(handle) is int and type(label) is str
        return {handle: label}

    def audit(self, state: UnikatoState, cards: Mapping[int, str]) -> list[Violation]:
        """Passes made while a hidden tile of the passer's hand fitted on the grid."""
        return view.audit(state, cards)


_encode = state.encode
_decode = state.decode
UNIKATO = UnikatoGame()

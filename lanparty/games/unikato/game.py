"""``UnikatoGame``: Unikato behind the game contract of ``protocol.contract``."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    IllegalMove,
    Move,
    Outcome,
    Plain,
    Result,
    Status,
    Violation,
    excerpt,
)

from . import flow, rules, state, view
from .options import MAX_SEATS, MIN_SEATS, SPECS, make, validate
from .state import UnikatoState
from .tiles import CODE

_ARITY = {"place": 5, "exchange": 4, "draw": 2, "done": 1, "pass": 1}
_SHOWS = ("place", "exchange")


def _is_int(value: object) -> bool:
    return type(value) is int


def _is_source(value: object) -> bool:
    return type(value) is int or (type(value) is str and value == "bag")


class UnikatoGame:
    """Unikato (2-4 players); see ``lanparty/games/rules/unikato.md`` and ``docs/engine.md``."""

    name = "unikato"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS

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

    def decode_move(self, value: Plain) -> Move:
        """Canonical tuple form of a move; ``IllegalMove`` if it has no valid shape (wrong
        name, arity or types, or a label that names no tile)."""
        if (
            not isinstance(value, list | tuple)
            or not value
            or type(value[0]) is not str
            or value[0] not in _ARITY
        ):
            raise IllegalMove(f"not a unikato move: {excerpt(value)}")
        name = value[0]
        if len(value) != _ARITY[name]:
            raise IllegalMove(f"{name!r} takes {_ARITY[name] - 1} arguments")
        if name in _SHOWS:
            handle, label = value[1], value[2]
            if not _is_int(handle) or type(label) is not str or label not in CODE:
                raise IllegalMove(f"{name!r} names a tile as handle, label: {excerpt(value)}")
        if name == "place" and not (_is_int(value[3]) and _is_int(value[4])):
            raise IllegalMove(f"a cell is two whole numbers: {excerpt(value)}")
        if (name == "exchange" and not _is_source(value[3])) or (
            name == "draw" and not _is_source(value[1])
        ):
            raise IllegalMove(f"take a display tile's handle or 'bag': {excerpt(value)}")
        return tuple(value)

    def reveals(self, move: Move) -> Mapping[int, str]:
        """A placement or an exchange shows the tile leaving the hand: ``{handle: label}``
        (empty for any other move, or for a malformed one: ``check`` refuses that)."""
        if not move or move[0] not in _SHOWS or len(move) != _ARITY[str(move[0])]:
            return {}
        handle, label = move[1], move[2]
        if not _is_int(handle) or type(label) is not str:
            return {}
        return {handle: label}  # type: ignore[dict-item]

    def audit(self, state: UnikatoState, cards: Mapping[int, str]) -> list[Violation]:
        """Passes made while a hidden tile of the passer's hand fitted on the grid."""
        return view.audit(state, cards)


_encode = state.encode
_decode = state.decode
UNIKATO = UnikatoGame()

"""``KatoGame``: KaTO behind the game contract of ``protocol.contract``."""

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
from .state import KatoState

_ARITY = {
    "play": 4, "draw": 1, "pass": 1, "accept": 1, "challenge": 1, "verdict": 2, "colour": 2,
    "kato": 1, "catch": 1,
}  # fmt: skip


class KatoGame:
    """KaTO (2-10 players); see ``lanparty/games/rules/kato.md`` and ``docs/engine.md``."""

    name = "kato"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """All options with defaults; ``OptionError`` names the first bad one."""
        return validate(given)

    def setup(self, seats: int, options: Mapping[str, Plain]) -> KatoState:
        """A new game; its first status asks for the coin (or the shuffle)."""
        st = KatoState(seats, make(seats, options))
        flow.begin(st)
        return st

    def status(self, state: KatoState) -> Status:
        """Which input is due next."""
        return view.status(state)

    def check(self, state: KatoState, seat: int, move: Move) -> None:
        """Raise ``IllegalMove`` unless the move is legal now."""
        rules.check(state, seat, move)

    def apply(self, state: KatoState, seat: int, move: Move) -> None:
        """Apply a checked move in place."""
        rules.apply(state, seat, move)

    def resolve(self, state: KatoState, result: Result) -> None:
        """Apply the result of the oldest pending request in place (``BadResult`` if not)."""
        flow.resolve(state, result)

    def legal_moves(self, state: KatoState, seat: int) -> list[Move]:
        """Every legal move of ``seat`` that this copy can name."""
        return rules.legal_moves(state, seat)

    def view(self, state: KatoState, seat: int | None) -> dict[str, Plain]:
        """What ``seat`` (``None``: a spectator) may know."""
        return view.view(state, seat)

    def outcome(self, state: KatoState) -> Outcome:
        """Scores per round, totals, winners."""
        return view.outcome(state)

    def encode_state(self, state: KatoState) -> Plain:
        """Canonical plain encoding."""
        return state_encode(state)

    def decode_state(self, value: Plain) -> KatoState:
        """Inverse of ``encode_state``."""
        return state.decode(value)

    def decode_move(self, value: Plain) -> Move:
        """Canonical tuple form of a move; ``IllegalMove`` if it has no valid shape."""
        if (
            not isinstance(value, list | tuple)
            or not value
            or not isinstance(value[0], str)
            or value[0] not in _ARITY
        ):
            raise IllegalMove(f"not a kato move: {excerpt(value)}")
        called = value[0] == "play" and len(value) == 5  # a play with the KaTO call
        if len(value) != _ARITY[str(value[0])] and not called:
            raise IllegalMove(f"{excerpt(value[0])} takes {_ARITY[str(value[0])] - 1} arguments")
        if value[0] == "play":
            handles, labels = value[1], value[2]
            if not isinstance(handles, list | tuple) or not isinstance(labels, list | tuple):
                raise IllegalMove("a play names its cards as lists of handles and labels")
            return ("play", tuple(handles), tuple(labels), *value[3:])
        return tuple(value)

    def reveals(self, move: Move) -> Mapping[int, str]:
        """A play (with or without the KaTO call) shows the cards it plays: ``{handle:
        label}`` (empty for any other move, or a play whose handles and labels do not pair
        up: ``check`` refuses that)."""
        if move[0] != "play" or len(move) < 3:
            return {}
        handles, labels = move[1], move[2]
        if not isinstance(handles, tuple) or not isinstance(labels, tuple):
            return {}
        if len(handles) != len(labels) or len(set(handles)) != len(handles):
            return {}
        if not all(type(h) is int for h in handles) or not all(isinstance(x, str) for x in labels):
            return {}
        return dict(zip(handles, labels, strict=True))  # type: ignore[arg-type]

    def audit(self, state: KatoState, cards: Mapping[int, str]) -> list[Violation]:
        """Unchallenged illegal Wild Draw Fours and false challenge verdicts."""
        return view.audit(state, cards)


state_encode = state.encode
KATO = KatoGame()

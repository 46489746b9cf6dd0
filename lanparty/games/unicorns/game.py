"""``UnicornsGame``: Kill the Unicorns behind the game contract of ``protocol.contract``."""

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
from .state import UnicornsState

_INT_ARGS = {
    "plant": (int, int, int, str), "hunt": (int,), "cards": (tuple,), "peek": (int,),
    "shift": (int, int), "reveal": (int,), "give": (int,), "colour": (str,), "recall": (int,),
    "buy": (str, int, str, tuple),
}  # fmt: skip


class UnicornsGame:
    """Kill the Unicorns (3-4 players); see ``lanparty/games/rules/unicorns.md`` and
    ``docs/engine.md``."""

    name = "unicorns"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS

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

    def decode_move(self, value: Plain) -> Move:
        """Canonical tuple form of a move; ``IllegalMove`` if it has no valid shape."""
        if (
            not isinstance(value, list | tuple)
            or not value
            or not isinstance(value[0], str)
            or value[0] not in rules.ARITY
        ):
            raise IllegalMove(f"not a unicorns move: {excerpt(value)}")
        name = value[0]
        if len(value) != rules.ARITY[name]:
            raise IllegalMove(f"{name!r} takes {rules.ARITY[name] - 1} argument(s)")
        out: list[Plain] = [name]
        for arg, kind in zip(value[1:], _INT_ARGS.get(name, ()), strict=True):
            if kind is tuple:
                if not isinstance(arg, list | tuple) or not all(type(x) is int for x in arg):
                    raise IllegalMove(f"{name!r} needs a list of hunt card values")
                out.append(tuple(arg))
            elif type(arg) is not kind:
                raise IllegalMove(f"{name!r} got {excerpt(arg)} where a {kind.__name__} goes")
            else:
                out.append(arg)
        return tuple(out)

    def audit(self, state: UnicornsState, cards: Mapping[int, str]) -> list[Violation]:
        """No rule depends on a card that stays hidden: always empty (see ``view.audit``)."""
        return view.audit(state, cards)


_encode = state.encode
UNICORNS = UnicornsGame()

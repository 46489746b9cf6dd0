"""``KatoGame``: KaTO behind the game contract of ``protocol.contract``."""

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
from protocol.shapes import HANDLE, Moves, MoveShape, Seq, Text

from . import flow, rules, state, view
from .cards import COLOURS, LABEL
from .options import MAX_SEATS, MIN_SEATS, SPECS, make, validate
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


class KatoGame:
    """KaTO (2-10 players); see ``lanparty/games/rules/kato.md`` and ``docs/engine.md``."""

    name = "kato"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS
    moves = MOVES

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

    def reveals(self, move: Move) -> Mapping[int, str]:
        """A play (with or without the KaTO call) shows the cards it plays: ``{handle:
        label}`` (empty for any other move, or a play whose handles and labels do not pair
        up: ``check`` refuses that). ``move`` has its declared shape."""
        if move[0] != "play":
            return {}
        handles, labels = move[1], move[2]
        assert isinstance(handles, tuple) and isinstance(labels, tuple)
        if len(handles) != len(labels):
            return {}
        return dict(zip(handles, labels, strict=True))  # type: ignore[arg-type]

    def audit(self, state: KatoState, cards: Mapping[int, str]) -> list[Violation]:
        """Unchallenged illegal Wild Draw Fours and false challenge verdicts."""
        return view.audit(state, cards)


state_encode = state.encode
KATO = KatoGame()

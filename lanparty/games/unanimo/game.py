"""``UnanimoGame``: Unanimo behind the game contract of ``protocol.contract``."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import Move, Outcome, Plain, Result, Status, Violation
from protocol.shapes import Moves, Seq, Text

from . import rules, view
from .fold import MAX_TYPED
from .options import MAX_SEATS, MIN_SEATS, SPECS, make, validate
from .reading import refresh
from .rules import MAX_WORDS
from .state import BALLOTS, UnanimoState, decode, encode

MOVES = Moves.of(
    words=(Seq(Text(MAX_TYPED), MAX_WORDS),),
    object=(Text(MAX_TYPED),),
    appeal=(Text(MAX_TYPED),),
    vote=(Text.of(BALLOTS),),
    done=(),
)
"""Every Unanimo move and the shape of its arguments (see ``rules``): the words as typed
(``rules`` refuses what cannot be handed in, saying why)."""


class UnanimoGame:
    """Unanimo (3-8 players); see ``lanparty/games/rules/unanimo.md`` and ``docs/engine.md``."""

    name = "unanimo"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    option_specs = SPECS
    moves = MOVES

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """All options with defaults; ``OptionError`` names the first bad one (a table whose
        ``norm`` is not this program's normalisation version is refused)."""
        return validate(given)

    def setup(self, seats: int, options: Mapping[str, Plain]) -> UnanimoState:
        """A new game; its first status asks for the coin that draws the first subject."""
        st = UnanimoState(seats, make(seats, options))
        rules.begin(st)
        return st

    def status(self, state: UnanimoState) -> Status:
        """Which input is due next."""
        return view.status(state)

    def check(self, state: UnanimoState, seat: int, move: Move) -> None:
        """Raise ``IllegalMove`` unless the move is legal now."""
        rules.check(state, seat, move)

    def apply(self, state: UnanimoState, seat: int, move: Move) -> None:
        """Apply a checked move in place."""
        rules.apply(state, seat, move)

    def resolve(self, state: UnanimoState, result: Result) -> None:
        """Apply a coin, a hand-in or a closed writing in place (``BadResult`` if not due)."""
        rules.resolve(state, result)

    def legal_moves(self, state: UnanimoState, seat: int) -> list[Move]:
        """The moves of ``seat`` that can be listed (free words cannot: ``check`` rules)."""
        return rules.legal_moves(state, seat)

    def view(self, state: UnanimoState, seat: int | None) -> dict[str, Plain]:
        """What ``seat`` (``None``: a spectator) may know."""
        return view.view(state, seat)

    def outcome(self, state: UnanimoState) -> Outcome:
        """Scores per card, totals, winners."""
        return view.outcome(state)

    def encode_state(self, state: UnanimoState) -> Plain:
        """Canonical plain encoding."""
        return encode(state)

    def decode_state(self, value: Plain) -> UnanimoState:
        """Inverse of ``encode_state``, the derived reading rebuilt; ``GameError`` if
        malformed."""
        st = decode(value)
        refresh(st)
        return st

    def reveals(self, move: Move) -> Mapping[int, str]:
        """Nothing: no Unanimo move shows a held card."""
        return {}

    def audit(self, state: UnanimoState, cards: Mapping[int, str]) -> list[Violation]:
        """Nothing to audit: every rule is checked in play (the words are open by then)."""
        return []


UNANIMO = UnanimoGame()

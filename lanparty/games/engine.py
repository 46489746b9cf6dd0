"""A game's engine behind ``protocol.contract.Game``, built once for every game from its
pure functions.

A game declares :class:`Rules`: its name and seats, its options, the shapes of its moves
and the functions of its modules (set up, status, check, apply, resolve, legal moves, view,
outcome, encoding, the cards a move shows, the audit). :class:`Engine` is the one object
that puts them behind the contract, so no game writes a class that forwards each method to
its modules. Everything here is pure: no I/O, no randomness, no words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, TypeVar

from protocol.contract import (
    Move,
    MoveReader,
    OptionSpec,
    Outcome,
    Plain,
    Result,
    Seat,
    Status,
    Violation,
)

__all__ = ["Engine", "Rules", "gather", "nothing_revealed", "nothing_to_audit"]

StateT = TypeVar("StateT")


def nothing_revealed(move: Move) -> Mapping[int, str]:
    """No move of the game shows a held card."""
    return {}


def nothing_to_audit(state: object, cards: Mapping[int, str]) -> list[Violation]:
    """No rule of the game hinges on a card still hidden: play checks them all."""
    return []


@dataclass(frozen=True, slots=True)
class Rules(Generic[StateT]):
    """What a game is made of (each function pure, with the contract's promise of the
    method of the same name; ``new_state`` is ``setup``, ``validate`` is
    ``validate_options``, ``encode``/``decode`` are ``encode_state``/``decode_state``)."""

    name: str
    min_seats: int
    max_seats: int
    option_specs: tuple[OptionSpec, ...]
    moves: MoveReader
    validate: Callable[[Mapping[str, Plain]], dict[str, Plain]]
    new_state: Callable[[int, Mapping[str, Plain]], StateT]
    status: Callable[[StateT], Status]
    check: Callable[[StateT, Seat, Move], None]
    apply: Callable[[StateT, Seat, Move], None]
    resolve: Callable[[StateT, Result], None]
    legal_moves: Callable[[StateT, Seat], list[Move]]
    view: Callable[[StateT, Seat | None], dict[str, Plain]]
    outcome: Callable[[StateT], Outcome]
    encode: Callable[[StateT], Plain]
    decode: Callable[[Plain], StateT]
    reveals: Callable[[Move], Mapping[int, str]] = nothing_revealed
    audit: Callable[[StateT, Mapping[int, str]], list[Violation]] = nothing_to_audit


#: Where :func:`gather` finds each part of :class:`Rules` in a game's modules: the field and
#: the name the module gives it.
_BY_NAME = (
    ("min_seats", "MIN_SEATS"), ("max_seats", "MAX_SEATS"), ("option_specs", "SPECS"),
    ("validate", "validate"), ("status", "status"), ("check", "check"), ("apply", "apply"),
    ("resolve", "resolve"), ("legal_moves", "legal_moves"), ("view", "view"),
    ("outcome", "outcome"), ("encode", "encode"), ("decode", "decode"), ("audit", "audit"),
)  # fmt: skip


def gather(
    name: str,
    moves: MoveReader,
    new_state: Callable[[int, Mapping[str, Plain]], StateT],
    *modules: ModuleType,
    **given: Any,
) -> Engine[StateT]:
    """The engine of game ``name``, its parts found in ``modules`` by the names games use
    (``MIN_SEATS``, ``SPECS``, ``validate`` in its options; ``check``, ``apply``,
    ``legal_moves`` in its rules; ``status``, ``view``, ``outcome``, ``audit`` in its view;
    ``resolve``; ``encode``/``decode`` in its state: the first module that has a name gives
    it). ``given`` names parts outright (``reveals=…``, or one found under another name).
    Raises ``TypeError`` naming a part that no module has, or that is not a function
    (``audit`` and ``reveals`` may be missing: nothing to audit, nothing revealed)."""
    parts: dict[str, Any] = dict(given)
    for field_name, attr in _BY_NAME:
        if field_name in parts:
            continue
        found = [getattr(m, attr) for m in modules if hasattr(m, attr)]
        if found and attr.islower() and not callable(found[0]):
            raise TypeError(f"{name}: {attr} ({field_name}) is not a function: {found[0]!r}")
        if found:
            parts[field_name] = found[0]
        elif field_name != "audit":
            raise TypeError(f"{name}: no module gives {attr} ({field_name})")
    return Engine(Rules(name=name, moves=moves, new_state=new_state, **parts))


class Engine(Generic[StateT]):
    """One game behind the contract (``protocol.contract.Game``), from its :class:`Rules`.
    A test may subclass it to make a modified program (a cheat's own copy)."""

    def __init__(self, rules: Rules[StateT]) -> None:
        self.rules = rules
        self.name = rules.name
        self.min_seats = rules.min_seats
        self.max_seats = rules.max_seats
        self.option_specs = rules.option_specs

    @property
    def moves(self) -> MoveReader:
        """The declared shapes of the game's moves."""
        return self.rules.moves

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """All options with defaults; ``OptionError`` names the first bad one."""
        return self.rules.validate(given)

    def setup(self, seats: int, options: Mapping[str, Plain]) -> StateT:
        """A new game for ``seats`` players (``OptionError`` if the options or the seat
        count do not fit)."""
        return self.rules.new_state(seats, options)

    def status(self, state: StateT) -> Status:
        """Which input is due next."""
        return self.rules.status(state)

    def check(self, state: StateT, seat: Seat, move: Move) -> None:
        """Raise ``IllegalMove`` unless ``seat`` may make ``move`` now."""
        self.rules.check(state, seat, move)

    def apply(self, state: StateT, seat: Seat, move: Move) -> None:
        """Apply a checked move in place."""
        self.rules.apply(state, seat, move)

    def resolve(self, state: StateT, result: Result) -> None:
        """Apply a table result in place (``BadResult`` if it answers nothing pending)."""
        self.rules.resolve(state, result)

    def legal_moves(self, state: StateT, seat: Seat) -> list[Move]:
        """Every legal move of ``seat`` that this copy can name."""
        return self.rules.legal_moves(state, seat)

    def view(self, state: StateT, seat: Seat | None) -> dict[str, Plain]:
        """What ``seat`` (``None``: a spectator) may know."""
        return self.rules.view(state, seat)

    def outcome(self, state: StateT) -> Outcome:
        """Scores, and the winners once the game is over."""
        return self.rules.outcome(state)

    def encode_state(self, state: StateT) -> Plain:
        """The state's canonical plain encoding."""
        return self.rules.encode(state)

    def decode_state(self, value: Plain) -> StateT:
        """Inverse of ``encode_state``; ``GameError`` if malformed."""
        return self.rules.decode(value)

    def reveals(self, move: Move) -> Mapping[int, str]:
        """``{handle: label}`` of the held cards ``move`` (of its declared shape) shows."""
        return self.rules.reveals(move)

    def audit(self, state: StateT, cards: Mapping[int, str]) -> list[Violation]:
        """The rules broken out of sight, judged with every card's label."""
        return self.rules.audit(state, cards)

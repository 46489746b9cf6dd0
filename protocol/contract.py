"""The game contract: what every game implements and what the table protocol relies on.

A game is a pure, deterministic rules engine. It never draws random numbers, never does
I/O and never touches cryptography. Everything random or secret is a *request* the game
makes of the table (shuffle, deal, reveal, show, coin) whose *result* comes back as an
input, exactly like a move. Every peer keeps its own state copy and feeds it the same
sequence of inputs, so every copy stays bit-for-bit equal in its public part; a copy
differs only in which card identities it has been told.

Inputs, in log order, are of two kinds:

* a move by a seat: ``check(state, seat, move)`` then ``apply(state, seat, move)``;
* a result of a table request: ``resolve(state, result)``.

``status(state)`` says which input is due next. See ``docs/engine.md`` for the whole story.

This module imports nothing from ``lanparty`` and nothing of trio or crypto.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, TypeVar

from ._errors import clamp, excerpt

__all__ = [
    "BadResult",
    "CoinResult",
    "Commit",
    "CommitTimeout",
    "Committed",
    "Deal",
    "Dealt",
    "Game",
    "GameError",
    "GameOver",
    "IllegalMove",
    "JointCoin",
    "Move",
    "MoveReader",
    "Open",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "Plain",
    "Request",
    "Result",
    "RevealToAll",
    "Revealed",
    "Seat",
    "ShowToSeat",
    "Shown",
    "Shuffle",
    "Shuffled",
    "Status",
    "TableOps",
    "Turn",
    "Violation",
    "excerpt",
    "result_from_plain",
    "result_to_plain",
]

Seat: TypeAlias = int
"""Seats are numbered 0..n-1 in clockwise order; seat 0 opened the table (the host)."""

Plain: TypeAlias = (
    "bool | int | str | bytes | list[Plain] | tuple[Plain, ...] | dict[str, Plain] | None"
)
"""A value msgpack can carry without extension types (tuples travel as arrays)."""

Move: TypeAlias = tuple[Plain, ...]
"""A move is a tuple whose first item is the move's name, e.g. ``("draw",)``.

Moves are plain values: the protocol signs and logs them as they are. Every game declares the
shape of each of its moves (``Game.moves``, see ``protocol.shapes``); a value from outside (or
after a msgpack round trip, which makes arrays lists) becomes a canonical move only through
``game.moves.read(value)``, which the protocol applies before any game code sees a move.
"""


# --------------------------------------------------------------------------- errors


class GameError(Exception):
    """Base class of every error a game raises on purpose."""


class IllegalMove(GameError):  # noqa: N818 -- the rules word, used across the project
    """A move (or its shape) breaks the rules; ``reason`` says why, for the player (one short
    printable line: quote a peer's value with :func:`excerpt`)."""

    def __init__(self, reason: str) -> None:
        reason = clamp(reason)
        super().__init__(reason)
        self.reason = reason


class OptionError(GameError):
    """A table option (or the seat count, named ``"seats"``) is unknown or out of range."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"option {option!r}: {reason}")
        self.option = option
        self.reason = reason


class BadResult(GameError):  # noqa: N818 -- pairs with IllegalMove
    """A result does not answer the request the game is waiting for.

    This is never a player's mistake in the rules sense: it means the table fed the game an
    input it did not ask for (a protocol bug or a misbehaving peer).
    """


# --------------------------------------------------------------------------- options


class MoveReader(Protocol):
    """The declared shapes of a game's moves, as the protocol uses them (a
    :class:`protocol.shapes.Moves`: the contract names no implementation, so the shapes
    module may build on this one)."""

    def read(self, value: object) -> Move:
        """``value`` as a move of one of the declared shapes (tuples for arrays); raise
        :class:`IllegalMove` naming what does not fit."""
        ...


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option: its name, default, the allowed values and a one-line help.

    ``choices`` lists the allowed values for an enumerated option; ``minimum``/``maximum``
    bound an integer option (every int option without ``choices`` declares both). They are
    the option's declared shape, which the protocol checks before the game's
    ``validate_options`` (the authority on what else is allowed) sees a value from outside;
    they also serve menus and ``--help`` texts.
    """

    name: str
    default: bool | int | str
    help: str
    choices: tuple[bool | int | str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


# --------------------------------------------------------------------------- requests


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Build deck ``deck`` from the public card labels ``cards`` and shuffle it jointly.

    After the shuffle, position i of the deck (0 = the top, dealt first) is the card with
    handle ``handles[i]``; nobody knows which label any handle has. The labels are public, so
    turning a public pile into a new deck (a reshuffle) is the same request. Handles are
    never reused within a game. Answer: ``Shuffled``.
    """

    deck: str
    cards: tuple[str, ...]
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """Reveal the cards ``handles`` (the current top of ``deck``) to ``seat`` alone.

    Answer: ``Dealt``; only ``seat``'s copy receives the labels.
    """

    deck: str
    seat: Seat
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RevealToAll:
    """Reveal the cards ``handles`` to every seat. Answer: ``Revealed``."""

    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShowToSeat:
    """Seat ``from_seat`` shows its cards ``handles`` to ``to_seat`` alone.

    Answer: ``Shown``; only ``to_seat``'s copy receives the labels (``from_seat`` knows them).
    """

    from_seat: Seat
    to_seat: Seat
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class JointCoin:
    """Draw a number in ``range(n)`` that no single peer controls (commit-reveal of all).

    ``purpose`` is a short public tag (e.g. ``"first"``) bound into the coin's context.
    Answer: ``CoinResult``.
    """

    n: int
    purpose: str


Request: TypeAlias = Shuffle | Deal | RevealToAll | ShowToSeat | JointCoin


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The shuffle asked for has been completed and verified."""

    deck: str
    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dealt:
    """The deal asked for is done. ``cards`` (labels, same order as ``handles``) is present
    only in the copy of ``seat`` (and of an omniscient test dealer); every other copy gets
    ``None``."""

    seat: Seat
    handles: tuple[int, ...]
    cards: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Revealed:
    """The cards ``handles`` are now public; ``cards`` are their labels."""

    handles: tuple[int, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Shown:
    """``from_seat`` showed ``handles`` to ``to_seat``; ``cards`` only in ``to_seat``'s copy."""

    from_seat: Seat
    to_seat: Seat
    handles: tuple[int, ...]
    cards: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class CoinResult:
    """The joint coin's value, in ``range(n)`` of the request."""

    value: int


@dataclass(frozen=True, slots=True)
class Committed:
    """``seat`` has sent the commitment (hash) of its sealed move; its content stays hidden."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class CommitTimeout:
    """A timed commit phase closed; ``seats`` committed nothing and are treated as absent."""

    seats: tuple[Seat, ...]


Result: TypeAlias = Shuffled | Dealt | Revealed | Shown | CoinResult | Committed | CommitTimeout


# --------------------------------------------------------------------------- status


@dataclass(frozen=True, slots=True)
class Turn:
    """A move by ``seat`` is awaited.

    ``also`` lists seats that may move out of turn right now (e.g. KaTO's call and catch);
    such moves race with ``seat``'s move and the log order decides. ``legal_moves`` of a seat
    in ``also`` lists only its out-of-turn moves.

    ``free``: the moves of ``seat`` and ``also`` commute, each seat acting for itself (a
    Unanimo player's ``done`` or vote): nobody gains by being first, so no race is drawn and
    each is logged as it comes (a move that lost its position is proposed again).
    """

    seat: Seat
    also: tuple[Seat, ...] = ()
    free: bool = False


@dataclass(frozen=True, slots=True)
class Commit:
    """Each seat in ``seats`` must now send a *sealed* move: the table logs only its
    commitment and feeds ``Committed(seat)``; nobody sees its content yet. ``check`` judges a
    sealed move when it is committed exactly as it will judge it at ``Open``.

    With ``closer`` set, that seat may end the phase before every seat in ``seats`` has
    committed: its program does so once ``timer`` seconds (> 0) have passed since the phase
    began, or when its person says so, as far as the game's rules allow (the game sets
    ``closer`` only while closing is allowed). The table then feeds ``CommitTimeout`` with
    the seats still missing, and takes no more commitments in this phase. ``timer`` is shown
    to the players as a countdown; 0: nobody is hurried."""

    seats: tuple[Seat, ...]
    timer: int = 0
    closer: Seat | None = None


@dataclass(frozen=True, slots=True)
class Open:
    """Each seat in ``seats`` (in this order) must now open its sealed move. The table checks
    the opening against the commitment, then the opened move goes through ``check`` and
    ``apply`` like any move of that seat."""

    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class TableOps:
    """The table must fulfil ``requests`` and feed their results to ``resolve`` in this order.

    Each request's content is fixed when it is asked (none needs an earlier one's result to
    be written), so the protocol may prepare them together; the results must still be fed
    in order. Ask ``status`` again after each result: a result may add requests (a flipped
    card to bury, a pile to reshuffle) or end the table's turn.
    """

    requests: tuple[Request, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Scores so far. ``rounds[r][s]`` is what seat s scored in round r; ``totals[s]`` the sum
    (or the game's own total); ``winners`` is empty until the game is over."""

    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]
    winners: tuple[Seat, ...]
    finished: bool


@dataclass(frozen=True, slots=True)
class GameOver:
    """No input is due any more."""

    outcome: Outcome


Status: TypeAlias = Turn | Commit | Open | TableOps | GameOver


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken that play could not catch, found by ``audit``.

    ``step`` is the index of the offending input (moves and results counted from 0 since
    ``setup``); ``seat`` the player at fault; ``rule`` a short tag; ``detail`` for humans.
    """

    step: int
    seat: Seat
    rule: str
    detail: str


# --------------------------------------------------------------------------- the contract

StateT = TypeVar("StateT")


class Game(Protocol[StateT]):
    """What every game implements. All methods are pure functions of their arguments except
    ``apply`` and ``resolve``, which mutate ``state`` in place (every peer applies every input
    exactly once; copying a state per move would cost more than the move)."""

    name: str
    min_seats: int
    max_seats: int
    option_specs: tuple[OptionSpec, ...]

    @property
    def moves(self) -> MoveReader:
        """The shape of every move (types, lengths, ranges): the protocol reads each move,
        each sealed value, against it before ``check`` or ``reveals`` sees it, so those meet
        only values of the declared shapes. ``legal_moves`` returns moves of these shapes."""
        ...

    def validate_options(self, given: Mapping[str, Plain]) -> dict[str, Plain]:
        """Return every option with defaults filled in; raise ``OptionError`` naming the first
        unknown or invalid option."""
        ...

    def setup(self, seats: int, options: Mapping[str, Plain]) -> StateT:
        """A fresh state for ``seats`` players (seat 0 is the host). Validates the options and
        the seat count (``OptionError(option="seats")``). Its first status is usually
        ``TableOps`` (a shuffle, a coin)."""
        ...

    def status(self, state: StateT) -> Status:
        """Which input is due: a move (``Turn``), sealed moves (``Commit``/``Open``), results
        of table requests (``TableOps``), or none (``GameOver``)."""
        ...

    def check(self, state: StateT, seat: Seat, move: Move) -> None:
        """Raise ``IllegalMove`` (with the reason) unless ``seat`` may make ``move`` now.

        Works with partial knowledge: a move that plays a card carries the card's label; a copy
        that does not know the card takes the label (the protocol has verified its reveal), a
        copy that knows it refuses a mismatch. Rules that need cards nobody may see yet are
        recorded for ``audit``."""
        ...

    def apply(self, state: StateT, seat: Seat, move: Move) -> None:
        """Apply a move that passed ``check``, in place. Undefined for unchecked moves."""
        ...

    def resolve(self, state: StateT, result: Result) -> None:
        """Apply the result of the oldest pending request, in place; raise ``BadResult`` if it
        does not answer that request. ``Committed`` and ``CommitTimeout`` answer no request:
        they come during a ``Commit`` phase (a seat handed in; the phase was closed)."""
        ...

    def reveals(self, move: Move) -> Mapping[int, str]:
        """``{handle: label}`` of the hidden cards ``move`` shows to everyone (a card played
        from a hand, a tile placed): pure in the move, as it is needed before ``check``. The
        protocol demands the mover's decryption share of each card that is not yet public,
        refuses the move if a card is not the label claimed, and makes the card public. A
        move that moves a hidden card without showing it names nothing here."""
        ...

    def legal_moves(self, state: StateT, seat: Seat) -> list[Move]:
        """Every legal move of ``seat`` now, in a deterministic order (empty if none). Games
        whose moves cannot be enumerated (free text) list what they can; ``check`` rules."""
        ...

    def view(self, state: StateT, seat: Seat | None) -> dict[str, Plain]:
        """Everything ``seat`` may know and nothing more; ``None`` is a spectator (the public
        view). This is the only thing a UI or a bot ever receives."""
        ...

    def outcome(self, state: StateT) -> Outcome:
        """Per-round scores, totals and (once over) the winners."""
        ...

    def encode_state(self, state: StateT) -> Plain:
        """A plain, canonical encoding: equal states give equal values (and msgpack bytes)."""
        ...

    def decode_state(self, value: Plain) -> StateT:
        """Inverse of ``encode_state``; raise ``GameError`` on a malformed value."""
        ...

    def audit(self, state: StateT, cards: Mapping[int, str]) -> list[Violation]:
        """Once every card is known (``cards`` maps every handle dealt in the game to its
        label), name every rule broken that play could not catch. Pure; empty if none."""
        ...


# --------------------------------------------------------------------------- plain codec

_RESULT_FIELDS: dict[str, tuple[type, tuple[str, ...]]] = {
    "shuffled": (Shuffled, ("deck", "handles")),
    "dealt": (Dealt, ("seat", "handles", "cards")),
    "revealed": (Revealed, ("handles", "cards")),
    "shown": (Shown, ("from_seat", "to_seat", "handles", "cards")),
    "coin": (CoinResult, ("value",)),
    "committed": (Committed, ("seat",)),
    "timeout": (CommitTimeout, ("seats",)),
}
_TAG_OF: dict[type, str] = {cls: tag for tag, (cls, _) in _RESULT_FIELDS.items()}


def result_to_plain(result: Result) -> list[Plain]:
    """Encode a result as ``[tag, field, ...]`` (tuples stay tuples; msgpack makes arrays)."""
    cls, names = _RESULT_FIELDS[_TAG_OF[type(result)]]
    out: list[Plain] = [_TAG_OF[cls]]
    for name in names:
        value: Plain = getattr(result, name)
        out.append(value)
    return out


def _int_tuple(value: Plain, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(type(v) is int and v >= 0 for v in value):
        raise BadResult(f"{what} must be a sequence of non-negative ints")
    return tuple(v for v in value if isinstance(v, int))


def _str_tuple(value: Plain, what: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise BadResult(f"{what} must be a sequence of strings")
    return tuple(v for v in value if isinstance(v, str))


def _int(value: Plain, what: str) -> int:
    if type(value) is not int or value < 0:
        raise BadResult(f"{what} must be a non-negative int")
    assert isinstance(value, int)
    return value


def result_from_plain(value: Plain) -> Result:
    """Decode ``result_to_plain``'s output strictly; raise ``BadResult`` on any deviation."""
    if not isinstance(value, list | tuple) or not value or not isinstance(value[0], str):
        raise BadResult("a result is [tag, fields...]")
    entry = _RESULT_FIELDS.get(value[0])
    if entry is None:
        raise BadResult(f"unknown result tag {value[0]!r}")
    names = entry[1]
    if len(value) != len(names) + 1:
        raise BadResult(f"result {value[0]!r} needs {len(names)} fields")
    f: Sequence[Plain] = value[1:]
    tag = value[0]
    if tag == "shuffled":
        if not isinstance(f[0], str):
            raise BadResult("deck must be a string")
        return Shuffled(f[0], _int_tuple(f[1], "handles"))
    if tag == "dealt":
        cards = None if f[2] is None else _str_tuple(f[2], "cards")
        return Dealt(_int(f[0], "seat"), _int_tuple(f[1], "handles"), cards)
    if tag == "revealed":
        return Revealed(_int_tuple(f[0], "handles"), _str_tuple(f[1], "cards"))
    if tag == "shown":
        cards = None if f[3] is None else _str_tuple(f[3], "cards")
        return Shown(
            _int(f[0], "from_seat"), _int(f[1], "to_seat"), _int_tuple(f[2], "handles"), cards
        )
    if tag == "coin":
        return CoinResult(_int(f[0], "value"))
    if tag == "committed":
        return Committed(_int(f[0], "seat"))
    return CommitTimeout(_int_tuple(f[0], "seats"))

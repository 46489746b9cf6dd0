"""Declared shapes: what every move, sealed value and table option may look like on the wire.

A game declares the shape of each of its moves (:class:`Moves`: a name and the shapes of its
arguments: types, lengths, ranges, allowed words); the protocol reads every move a peer sends,
every sealed value it opens and every option it proposes against them *before any game code
sees it*. So a game's ``check`` and ``apply`` only ever meet values of the shapes they were
written for: an int where an int goes, a tuple of at most ``n`` labels it knows. A value of
another shape is the sender's fault (:class:`ShapeError`, an ``IllegalMove``), never a
``TypeError`` deep inside a rules engine.

Reading is strict and canonical: ``bool`` is not an ``int``, lists and tuples are both read
as tuples (msgpack makes arrays of both), and nothing is coerced. The shapes are plain frozen
values, so tests can generate values of every declared shape (and of none).

This module imports nothing from ``lanparty`` and nothing of trio or crypto.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ._bodies import MAX_HANDLE
from ._errors import excerpt
from .contract import IllegalMove, Move, OptionSpec, Plain

__all__ = [
    "HANDLE",
    "Bool",
    "Either",
    "Int",
    "MoveShape",
    "Moves",
    "Seq",
    "Shape",
    "ShapeError",
    "Text",
    "option_shapes",
    "read_options",
]

#: Largest bound any shape may declare for an int (msgpack's own range is wider).
INT_LIMIT = 2**63 - 1


class ShapeError(IllegalMove):
    """A value does not have the shape declared for it; ``reason`` says where and why."""


@dataclass(frozen=True, slots=True)
class Int:
    """An ``int`` (not a ``bool``) in ``lo..hi``."""

    lo: int
    hi: int

    def __post_init__(self) -> None:
        if not -INT_LIMIT <= self.lo <= self.hi <= INT_LIMIT:
            raise ValueError(f"Int({self.lo}, {self.hi}): bounds out of order or too wide")

    def read(self, value: object, where: str) -> Plain:
        """``value`` itself; raises :class:`ShapeError` unless it is an int in range."""
        if type(value) is not int or not self.lo <= value <= self.hi:
            raise ShapeError(f"{where}: {excerpt(value)} is not a whole number in "
                             f"{self.lo}..{self.hi}")  # fmt: skip
        return value


@dataclass(frozen=True, slots=True)
class Bool:
    """``True`` or ``False``."""

    def read(self, value: object, where: str) -> Plain:
        """``value`` itself; raises :class:`ShapeError` unless it is a bool."""
        if type(value) is not bool:
            raise ShapeError(f"{where}: {excerpt(value)} is not true or false")
        return value


@dataclass(frozen=True, slots=True)
class Text:
    """A ``str`` of ``min_len..max_len`` characters; with ``choices``, one of those words."""

    max_len: int
    min_len: int = 0
    choices: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.min_len <= self.max_len:
            raise ValueError(f"Text({self.min_len}..{self.max_len}): bounds out of order")

    @classmethod
    def of(cls, words: Iterable[str]) -> Text:
        """One of ``words`` (at least one; their longest length bounds the text)."""
        allowed = frozenset(words)
        if not allowed:
            raise ValueError("Text.of needs at least one word")
        return cls(max(len(w) for w in allowed), min(len(w) for w in allowed), allowed)

    def read(self, value: object, where: str) -> Plain:
        """``value`` itself; raises :class:`ShapeError` unless it is an allowed text."""
        if type(value) is not str or not self.min_len <= len(value) <= self.max_len:
            raise ShapeError(f"{where}: {excerpt(value)} is not a text of "
                             f"{self.min_len}..{self.max_len} characters")  # fmt: skip
        if self.choices is not None and value not in self.choices:
            raise ShapeError(f"{where}: {excerpt(value)} is not one of the allowed words")
        return value


@dataclass(frozen=True, slots=True)
class Seq:
    """A list or tuple of ``min_len..max_len`` items of one shape (read as a tuple);
    ``unique``: no item twice."""

    item: Shape
    max_len: int
    min_len: int = 0
    unique: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.min_len <= self.max_len:
            raise ValueError(f"Seq({self.min_len}..{self.max_len}): bounds out of order")

    def read(self, value: object, where: str) -> Plain:
        """The items read, as a tuple; raises :class:`ShapeError`."""
        if not isinstance(value, list | tuple) or not (
            self.min_len <= len(value) <= self.max_len
        ):
            raise ShapeError(f"{where}: {excerpt(value)} is not a list of "
                             f"{self.min_len}..{self.max_len} items")  # fmt: skip
        out = tuple(self.item.read(v, f"{where}[{i}]") for i, v in enumerate(value))
        if self.unique and len(set(out)) != len(out):
            raise ShapeError(f"{where}: an item appears twice in {excerpt(value)}")
        return out


@dataclass(frozen=True, slots=True)
class Either:
    """A value of the first of ``options`` that reads it (e.g. a handle or the word
    ``"bag"``)."""

    options: tuple[Shape, ...]

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("Either needs at least one shape")

    def read(self, value: object, where: str) -> Plain:
        """The value as read by the first shape that takes it; raises :class:`ShapeError`
        (with the last shape's reason) if none does."""
        last: ShapeError | None = None
        for shape in self.options:
            try:
                return shape.read(value, where)
            except ShapeError as exc:
                last = exc
        assert last is not None
        raise last


Shape: TypeAlias = Int | Bool | Text | Seq | Either
"""Every shape there is (a closed set, so a test can generate a value of each)."""

HANDLE = Int(0, MAX_HANDLE)
"""A card's handle (see ``protocol.contract.Shuffle``)."""


@dataclass(frozen=True, slots=True)
class MoveShape:
    """The arguments of one move: ``args`` in order, of which the last ``optional`` may be
    left out (e.g. KaTO's call that may come with a play)."""

    args: tuple[Shape, ...] = ()
    optional: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.optional <= len(self.args):
            raise ValueError("more optional arguments than arguments")


@dataclass(frozen=True, slots=True)
class Moves:
    """A game's moves by name, each with the shape of its arguments. :meth:`read` is the
    only way a move from outside becomes a :data:`~protocol.contract.Move`."""

    shapes: Mapping[str, MoveShape]

    def __post_init__(self) -> None:
        if not self.shapes:
            raise ValueError("a game has at least one move")

    @classmethod
    def of(cls, **moves: Sequence[Shape] | MoveShape) -> Moves:
        """``Moves.of(draw=(), play=(Int(0, 9),), ...)``: a tuple of shapes is a move
        without optional arguments."""
        return cls({
            name: shape if isinstance(shape, MoveShape) else MoveShape(tuple(shape))
            for name, shape in moves.items()
        })  # fmt: skip

    def read(self, value: object) -> Move:
        """The canonical move (a tuple: its name, then its arguments read by their shapes);
        raises :class:`ShapeError` if ``value`` is not a declared move of its shape."""
        if not isinstance(value, list | tuple) or not value:
            raise ShapeError(f"a move is a list: its name, then its arguments, not "
                             f"{excerpt(value)}")  # fmt: skip
        name = value[0]
        shape = self.shapes.get(name) if type(name) is str else None
        if shape is None:
            raise ShapeError(f"no move is called {excerpt(name)}")
        assert isinstance(name, str)
        args = value[1:]
        most, least = len(shape.args), len(shape.args) - shape.optional
        if not least <= len(args) <= most:
            count = str(most) if least == most else f"{least}..{most}"
            raise ShapeError(f"{name!r} takes {count} argument(s), not {len(args)}")
        read = (s.read(v, f"{name!r} argument {i + 1}") for i, (s, v) in enumerate(zip(
            shape.args, args, strict=False)))  # fmt: skip
        return (name, *read)


def option_shapes(specs: Sequence[OptionSpec]) -> dict[str, Shape]:
    """The shape of each option from its spec: one of ``choices`` when it has them, else
    of its default's type (an int between ``minimum`` and ``maximum``, which it must
    declare; a text of at most 64 characters). Raises ``ValueError`` for a spec whose
    shape is unbounded."""
    out: dict[str, Shape] = {}
    for spec in specs:
        d = spec.default
        if spec.choices:
            kinds = {type(c) for c in spec.choices}
            if kinds == {bool}:
                out[spec.name] = Bool()
            elif kinds == {str}:
                out[spec.name] = Text.of(str(c) for c in spec.choices)
            elif kinds == {int}:
                ints = [int(c) for c in spec.choices]
                out[spec.name] = Int(min(ints), max(ints))
            else:
                raise ValueError(f"option {spec.name!r}: choices of mixed types")
        elif type(d) is bool:
            out[spec.name] = Bool()
        elif type(d) is int:
            if spec.minimum is None or spec.maximum is None:
                raise ValueError(f"option {spec.name!r}: an int option declares its range")
            out[spec.name] = Int(spec.minimum, spec.maximum)
        else:
            out[spec.name] = Text(64)
    return out


def read_options(specs: Sequence[OptionSpec], given: object) -> dict[str, Plain]:
    """``given`` as a map of option names to values of their declared shapes (every name
    known; none need be present); raises :class:`ShapeError`."""
    if not isinstance(given, dict):
        raise ShapeError(f"the options are a map, not {excerpt(given)}")
    shapes = option_shapes(specs)
    out: dict[str, Plain] = {}
    for name, value in given.items():
        shape = shapes.get(name) if type(name) is str else None
        if shape is None:
            raise ShapeError(f"there is no option {excerpt(name)}")
        out[name] = shape.read(value, f"option {name!r}")
    return out

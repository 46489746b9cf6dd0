"""Hypothesis strategies from declared shapes (``protocol.shapes``): values of every shape a
game declares, and values that are not (one argument swapped for any plain value, a name no
move has, an argument too many or too few)."""

from __future__ import annotations

from hypothesis import strategies as st

from protocol.contract import Move, OptionSpec
from protocol.shapes import Bool, Either, Int, Moves, Seq, Shape, Text, option_shapes

#: Any value msgpack carries without extension types, small.
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10,
)  # fmt: skip


def value_of(shape: Shape) -> st.SearchStrategy[object]:
    """Values that ``shape`` reads, its edges included."""
    if isinstance(shape, Int):
        edges = st.sampled_from(sorted({shape.lo, shape.hi, max(shape.lo, min(shape.hi, 0))}))
        return edges | st.integers(shape.lo, shape.hi)
    if isinstance(shape, Bool):
        return st.booleans()
    if isinstance(shape, Text):
        if shape.choices is not None:
            return st.sampled_from(sorted(shape.choices))
        return st.text(min_size=shape.min_len, max_size=shape.max_len)
    if isinstance(shape, Seq):
        items = st.lists(value_of(shape.item), min_size=shape.min_len, max_size=shape.max_len,
                         unique=shape.unique)  # fmt: skip
        return items.map(tuple) | items
    assert isinstance(shape, Either)
    return st.one_of(*(value_of(s) for s in shape.options))


@st.composite
def move_of(draw: st.DrawFn, moves: Moves) -> Move:
    """A move of one of ``moves``' declared shapes (lists and tuples alike: both travel)."""
    name = draw(st.sampled_from(sorted(moves.shapes)))
    shape = moves.shapes[name]
    count = draw(st.integers(len(shape.args) - shape.optional, len(shape.args)))
    return (name, *(draw(value_of(s)) for s in shape.args[:count]))


@st.composite
def misshapen_move_of(draw: st.DrawFn, moves: Moves) -> object:
    """A value that is not a move of ``moves``: a declared move with one part replaced by any
    plain value, an argument added or dropped, or anything at all."""
    move = list(draw(move_of(moves)))
    how = draw(st.sampled_from(["part", "more", "fewer", "any"]))
    if how == "part":
        move[draw(st.integers(0, len(move) - 1))] = draw(PLAIN)
    elif how == "more":
        move.append(draw(PLAIN))
    elif how == "fewer" and len(move) > 1:
        move.pop()
    else:
        return draw(PLAIN)
    return move


def any_move_of(moves: Moves) -> st.SearchStrategy[object]:
    """Moves of the declared shapes and values of none, about as often."""
    return move_of(moves) | misshapen_move_of(moves)


@st.composite
def options_of(draw: st.DrawFn, specs: tuple[OptionSpec, ...]) -> dict[str, object]:
    """A map of options: some of their declared shapes, some of none, some unknown."""
    shapes = option_shapes(specs)
    out: dict[str, object] = {}
    for name in draw(st.lists(st.sampled_from(sorted(shapes)), unique=True)):
        out[name] = draw(value_of(shapes[name]) | PLAIN)
    if draw(st.booleans()):
        out[draw(st.text(max_size=12))] = draw(PLAIN)
    return out

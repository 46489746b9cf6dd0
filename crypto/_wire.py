"""Strict readers for plain msgpack-able values received from outside.

Every reader raises :class:`DecodeError` naming ``what`` when the value has the wrong type,
length or shape; none of them raises anything else.
"""

from __future__ import annotations

from ._errors import DecodeError
from ._group import Point, decode_scalar

#: Upper bound on list lengths accepted from outside (decks, proofs): no deck is this large.
MAX_ITEMS = 4096


def expect_list(value: object, what: str, length: int | None = None) -> list[object]:
    """``value`` as a list (or tuple), of exactly ``length`` items when given."""
    if not isinstance(value, list | tuple):
        raise DecodeError(f"{what}: expected a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise DecodeError(f"{what}: expected {length} items, got {len(value)}")
    if len(value) > MAX_ITEMS:
        raise DecodeError(f"{what}: too many items ({len(value)} > {MAX_ITEMS})")
    return list(value)


def expect_bytes(value: object, what: str, length: int | None = None) -> bytes:
    """``value`` as bytes, of exactly ``length`` bytes when given."""
    if not isinstance(value, bytes):
        raise DecodeError(f"{what}: expected bytes, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise DecodeError(f"{what}: expected {length} bytes, got {len(value)}")
    return value


def expect_int(value: object, what: str, lo: int, hi: int) -> int:
    """``value`` as an int with ``lo <= value <= hi`` (bools are refused)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise DecodeError(f"{what}: expected an integer, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise DecodeError(f"{what}: {value} is outside {lo}..{hi}")
    return value


def read_point(value: object, what: str) -> Point:
    """A validated point; see :meth:`Point.decode`."""
    try:
        return Point.decode(value)
    except DecodeError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def read_scalar(value: object, what: str) -> int:
    """A canonical scalar; see :func:`decode_scalar`."""
    try:
        return decode_scalar(value)
    except DecodeError as exc:
        raise DecodeError(f"{what}: {exc}") from None


def read_points(value: object, what: str, length: int | None = None) -> list[Point]:
    """A list of validated points."""
    return [read_point(v, f"{what}[{i}]") for i, v in enumerate(expect_list(value, what, length))]


def read_scalars(value: object, what: str, length: int | None = None) -> list[int]:
    """A list of canonical scalars."""
    items = expect_list(value, what, length)
    return [read_scalar(v, f"{what}[{i}]") for i, v in enumerate(items)]

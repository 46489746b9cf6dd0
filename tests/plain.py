"""Helpers for tests that look inside plain values (views, entry bodies, events)."""

from __future__ import annotations

from collections.abc import Iterator


def strings(value: object) -> Iterator[str]:
    """Every string anywhere in ``value``: in lists, tuples, dict values and dataclass fields."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)
    elif hasattr(value, "__dataclass_fields__"):
        for field in value.__dataclass_fields__:
            yield from strings(getattr(value, field))

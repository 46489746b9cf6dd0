"""Canonical msgpack: one encoding per value, and strict decoding of foreign bytes.

Values are "plain": ``None``, ``bool``, ``int`` (64-bit), ``str``, ``bytes``, lists (tuples
encode as lists) and maps with ``str`` keys. Floats and extension types are refused. Maps are
encoded with their keys sorted, so equal values give equal bytes; :func:`unpack` re-encodes
what it decoded and refuses any input that is not already in that canonical form (unsorted
keys, non-minimal integers or lengths, duplicate keys), so signed bytes have one reading.
"""

from __future__ import annotations

from typing import Final

import msgpack

from ._errors import RemoteProtocolError

#: Largest integer magnitude accepted (msgpack's 64-bit range).
_INT_MIN: Final = -(2**63)
_INT_MAX: Final = 2**64 - 1
_MAX_DEPTH: Final = 32


def _refuse_ext(code: int, data: bytes) -> object:
    raise RemoteProtocolError(f"msgpack extension type {code} is not allowed")


def canonical(value: object, _depth: int = 0) -> object:
    """``value`` with every map's keys sorted and tuples as lists.

    Raises :class:`TypeError` for anything that is not a plain value (floats included).
    """
    if _depth > _MAX_DEPTH:
        raise TypeError("value nested too deeply")
    if value is None or isinstance(value, bool | str | bytes):
        return value
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise TypeError("integer out of the 64-bit range")
        return value
    if isinstance(value, list | tuple):
        return [canonical(v, _depth + 1) for v in value]
    if isinstance(value, dict):
        keys = list(value)
        if not all(isinstance(k, str) for k in keys):
            raise TypeError("map keys must be strings")
        return {k: canonical(value[k], _depth + 1) for k in sorted(keys)}
    raise TypeError(f"{type(value).__name__} is not a plain value")


def pack(value: object) -> bytes:
    """The canonical encoding of a plain value; raises :class:`TypeError` otherwise."""
    return msgpack.packb(canonical(value), use_bin_type=True)  # type: ignore[no-any-return]


def unpack(data: bytes, max_size: int) -> object:
    """Decode bytes from outside, strictly.

    Raises :class:`RemoteProtocolError` (no culprit named yet) unless ``data`` is at most
    ``max_size`` bytes holding exactly one canonically encoded plain value.
    """
    if not isinstance(data, bytes):
        raise RemoteProtocolError("expected bytes")
    if len(data) > max_size:
        raise RemoteProtocolError(f"message of {len(data)} bytes exceeds the {max_size} limit")
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_refuse_ext,
        )
    except RemoteProtocolError:
        raise
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
        raise RemoteProtocolError(f"undecodable msgpack ({type(exc).__name__})") from None
    check_canonical(value, data)
    return value


def check_canonical(value: object, data: bytes) -> None:
    """Raise :class:`RemoteProtocolError` unless ``data`` is exactly the canonical encoding
    of the plain ``value`` it decoded to (so signed bytes have one reading)."""
    try:
        again = pack(value)
    except (TypeError, RecursionError) as exc:
        raise RemoteProtocolError(f"not a plain value: {exc}") from None
    if again != data:
        raise RemoteProtocolError("not in canonical encoding")

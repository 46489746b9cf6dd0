"""Strict readers of a peer's plain values: each returns the value of the type, size and bounds
asked for, or raises :class:`RemoteProtocolError` naming the field (``what``). Every body and
frame is read with them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from crypto import CryptoError

from ._errors import RemoteProtocolError

MAX_NAME: Final = 32


def _bad(what: str, why: str) -> RemoteProtocolError:
    """The refusal of field ``what``: ``why``."""
    return RemoteProtocolError(f"{what}: {why}")


def _map(value: object, what: str, names: frozenset[str]) -> dict[str, object]:
    """A map with exactly the field ``names``; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, dict):
        raise _bad(what, "expected a map")
    if set(value) != names:
        extra, missing = sorted(set(value) - names), sorted(names - set(value))
        raise _bad(what, f"fields differ (unexpected {extra}, missing {missing})")
    return value


def _int(value: object, what: str, lo: int = 0, hi: int = 2**63 - 1) -> int:
    """An integer (not a bool) in ``lo..hi``; raises :class:`RemoteProtocolError`."""
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(what, f"expected an integer in {lo}..{hi}")
    return value


def _bytes(value: object, what: str, size: int | None = None) -> bytes:
    """Bytes, of length ``size`` if given; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, bytes) or (size is not None and len(value) != size):
        raise _bad(what, "expected bytes" + ("" if size is None else f" of length {size}"))
    return value


def _bytes_max(value: object, what: str, most: int) -> bytes:
    """At most ``most`` bytes; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, bytes) or len(value) > most:
        raise _bad(what, f"expected at most {most} bytes")
    return value


def _str(value: object, what: str, max_len: int = 256) -> str:
    """A string of at most ``max_len`` characters; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, str) or len(value) > max_len:
        raise _bad(what, f"expected a string of at most {max_len} characters")
    return value


def _bool(value: object, what: str) -> bool:
    """A boolean; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, bool):
        raise _bad(what, "expected a boolean")
    return value


def _list(value: object, what: str, max_len: int = 4096) -> list[object]:
    """A list of at most ``max_len`` items; raises :class:`RemoteProtocolError`."""
    if not isinstance(value, list) or len(value) > max_len:
        raise _bad(what, f"expected a list of at most {max_len} items")
    return value


def _crypto(reader: Callable[[], object], what: str) -> object:
    """``reader()``'s value; a :class:`CryptoError` is this field's :class:`RemoteProtocolError`."""
    try:
        return reader()
    except CryptoError as exc:
        raise _bad(what, str(exc)) from None


def read_name(value: object) -> str:
    """A player name: 1..32 printable characters, no leading or trailing space."""
    name = _str(value, "name", MAX_NAME)
    if not name or name != name.strip() or not name.isprintable():
        raise _bad("name", "must be 1..32 printable characters without outer spaces")
    return name

"""What every game's state encoding shares: its pending table requests as plain values, its
plain fields by kind, and one error for a value that is not a state of the game.

A game's ``state.encode`` stays canonical (equal states, equal values, key order included)
and ``state.decode`` its inverse; they call these for the parts that are the same in every
game, so a fifth game writes only what is its own.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from protocol.contract import (
    Deal,
    GameError,
    JointCoin,
    Plain,
    Request,
    RevealToAll,
    ShowToSeat,
    Shuffle,
)

__all__ = [
    "decode_fields",
    "decoding",
    "encode_fields",
    "request_from_plain",
    "request_to_plain",
]


def request_to_plain(req: Request) -> list[Plain]:
    """A pending table request as a plain value (part of the state)."""
    if isinstance(req, Shuffle):
        return ["shuffle", req.deck, list(req.cards), list(req.handles)]
    if isinstance(req, Deal):
        return ["deal", req.deck, req.seat, list(req.handles)]
    if isinstance(req, RevealToAll):
        return ["reveal", list(req.handles)]
    if isinstance(req, ShowToSeat):
        return ["show", req.from_seat, req.to_seat, list(req.handles)]
    return ["coin", req.n, req.purpose]


def request_from_plain(v: Any) -> Request:
    """Inverse of :func:`request_to_plain`; raise ``GameError`` on an unknown tag (and let
    a malformed value raise what :func:`decoding` turns into one)."""
    tag = v[0]
    if tag == "shuffle":
        return Shuffle(str(v[1]), tuple(str(c) for c in v[2]), tuple(int(h) for h in v[3]))
    if tag == "deal":
        return Deal(str(v[1]), int(v[2]), tuple(int(h) for h in v[3]))
    if tag == "reveal":
        return RevealToAll(tuple(int(h) for h in v[1]))
    if tag == "show":
        return ShowToSeat(int(v[1]), int(v[2]), tuple(int(h) for h in v[3]))
    if tag == "coin":
        return JointCoin(int(v[1]), str(v[2]))
    raise GameError(f"unknown request tag {tag!r}")


def encode_fields(st: object, layout: Mapping[str, str], out: dict[str, Plain]) -> None:
    """Add each field of ``st`` that ``layout`` names (name → kind, in the layout's order)
    to ``out``, canonically. The kinds: ``int``, ``bool``, ``ints`` (a list of ints),
    ``nested`` (a list of lists of ints), ``int_map`` (int → int, stored as sorted pairs)."""
    for name, kind in layout.items():
        value = getattr(st, name)
        if kind in ("int", "bool"):
            out[name] = value
        elif kind == "ints":
            out[name] = list(value)
        elif kind == "nested":
            out[name] = [list(x) for x in value]
        elif kind == "int_map":
            out[name] = [[k, value[k]] for k in sorted(value)]
        else:
            raise ValueError(f"unknown field kind {kind!r}")


def decode_fields(st: object, layout: Mapping[str, str], v: Mapping[str, Any]) -> None:
    """Set each field of ``st`` that ``layout`` names from the plain ``v`` (the inverse of
    :func:`encode_fields`); a malformed value raises what :func:`decoding` turns into a
    ``GameError``."""
    for name, kind in layout.items():
        raw = v[name]
        if kind == "int":
            value: object = int(raw)
        elif kind == "bool":
            value = bool(raw)
        elif kind == "ints":
            value = [int(x) for x in raw]
        elif kind == "nested":
            value = [[int(x) for x in inner] for inner in raw]
        elif kind == "int_map":
            value = {int(k): int(x) for k, x in raw}
        else:
            raise ValueError(f"unknown field kind {kind!r}")
        setattr(st, name, value)


@contextmanager
def decoding(game: str, value: Plain) -> Iterator[dict[str, Any]]:
    """Decode a state of ``game`` from ``value`` inside the block (given the value as a
    dict): raise ``GameError("not a GAME state")`` unless it says it is one, and turn any
    ``KeyError``, ``TypeError``, ``ValueError`` or ``IndexError`` of the block into
    ``GameError("malformed GAME state: …")``."""
    if not isinstance(value, dict) or value.get("game") != game:
        raise GameError(f"not a {game} state")
    try:
        yield value
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise GameError(f"malformed {game} state: {exc}") from exc

"""Typed reads of a seat's view (a ``dict[str, Plain]``) for bots, narration and the UI.

A view is plain data; these say what type a field must have and fail loudly (``TypeError``)
when a game breaks that promise, instead of printing ``b'…'`` or crashing later.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from protocol.contract import GameError, Plain

__all__ = ["cards", "num", "num_at", "searched_phase", "seq"]


def num(view: Mapping[str, Plain], key: str) -> int:
    """``view[key]`` as an int (bools are refused: they are never counts)."""
    value = view[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"view field {key!r} is not an integer: {value!r}")
    return value


def seq(view: Mapping[str, Plain], key: str) -> Sequence[Plain]:
    """``view[key]`` as a list or tuple."""
    value = view[key]
    if not isinstance(value, list | tuple):
        raise TypeError(f"view field {key!r} is not a sequence: {value!r}")
    return value


def num_at(view: Mapping[str, Plain], key: str, index: int) -> int:
    """``view[key][index]`` as an int (a count or a score of one seat)."""
    value = seq(view, key)[index]
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"view field {key!r}[{index}] is not an integer: {value!r}")
    return value


def cards(view: Mapping[str, Plain], key: str = "hand") -> list[tuple[int, str]]:
    """``view[key]`` as (handle, label) pairs, e.g. a hand; an absent field is empty."""
    out: list[tuple[int, str]] = []
    for item in view.get(key) or ():  # type: ignore[union-attr]
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise TypeError(f"view field {key!r} holds {item!r}, not (handle, label)")
        handle, label = item
        if not isinstance(handle, int) or not isinstance(label, str):
            raise TypeError(f"view field {key!r} holds {item!r}, not (handle, label)")
        out.append((handle, label))
    return out


def searched_phase(view: Mapping[str, Plain], names: Sequence[str], searched: Sequence[str]) -> int:
    """The index in ``names`` of the view's ``phase``. Raises ``GameError`` if it is not one
    of ``searched`` (a bot's search has nothing to decide there)."""
    phase = str(view.get("phase"))
    if phase not in searched or phase not in names:
        raise GameError(f"nothing to search in phase {phase}")
    return names.index(phase)

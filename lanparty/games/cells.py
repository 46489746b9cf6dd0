"""How many columns of a terminal a text takes: a wide (East-Asian) character two, a
combining mark or a zero-width one none, any other one. The same count as prompt-toolkit's
(``wcwidth``) for the characters a board holds, without importing it into the games (an
ambiguous-width character such as ``●`` counts one, as there).

A player's name may be any printable text (``李小龍``, ``Émile`` with a combining accent):
a board pads and cuts names by these counts, never by ``len``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

__all__ = ["cells", "cut", "pad", "width_of"]

_ZERO = frozenset({"Mn", "Me", "Cf"})
"""Categories that take no column: combining marks and format characters (joiners)."""


@lru_cache(maxsize=4096)
def _char(ch: str) -> int:
    """The columns one character takes."""
    if ch < "\u0300":  # Latin-1 and before: one each (controls never reach a board)
        return 1
    if unicodedata.category(ch) in _ZERO or "\u1160" <= ch <= "\u11ff":
        return 0  # a combining mark, a joiner, a Hangul medial
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """The columns ``text`` (one line) takes on a terminal."""
    if text.isascii():
        return len(text)
    return _wide(text)


@lru_cache(maxsize=8192)
def _wide(text: str) -> int:
    """:func:`cells` of a text that is not all ASCII, counted once while it is drawn again
    and again (a board's rules and marks, a name)."""
    return sum(_char(ch) for ch in text)


def width_of(fragments: list[tuple[str, str]]) -> int:
    """The columns the widest line of ``fragments`` takes."""
    widest = column = 0
    for _style, text in fragments:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                column = 0
            column += cells(part)
            widest = max(widest, column)
    return widest


def cut(text: str, width: int, mark: str = "…") -> str:
    """``text`` in at most ``width`` columns: as it is if it fits, else its beginning and
    ``mark`` (a wide character is never split)."""
    if cells(text) <= width:
        return text
    room = width - cells(mark)
    if room < 0:
        return ""
    out, used = [], 0
    for ch in text:
        w = _char(ch)
        if used + w > room:
            break
        out.append(ch)
        used += w
    return "".join(out) + mark


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` columns (``"<"`` left-aligned, ``">"``
    right-aligned); a longer text is returned as it is."""
    room = max(0, width - cells(text))
    return text + " " * room if align == "<" else " " * room + text

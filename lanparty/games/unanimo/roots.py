"""The same-root rule: a word that shares its root with the subject card is rejected.

A short, fixed rule (no dictionary), the same on every peer. Both the word and each of the
subject's names (English, Polish, Spanish: a table may write in any of them) are compared
with their accents folded, split into *parts* at spaces, hyphens and apostrophes; parts of
fewer than 3 letters are ignored. The *stem* of a part is the part without its longest
ending from :data:`ENDINGS` (common English, Polish and Spanish inflections) that leaves at
least 3 letters. A word part ``w`` and a subject part ``t`` share a root when

1. their stems are equal, and that stem has 4 letters or more or is ``w`` or ``t`` itself
   (``cats``/``cat``, ``sleepy``/``sleeping``; not ``gate``/``gato``);
2. or the stem of ``t`` has 4 letters or more and ``w`` begins with it (``ladybirds``,
   ``biedronki`` for ``biedronka``);
3. or one part lies whole inside the other and has 4 letters or more (``bird`` in
   ``ladybird``, ``tower`` in ``towers``).

The rule misses some roots and catches a few innocent words; the table's objection vote can
reject what it misses.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

__all__ = ["ENDINGS", "parts", "same_root", "stem"]

_ENGLISH = "ings ing ies ers er es ed s y ly ness"
_POLISH = "ami ach owie ow om ek ka ki ko a e i o u"  # accents folded
_SPANISH = "itos itas ito ita illo illa as os"  # accents folded

ENDINGS: Final = tuple(
    sorted(set(f"{_ENGLISH} {_POLISH} {_SPANISH}".split()), key=lambda e: (-len(e), e))
)
"""Endings a stem drops (the longest that fits), longest first."""

MIN_STEM: Final = 3
MIN_INSIDE: Final = 4


def stem(part: str) -> str:
    """``part`` without its longest ending that leaves at least 3 letters."""
    for ending in ENDINGS:
        if part.endswith(ending) and len(part) - len(ending) >= MIN_STEM:
            return part[: -len(ending)]
    return part


def parts(bare: str) -> tuple[str, ...]:
    """The parts of a folded word or name that the rule compares (3 letters or more)."""
    for joiner in "-'":
        bare = bare.replace(joiner, " ")
    return tuple(p for p in bare.split() if len(p) >= MIN_STEM)


@lru_cache(maxsize=8192)
def _related(w: str, t: str) -> bool:
    sw, st = stem(w), stem(t)
    if sw == st and (len(sw) >= MIN_INSIDE or sw in (w, t)):
        return True
    if len(st) >= MIN_INSIDE and w.startswith(st):
        return True
    short, long_ = (w, t) if len(w) <= len(t) else (t, w)
    return len(short) >= MIN_INSIDE and short in long_


def same_root(bare: str, subject: tuple[str, ...]) -> str | None:
    """The subject part that ``bare`` (a word with accents folded) shares a root with, or
    ``None``. ``subject`` holds the parts of every name of the card (:func:`parts`)."""
    for w in parts(bare):
        for t in subject:
            if _related(w, t):
                return t
    return None

"""Unikato tiles: 81 identities (shape × colour × size × background), labels, names and the
"differ in exactly one feature" relation as bit masks.

A tile's *code* is ``shape·27 + colour·9 + size·3 + background`` (each feature 0..2). Its
label is four characters, one per feature, e.g. ``"cOsW"``: a small orange circle on white.
Shape and size are lower case, colour and background upper case, so no letter is ambiguous.
"""

from __future__ import annotations

FEATURES = ("shape", "colour", "size", "background")
VALUES = (
    ("circle", "square", "cross"),
    ("orange", "purple", "blue"),
    ("small", "medium", "large"),
    ("white", "grey", "black"),
)
TAGS = ("csx", "OPB", "sml", "WGK")
"""One letter per value, per feature (the label's four positions)."""

N_TILES = 81
ALL = (1 << N_TILES) - 1
"""The mask of every code."""


def _digits(code: int) -> tuple[int, int, int, int]:
    """A code's value index for each feature."""
    return code // 27, code // 9 % 3, code // 3 % 3, code % 3


FEATURE = [_digits(c) for c in range(N_TILES)]
"""Per code: its value index for each feature (shape, colour, size, background)."""
LABEL = ["".join(TAGS[f][v] for f, v in enumerate(FEATURE[c])) for c in range(N_TILES)]
"""Per code: its label, e.g. ``"cOsW"``."""
CODE = {label: code for code, label in enumerate(LABEL)}


def differences(a: int, b: int) -> list[str]:
    """The names of the features in which tiles ``a`` and ``b`` differ, in feature order."""
    fa, fb = FEATURE[a], FEATURE[b]
    return [FEATURES[i] for i in range(4) if fa[i] != fb[i]]


_PLACE = (27, 9, 3, 1)
"""What one step of each feature's value adds to a code."""


def _compatible(code: int) -> int:
    """The mask of the 8 codes that differ from ``code`` in exactly one feature: each
    feature's two other values, the rest kept."""
    mask = 0
    for place, value in zip(_PLACE, FEATURE[code], strict=True):
        for other in range(3):
            if other != value:
                mask |= 1 << (code + (other - value) * place)
    return mask


COMPAT = [_compatible(c) for c in range(N_TILES)]
"""Per code: the mask of the 8 codes that differ from it in exactly one feature (the tiles
that may touch it)."""


def describe(code: int) -> str:
    """A tile in words: ``"small orange circle on white"``."""
    shape, colour, size, background = FEATURE[code]
    return f"{VALUES[2][size]} {VALUES[1][colour]} {VALUES[0][shape]} on {VALUES[3][background]}"


def codes_of(mask: int) -> list[int]:
    """The codes in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def bag_labels() -> tuple[str, ...]:
    """All 81 labels in code order: the tiles of each round's ``Shuffle``."""
    return tuple(LABEL)


__all__ = [
    "ALL",
    "CODE",
    "COMPAT",
    "FEATURE",
    "FEATURES",
    "LABEL",
    "N_TILES",
    "TAGS",
    "VALUES",
    "bag_labels",
    "codes_of",
    "describe",
    "differences",
]

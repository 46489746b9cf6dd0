"""KaTO card identities: small int codes, their public labels, colours, ranks and points.

A card *identity* is one of 55 kinds; the 108-card deck holds duplicates. Codes keep the
hot paths on plain int and list lookups.
"""

from __future__ import annotations

COLOURS = ("r", "y", "g", "b")
"""Colour letters in code order: red, yellow, green, blue."""
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
NO_COLOUR = 4

# Ranks 0..9 are numbers; then the coloured actions, then the wilds.
SKIP, REVERSE, DRAW2, WILD, WILD4, CONE = 10, 11, 12, 13, 14, 15
_RANK_TAGS = {SKIP: "S", REVERSE: "R", DRAW2: "+2"}

W_CODE, W4_CODE, CONE_CODE = 52, 53, 54
N_CODES = 55


def _build() -> tuple[list[str], list[int], list[int], list[int]]:
    labels: list[str] = []
    colour: list[int] = []
    rank: list[int] = []
    points: list[int] = []
    for c, letter in enumerate(COLOURS):
        for r in range(13):
            labels.append(letter + (str(r) if r < 10 else _RANK_TAGS[r]))
            colour.append(c)
            rank.append(r)
            points.append(r if r < 10 else 20)
    for label, r in (("W", WILD), ("W+4", WILD4), ("cone", CONE)):
        labels.append(label)
        colour.append(NO_COLOUR)
        rank.append(r)
        points.append(50)
    return labels, colour, rank, points


LABEL, COLOUR, RANK, POINTS = _build()
"""Per code: label (e.g. ``"r7"``, ``"g+2"``, ``"W+4"``), colour index (4 = none), rank, points."""
CODE = {label: code for code, label in enumerate(LABEL)}
IS_WILD = [RANK[c] >= WILD for c in range(N_CODES)]


def deck_codes(cones: int) -> list[int]:
    """The full deck in a fixed canonical order: per colour one 0 and two of every other rank,
    then 4 Wild, 4 Wild Draw Four and ``cones`` cones."""
    out: list[int] = []
    for c in range(4):
        out.append(c * 13)
        for r in range(1, 13):
            out.extend((c * 13 + r, c * 13 + r))
    out.extend([W_CODE] * 4 + [W4_CODE] * 4 + [CONE_CODE] * cones)
    return out


def deck_labels(cones: int) -> tuple[str, ...]:
    """Labels of ``deck_codes(cones)``, the cards of a new round's ``Shuffle`` request."""
    return tuple(LABEL[c] for c in deck_codes(cones))

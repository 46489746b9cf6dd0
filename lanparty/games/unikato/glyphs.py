"""A Unikato tile on the screen: five characters that show all four features in any terminal,
coloured where the terminal has colours (no prompt-toolkit here: styled fragments only).

A glyph is ``[background][colour][shape × size]``:

* the background is the first character and fills what the shapes leave free:
  ``" "`` white, ``"░"`` grey, ``"▓"`` black;
* the colour is a letter: ``O`` orange, ``P`` purple, ``B`` blue;
* the shape is drawn once, twice or three times for small, medium and large:
  ``●`` circle, ``■`` square, ``✚`` cross.

So ``"░P■■░"`` is a medium purple square on grey and ``"▓B✚✚✚"`` a large blue cross on black.
The text alone tells every feature (with ``NO_COLOR``, or to a colour-blind player); in a
256-colour terminal the tile also has its background and its colour.
"""

from __future__ import annotations

from lanparty.ui.base import Fragments

from .tiles import CODE, FEATURE, describe

__all__ = [
    "FILL",
    "LEGEND",
    "SHAPES",
    "STYLES",
    "WIDTH",
    "glyph",
    "glyph_text",
    "tile_name",
]

WIDTH = 5
"""Characters in a glyph."""
FILL = (" ", "░", "▓")
"""The background's character, per background (white, grey, black)."""
COLOUR_LETTERS = ("O", "P", "B")
SHAPES = ("●", "■", "✚")
_BG = ("w", "g", "k")

STYLES = {
    "tile.w": "bg:#e4e4e4",
    "tile.g": "bg:#808080",
    "tile.k": "bg:#1c1c1c",
    "fill.w": "#e4e4e4",
    "fill.g": "#949494",
    "fill.k": "#303030",
    "ink.o": "bold #ff8700",
    "ink.p": "bold #af00ff",
    "ink.b": "bold #0087ff",
}
"""The tile classes and their colours (256-colour values: prompt-toolkit maps them down)."""

LEGEND = (
    ("tile ░P■■░", "background, colour, then the shape drawn 1-3 times (its size)"),
    ("  background", "the first character: blank white, ░ grey, ▓ black"),
    ("  colour", "O orange, P purple, B blue"),
    ("  shape × size", "● circle, ■ square, ✚ cross; once small, twice medium, 3× large"),
    ("grid", "columns …t, u, v…, rows …20, 21, 22…: cell v21; the start is u21"),
    ("  ·", "a free cell next to a tile, where some tile could go"),
    ("  [v21]", "a cell where the tile you are placing fits (while you type place N)"),
)
"""What ``help`` says about the glyphs and the grid."""


def glyph_text(label: str) -> str:
    """The five characters of the tile ``label`` (e.g. ``"cPmG"`` → ``"░P●●░"``)."""
    shape, colour, size, background = FEATURE[CODE[label]]
    fill = FILL[background]
    return f"{fill}{COLOUR_LETTERS[colour]}{(SHAPES[shape] * (size + 1)).ljust(3, fill)}"


def glyph(label: str, extra: str = "") -> Fragments:
    """The tile ``label`` as styled fragments (``extra``: more style, e.g. ``"underline"``)."""
    _, colour, size, background = FEATURE[CODE[label]]
    text = glyph_text(label)
    bg = f"class:tile.{_BG[background]}"
    fill = f"{bg} class:fill.{_BG[background]} {extra}".rstrip()
    ink = f"{bg} class:ink.{COLOUR_LETTERS[colour].lower()} {extra}".rstrip()
    shapes = size + 1
    out: Fragments = [(fill, text[0]), (ink, text[1 : 2 + shapes])]
    if shapes < 3:
        out.append((fill, text[2 + shapes :]))
    return out


def tile_name(label: str) -> str:
    """The tile in words, with an article: ``"a small orange circle on white"``."""
    return f"a {describe(CODE[label])}"

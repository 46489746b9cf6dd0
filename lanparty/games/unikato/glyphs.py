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

from lanparty.i18n import N_, _, pgettext
from lanparty.ui.base import Fragments

from .tiles import CODE, FEATURE

__all__ = [
    "FILL",
    "LEGEND",
    "SHAPES",
    "STYLES",
    "WIDTH",
    "glyph",
    "glyph_text",
    "tile_name",
    "tile_words",
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
    (N_("tile ░P■■░"), N_("background, colour, then the shape drawn 1-3 times (its size)")),
    (N_("  background"), N_("the first character: blank white, ░ grey, ▓ black")),
    (N_("  colour"), N_("O orange, P purple, B blue")),
    (N_("  shape × size"), N_("● circle, ■ square, ✚ cross; once small, twice medium, 3× large")),
    (N_("grid"), N_("columns …t, u, v…, rows …20, 21, 22…: cell v21; the start is u21")),
    ("  ·", N_("a free cell next to a tile, where some tile could go")),
    ("  [v21]", N_("a cell where the tile you are placing fits (while you type place N)")),
)
"""What ``help`` says about the glyphs and the grid (both columns translated where shown:
they are words, not commands)."""


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


_TEMPLATES = (
    (N_("{size} {colour} circle on {background}"), N_("a {size} {colour} circle on {background}")),
    (N_("{size} {colour} square on {background}"), N_("a {size} {colour} square on {background}")),
    (N_("{size} {colour} cross on {background}"), N_("a {size} {colour} cross on {background}")),
)
"""A tile in words, per shape (without and with an article): the words around the shape
agree with it (Polish ``małe koło``, ``mały kwadrat``; Spanish ``una cruz morada``)."""


def _adjectives(shape: int) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """The sizes and the colours as they go with ``shape`` (0 circle, 1 square, 2 cross)."""
    if shape == 0:
        return ((pgettext("circle", "small"), pgettext("circle", "medium"),
                 pgettext("circle", "large")),
                (pgettext("circle", "orange"), pgettext("circle", "purple"),
                 pgettext("circle", "blue")))  # fmt: skip
    if shape == 1:
        return ((pgettext("square", "small"), pgettext("square", "medium"),
                 pgettext("square", "large")),
                (pgettext("square", "orange"), pgettext("square", "purple"),
                 pgettext("square", "blue")))  # fmt: skip
    return ((pgettext("cross", "small"), pgettext("cross", "medium"),
             pgettext("cross", "large")),
            (pgettext("cross", "orange"), pgettext("cross", "purple"),
             pgettext("cross", "blue")))  # fmt: skip


def _backgrounds() -> tuple[str, str, str]:
    """The backgrounds as a tile's name ends (``on white``: Polish ``na białym tle``)."""
    return (pgettext("background", "white"), pgettext("background", "grey"),
            pgettext("background", "black"))  # fmt: skip


def tile_words(label: str, article: bool = False) -> str:
    """The tile in words in the reader's language: ``"small orange circle on white"``
    (``article``: ``"a small orange circle on white"``)."""
    shape, colour, size, background = FEATURE[CODE[label]]
    sizes, colours = _adjectives(shape)
    return _(_TEMPLATES[shape][article]).format(
        size=sizes[size], colour=colours[colour], background=_backgrounds()[background]
    )


def tile_name(label: str) -> str:
    """The tile in words, with an article: ``"a small orange circle on white"``."""
    return tile_words(label, True)

"""A Unikato tile on the screen: seven characters that show all four features in any terminal
and in any language, coloured where the terminal has colours (no prompt-toolkit here: styled
fragments only).

A glyph is ``[`` ``[background][colour][shape × size]`` ``]``:

* the brackets are the tile's edges, so a tile never looks like an empty cell (a small tile on
  white is ``[ O●   ]``, not a lone ``O●`` in the grid's blanks);
* the background is the first character inside and fills what the shapes leave free:
  ``" "`` white, ``"░"`` grey, ``"▓"`` black;
* the colour is the initial of its name in the reader's language (:func:`colour_letters`:
  English ``O``/``P``/``B``, Polish ``P``/``F``/``N``, Spanish ``N``/``M``/``A``);
* the shape is drawn once, twice or three times for small, medium and large:
  ``●`` circle, ``■`` square, ``✚`` cross.

So ``"[░P■■░]"`` is a medium purple square on grey in English (``"[░F■■░]"`` in Polish). The
text alone tells every feature (with ``NO_COLOR``, or to a colour-blind player); in a
256-colour terminal the tile also has its background and its colour. Nothing a player types
names a tile by these letters: commands use the tile's number in the hand.
"""

from __future__ import annotations

from lanparty.games.screens import Fragments
from lanparty.i18n import N_, _, pgettext

from .tiles import CODE, FEATURE

__all__ = [
    "FACE",
    "FILL",
    "FRAME",
    "SHAPES",
    "STYLES",
    "WIDTH",
    "colour_letters",
    "colour_names",
    "glyph",
    "glyph_text",
    "legend",
    "tile_name",
    "tile_words",
]

FACE = 5
"""Characters of a tile's face: background, colour, three for the shapes."""
FRAME = ("[", "]")
"""The tile's edges, either side of its face."""
WIDTH = FACE + 2
"""Characters in a glyph, its edges included."""
FILL = (" ", "░", "▓")
"""The background's character, per background (white, grey, black)."""
SHAPES = ("●", "■", "✚")
_BG = ("w", "g", "k")
_INK = ("o", "p", "b")

STYLES = {
    "tile.w": "bg:#e4e4e4",
    "tile.g": "bg:#808080",
    "tile.k": "bg:#1c1c1c",
    "tile.edge": "#8a8a8a",
    "fill.w": "#e4e4e4",
    "fill.g": "#949494",
    "fill.k": "#303030",
    "ink.o": "bold #ff8700",
    "ink.p": "bold #af00ff",
    "ink.b": "bold #0087ff",
}
"""The tile classes and their colours (256-colour values: prompt-toolkit maps them down)."""


def colour_letters() -> tuple[str, str, str]:
    """The letters of orange, purple and blue in the reader's language: each the initial of
    the colour's name (:func:`colour_names`), three different letters."""
    return (pgettext("colour letter", "O"), pgettext("colour letter", "P"),
            pgettext("colour letter", "B"))  # fmt: skip


def colour_names() -> tuple[str, str, str]:
    """Orange, purple and blue as the legend names them, in the reader's language."""
    return (pgettext("tile colour", "orange"), pgettext("tile colour", "purple"),
            pgettext("tile colour", "blue"))  # fmt: skip


def legend() -> list[tuple[str, str]]:
    """What ``help`` says about the glyphs and the grid, in the reader's language (the
    example tile and the colour letters drawn as the screen draws them)."""
    letters = ", ".join(f"{letter} {name}" for letter, name in
                        zip(colour_letters(), colour_names(), strict=True))  # fmt: skip
    return [
        (_("tile {glyph}").format(glyph=glyph_text("sPmG")),
         _("its edges, then background, colour and the shape drawn 1-3 times (its size)")),
        (_("  background"), _("the first character inside: blank white, ░ grey, ▓ black")),
        (_("  colour"), letters),
        (_("  shape × size"),
         _("● circle, ■ square, ✚ cross; once small, twice medium, 3× large")),
        (_("grid"), _("columns …t, u, v…, rows …20, 21, 22…: cell v21; the start is u21")),
        ("  ·", _("a free cell next to a tile, where some tile could go")),
        ("  [v21]", _("a cell where the tile you are placing fits (while you type place N)")),
        (_("tile numbers"),
         _("a tile keeps its number while it is in your hand; a new tile takes a free one")),
    ]  # fmt: skip


def glyph_text(label: str) -> str:
    """The seven characters of the tile ``label`` in the reader's language (e.g. ``"sPmG"``
    → ``"[░P■■░]"`` in English)."""
    shape, colour, size, background = FEATURE[CODE[label]]
    fill = FILL[background]
    face = f"{fill}{colour_letters()[colour]}{(SHAPES[shape] * (size + 1)).ljust(3, fill)}"
    return f"{FRAME[0]}{face}{FRAME[1]}"


def glyph(label: str, extra: str = "") -> Fragments:
    """The tile ``label`` as styled fragments: its edges, then its face on its background
    (``extra``: more style for the face, e.g. ``"underline"``)."""
    _shape, colour, size, background = FEATURE[CODE[label]]
    text = glyph_text(label)
    bg = f"class:tile.{_BG[background]}"
    fill = f"{bg} class:fill.{_BG[background]} {extra}".rstrip()
    ink = f"{bg} class:ink.{_INK[colour]} {extra}".rstrip()
    shapes = size + 1
    out: Fragments = [("class:tile.edge", text[0]), (fill, text[1]), (ink, text[2 : 3 + shapes])]
    if shapes < 3:
        out.append((fill, text[3 + shapes : WIDTH - 1]))
    out.append(("class:tile.edge", text[-1]))
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

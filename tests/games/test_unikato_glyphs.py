"""Unikato's tiles on the screen (issue 21): every tile shows its extent, a frame ``[`` … ``]``
around its face, so a small tile on white is never taken for an empty cell, in colour and
under ``NO_COLOR``; the colour is the initial of its name in the reader's language (Polish
``P`` is pomarańczowy, orange, and purple is ``F``), so a tile reads right in every
language; every tile's glyph differs from every other's."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import Style

from lanparty import i18n
from lanparty.games.unikato.glyphs import (
    FRAME,
    STYLES,
    WIDTH,
    colour_letters,
    colour_names,
    glyph,
    glyph_text,
    legend,
)
from lanparty.games.unikato.grid import grid_lines
from lanparty.games.unikato.tiles import LABEL

LANGS = ("en", "pl", "es")


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_colour_letters_are_the_initials_of_the_colours_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    letters, names = colour_letters(), colour_names()
    assert len(set(letters)) == 3 and all(len(x) == 1 and x.isupper() for x in letters)
    for letter, name in zip(letters, names, strict=True):
        assert name[0].upper() == letter, (lang, letter, name)
    said = dict(legend())[i18n._("  colour")]
    assert said == ", ".join(f"{x} {n}" for x, n in zip(letters, names, strict=True))


def test_polish_reads_p_as_orange_and_f_as_purple() -> None:
    i18n.set_language("pl")
    assert colour_letters() == ("P", "F", "N")
    assert glyph_text("sOmG") == "[░P■■░]"  # pomarańczowy
    assert glyph_text("sPmG") == "[░F■■░]"  # fioletowy
    i18n.set_language("es")
    assert glyph_text("sPmG") == "[░M■■░]"  # morado
    i18n.set_language("en")
    assert glyph_text("sPmG") == "[░P■■░]"


@pytest.mark.parametrize("lang", LANGS)
def test_every_tile_is_framed_and_reads_apart_from_every_other(lang: str) -> None:
    i18n.set_language(lang)
    texts = [glyph_text(label) for label in LABEL]
    assert len(set(texts)) == 81
    for label, text in zip(LABEL, texts, strict=True):
        assert len(text) == WIDTH and (text[0], text[-1]) == FRAME, text
        fragments = glyph(label)
        assert "".join(t for _s, t in fragments) == text
        edges = [s for s, t in fragments if t in FRAME]
        assert edges == ["class:tile.edge", "class:tile.edge"]
        # In colour, every character of the face has the tile's background.
        face = [s for s, t in fragments if t not in FRAME]
        assert face and all("class:tile." in s and "tile.edge" not in s for s in face)


def _rendered(label: str, depth: ColorDepth) -> str:
    out = io.StringIO()
    output = Vt100_Output(out, lambda: None, term="xterm-256color")  # type: ignore[arg-type, return-value]
    print_formatted_text(FormattedText(glyph(label)), style=Style.from_dict(STYLES),
                         output=output, color_depth=depth, end="")  # fmt: skip
    return out.getvalue()


def _cells(raw: str) -> list[tuple[str, bool]]:
    """Each character printed in ``raw``, with whether it had a background colour."""
    out: list[tuple[str, bool]] = []
    background = False
    for sgr, char in re.findall(r"\x1b\[([0-9;?]*)[a-zA-Z]|(.)", raw, re.DOTALL):
        if char:
            out.append((char, background))
        elif not sgr.startswith("?"):
            params = sgr.split(";")
            if params == [""] or "0" in params[:1]:
                background = False
            background = background or "48" in params
    return out


def test_a_small_tile_on_white_shows_its_extent_in_colour_and_without() -> None:
    """The issue's ``" O■  "``: drawn now as ``"[ O■  ]"``; in 256 colours its face has the
    tile's background from edge to edge, and under ``NO_COLOR`` (one bit: no colour at all)
    the frame alone still shows where the tile is."""
    assert glyph_text("sOsW") == "[ O■  ]"
    coloured = _cells(_rendered("sOsW", ColorDepth.DEPTH_8_BIT))
    assert "".join(c for c, _bg in coloured) == "[ O■  ]"
    assert [bg for _c, bg in coloured] == [False, True, True, True, True, True, False]
    mono = _cells(_rendered("sOsW", ColorDepth.DEPTH_1_BIT))
    assert "".join(c for c, _bg in mono) == "[ O■  ]"
    assert not any(bg for _c, bg in mono)


def test_the_grid_tells_a_small_tile_on_white_from_an_empty_cell() -> None:
    lines = "".join(t for _s, t in grid_lines([((0, 0), "sOsW"), ((1, 0), "sOmW")], 80, 10))
    row = next(line for line in lines.splitlines() if line.startswith("21"))
    assert "[ O■  ][ O■■ ]" in row
    assert "·" in row  # the free cells around them look nothing like a tile


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_page_uses_the_screens_notation(lang: str) -> None:
    """One notation: the rules page of each language draws tiles as that language's screen
    does (its colour letters, the frame), and no longer teaches the engine's four-letter
    labels (``cOsW``), which no screen shows."""
    from importlib import resources

    folder = resources.files("lanparty.games").joinpath("rules")
    page = (folder / "unikato.md" if lang == "en" else folder / lang / "unikato.md").read_text(
        "utf-8"
    )
    flat = " ".join(page.split())
    i18n.set_language(lang)
    assert glyph_text("sPmG") in flat and glyph_text("cOsW") in page
    letters = ", ".join(f"{x} {n}" for x, n in zip(colour_letters(), colour_names(), strict=True))
    assert f"({letters})" in flat
    assert re.search(r"\b[csx][OPB][sml][WGK]\b", page) is None

"""Unikato's refusals in the reader's language.

The engine (:mod:`.rules`, :class:`.board.Board`) says why in English, with tiles named in
English words (``"small orange circle on white"``) or by label (``"cOsW"``); every peer gets
the same words. The screen reads a reason back against the English templates below and
shows it translated, each part in turn (a tile, a side, the features that differ). A reason
that does not read as a whole is shown as the engine said it, its labels in words.
"""

from __future__ import annotations

import re

from lanparty.games.wording import and_list, read_back
from lanparty.i18n import N_, _, pgettext

from .glyphs import tile_words
from .tiles import CODE, LABEL, describe

__all__ = ["REASONS", "humanize"]

REASONS = (
    # The placement rule (the board's words; the screen names the cell as on the grid).
    N_("cell {cell} already holds the {tile}"),
    N_("cell {cell} touches no tile: a tile must share an edge with one"),
    N_("the {tile} is already {side}: every tile exists once"),
    N_(
        "that tile ({tile}) differs from the {other} {side} in {count} features: {listed}; "
        "touching tiles differ in exactly one"
    ),
    N_("each next tile must touch the tile you just placed, at {cell}"),
    N_("each next tile must touch the tile you just placed at {x}, {y}"),
    # The rest of a turn.
    N_("the table is busy with a deal or reveal; wait for it"),
    N_("the game is over"),
    N_("it is not seat {seat}'s turn: seat {current} is playing"),
    N_("tile {n} is not in your hand"),
    N_("{label} is not in your hand: there is one of each tile"),
    N_("your actions are over: draw a tile (you hold fewer than {n}), from the display or the bag"),
    N_("you are placing tiles: say 'done' to end that action first"),
    N_("the bag is empty: take a tile from the display"),
    N_("you may not take back the tile you just put on the display"),
    N_("tile {n} is not on the display (or take 'bag')"),
    N_("you draw only at the end of your turn, holding fewer than {n} tiles"),
    N_("the bag is empty: draw from the display"),
    N_("tile {n} is not on the display (or draw 'bag')"),
    N_("'done' takes no arguments"),
    N_("'pass' takes no arguments"),
    N_("you have not acted yet: place a tile, exchange one, or pass"),
    N_("only a turn's first action may be a pass ('done' ends this one)"),
    N_("you can exchange a tile, so you may not pass"),
    N_("you can place {label} at {x}, {y}: you may not pass"),
)
"""Every reason a player may meet, as English templates (the msgids)."""

_KEPT = frozenset({"cell", "n", "seat", "current", "x", "y"})
_TILE = (
    r"(?:small|medium|large) (?:orange|purple|blue) (?:circle|square|cross) on (?:white|grey|black)"
)
_SHAPES = {"tile": _TILE, "other": _TILE, "side": "above it|to its right|below it|to its left"}
_DESCRIBED = {describe(code): label for code, label in enumerate(LABEL)}
_LABEL = re.compile(r"\b[csx][OPB][sml][WGK]\b")


def _side(value: str) -> str | None:
    sides = {
        "above it": pgettext("side", "above it"),
        "to its right": pgettext("side", "to its right"),
        "below it": pgettext("side", "below it"),
        "to its left": pgettext("side", "to its left"),
    }
    return sides.get(value)


def _count(value: str) -> str | None:
    counts = {"two": pgettext("features", "two"), "three": pgettext("features", "three"),
              "four": pgettext("features", "four")}  # fmt: skip
    return counts.get(value)


def _features(value: str) -> str | None:
    names = {"shape": _("shape"), "colour": _("colour"), "size": _("size"),
             "background": _("background")}  # fmt: skip
    words = value.replace(" and ", ", ").split(", ")
    said = [names.get(w) for w in words]
    return and_list([w for w in said if w is not None]) if None not in said else None


def _word(field: str, value: str) -> str | None:
    if field in _KEPT:
        return value
    if field in ("tile", "other"):
        label = _DESCRIBED.get(value)
        return tile_words(label) if label is not None else None
    if field == "label":
        return tile_words(value) if value in CODE else None
    if field == "side":
        return _side(value)
    if field == "count":
        return _count(value)
    if field == "listed":
        return _features(value)
    return None


def humanize(reason: str) -> str:
    """An engine reason in the reader's language; else as the engine said it, with tile
    labels in words (``"cOsW"`` → ``"small orange circle on white"``)."""
    said = read_back(reason, REASONS, _word, _SHAPES)
    if said is not None:
        return said
    return _LABEL.sub(lambda m: tile_words(m.group(0)), reason)

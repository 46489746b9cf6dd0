"""Every game's screen and narration for no seat: a spectator's or a replay's table.

Each registered game is played by its bots on a local table; a copy told only what a
spectator may know (``for_seat(result, None)``) follows it, and after every input its view
for no seat is drawn by the game's own screen (``table``, ``hand``, ``board`` if it has one,
``final``) and told by the game's narrator for no seat. Nothing may fail, nothing may speak to
"you", and nothing may name a label that some seat holds hidden at that moment (a string of a
seat's view that no public view, move or result shows).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from test_generic import SHORT_OPTIONS

from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable, for_seat
from lanparty.games.screens import player_name
from protocol.contract import Plain
from tests.plain import strings

NAMES = ("Ann", "Bea", "Cid", "Dot", "Eve", "Fay")
_YOU = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def _unikato(label: str) -> set[str]:
    from lanparty.games.unikato.glyphs import CODE, glyph_text, tile_name

    return {tile_name(label)[2:], glyph_text(label)} if label in CODE else set()


def _unicorns(label: str) -> set[str]:
    from lanparty.games.unicorns.cards import SCHEMES, UNICORN_LABELS
    from lanparty.games.unicorns.names import scheme_name, unicorn_name

    if label in SCHEMES:
        return {scheme_name(label, False), scheme_name(label)}
    return {unicorn_name(label)} if label in UNICORN_LABELS else set()


# How each game names a label on the screen, beside its screen's ``humanize``.
_NAMED: dict[str, Callable[[str], set[str]]] = {"unikato": _unikato, "unicorns": _unicorns}


def _forms(name: str, label: str, humanize: Callable[[str], str]) -> set[str]:
    """How a label could show: as it is, in the game's words, or as the game draws it."""
    forms = {label, humanize(label), *_NAMED.get(name, lambda _: set())(label)}
    return {f for f in forms if len(f) > 1 and not f.isdigit()}


def _shows(text: str, form: str, public: set[str]) -> bool:
    """Whether ``form`` is named in ``text`` as a word of its own, once every public name
    that contains it (a Wild Draw Four for a Wild) is taken out."""
    if form not in text:  # then neither is any name that contains it: nothing to take out
        return False
    for name in sorted((p for p in public if form in p and p != form), key=len, reverse=True):
        text = text.replace(name, " ")
    return re.search(rf"(?<![\w+-]){re.escape(form)}(?![\w+-])", text) is not None


def _spectate(name: str, seed: int, seats: int) -> tuple[int, int]:
    """Play ``name`` and check every step for no seat; the number of steps checked, and of
    the steps where a seat's own hand on its screen named a label hidden from the others
    (proof that the check can see one)."""
    game, plugin = GAMES[name], PLUGINS[name]
    rng = random.Random(seed)
    options = SHORT_OPTIONS[name][seed % len(SHORT_OPTIONS[name])]
    table = LocalTable(game, seats, options, rng)
    table.record = True
    factories = list(bots_for(name).values())
    table.play([factories[(seed + s) % len(factories)]() for s in range(seats)])
    names = NAMES[:seats]
    omni = game.setup(seats, options)
    spectator = game.setup(seats, options)
    screen = plugin.screen()
    # As a local table tells it (every input), and as a networked seat does (a move, or the
    # change a table result made to the view).
    narrator = plugin.narrator(None, names, lambda: spectator)
    networked = plugin.narrator(None, names, lambda: spectator)
    said = heard = caught = 0
    for step, (seat, item) in enumerate(table.log):
        before = game.view(spectator, None)
        if seat is None:
            seen: object = for_seat(item, None)  # type: ignore[arg-type]
            game.resolve(omni, item)  # type: ignore[arg-type]
            game.resolve(spectator, seen)  # type: ignore[arg-type]
        else:
            seen = item
            game.apply(omni, seat, item)  # type: ignore[arg-type]
            game.apply(spectator, seat, item)  # type: ignore[arg-type]
        view = game.view(spectator, None)
        assert view.get("seat") is None
        assert view == game.view(omni, None), f"{name} step {step}: the public views differ"
        narrator.narrate(seat, item if seat is not None else seen, before, view)  # type: ignore[arg-type]
        if seat is None:
            networked.changes(before, view)
        else:
            networked.narrate(seat, item, before, view)  # type: ignore[arg-type]
        lines, said = narrator.lines[said:], len(narrator.lines)
        lines += networked.lines[heard:]
        heard = len(networked.lines)
        parts = [_text(screen.table(view, names, 80)), _text(screen.final(view, names)), *lines]
        assert not screen.hand(view, 80, ()), f"{name} step {step}: a hand for no seat"
        board = getattr(screen, "board", None)
        if board is not None:
            parts.append(_text(board(view, names, 80, 40, (), "")))
        text = "\n".join(parts)
        you = _YOU.search(text)
        assert you is None, f"{name} step {step}: {you.group(0)!r} for no seat in:\n{text}"
        public = set(strings(view)) | set(strings(seen))
        hidden: set[str] = set()
        for s in range(seats):
            hidden |= set(strings(game.view(omni, s))) - public
        shown = {f for p in public for f in _forms(name, p, screen.humanize)}
        for label in hidden:
            for form in _forms(name, label, screen.humanize):
                assert not _shows(text, form, shown), (
                    f"{name} step {step}: hidden {label!r} shown as {form!r} in:\n{text}"
                )
        # The check can see a hidden label: a seat's own hand on its screen names some.
        for s in range(seats):
            own = _text(screen.hand(game.view(omni, s), 80, ()))
            forms = {f for h in hidden for f in _forms(name, h, screen.humanize)}
            caught += any(_shows(own, f, shown) for f in forms)
    return len(table.log), caught


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_game_is_drawn_and_told_for_no_seat(name: str) -> None:
    game = GAMES[name]
    caught = 0
    for seed in (1, 2, 3):
        seats = min(max(game.min_seats, 2 + seed), game.max_seats)
        steps, seen = _spectate(name, seed, seats)
        assert steps > 10
        caught += seen
    # Unanimo has no hand: its only secrets are sealed words, which no screen shows.
    assert caught or name == "unanimo", f"{name}: no hidden label was ever on a seat's screen"


def test_player_name_for_no_seat() -> None:
    assert player_name(["Ann", "Bea"], 1, None) == "Bea"
    assert player_name(["Ann", "Bea"], 1, 1) == "Bea (you)"


def test_a_view_without_a_seat_key_is_drawn() -> None:
    """A view whose ``seat`` key is missing draws as one whose seat is None."""
    for name, plugin in sorted(PLUGINS.items()):
        game = GAMES[name]
        rng = random.Random(5)
        table = LocalTable(game, game.min_seats, dict(plugin.short), rng)
        bots = [f() for f in list(bots_for(name).values())[:1] * game.min_seats]
        for _ in range(30):
            if not table.step(bots):
                break
        view: dict[str, Plain] = dict(game.view(table.state, None))
        del view["seat"]
        screen = plugin.screen()
        names = NAMES[: game.min_seats]
        text = _text(screen.table(view, names, 80)) + _text(screen.final(view, names))
        assert not _YOU.search(text), f"{name}: {text}"
        assert not screen.hand(view, 80, ())

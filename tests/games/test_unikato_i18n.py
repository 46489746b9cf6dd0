"""Unikato in Polish and Spanish, in process: whole games by bots told to every seat in each
language (every kind of move, as many lines as in English, no English left), a pass and a
blocked round told too; the tiles named with words that agree with the shape; the board,
the hand, the hints, the final scores and the help drawn in each language with the commands
in English; every reason the placement rule gives, and the engine's other refusals, read
back in the language."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from unikato_rig import Rig

from lanparty import i18n
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable
from lanparty.games.screens import ParseError
from lanparty.games.unikato import screen
from lanparty.games.unikato.board import Board
from lanparty.games.unikato.glyphs import tile_name, tile_words
from lanparty.games.unikato.narrate import UnikatoNarrator
from lanparty.games.unikato.tiles import CODE, LABEL
from protocol.contract import GameOver, IllegalMove, TableOps

LANGS = ("pl", "es")
NAMES = ("Ann", "Bea", "Carl", "Dora")
G = GAMES["unikato"]
ENGLISH = re.compile(
    r"\b(tiles?|places?|placed|ends?|chain|takes?|puts?|display|draws?|from|the|bag|you|your|"
    r"their|touching|bonus|action|follows|Round|round|shuffled|dealt|each|player|starting|"
    r"begins?|Game|over|wins?|and|passes|nothing|small|medium|large|orange|purple|blue|"
    r"circle|square|cross|white|grey|black|on|blocked|fewest|nobody|points|new|lets|go|"
    r"Final|scores|went|out|Fit|fits|type|see|where|Nothing|exchange|Your|tile|hidden|"
    r"already|holds|touches|differs|features|shape|colour|size|background|every|exists|once|"
    r"must|not|hand|cell|is|are|of|it)\b"
)
"""English words that would show a line left untranslated (the commands typed stay English
on purpose and are cut out first, with the players' names)."""
COMMANDS = re.compile(
    r"\b(place N at CELL|place N|place \d+ at \w+|place \d+|place|exchange N for D|exchange|"
    r"draw D / draw bag|draw D|draw bag|draw \d…|draw \d|draw|for bag|done|pass|bag|for)\b|'bag'"
)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _bare(line: str) -> str:
    for name in NAMES:
        line = line.replace(name, "")
    return COMMANDS.sub("", line)


def _game(seed: int, lang: str) -> tuple[list[list[str]], set[str]]:
    """A whole game of 2 to 4 bots told to every seat in ``lang``; the kinds of move made."""
    i18n.set_language(lang)
    n = 2 + seed % 3
    table = LocalTable(G, n, {"rounds": 2}, random.Random(seed), copies=True)
    table.record = True
    kinds = bots_for("unikato")
    bots = [kinds["heuristic" if s % 2 == 0 else "random"]() for s in range(n)]
    told = [UnikatoNarrator(s, NAMES[:n]) for s in range(n)]
    made: set[str] = set()
    while not isinstance(G.status(table.state), GameOver):
        before = [G.view(table.copies[s], s) for s in range(n)]
        if isinstance(G.status(table.state), TableOps):
            seat, item = None, table.resolve_one()
        else:
            table.step(bots)
            seat, item = table.log[-1]
            made.add(str(item[0]))  # type: ignore[index]
        for s in range(n):
            told[s].narrate(seat, item, before[s], G.view(table.copies[s], s))  # type: ignore[arg-type]
    return [t.lines for t in told], made


def _check(lines: list[str], en_lines: list[str], lang: str) -> None:
    assert len(lines) == len(en_lines)
    for line, en_line in zip(lines, en_lines, strict=True):
        assert line != en_line, line
        assert "{" not in line and "}" not in line, line
        assert ENGLISH.search(_bare(line)) is None, (lang, line)


@pytest.mark.parametrize("lang", LANGS)
def test_whole_games_are_told_in_the_language(lang: str) -> None:
    kinds: set[str] = set()
    for seed in range(6):
        english, made = _game(seed, "en")
        told, made_here = _game(seed, lang)
        assert made_here == made
        kinds |= made
        for seat, lines in enumerate(told):
            _check(lines, english[seat], lang)
    assert kinds >= {"place", "done", "exchange", "draw"}, kinds


def _blocked(lang: str) -> list[list[str]]:
    """A round blocked after a chain, a pass each and Ann with the fewest tiles."""
    i18n.set_language(lang)
    rig = Rig([["cOmW"], []])
    rig.empty_bag()
    rig.empty_display()
    told = [UnikatoNarrator(s, NAMES[:2]) for s in range(2)]
    for seat, move in ((0, rig.place_move(0, "cOmW", 1, 0)), (0, ("done",)), (1, ("pass",)),
                       (0, ("pass",))):  # fmt: skip
        before = [rig.view(s) for s in range(2)]
        rig.move(seat, *move)
        for s in range(2):
            told[s].narrate(seat, move, before[s], rig.view(s))
    return [t.lines for t in told]


@pytest.mark.parametrize("lang", LANGS)
def test_a_pass_and_a_blocked_round_are_told_in_the_language(lang: str) -> None:
    english = _blocked("en")
    assert "Bea passes: nothing to place or exchange" in english[0]
    assert any(line.startswith("Round 1 is blocked") for line in english[0])
    for seat, lines in enumerate(_blocked(lang)):
        _check(lines, english[seat], lang)
    pl = _blocked("pl")
    assert "Kładziesz średnie pomarańczowe koło na białym tle na polu v21" in pl[0]
    assert "Bea pasuje: nie ma czego położyć ani wymienić" in pl[0]
    assert "Pasujesz: nie ma czego położyć ani wymienić" in pl[1]
    assert pl[1][-1] == "Koniec gry: wygrywa Ann!"


def test_tiles_are_named_with_words_that_agree_with_the_shape() -> None:
    i18n.set_language("pl")
    assert tile_words("cOsW") == "małe pomarańczowe koło na białym tle"
    assert tile_words("sPmG") == "średni fioletowy kwadrat na szarym tle"
    assert tile_words("xBlK") == "duży niebieski krzyżyk na czarnym tle"
    assert tile_name("xBlK") == tile_words("xBlK")  # no article in Polish
    i18n.set_language("es")
    assert tile_words("cOsW") == "círculo naranja pequeño sobre fondo blanco"
    assert tile_name("xPmG") == "una cruz morada mediana sobre fondo gris"
    assert tile_name("sBlK") == "un cuadrado azul grande sobre fondo negro"
    i18n.set_language("en")
    assert tile_name("xPmG") == "a medium purple cross on grey"
    for lang in LANGS:
        i18n.set_language(lang)
        assert len({tile_words(label) for label in LABEL}) == 81


def test_polish_plurals_of_unikato() -> None:
    i18n.set_language("pl")
    said = [i18n.ngettext("{n} tile", "{n} tiles", n).format(n=n) for n in (1, 2, 5, 12, 23)]
    assert said == ["1 płytka", "2 płytki", "5 płytek", "12 płytek", "23 płytki"]
    ends = [i18n.ngettext("ends the chain: {n} tile", "ends the chain: {n} tiles", n).format(n=n)
            for n in (1, 3, 7)]  # fmt: skip
    assert ends == ["kończy ciąg: 1 płytka", "kończy ciąg: 3 płytki", "kończy ciąg: 7 płytek"]


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _, text in fragments)


def _boards(lang: str, seed: int = 3) -> list[str]:
    """Seat 0's board after every input of a 3-player game (typing ``place 1``, then
    nothing), its final scores and its help, in ``lang``."""
    i18n.set_language(lang)
    table = LocalTable(G, 3, {"rounds": 2}, random.Random(seed), copies=True)
    kinds = bots_for("unikato")
    bots = [kinds["heuristic"]() for _ in range(3)]
    out = []
    while not isinstance(G.status(table.state), GameOver):
        if isinstance(G.status(table.state), TableOps):
            table.resolve_one()
        else:
            table.step(bots)
        view = G.view(table.copies[0], 0)
        legal = G.legal_moves(table.copies[0], 0)
        for typed in ("place 1", ""):
            out.append(_text(screen.board(view, NAMES[:3], 80, 40, legal, typed)))
        out.append(screen.prompt(view, False))
        out += [desc for _, desc in (screen.command_for(m, view) for m in legal)]
    out.append(_text(screen.final(G.view(table.copies[0], 0), NAMES[:3])))
    out += [f"{term} {what}" for term, what in screen.SCREEN.help()]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_hints_completions_final_scores_and_help_in_the_language(lang: str) -> None:
    english = "\n".join(_boards("en"))
    for said in ("Your tiles:", "Round 1 of 2", "fits at", "bonus action", "Final scores",
                 "are placing:", "display:", "win the game!", "touching"):  # fmt: skip
        assert said in english, said
    for text in _boards(lang):
        for line in text.splitlines():
            assert ENGLISH.search(_bare(line)) is None, (lang, line)


def test_commands_stay_english_and_their_errors_are_translated() -> None:
    view: dict[str, Any] = {"phase": "action", "hand": [[7, "cOsW"]], "display": [[9, "xBlK"]],
                            "grid": [[0, 0, "cOmW"]], "chain": []}  # fmt: skip
    i18n.set_language("pl")
    assert screen.parse("place", ["1", "at", "v21"], "place 1 at v21", view) == (
        "place", 7, "cOsW", 1, 0)  # fmt: skip
    with pytest.raises(ParseError) as exc:
        screen.parse("place", ["1", "at", "u21"], "place 1 at u21", view)
    assert (
        str(exc.value)
        == "Niedozwolone: na polu u21 leży już średnie pomarańczowe koło na białym tle"
    )
    with pytest.raises(ParseError, match="'9' to nie Twoja płytka: Twoje mają numery 1"):
        screen.parse("place", ["9"], "place 9", view)
    with pytest.raises(ParseError, match="nieznane polecenie 'połóż'"):
        screen.parse("połóż", [], "połóż", view)
    assert screen.command_for(("draw", 9), view) == (
        "draw 1",
        "weź: duży niebieski krzyżyk na czarnym tle",
    )
    i18n.set_language("es")
    with pytest.raises(ParseError, match="'9x' no es una casilla"):
        screen.parse("place", ["1", "at", "9x"], "place 1 at 9x", view)
    assert screen.prompt({"phase": "draw"}, False) == "roba del expositor o de la bolsa> "


def _misfits() -> list[str]:
    """Every kind of reason the placement rule gives, from the board itself."""
    board = Board()
    board.add((0, 0), CODE["cOmW"])
    board.add((2, 0), CODE["sPlK"])
    reasons = {
        board.misfit((0, 0), CODE["cOsW"]),  # taken
        board.misfit((5, 5), CODE["cOsW"]),  # touches nothing
        board.misfit((1, 0), CODE["cOmW"]),  # the same tile beside it
    }
    for label in LABEL:
        for cell in ((1, 0), (0, 1), (-1, 0), (0, -1), (3, 0)):
            why = board.misfit(cell, CODE[label])
            if why is not None and "differs" in why:
                reasons.add(why)
    assert len(reasons) > 20
    return sorted(r for r in reasons if r is not None)


def _refusals() -> list[str]:
    """The engine's other refusals a player may meet."""
    out = []
    rig = Rig([["cOmW", "xBsW"], ["sOsW"]], display=("xPlK", "xOlK", "cBsW"))
    for seat, move in ((1, ("done",)), (0, ("done",)), (0, ("pass",)), (0, ("done", 1)),
                       (0, ("pass", 1)), (0, ("draw", "bag")), (0, ("place", 999, "cOmW", 1, 0)),
                       (0, ("exchange", rig.handle_of("xBsW"), "xBsW", 999))):  # fmt: skip
        with pytest.raises(IllegalMove) as exc:
            G.check(rig.state, seat, move)
        out.append(exc.value.reason)
    rig.place(0, "cOmW", 1, 0)
    with pytest.raises(IllegalMove) as exc:
        G.check(rig.state, 0, rig.place_move(0, "xBsW", 5, 5))
    out.append(exc.value.reason)
    with pytest.raises(IllegalMove) as exc:
        G.check(rig.state, 0, rig.exchange_move(0, "xBsW", "xPlK"))
    out.append(exc.value.reason)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_reads_in_the_language(lang: str) -> None:
    reasons = _misfits() + _refusals()
    i18n.set_language(lang)
    for reason in reasons:
        said = screen.humanize(reason)
        assert said != reason, reason
        assert ENGLISH.search(_bare(said)) is None, (lang, reason, said)


def test_a_misfit_told_in_polish_and_spanish() -> None:
    board = Board()
    board.add((0, 0), CODE["cOmW"])
    reason = board.misfit((1, 0), CODE["sPmW"])
    assert reason is not None
    i18n.set_language("pl")
    assert screen.humanize(reason) == (
        "ta płytka (średni fioletowy kwadrat na białym tle) różni się od płytki po lewej "
        "(średnie pomarańczowe koło na białym tle) dwiema cechami: kształt i kolor; stykające "
        "się płytki różnią się dokładnie jedną"
    )
    i18n.set_language("es")
    assert screen.humanize(reason) == (
        "esa ficha (cuadrado morado mediano sobre fondo blanco) se diferencia de la ficha que "
        "está a su izquierda (círculo naranja mediano sobre fondo blanco) en dos rasgos: forma "
        "y color; las fichas que se tocan difieren exactamente en uno"
    )
    i18n.set_language("en")
    assert screen.humanize(reason) == reason

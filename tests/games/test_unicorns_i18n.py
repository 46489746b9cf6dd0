"""Kill the Unicorns in Spanish and Polish, in process: whole games by bots told to every seat
in each language, every kind of move among them, as many lines as in English, no English
sentence left and no placeholder unfilled; the names alone (no Spanish beside them) outside
English; English exactly as before."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_unicorns_narrate import Told, four

from lanparty import i18n
from lanparty.games.bots import bots_for
from lanparty.games.unicorns.names import (
    character_name,
    colour_name,
    item_name,
    scheme_effect,
    scheme_name,
    unicorn_name,
)

LANGS = ("es", "pl")
KINDS = {"plant", "hunt", "join", "pass", "cards", "boost", "decline", "peek", "shift", "reveal",
         "give", "colour", "recall", "buy", "character"}  # fmt: skip
BOX_ENGLISH = ("Fairy Dust", "Trojan Unicorn")
"""Cards whose name in the Spanish box (the seed) is the English one."""
ENGLISH = re.compile(
    r"\b(hunts?|takes?|pass(es)?|joins?|lays?|turns?|over|buys?|sells?|scheme|unicorns?|Totals|"
    r"Day|cards?|and|you|your|wins?|escapes|token|face|down|Pink|Blue|Green|Yellow|Legendary|"
    r"Princess|Knight|Wizard|Shaman|Decoy|Ambush|Chameleon|Horn|Dust|Candy|Butcher|nothing|"
    r"owner|winner|the|with|worth|for|paying|Game|is|are|starter)\b"
)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


class Counted(Told):
    """A told rig that also counts the kinds of move made."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.kinds: set[str] = set()
        super().__init__(*args, **kwargs)

    def _apply(self, seat: int, move: tuple[Any, ...]) -> None:
        self.kinds.add(str(move[0]))
        super()._apply(seat, move)


@functools.cache
def _english(seed: int) -> tuple[frozenset[str], tuple[tuple[str, ...], ...]]:
    """Seed ``seed``'s game told in English: the kinds of move made and each seat's log
    (played once for both languages)."""
    i18n.set_language("en")
    rig = _game(seed)
    return frozenset(rig.kinds), tuple(tuple(rig.log_of(s)) for s in range(rig.n))


def _game(seed: int) -> Counted:
    bots = bots_for("unicorns")
    rig = Counted(3 + seed % 2, rng=random.Random(seed), powers=seed % 3 != 0, pick=False)
    rig.play([bots["heuristic" if s % 2 else "random"]() for s in range(rig.n)],
             random.Random(seed))  # fmt: skip
    return rig


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_of_move_is_told_in_the_language(lang: str) -> None:
    kinds: set[str] = set()
    for seed in range(8):  # seeds 0-6 already reach every kind of move (KINDS)
        english_kinds, english_logs = _english(seed)
        i18n.set_language(lang)
        rig = _game(seed)
        assert rig.kinds == english_kinds
        kinds |= rig.kinds
        for seat in range(rig.n):
            lines, en_lines = rig.log_of(seat), list(english_logs[seat])
            assert len(lines) == len(en_lines), seed
            assert lines != en_lines
            for line in lines:
                assert "{" not in line and "}" not in line, line
                assert " (" not in line.replace(" (K", "").replace(" (P", "") or all(
                    w not in line for w in ("(caza)", "(día", "(esquemas)", "(se escapa)")
                ), line
                for name in ("Ann", "Bea", "Carl", "Dora", *(BOX_ENGLISH if lang == "es" else ())):
                    line = line.replace(name, "")
                assert ENGLISH.search(line) is None, (lang, line)
    assert kinds >= KINDS, KINDS - kinds


def test_names_in_each_language() -> None:
    i18n.set_language("en")
    assert scheme_name("decoy") == "Decoy (Señuelo)"
    assert scheme_name("decoy", False) == "Decoy"
    assert character_name("princess") == "Princess (Princesa)"
    assert item_name("horn") == "Fake Horn (Cuerno falso)"
    assert colour_name("pink", True) == "pink (rosa)"
    assert unicorn_name("start-blue") == "Blue 1 (starter)"
    assert unicorn_name("legendary", "green") == "Legendary → green"
    i18n.set_language("es")
    assert scheme_name("decoy") == scheme_name("decoy", False) == "Señuelo"
    assert scheme_name("trojan") == "Trojan Unicorn"  # the box's (the seed's) Spanish
    assert item_name("dust") == "Fairy Dust"
    assert character_name("princess") == "Princesa"
    assert item_name("butcher") == "Carnicero Unicornio"
    assert colour_name("pink", True) == "rosa"
    assert unicorn_name("start-blue") == "Azul 1 (inicial)"
    assert unicorn_name("pink-3", "yellow") == "Rosa 3 → amarillo"
    assert scheme_effect("decoy") == "su dueño se queda el unicornio si lo cazó"
    i18n.set_language("pl")
    assert scheme_name("ambush") == "Zasadzka"
    assert character_name("wizard") == "Czarodziej"
    assert item_name("candy") == "Wata cukrowa"
    assert unicorn_name("legendary") == "Legendarny"
    assert unicorn_name(None) == "zakryty jednorożec"


def _one_hunt(lang: str) -> list[str]:
    """The hunt of ``test_one_hunt_from_the_bid_to_the_reveal`` told to Carl in ``lang``."""
    i18n.set_language(lang)
    rig = four()
    for seat, keep, on in ((0, "shiny", "blue-2"), (1, "decoy", "pink-4"),
                           (2, "trojan", "pink-4"), (3, "athletic", "legendary")):  # fmt: skip
        rig.plant(seat, keep, on)
    mark = len(rig.log_of(2)) - 1
    rig.hunt(0, 3, 4)
    rig.join(1, 4, 3)
    rig.pass_(2)
    rig.join(3, 1, 0)
    rig.move(3, "reveal", rig.scheme(1, "decoy"))
    return rig.since(2, mark)


def test_one_hunt_in_spanish_and_polish() -> None:
    assert _one_hunt("es") == [
        "Caza de Rosa 4: le toca a Ann abrirla o pasar",
        "Ann caza Rosa 4 con 2 cartas",
        "Ann pone 2 cartas boca abajo (selladas)",
        "Bea se une a la caza con 2 cartas",
        "Bea pone 2 cartas boca abajo (selladas)",
        "Pasas",
        "Dora se une a la caza con 2 cartas",
        "Dora pone 2 cartas boca abajo (selladas)",
        "Ann descubre 3 y 4: 7",
        "Bea descubre 3 y 4: 7",
        "Dora descubre 0 y 1: 1",
        "Sumas: Ann 7, Bea 7, Dora 1; empate a 7: quedan fuera; Dora gana la caza",
        "Dora elige descubrir el esquema de Bea",
        "El otro esquema, tu esquema, se descarta sin que nadie lo vea",
        "Se descubre: el esquema de Bea en Rosa 4 es Señuelo: su dueño se queda el unicornio "
        "si lo cazó",
        "Bea se lleva Rosa 4 con Señuelo (vale 4)",
        "Bea se queda con la ficha de primer jugador",
        "Caza de Azul 2: le toca a Bea abrirla o pasar",
    ]
    told = _one_hunt("pl")
    assert "Ann poluje na jednorożca Różowy 4, kładąc 2 karty" in told
    assert "Bea kładzie zakryte 2 karty (zapieczętowane)" in told
    assert "Pasujesz" in told
    assert "Bea zdobywa jednorożca Różowy 4 z intrygą Przynęta (wart 4)" in told


def test_polish_plurals() -> None:
    i18n.set_language("pl")
    said = [i18n.ngettext("lays {n} card face down (sealed)", "lays {n} cards face down (sealed)",
                          n).format(n=n) for n in (1, 2, 5, 22)]  # fmt: skip
    assert said == ["kładzie zakrytą 1 kartę (zapieczętowaną)",
                    "kładzie zakryte 2 karty (zapieczętowane)",
                    "kładzie zakrytych 5 kart (zapieczętowanych)",
                    "kładzie zakryte 22 karty (zapieczętowane)"]  # fmt: skip


def test_help_errors_and_prompts_in_the_language_and_the_commands_in_english() -> None:
    from lanparty.games.screens import ParseError
    from lanparty.games.unicorns.commands import command_for, parse
    from lanparty.games.unicorns.screen import SCREEN

    view: dict[str, Any] = {"seat": 0, "phase": "bid", "row": [], "collections": [[]]}
    i18n.set_language("es")
    assert SCREEN.prompt(view, False) == "caza con N cartas (hunt N), join o pass> "
    assert dict(SCREEN.help())["hunt N"] == "abre la caza con N cartas de caza, de 1 a 3"
    assert command_for(("hunt", 2), view) == ("hunt 2", "cazar con 2 cartas")
    with pytest.raises(ParseError, match="no se está cazando ningún unicornio"):
        parse("reveal", ["a"], "reveal a", view)
    i18n.set_language("pl")
    assert command_for(("hunt", 1), view) == ("hunt 1", "poluj, kładąc 1 kartę")
    assert command_for(("pass",), view) == ("pass", "nie bierz udziału w tym polowaniu")
    with pytest.raises(ParseError, match="nieznane polecenie 'taniec'"):
        parse("taniec", [], "taniec", view)
    i18n.set_language("en")
    assert SCREEN.prompt(view, False) == "hunt N, join or pass> "
    assert command_for(("hunt", 2), view) == ("hunt 2", "hunt with 2 cards")

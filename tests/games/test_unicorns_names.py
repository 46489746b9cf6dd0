"""One name per card in each language (issue 21): the English screen said "Trojan Unicorn
(Unicornio de Troya)" while the Spanish screen and rules said "Unicornio troyano", help and
prompts said "Trojan"/"Troyano", and Spanish had "Carnicero" beside "Carnicero Unicornio".
Each card (scheme, market item, character) has one name in each language, the Spanish one the
box's where the seed names the card, and every mention of a card (on the screen, in the log,
on the rules page, in the catalogue's messages of the game) is that name; and a player's name
is written as the player wrote it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from test_unicorns_narrate import Told

from lanparty import i18n
from lanparty.games import rules_text
from lanparty.games.bots import bots_for
from lanparty.games.unicorns import names as unicorn_names
from lanparty.games.unicorns.names import (
    CHARACTER_NAMES,
    ITEM_NAMES,
    SCHEME_NAMES,
    character_name,
    item_name,
    scheme_name,
)
from lanparty.games.unicorns.screen import SCREEN, final, hand, table

ROOT = Path(unicorn_names.__file__).parents[3]
SEED = ROOT.parent / "shared" / "seeds" / "004_5b8735de255ac5d5.txt"

# Every way a card may be mentioned, per language: a mention must be the card's one name.
MENTIONS: dict[str, dict[str, str]] = {
    "en": {
        "athletic": r"Athletic",
        "shiny": r"Shiny",
        "stinky": r"Stinky",
        "sick": r"\bSick",
        "trojan": r"Trojan",
        "ambush": r"Ambush",
        "decoy": r"Decoy",
        "chameleon": r"Chameleon",
        "butcher": r"Butcher",
        "horn": r"Fake",
        "candy": r"Cotton|Candy",
        "dust": r"Fairy|Dust",
        "princess": r"Princess",
        "knight": r"Knight",
        "wizard": r"Wizard",
        "shaman": r"Shaman",
    },
    "es": {
        "athletic": r"(?i)atl[ée]tic",
        "shiny": r"(?i)brillante",
        "stinky": r"(?i)apest",
        "sick": r"(?i)enferm",
        "trojan": r"(?i)troy|trojan",
        "ambush": r"(?i)embosc",
        "decoy": r"(?i)señuel|cebo",
        "chameleon": r"(?i)camale",
        "butcher": r"(?i)carnicer",
        "horn": r"(?i)cuerno f",
        "candy": r"(?i)algod",
        "dust": r"(?i)hadas|fairy",
        "princess": r"Princes|princesa",
        "knight": r"(?i)caballer",
        "wizard": r"(?i)\bmag[oa]s?\b",
        "shaman": r"(?i)cham[aá]n",
    },
    "pl": {
        "athletic": r"(?i)wysportowan",
        "shiny": r"(?i)lśni",
        "stinky": r"(?i)śmierdz",
        "sick": r"(?i)\bchor[ey]",
        "trojan": r"(?i)troja",
        "ambush": r"(?i)zasadzk",
        "decoy": r"(?i)przynęt",
        "chameleon": r"(?i)kameleon",
        "butcher": r"(?i)rzeźni",
        "horn": r"(?i)sztuczn",
        "candy": r"(?i)\bwat[aęy]\b",
        "dust": r"(?i)\bpył",
        "princess": r"(?i)księżnicz",
        "knight": r"(?i)rycer",
        "wizard": r"(?i)czarodziej(?!sk)",
        "shaman": r"(?i)szaman",
    },
}
TABLES = {**SCHEME_NAMES, **ITEM_NAMES, **CHARACTER_NAMES}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def name_in(card: str, lang: str) -> str:
    """The card's name in ``lang``, as the game shows it there."""
    i18n.set_language(lang)
    if card in SCHEME_NAMES:
        return scheme_name(card, False)
    if card in ITEM_NAMES:
        return item_name(card, False)
    return character_name(card, False)


def _form(name: str, lang: str) -> re.Pattern[str]:
    """The name as it may be written: exactly, or in Polish declined (each word's stem with
    any ending: "Rycerza", "Księżniczki")."""
    if lang != "pl":
        return re.compile(re.escape(name))
    words = [re.escape(w[: max(3, len(w) - 2)]) + r"\w*" for w in name.split()]
    return re.compile(r"\s+".join(words), re.IGNORECASE)


def strays(said: str, lang: str) -> list[tuple[str, str]]:
    """Every mention of a card in ``said`` that is not inside the card's one name in
    ``lang``: (card, the text around it)."""
    out = []
    said = re.sub(r"\{\w*\}", "", said)  # a placeholder ({trojan}) is filled by the name
    for card, mention in MENTIONS[lang].items():
        form = _form(name_in(card, lang), lang)
        spans = [m.span() for m in form.finditer(said)]
        for m in re.finditer(mention, said):
            if not any(a <= m.start() and m.end() <= b for a, b in spans):
                out.append((card, said[max(0, m.start() - 30) : m.end() + 30]))
    return out


def test_the_spanish_names_are_the_boxs() -> None:
    """Where the seed (the box's Spanish text) names a card, that is its Spanish name; and
    the catalogue's Spanish for each English name is the one of ``names``."""
    box = {"butcher": "Carnicero Unicornio", "horn": "Cuerno falso", "candy": "Algodón de azúcar",
           "dust": "Fairy Dust", "trojan": "Trojan Unicorn", "stinky": "Unicornio apestoso",
           "princess": "Princesa", "shaman": "Chamán"}  # fmt: skip
    if SEED.is_file():
        seed = SEED.read_text("utf-8")
        assert all(name in seed for name in box.values())
    for card, (english, spanish) in TABLES.items():
        assert name_in(card, "es") == spanish == box.get(card, spanish), card
        assert name_in(card, "en") == english
    i18n.set_language("en")
    assert scheme_name("trojan") == "Trojan Unicorn" and item_name("dust") == "Fairy Dust"
    assert item_name("butcher") == "Unicorn Butcher (Carnicero Unicornio)"


def _game_messages() -> dict[tuple[str | None, str], object]:
    """The game's messages (every one marked in ``lanparty/games/unicorns``, and the help of
    its options) by (context, msgid)."""
    out: dict[tuple[str | None, str], object] = {}
    for path in sorted((ROOT / "lanparty" / "games" / "unicorns").glob("*.py")):
        for _line, message, _comments, context in extract_from_file("python", str(path)):
            msgid = message[0] if isinstance(message, tuple) else message
            out[(context, msgid)] = message
    return out


@pytest.mark.parametrize("lang", ["en", "es", "pl"])
def test_the_catalogue_and_the_rules_page_name_each_card_one_way(lang: str) -> None:
    messages = _game_messages()
    said = []
    if lang == "en":
        for message in messages.values():
            said += list(message) if isinstance(message, tuple) else [str(message)]
    else:
        path = ROOT / "lanparty" / "locale" / lang / "LC_MESSAGES" / "lanparty.po"
        with path.open("rb") as f:
            catalogue = read_po(f)
        for m in catalogue:
            msgid = m.id[0] if isinstance(m.id, tuple) else m.id
            if (m.context, msgid) in messages:
                said += list(m.string) if isinstance(m.string, tuple) else [m.string]
    found = [s for line in said for s in strays(line, lang)]
    assert found == [], found
    page = rules_text("unicorns", lang)
    assert strays(page, lang) == []
    for card in TABLES:
        assert f"**{name_in(card, lang)}**" in page, (lang, card)


def _told(lang: str, seed: int) -> str:
    """A whole bot game told to every seat in ``lang``, and every seat's board at the end,
    its help and prompts."""
    i18n.set_language(lang)
    bots = bots_for("unicorns")
    rig = Told(4, rng=random.Random(seed), pick=False)
    rig.play([bots["heuristic" if s % 2 else "random"]() for s in range(4)],
             random.Random(seed))  # fmt: skip
    out = [line for s in range(4) for line in rig.log_of(s)]
    for s in range(4):
        view: dict[str, Any] = rig.view(s)
        out += [t for _, t in table(view, ["Ann", "Bea", "Carl", "Dora"], 200)]
        out += [t for _, t in hand(view, 200, [])]
        out += [t for _, t in final(view, ["Ann", "Bea", "Carl", "Dora"])]
    out += [f"{c} {w}" for c, w in SCREEN.help()]
    for phase in ("character", "trap", "give", "knight", "wizard", "colour", "market"):
        out.append(SCREEN.prompt({"phase": phase}, False))
    return "\n".join(out)


@pytest.mark.parametrize("lang", ["en", "es", "pl"])
def test_the_screen_and_the_log_name_each_card_one_way(lang: str) -> None:
    """In English the Spanish names stand beside the English: both are checked there."""
    said = _told(lang, 3)
    assert strays(said, lang) == []
    if lang == "en":  # "Decoy (Señuelo)": the aside is the one Spanish name
        for card, (english, spanish) in TABLES.items():
            for aside in re.findall(re.escape(english) + r" \(([^()]*)\)", said):
                if re.search(MENTIONS["es"][card], aside):  # not "(worth 4)"
                    assert aside == spanish, (card, aside)
        assert "Princess (Princesa)" in said and "Unicornio de Troya" not in said


def test_a_players_name_is_never_recapitalised() -> None:
    """A name stays as written: "bot-3 plants…", never "Bot-3 plants…", in the log and on
    the final screen."""

    bots = bots_for("unicorns")
    lower = ("ann", "bot-1", "bot-2", "bot-3")
    rig = Told(4, names=lower, rng=random.Random(1), pick=False)
    rig.play([bots["heuristic"]() for _ in range(4)], random.Random(1))
    told = [line for s in range(4) for line in rig.log_of(s)]
    assert any(line.startswith("bot-3 ") for line in told)
    assert not any(re.search(r"\b(Ann|Bot-\d)", line) for line in told), told
    for s in range(4):
        shown = "".join(t for _, t in final(rig.view(s), lower))
        assert not re.search(r"\b(Ann|Bot-\d)", shown), shown

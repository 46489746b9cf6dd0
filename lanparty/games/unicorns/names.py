"""Kill the Unicorns in words: the English name of every card, character, token and colour,
with the Spanish one of the box beside it (the seed's words: unicornio, caza, esquema…), so
that a player who knows the Spanish edition recognises the game.

In English the screen and the log keep the Spanish beside the English ("Decoy (Señuelo)",
none where the box keeps the English name: "Trojan Unicorn"); in any other language only the
name in that language is shown (Spanish: the box's words; Polish: the words of our Polish
rules). Each card has one name in each language, the same on the screen, in the log, on the
rules pages and in the catalogues: the Spanish ones here are the box's where its text names
the card (the seed: "Carnicero Unicornio", "Cuerno falso", "Algodón de azúcar", "Fairy
Dust", "Trojan Unicorn", "Unicornio apestoso", "Princesa", "Chamán"), and the catalogue's
Spanish for each English name is the one here (a test holds them together).
"""

from __future__ import annotations

from lanparty.i18n import N_, _, language, pgettext

from .cards import (
    AMBUSH,
    ATHLETIC,
    BUTCHER,
    CANDY,
    CHAMELEON,
    COLOURS,
    DECOY,
    DUST,
    HORN,
    LEGENDARY,
    SCHEME_VALUE,
    SHINY,
    SICK,
    STINKY,
    TROJAN,
    unicorn_coins,
)

__all__ = [
    "CHARACTER_NAMES",
    "COLOUR_NAMES",
    "ITEM_NAMES",
    "SCHEME_NAMES",
    "TERMS",
    "aside",
    "character_name",
    "character_power",
    "colour_name",
    "item_name",
    "local",
    "scheme_effect",
    "scheme_name",
    "unicorn_name",
]

COLOUR_NAMES = {"pink": "rosa", "blue": "azul", "green": "verde", "yellow": "amarillo"}
"""Each colour's Spanish name, by its English one (the label's)."""

SCHEME_NAMES = {
    ATHLETIC: ("Athletic Unicorn", "Unicornio atlético"),
    SHINY: ("Shiny Horn", "Cuerno brillante"),
    STINKY: ("Stinky Unicorn", "Unicornio apestoso"),
    SICK: ("Sick Unicorn", "Unicornio enfermo"),
    TROJAN: ("Trojan Unicorn", "Trojan Unicorn"),
    AMBUSH: ("Ambush", "Emboscada"),
    DECOY: ("Decoy", "Señuelo"),
    CHAMELEON: ("Chameleon", "Camaleón"),
}
"""Each scheme's (English, Spanish) name, by its label."""

_EFFECTS = {
    TROJAN: N_("its owner takes the unicorn and gives the winner one of theirs"),
    AMBUSH: N_("the next highest total takes the unicorn"),
    DECOY: N_("its owner takes the unicorn if they hunted it"),
    CHAMELEON: N_("the winner names the unicorn's colour"),
}

_SHORT = {
    TROJAN: N_("its owner takes it, gives one"),
    AMBUSH: N_("the next total takes it"),
    DECOY: N_("its owner takes it if hunting"),
    CHAMELEON: N_("the winner names its colour"),
}

_NAMES = (
    N_("Athletic Unicorn"), N_("Shiny Horn"), N_("Stinky Unicorn"), N_("Sick Unicorn"),
    N_("Trojan Unicorn"), N_("Ambush"), N_("Decoy"), N_("Chameleon"),
    N_("Princess"), N_("Knight"), N_("Wizard"), N_("Shaman"),
    N_("Unicorn Butcher"), N_("Fake Horn"), N_("Cotton Candy"), N_("Fairy Dust"),
)  # fmt: skip
"""The English names above, marked: shown translated (alone) in any language but English."""


def _colour_word(colour: str) -> str:
    """A unicorn's colour in the current language (``"pink"`` as is in English)."""
    words = {
        "pink": pgettext("unicorn", "pink"),
        "blue": pgettext("unicorn", "blue"),
        "green": pgettext("unicorn", "green"),
        "yellow": pgettext("unicorn", "yellow"),
    }
    return words.get(colour, colour)


def _capital_colour(colour: str) -> str:
    """``"pink"`` → ``"Pink"`` in English, the colour in the current language otherwise."""
    words = {
        "pink": pgettext("unicorn", "Pink"),
        "blue": pgettext("unicorn", "Blue"),
        "green": pgettext("unicorn", "Green"),
        "yellow": pgettext("unicorn", "Yellow"),
    }
    return words.get(colour, colour.capitalize())


def local() -> bool:
    """Whether names are shown in the reader's language alone (any language but English)."""
    return language() != "en"


CHARACTER_NAMES = {
    "princess": ("Princess", "Princesa"),
    "knight": ("Knight", "Caballero"),
    "wizard": ("Wizard", "Mago"),
    "shaman": ("Shaman", "Chamán"),
}
"""Each character's (English, Spanish) name."""

ITEM_NAMES = {
    BUTCHER: ("Unicorn Butcher", "Carnicero Unicornio"),
    HORN: ("Fake Horn", "Cuerno falso"),
    CANDY: ("Cotton Candy", "Algodón de azúcar"),
    DUST: ("Fairy Dust", "Fairy Dust"),
}
"""Each black-market item's (English, Spanish) name."""

TERMS = {
    "day": "día",
    "row": "fila de unicornios",
    "hunt": "caza",
    "hunt cards": "cartas de caza",
    "schemes": "esquemas",
    "market": "mercado negro",
    "first player": "primer jugador",
    "rainbow": "arcoíris",
    "double rainbow": "arcoíris doble",
    "escapes": "se escapa",
    "pate": "paté",
    "characters": "personajes",
}
"""Words of the table, English to Spanish."""


def colour_name(colour: str, spanish: bool = False) -> str:
    """``"pink"`` → ``"pink"``, or ``"pink (rosa)"`` with ``spanish``; unknown text as is.
    In any language but English, the colour in that language alone."""
    if local():
        return _colour_word(colour)
    es = COLOUR_NAMES.get(colour)
    return f"{colour} ({es})" if spanish and es else colour


def unicorn_name(label: str | None, colour: str | None = None) -> str:
    """A unicorn label in words: ``"pink-2"`` → ``"Pink 2"``, ``"start-blue"`` → ``"Blue 1
    (starter)"``, ``"legendary"`` → ``"Legendary"``; ``colour`` (the colour it has now, if
    a scheme or a token changed it) is added when it differs. ``None`` (not turned over
    yet) → ``"a face-down unicorn"``."""
    if label is None:
        return _("a face-down unicorn")
    if label == LEGENDARY:
        name, printed = _("Legendary"), None
    elif label.startswith("start-"):
        printed = label[6:]
        name = _("{colour} 1 (starter)").format(colour=_capital_colour(printed))
    elif "-" in label and label.split("-", 1)[0] in COLOURS:
        printed = label.split("-", 1)[0]
        name = f"{_capital_colour(printed)} {unicorn_coins(label)}"
    else:
        return label
    if colour and colour != printed:
        name += f" → {_colour_word(colour)}"
    return name


def scheme_name(label: str | None, spanish: bool = True) -> str:
    """A scheme label in words, ``"Decoy (Señuelo)"`` (English only without ``spanish``);
    ``None`` → ``"a face-down scheme"``. In any language but English, its name alone."""
    if label is None:
        return _("a face-down scheme")
    en, es = SCHEME_NAMES.get(label, (label, ""))
    if local():
        return _(en) if es else en
    return f"{en} ({es})" if spanish and es and es != en else en


def scheme_effect(label: str, short: bool = False) -> str:
    """What a scheme does, in a few words: ``"+2"``, ``"−4"``, or its trick (in fewer
    words with ``short``)."""
    value = SCHEME_VALUE.get(label)
    if value is not None:
        return f"{value:+d}".replace("-", "−")
    effect = (_SHORT if short else _EFFECTS).get(label, "")
    return _(effect) if effect else ""


def character_name(name: str | None, spanish: bool = True) -> str:
    """``"princess"`` → ``"Princess (Princesa)"``; ``None`` → ``"?"``."""
    if name is None:
        return "?"
    en, es = CHARACTER_NAMES.get(name, (name, ""))
    if local():
        return _(en) if es else en
    return f"{en} ({es})" if spanish and es and es != en else en


_POWERS = {
    "princess": N_("look at another player's face-down scheme"),
    "knight": N_("+2 to his total once the cards of a hunt he joined are turned over"),
    "wizard": N_("take back a hunt card he played once the hunt is settled"),
    "shaman": N_("move a face-down scheme to another unicorn"),
}


def character_power(name: str) -> str:
    """What ``name``'s power does (once a day), in a few words; ``""`` if it is no
    character."""
    power = _POWERS.get(name)
    return _(power) if power else ""


def item_name(item: str, spanish: bool = True) -> str:
    """``"horn"`` → ``"Fake Horn (Cuerno falso)"``."""
    en, es = ITEM_NAMES.get(item, (item, ""))
    if local():
        return _(en) if es else en
    return f"{en} ({es})" if spanish and es and es != en else en


def aside(term: str, *more: object) -> str:
    """The Spanish word of the table beside the English, ``" (caza)"`` (``more`` after it:
    ``aside("day", 2)`` → ``" (día 2)"``); nothing in any other language."""
    if local():
        return ""
    return " (" + " ".join([TERMS[term], *(str(m) for m in more)]) + ")"

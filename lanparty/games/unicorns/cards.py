"""Kill the Unicorns card identities: unicorns, schemes, hunt cards, characters, market items.

Every card is named by a public label (a string). A unicorn label gives its colour and coins;
a scheme label its effect; the rest are small tuples of constants.
"""

from __future__ import annotations

from itertools import permutations

COLOURS = ("pink", "blue", "green", "yellow")
"""The four unicorn colours, in index order."""
COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
NEUTRAL = 4
"""Colour index of a Legendary unicorn that has not been given a colour."""

LEGENDARY = "legendary"
LEGENDARY_COINS = 5


def _deck() -> tuple[str, ...]:
    out = [f"{c}-{v}" for c in COLOURS for v in range(1, 5)]
    out.extend([LEGENDARY] * 4)
    return tuple(out)


UNICORN_DECK = _deck()
"""The 20 unicorn cards, in a fixed canonical order (the labels of the deck's ``Shuffle``)."""
STARTING = tuple(f"start-{c}" for c in COLOURS)
"""The four starting unicorns (one of each colour, 1 coin), indexed like ``COLOURS``."""


def _printed_colour(label: str) -> int:
    """The colour index a unicorn label names (raises ``KeyError`` for no unicorn's)."""
    if label == LEGENDARY:
        return NEUTRAL
    name = label[6:] if label.startswith("start-") else label.split("-", 1)[0]
    return COLOUR_INDEX[name]


def _printed_coins(label: str) -> int:
    """The coins a unicorn label names (raises ``ValueError`` for no unicorn's)."""
    if label == LEGENDARY:
        return LEGENDARY_COINS
    if label.startswith("start-"):
        return 1
    return int(label.rsplit("-", 1)[1])


UNICORN_LABELS = frozenset(UNICORN_DECK) | frozenset(STARTING)
# Read once per label: every view and score asks them of every collected unicorn.
_COLOUR_OF = {label: _printed_colour(label) for label in UNICORN_LABELS}
_COINS_OF = {label: _printed_coins(label) for label in UNICORN_LABELS}


def unicorn_colour(label: str) -> int:
    """The printed colour index of a unicorn label (``NEUTRAL`` for a Legendary)."""
    colour = _COLOUR_OF.get(label)
    return colour if colour is not None else _printed_colour(label)


def unicorn_coins(label: str) -> int:
    """The coins printed on a unicorn label."""
    coins = _COINS_OF.get(label)
    return coins if coins is not None else _printed_coins(label)


ATHLETIC, SHINY, STINKY, SICK, TROJAN, AMBUSH, DECOY, CHAMELEON = (
    "athletic", "shiny", "stinky", "sick", "trojan", "ambush", "decoy", "chameleon",
)  # fmt: skip
SCHEMES = (ATHLETIC, SHINY, STINKY, SICK, TROJAN, AMBUSH, DECOY, CHAMELEON)
"""One player's 8 scheme cards, in canonical order (the labels of each scheme deck)."""
SCHEME_VALUE = {ATHLETIC: 2, SHINY: 3, STINKY: -4, SICK: -2}
"""Coins a scheme card adds to the unicorn it ends on (the others add nothing)."""

HUNT_CARDS = (0, 1, 1, 2, 2, 3, 3, 4)
"""Each player's hunt cards, by value (public)."""
MAX_BID = 3

PRINCESS, KNIGHT, WIZARD, SHAMAN = range(4)
CHARACTERS = ("princess", "knight", "wizard", "shaman")
KNIGHT_BONUS = 2

BUTCHER, HORN, CANDY, DUST = "butcher", "horn", "candy", "dust"
ITEMS = (BUTCHER, HORN, CANDY, DUST)
"""The black-market items, in canonical order."""
COST = {BUTCHER: 2, HORN: 3, CANDY: 3, DUST: 6}
TOKEN_VALUE = {HORN: 2, CANDY: 0, DUST: 2}
"""Coins a token adds to the unicorn it is attached to."""
TOKENS_PER_ITEM = 4
PATE_VALUE = 3

PERMUTATIONS = tuple(permutations(range(4)))
"""The 24 orders of four things, lexicographic: a joint coin in ``range(24)`` picks one."""

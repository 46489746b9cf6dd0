"""KaTO table options: declared specs, defaults and strict validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec, Plain

MIN_SEATS, MAX_SEATS = 2, 10
MAX_CONES = 8
CONE_MODES = ("reflect", "reverse", "draw10")
STACKING = ("seed", "off", "full")
"""``seed``: only a Wild Draw Four takes a Draw Two (any colour) or a Wild Draw Four on top, and a
Draw Two on it only a Wild Draw Four; ``off``: nothing stacks; ``full``: a Draw Two or a Wild
Draw Four goes on either."""

# ``--option stacking=off`` reaches the game as ``False`` (the command line reads off/no/false
# as a boolean), so that spelling is taken for the option's name.
_SPELLINGS: dict[str, dict[object, str]] = {"stacking": {False: "off"}}

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("hand_size", 7, "cards dealt to each player", minimum=1, maximum=20),
    OptionSpec(
        "cones", 0, "traffic-cone wild cards added to the deck", minimum=0, maximum=MAX_CONES
    ),
    OptionSpec("cone_mode", "reflect", "what a cone does", choices=CONE_MODES),
    OptionSpec(
        "first",
        "random",
        "who starts round 1: joint coin or the seat after the host",
        choices=("random", "host"),
    ),
    OptionSpec(
        "play_after_draw",
        True,
        "a drawn card that matches may be played at once",
        choices=(True, False),
    ),
    OptionSpec(
        "multi_play",
        False,
        "play several number cards of one number at once",
        choices=(True, False),
    ),
    OptionSpec(
        "stacking",
        "seed",
        "what may be put on a Draw Two or Wild Draw Four aimed at you",
        choices=STACKING,
    ),
    OptionSpec("target", 500, "points that win the game", minimum=1, maximum=100_000),
    OptionSpec(
        "rounds",
        0,
        "play exactly this many rounds (0: play to the target)",
        minimum=0,
        maximum=1000,
    ),
)


@dataclass(frozen=True, slots=True)
class KatoOptions:
    """Validated options; ``rounds`` = 0 means the game is played to ``target``."""

    hand_size: int = 7
    cones: int = 0
    cone_mode: str = "reflect"
    first: str = "random"
    play_after_draw: bool = True
    multi_play: bool = False
    stacking: str = "seed"
    target: int = 500
    rounds: int = 0

    def as_plain(self) -> dict[str, Plain]:
        """Every option by name, in declaration order."""
        return {spec.name: getattr(self, spec.name) for spec in SPECS}


def validate(given: Mapping[str, Plain]) -> dict[str, Plain]:
    """Fill defaults and check every value; raise ``OptionError`` naming the bad option."""
    return check_options("kato", SPECS, given, _SPELLINGS)


def make(seats: int, given: Mapping[str, Plain]) -> KatoOptions:
    """Validated options for ``seats`` players; raise ``OptionError`` (``"seats"`` included)."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError("seats", f"kato needs {MIN_SEATS} to {MAX_SEATS} players, got {seats}")
    opts = KatoOptions(**validate(given))  # type: ignore[arg-type]
    # Every hand plus the first card, with all four Wild Draw Fours possibly buried under it.
    if seats * opts.hand_size + 5 > 108 + opts.cones:
        raise OptionError(
            "hand_size", f"{opts.hand_size} cards for {seats} players do not fit in the deck"
        )
    return opts

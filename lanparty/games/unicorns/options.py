"""Kill the Unicorns table options: declared specs, defaults and strict validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec, Plain

from .cards import KNIGHT, WIZARD

MIN_SEATS, MAX_SEATS = 3, 4
INITIATIONS = ("none", "no_schemes", "no_schemes_no_powers")
CHARACTER_MODES = ("choose", "random")

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "first",
        "random",
        "who holds the first-player token on day 1: joint coin, or the host",
        choices=("random", "host"),
    ),
    OptionSpec(
        "characters",
        "choose",
        "how characters are given out: each player chooses one in turn from the first "
        "player, or a joint coin deals them",
        choices=CHARACTER_MODES,
    ),
    OptionSpec(
        "powers", True, "characters use their powers (once per day each)", choices=(True, False)
    ),
    OptionSpec(
        "expert",
        False,
        "the scheme discarded each morning goes face down, so nobody else ever learns it; "
        "played hunt cards are not shown (they can still be worked out from what everyone "
        "holds)",
        choices=(True, False),
    ),
    OptionSpec(
        "initiation",
        "none",
        "simpler game: no_schemes (no scheme cards, no Princess or Shaman power), "
        "no_schemes_no_powers (no scheme cards, no powers)",
        choices=INITIATIONS,
    ),
)


@dataclass(frozen=True, slots=True)
class UnicornsOptions:
    """Validated options."""

    first: str = "random"
    characters: str = "choose"
    powers: bool = True
    expert: bool = False
    initiation: str = "none"

    @property
    def schemes(self) -> bool:
        """Scheme cards are in play."""
        return self.initiation == "none"

    def power_of(self, character: int) -> bool:
        """Whether ``character`` (an index into ``cards.CHARACTERS``) has its power."""
        if not self.powers or self.initiation == "no_schemes_no_powers":
            return False
        # Without scheme cards the Princess and the Shaman have nothing to act on.
        return self.schemes or character in (KNIGHT, WIZARD)

    def as_plain(self) -> dict[str, Plain]:
        """Every option by name, in declaration order."""
        return {spec.name: getattr(self, spec.name) for spec in SPECS}


def validate(given: Mapping[str, Plain]) -> dict[str, Plain]:
    """Fill defaults and check every value; raise ``OptionError`` naming the bad option."""
    out = check_options("unicorns", SPECS, given)
    if out["initiation"] == "no_schemes_no_powers":
        if given.get("powers") is True:
            raise OptionError("powers", "initiation no_schemes_no_powers has no powers")
        out["powers"] = False
    return out


def make(seats: int, given: Mapping[str, Plain]) -> UnicornsOptions:
    """Validated options for ``seats`` players; raise ``OptionError`` (``"seats"`` included)."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError(
            "seats", f"unicorns needs {MIN_SEATS} to {MAX_SEATS} players, got {seats!r}"
        )
    return UnicornsOptions(**validate(given))  # type: ignore[arg-type]

"""Unikato table options: declared specs, defaults and strict validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec, Plain, excerpt

MIN_SEATS, MAX_SEATS = 2, 4
MAX_ROUNDS = 100

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "first",
        "random",
        "who starts round 1: a joint coin of all players, or the host",
        choices=("random", "host"),
    ),
    OptionSpec(
        "rounds",
        1,
        "rounds to play; each tile left in a hand at a round's end scores -1",
        minimum=1,
        maximum=MAX_ROUNDS,
    ),
)


@dataclass(frozen=True, slots=True)
class UnikatoOptions:
    """Validated options."""

    first: str = "random"
    rounds: int = 1

    def as_plain(self) -> dict[str, Plain]:
        """Every option by name, in declaration order."""
        return {spec.name: getattr(self, spec.name) for spec in SPECS}


def validate(given: Mapping[str, Plain]) -> dict[str, Plain]:
    """Fill defaults and check every value; raise ``OptionError`` naming the bad option."""
    return check_options("unikato", SPECS, given)


def make(seats: int, given: Mapping[str, Plain]) -> UnikatoOptions:
    """Validated options for ``seats`` players; raise ``OptionError`` (``"seats"`` included)."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError(
            "seats", f"unikato needs {MIN_SEATS} to {MAX_SEATS} players, got {excerpt(seats)}"
        )
    return UnikatoOptions(**validate(given))  # type: ignore[arg-type]

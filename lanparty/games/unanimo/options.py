"""Unanimo table options: declared specs, defaults and strict validation.

``norm`` pins the word matching (:data:`~.fold.NORMALISATION_VERSION`): the complete options
a table carries hold it, so a peer whose program matches words another way refuses the table
with a clear line instead of disagreeing about a score later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec, Plain, excerpt

from .fold import NORMALISATION_VERSION
from .subjects import SUBJECTS

MIN_SEATS, MAX_SEATS = 3, 8
MAX_TIMER = 3600

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("cards", 3, "subject cards played (one round each)", minimum=1,
               maximum=len(SUBJECTS)),
    OptionSpec("timer", 0, "seconds to write (0: no limit; the leader may close once half "
               "the table has handed in)", minimum=0, maximum=MAX_TIMER),
    OptionSpec("fold_accents", True, "words match whatever their accents (żaba = zaba)",
               choices=(True, False)),
    OptionSpec("norm", NORMALISATION_VERSION, "how words are matched (fixed by the program: "
               "a table made with another version is refused)",
               choices=(NORMALISATION_VERSION,)),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class UnanimoOptions:
    """Validated options."""

    cards: int = 3
    timer: int = 0
    fold_accents: bool = True
    norm: int = NORMALISATION_VERSION

    def as_plain(self) -> dict[str, Plain]:
        """Every option by name, in declaration order."""
        return {spec.name: getattr(self, spec.name) for spec in SPECS}


def validate(given: Mapping[str, Plain]) -> dict[str, Plain]:
    """Fill defaults and check every value; raise ``OptionError`` naming the bad option (a
    table of another normalisation is refused in words a person understands)."""
    norm = given.get("norm", NORMALISATION_VERSION)
    if type(norm) is int and norm != NORMALISATION_VERSION:
        raise OptionError(
            "norm",
            f"this table matches words with normalisation {norm}; "
            f"this program has {NORMALISATION_VERSION}",
        )
    return check_options("unanimo", SPECS, given)


def make(seats: int, given: Mapping[str, Plain]) -> UnanimoOptions:
    """Validated options for ``seats`` players; raise ``OptionError`` (``"seats"`` included)."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError(
            "seats", f"unanimo needs {MIN_SEATS} to {MAX_SEATS} players, got {excerpt(seats)}"
        )
    return UnanimoOptions(**validate(given))  # type: ignore[arg-type]

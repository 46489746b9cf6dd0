"""Unanimo table options: declared specs, defaults and strict validation.

``norm`` pins the word matching (:data:`~.fold.NORMALISATION_VERSION`): the complete options
a table carries hold it, so a peer whose program matches words another way refuses the table
with a clear line instead of disagreeing about a score later.

``words`` is the table's one writing language (``en``, ``pl`` or ``es``): the subject is read
and written in it, the same-root rule and the bots use it. Its default is the host's language
(the one its program is read in, English if the cards have no names in it): the host's
program fills it in when it opens the table, so the table's ``open`` entry carries the value
and every peer, whatever its own language, agrees on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanparty.games.optioncheck import check_options
from protocol.contract import OptionError, OptionSpec, Plain, excerpt

from .fold import NORMALISATION_VERSION
from .subjects import LANGUAGES, SUBJECTS

MIN_SEATS, MAX_SEATS = 3, 8
MAX_TIMER = 3600

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("cards", 3, "subject cards played (one round each)", minimum=1,
               maximum=len(SUBJECTS)),
    OptionSpec("timer", 0, "seconds to write (0: no limit); with a timer too, the leader may "
               "close the writing once half the table has handed in", minimum=0,
               maximum=MAX_TIMER),
    OptionSpec("words", "en", "the table's writing language: the subject is read and words "
               "are written and compared in it (default: the host's language)",
               choices=LANGUAGES),
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
    words: str = "en"
    fold_accents: bool = True
    norm: int = NORMALISATION_VERSION

    def as_plain(self) -> dict[str, Plain]:
        """Every option by name, in declaration order."""
        return {spec.name: getattr(self, spec.name) for spec in SPECS}


def validate(given: Mapping[str, Plain]) -> dict[str, Plain]:
    """Fill defaults and check every value; raise ``OptionError`` naming the bad option (a
    table of another normalisation is refused in words a person understands). A missing
    ``words`` is English: the program that opens a table fills in its reader's language
    (the plugin's ``language_option``), and the ``open`` entry carries it to every peer."""
    norm = given.get("norm", NORMALISATION_VERSION)
    if type(norm) is int and norm != NORMALISATION_VERSION:
        raise OptionError(
            "norm",
            f"this table matches words with normalisation {norm}; "
            f"this program has {NORMALISATION_VERSION}",
        )
    return check_options("unanimo", SPECS, given)


def make(seats: int, given: Mapping[str, Plain]) -> UnanimoOptions:
    """Validated options for ``seats`` players; raise ``OptionError`` (``"seats"`` included).
    A game is set up from complete options (the ``open`` entry's)."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise OptionError(
            "seats", f"unanimo needs {MIN_SEATS} to {MAX_SEATS} players, got {excerpt(seats)}"
        )
    return UnanimoOptions(**validate(given))  # type: ignore[arg-type]

"""Unanimo states consistent with one seat's view while the table writes, for the hard bot's
search (pure: the randomness is the caller's ``rng``).

Everything on the table is public but the words still sealed: :func:`determinize` rebuilds
the card being written, with every other seat's words still to be chosen (those who have
handed in already wrote words the seat cannot see: a rollout has them written again, by the
rollout's bots). A card is one round: the search's horizon is its scoring.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from protocol.contract import GameError, Move, Outcome, Plain

from ..views import num, num_at, seq
from .associations import ideas
from .options import make
from .rules import MAX_WORDS
from .state import WRITING, Card, UnanimoState
from .subjects import LANGUAGES

__all__ = ["candidates", "determinize", "labels", "value"]


def _ints(view: Mapping[str, Plain], key: str) -> list[int]:
    """``view[key]`` as a list of ints (``TypeError`` if it is not one)."""
    return [num_at(view, key, i) for i in range(len(seq(view, key)))]


def determinize(
    view: Mapping[str, Plain], options: Mapping[str, Plain], rng: random.Random
) -> UnanimoState:
    """The card being written, as ``view`` shows it, with nobody's words handed in yet.
    Raises ``GameError`` outside the writing (nothing there is searched)."""
    if view.get("phase") != "writing":
        raise GameError("only the writing is searched")
    n = num(view, "players")
    st = UnanimoState(n, make(n, options))
    subject = view.get("subject")
    if not isinstance(subject, dict):
        raise GameError("no subject on the table")
    card = num(subject, "card")
    rows = seq(view, "sheet")
    sheet: list[Card] = []
    for row in rows:
        if not isinstance(row, dict):
            raise GameError("a row of the score sheet is no mapping")
        points, bonus = _ints(row, "points"), _ints(row, "bonus")
        absent = tuple(_ints(row, "absent"))
        sheet.append(
            Card(
                num(row, "subject"), num(row, "leader"), absent, tuple(points), tuple(bonus), (), ()
            )
        )
    st.sheet = sheet
    st.used = [c.subject for c in sheet] + [card]
    st.leader = num(view, "leader")
    st.scores = _ints(view, "scores")
    st.phase = WRITING
    st.step = 1
    return st


def labels(st: UnanimoState) -> dict[int, str]:
    """Unanimo deals no cards: nothing for a dealer to know."""
    return {}


def value(before: Outcome, after: Outcome, st: UnanimoState, seat: int) -> float:
    """The points ``seat`` made on the card (a tenth of them: a card gives a few dozen at
    most)."""
    return (after.totals[seat] - before.totals[seat]) / 10


def candidates(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> list[Move | None]:
    """Word lists worth a search while writing: the first 8, 7, 6 and 5 associations of the
    subject in the table's language (the most common first); nothing to search otherwise."""
    if view.get("phase") != "writing":
        return []
    lang = str(view.get("words"))
    subject = view.get("subject")
    if lang not in LANGUAGES or not isinstance(subject, dict):
        return []
    words = ideas(num(subject, "card"), lang)
    return [("words", tuple(words[:k])) for k in range(MAX_WORDS, 4, -1)]

"""The reading of one card and its scoring: pure functions of the opened words.

The reading goes round the table from the leader (seat order, clockwise). Each reader's
words are taken in the order written; a word whose key was not yet mentioned is
*announced*, with everyone who wrote the same key. A word is rejected (scores nothing for
anyone) when it holds anything but letters, spaces, hyphens and apostrophes, when it shares
a root with the subject's name in the table's writing language (:mod:`.roots`) and no appeal
reinstated it, or when the table voted it out after an objection. An accepted word
written by k ≥ 2 players gives each of them k points; a player's repeated word counts once.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .fold import normalise
from .roots import parts, same_root
from .state import (
    KEPT,
    OBJECTED,
    OBJECTIONS,
    REINSTATED,
    ROOT,
    SYMBOLS,
    UPHELD,
    VOTE,
    VOTED,
    Announcement,
    Column,
    UnanimoState,
)
from .subjects import LANGUAGES, SUBJECTS

__all__ = [
    "BONUS",
    "THRESHOLDS",
    "appealable",
    "build",
    "card_points",
    "objectable",
    "reading_order",
    "refresh",
    "reinstated",
    "root_of",
    "subject_parts",
]

_OUTCOME: Final = {
    (False, True): OBJECTED,
    (False, False): KEPT,
    (True, False): REINSTATED,
    (True, True): UPHELD,
}
"""What a verdict (an appeal?, rejected?) decided for its word."""

THRESHOLDS: Final = {3: 12, 4: 15, 5: 18, 6: 20, 7: 22, 8: 24}
"""Points on one card that earn the bonus, by the number of players."""

BONUS: Final = 5


def reading_order(st: UnanimoState) -> tuple[int, ...]:
    """Every seat from the card's leader on, clockwise."""
    return _order(st.n, st.leader)


@cache
def _order(n: int, leader: int) -> tuple[int, ...]:
    return tuple((leader + i) % n for i in range(n))


@cache
def subject_parts(card: int, lang: str = "en") -> tuple[str, ...]:
    """The parts of subject card ``card``'s name in ``lang`` that the same-root rule
    compares (:func:`.roots.same_root` with the same ``lang``)."""
    name = SUBJECTS[card][LANGUAGES.index(lang)]
    return parts(normalise(name, True).bare, lang)


def root_of(bare: str, card: int, lang: str) -> str | None:
    """The part of subject card ``card``'s name in ``lang`` that the word ``bare`` (accents
    folded) shares a root with, or ``None``: the same-root rule at a table writing in
    ``lang``."""
    return same_root(bare, subject_parts(card, lang), lang)


def build(st: UnanimoState) -> tuple[tuple[Announcement, ...], tuple[Column | None, ...]]:
    """The reading of the current card from the words opened so far, and each seat's column
    (``None`` for a seat with no words opened)."""
    fold, lang, card = st.opts.fold_accents, st.opts.words, st.used[-1]
    voted = {key: _OUTCOME[appeal, rejected] for key, _, rejected, appeal in st.verdicts}
    first: dict[str, tuple[str, str, bool, int]] = {}  # key -> clean, bare, letters only, by
    keys: list[frozenset[str]] = [frozenset()] * st.n
    written: list[list[tuple[str, str]] | None] = [None] * st.n  # clean, key
    for seat in reading_order(st):
        words = st.words[seat]
        if words is None:
            continue
        mine = written[seat] = []
        for raw in words:
            w = normalise(raw, fold)
            mine.append((w.clean, w.key))
            if w.key not in first:
                first[w.key] = (w.clean, w.bare, w.letters_only, seat)
        keys[seat] = frozenset(key for _, key in mine)
    out: list[Announcement] = []
    index: dict[str, int] = {}
    for key, (clean, bare, letters_only, by) in first.items():
        writers = tuple(s for s in range(st.n) if key in keys[s])
        outcome = voted.get(key)
        why = (
            SYMBOLS if not letters_only
            else None if outcome == REINSTATED
            else ROOT if root_of(bare, card, lang) is not None
            else VOTED if outcome == OBJECTED
            else None
        )  # fmt: skip
        points = len(writers) if why is None and len(writers) >= 2 else 0
        index[key] = len(out)
        out.append(Announcement(clean, key, by, writers, points, why, outcome))
    columns = tuple(
        None if mine is None else tuple((clean, index[key]) for clean, key in mine)
        for mine in written
    )
    return tuple(out), columns


def refresh(st: UnanimoState) -> None:
    """Rebuild the derived reading (empty outside the objections and the vote)."""
    st.reading, st.columns = build(st) if st.phase in (OBJECTIONS, VOTE) else ((), ())


def card_points(reading: tuple[Announcement, ...], n: int) -> list[int]:
    """Each seat's points from the words of one card (before the bonus)."""
    points = [0] * n
    for a in reading:
        if a.points:
            for s in a.writers:
                points[s] += a.points
    return points


def objectable(st: UnanimoState) -> list[str]:
    """The keys a player may still object to, in reading order: accepted words that score
    (written by two players or more) and were not voted on yet this card (a word an appeal
    reinstated was voted on)."""
    voted = {v[0] for v in st.verdicts}
    return [a.key for a in st.reading if a.points and a.key not in voted]


def appealable(st: UnanimoState) -> list[str]:
    """The keys a player may still appeal for, in reading order: words the same-root rule
    rejected that were not voted on yet this card (an appeal is decided once)."""
    voted = {v[0] for v in st.verdicts}
    return [a.key for a in st.reading if a.rejected == ROOT and a.key not in voted]


def reinstated(st: UnanimoState) -> frozenset[str]:
    """The keys an appeal reinstated on the current card."""
    return frozenset(v[0] for v in st.verdicts if v[3] and not v[2])

"""Unanimo's refusals in the reader's language: the engine (:mod:`.rules`, :mod:`.fold`) says
why in English, the same words on every peer; the screen reads such a reason back against
the English templates below and shows it translated (a reason that does not read as one is
shown as the engine said it)."""

from __future__ import annotations

from lanparty.games.wording import read_back
from lanparty.i18n import N_

__all__ = ["REASONS", "humanize"]

REASONS = (
    N_("you have handed in your words already"),
    N_("the writing is over"),
    N_("no card yet"),
    N_("the table is drawing the subject card; wait for it"),
    N_("there is no vote now"),
    N_("the player who objected does not vote"),
    N_("the player who appealed does not vote"),
    N_("you have voted already"),
    N_("a vote is under way; objections and appeals wait for it"),
    N_("objections and appeals come after the reading"),
    N_("you said you were done with objections and appeals for this card"),
    N_("{word} is not a scoring word that can still be objected to"),
    N_("{word} is not a word the same-root rule rejected that can still be appealed for"),
    N_("at most {n} words, not {count}"),
    N_("word {n} ({word}) {why}"),
    N_("is longer than {n} characters as typed"),
    N_("has an accent (U+{code}) that makes no letter this table knows"),
    N_(
        "has a character this table cannot compare (U+{code}): use Latin letters (Polish and "
        "Spanish ones included), spaces, hyphens, apostrophes"
    ),
    N_("is empty"),
    N_("is longer than {n} characters"),
)
"""The engine's reasons (:mod:`.rules`, :mod:`.fold`) that a player may meet, as English
templates (the msgids); :func:`humanize` shows them in the reader's language."""
_KEPT = frozenset({"n", "count", "code", "word"})


def _reason_word(field: str, value: str) -> str | None:
    if field in _KEPT:
        return value
    if field == "why":
        return humanize(value)
    return None


def humanize(reason: str) -> str:
    """An engine reason (English) in the reader's language; as the engine said it if it
    does not read as one of :data:`REASONS`."""
    said = read_back(reason, REASONS, _reason_word)
    return reason if said is None else said

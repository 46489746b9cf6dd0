"""Unanimo bots: they write words from the built-in association table (:mod:`.associations`).

A bot reads only its seat's view. While writing, ``legal`` holds only the template
``("words", ())``: a bot returns its own words (the table checks them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from protocol.contract import Move, Plain

from .associations import ASSOCIATIONS
from .fold import normalise
from .rules import MAX_WORDS


def _subject(view: Mapping[str, Plain]) -> str:
    subject = view.get("subject")
    if not isinstance(subject, dict) or not isinstance(subject.get("en"), str):
        raise TypeError(f"view field 'subject' has no English name: {subject!r}")
    return str(subject["en"])


def _ideas(view: Mapping[str, Plain]) -> tuple[str, ...]:
    return ASSOCIATIONS.get(_subject(view), ())


def _objected(view: Mapping[str, Plain]) -> str:
    vote = view.get("vote")
    if not isinstance(vote, dict) or not isinstance(vote.get("key"), str):
        raise TypeError(f"view field 'vote' names no word: {vote!r}")
    return str(vote["key"])


#: The associations a heuristic bot always writes (the most common); each later one it
#: writes with probability ``_LATER``, so bots agree on the obvious and differ after.
_SURE = 4
_LATER = 0.6


class HeuristicBot:
    """Writes the most common associations of the subject (the first four always, each
    later one often), raises no objection, and keeps a word objected to if it would have
    thought of it (rejects it otherwise)."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """Random only in which less common words it writes, from ``rng``."""
        phase = view["phase"]
        if phase == "writing":
            ideas = _ideas(view)
            later = [w for w in ideas[_SURE:] if rng.random() < _LATER]
            return ("words", (*ideas[:_SURE], *later)[:MAX_WORDS])
        if phase == "vote":
            fold = view["fold_accents"] is True
            known = {normalise(w, fold).key for w in _ideas(view)}
            return ("vote", "keep" if _objected(view) in known else "reject")
        return ("done",) if ("done",) in legal else (legal[0] if legal else None)


# Words that the rules reject, for the random bot to try now and then.
_ODD = ("42", "a+b", "100%", "R2-D2", "#1")


class RandomBot:
    """Writes up to eight random associations (sometimes repeated, in odd case or spacing,
    or a word the rules reject), objects now and then, votes at random."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """Random, from ``rng`` only."""
        phase = view["phase"]
        if phase == "writing":
            return ("words", tuple(self._word(view, rng) for _ in range(rng.randint(0, 8))))
        if not legal:
            return None
        if None in legal and rng.random() < 0.3:
            return None
        if phase == "objections":
            objections = [m for m in legal if m is not None and m[0] == "object"]
            if objections and rng.random() < 0.15:
                return objections[int(rng.random() * len(objections))]
            return ("done",)
        moves = [m for m in legal if m is not None]
        return moves[int(rng.random() * len(moves))] if moves else None

    def _word(self, view: dict[str, Plain], rng: random.Random) -> str:
        ideas = _ideas(view)
        roll = rng.random()
        if roll < 0.04 or not ideas:
            return _ODD[int(rng.random() * len(_ODD))]
        if roll < 0.07:  # the subject itself, in one of its languages: same root
            subject = view["subject"]
            assert isinstance(subject, dict)
            return str(subject[("en", "pl", "es")[int(rng.random() * 3)]])
        word = ideas[int(rng.random() * len(ideas))]
        if roll < 0.15:
            return f"  {word.upper()} "
        return word

"""Unanimo bots: they write words from the built-in association table (:mod:`.associations`)
in the table's writing language (the view's ``words``).

A bot reads only its seat's view. While writing, ``legal`` holds only the template
``("words", ())``: a bot returns its own words (the table checks them).

On an appeal against the same-root rule, a heuristic bot judges the word itself
(:func:`clearly_same_root`): it keeps the rejection when the word plainly holds the subject's
name (the name whole at its start or end, or the same stem) and votes to reinstate it
otherwise (the rule matched a shorter head or a piece of a compound subject, where it may be
wrong); it appeals for such a word itself during the objections.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from protocol.contract import Move, Plain

from .associations import ideas
from .fold import normalise
from .roots import parts, stems
from .rules import MAX_WORDS
from .subjects import LANGUAGES


def _language(view: Mapping[str, Plain]) -> str:
    lang = view.get("words", "en")
    if lang not in LANGUAGES:
        raise TypeError(f"view field 'words' is no writing language: {lang!r}")
    return str(lang)


def _card(view: Mapping[str, Plain]) -> int:
    subject = view.get("subject")
    card = subject.get("card") if isinstance(subject, dict) else None
    if type(card) is not int:
        raise TypeError(f"view field 'subject' names no card: {subject!r}")
    return card


def _ideas(view: Mapping[str, Plain]) -> tuple[str, ...]:
    return ideas(_card(view), _language(view))


def clearly_same_root(word: str, subject: str, lang: str) -> bool:
    """Whether ``word`` plainly shares the root of ``subject`` (its name in ``lang``): a part
    of the word has a stem of a part of the name, or begins or ends with a part of the name
    whole. A heuristic bot keeps the same-root rule's rejection of such a word, and votes
    to reinstate any other."""
    mine = parts(normalise(word, True).bare, lang)
    theirs = parts(normalise(subject, True).bare, lang)
    return any(
        stems(w, lang) & stems(t, lang) or w.startswith(t) or w.endswith(t)
        for w in mine for t in theirs
    )  # fmt: skip


def _subject_name(view: Mapping[str, Plain]) -> str:
    subject = view.get("subject")
    lang = _language(view)
    if not isinstance(subject, dict) or not isinstance(subject.get(lang), str):
        raise TypeError(f"view field 'subject' has no name in {lang}: {subject!r}")
    return str(subject[lang])


def _word(view: Mapping[str, Plain], key: str) -> str:
    """The word with ``key`` as the reading shows it (the key itself if it is not there)."""
    for a in view.get("reading") or ():  # type: ignore[union-attr]
        if isinstance(a, dict) and a.get("key") == key:
            return str(a.get("word"))
    return key


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
    """Writes the most common associations of the subject in the table's language (the first
    four always, each later one often); raises no objection; keeps a word objected to if it
    would have thought of it (rejects it otherwise); appeals for a word the same-root rule
    rejected unless it plainly holds the subject's name, and votes on appeals alike."""

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
            vote = view["vote"]
            if isinstance(vote, dict) and vote.get("appeal") is True:
                said = _word(view, _objected(view))
                plain = clearly_same_root(said, _subject_name(view), _language(view))
                return ("vote", "reject" if plain else "keep")
            fold = view["fold_accents"] is True
            known = {normalise(w, fold).key for w in _ideas(view)}
            return ("vote", "keep" if _objected(view) in known else "reject")
        if phase == "objections" and ("done",) in legal:
            for move in legal:
                if move is not None and move[0] == "appeal":
                    said = _word(view, str(move[1]))
                    if not clearly_same_root(said, _subject_name(view), _language(view)):
                        return move
        return ("done",) if ("done",) in legal else (legal[0] if legal else None)


# Words that the rules reject, for the random bot to try now and then.
_ODD = ("42", "a+b", "100%", "R2-D2", "#1")


class RandomBot:
    """Writes up to eight random associations in the table's language (sometimes repeated,
    in odd case or spacing, or a word the rules reject), objects and appeals now and then,
    votes at random."""

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
            objections = [m for m in legal if m is not None and m[0] in ("object", "appeal")]
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
        if roll < 0.07:  # the subject itself: same root
            return _subject_name(view)
        word = ideas[int(rng.random() * len(ideas))]
        if roll < 0.15:
            return f"  {word.upper()} "
        return word

"""What the table shows: which input is due, the view of one seat, the outcome."""

from __future__ import annotations

from protocol.contract import Commit, GameOver, Open, Outcome, Plain, Status, TableOps, Turn

from .fold import NORMALISATION_VERSION
from .reading import THRESHOLDS, appealable, objectable, reading_order
from .rules import may_close, missing, to_open, voters_left
from .state import (
    BALLOTS,
    NOT_VOTED,
    OBJECTIONS,
    OVER,
    PHASE_NAMES,
    VOTE,
    WRITING,
    Announcement,
    Column,
    UnanimoState,
)
from .subjects import LANGUAGES, SUBJECTS


def status(st: UnanimoState) -> Status:
    """The subject coin; the sealed writing and its opening; the objections and votes
    (every player who may act is asked at once: the first in reading order, the others
    out of turn); or the end."""
    if st.requests:
        return TableOps(tuple(st.requests))
    phase = st.phase
    if phase == WRITING:
        return Commit(missing(st), st.opts.timer, st.leader if may_close(st) else None)
    if phase == OBJECTIONS:
        waiting = tuple(s for s in reading_order(st) if not st.done[s])
        return Turn(waiting[0], waiting[1:], free=True)  # each says done for itself
    if phase == VOTE:
        left = voters_left(st)
        return Turn(left[0], left[1:], free=True)  # each votes for itself
    if phase == OVER:
        return GameOver(outcome(st))
    return Open(to_open(st))


def outcome(st: UnanimoState) -> Outcome:
    """Totals, each card's scores (word points plus bonus) and, once over, the winners
    (every player with the highest total)."""
    return Outcome(
        totals=tuple(st.scores),
        rounds=tuple(
            tuple(p + b for p, b in zip(c.points, c.bonus, strict=True)) for c in st.sheet
        ),
        winners=tuple(st.winners),
        finished=st.phase == OVER,
    )


def _announcement(a: Announcement) -> dict[str, Plain]:
    return {
        "word": a.word,
        "key": a.key,
        "by": a.by,
        "writers": list(a.writers),
        "points": a.points,
        "rejected": a.rejected,
        "voted": a.voted,
    }


def _subject(card: int) -> dict[str, Plain]:
    return {"card": card, **dict(zip(LANGUAGES, SUBJECTS[card], strict=True))}


def view(st: UnanimoState, seat: int | None) -> dict[str, Plain]:
    """Everything ``seat`` may know (``None``: a spectator): all of it is public. No view
    ever holds a sealed word: the state learns words only when they are opened.

    ``reading`` is the current card's reading once every word is open (during objections
    and votes), else the last finished card's (``reading_card`` says which card, or
    ``None``): a list of announcements in reading order, each ``{"word", "key", "by",
    "writers", "points", "rejected", "voted"}`` (``rejected``: ``None``, ``"symbols"``,
    ``"root"`` or ``"vote"``; ``voted``, what a vote on it decided: ``None``, no vote;
    ``"objected"``, an objection rejected it; ``"kept"``, an objection was voted down;
    ``"reinstated"``, an appeal won and the word scores; ``"upheld"``, an appeal was voted
    down). ``columns[seat]`` is that seat's words in the order written, each
    ``(word, index of its announcement)`` (``None``: no words), so a screen can step through
    the reading reader by reader, word by word, announcing a word where its announcement's
    ``by`` is the reader for the first time. ``sheet`` has one row per finished card.

    ``words`` is the table's writing language (the subject is read and written in it);
    ``subject`` names the card in every language. ``vote`` (during a vote) says whether it
    is on an objection or an ``appeal``; ``verdicts`` lists this card's votes, each
    ``{"key", "by", "rejected", "appeal"}``; ``appealable`` the words a player may still
    appeal for.
    """
    phase = st.phase
    n = st.n
    columns: tuple[Column | None, ...]
    if st.reading:
        reading, columns, reading_card = st.reading, st.columns, len(st.sheet)
    elif st.sheet:
        last = st.sheet[-1]
        reading, columns, reading_card = last.reading, last.columns, len(st.sheet) - 1
    else:
        reading, columns, reading_card = (), (), None
    v: dict[str, Plain] = {
        "seat": seat,
        "players": n,
        "phase": PHASE_NAMES[phase],
        "card": len(st.sheet) + (phase != OVER),
        "cards": st.opts.cards,
        "leader": st.leader,
        "order": list(reading_order(st)),
        "subject": _subject(st.used[-1]) if st.used and not st.requests else None,
        "timer": st.opts.timer,
        "words": st.opts.words,
        "fold_accents": st.opts.fold_accents,
        "norm": NORMALISATION_VERSION,
        "threshold": THRESHOLDS[n],
        "closer": st.leader if may_close(st) else None,
        "handed_in": list(st.handed),
        "absent": list(st.absent),
        "writing": list(missing(st)),
        "opened": [w is not None for w in st.words],
        "reading": [_announcement(a) for a in reading],
        "columns": list(columns),  # immutable: tuples of (word, index) pairs
        "reading_card": reading_card,
        "objectable": list[Plain](objectable(st)) if phase == OBJECTIONS else [],
        "appealable": list[Plain](appealable(st)) if phase == OBJECTIONS else [],
        "done": list(st.done),
        "vote": None,
        "verdicts": [{"key": k, "by": s, "rejected": r, "appeal": a} for k, s, r, a in st.verdicts],
        "sheet": [
            {
                "subject": c.subject,
                "leader": c.leader,
                "absent": list(c.absent),
                "points": list(c.points),
                "bonus": list(c.bonus),
                "total": [p + b for p, b in zip(c.points, c.bonus, strict=True)],
            }
            for c in st.sheet
        ],
        "scores": list(st.scores),
        "winners": list(st.winners),
    }
    if phase == VOTE:
        v["vote"] = {
            "key": st.objected,
            "by": st.objector,
            "appeal": st.appeal,
            "ballots": [None if b == NOT_VOTED else BALLOTS[b] for b in st.ballots],
            "waiting": list(voters_left(st)),
            "needed": (n - 1) // 2 + 1,
        }
    return v

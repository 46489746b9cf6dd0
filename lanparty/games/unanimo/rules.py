"""Unanimo moves and table results: ``check`` (the single validator), ``apply``, the
legal-move lister, ``resolve`` and the card flow.

Moves (canonical tuples):

* ``("words", (w1, w2, ...))`` — up to 8 words, *sealed*: committed while the table writes
  and opened in reading order once writing is over. ``("words", ())`` hands in nothing.
* ``("object", key)`` — during the objections, object to the scoring word with this key
  (``key`` as the reading shows it); every other player then votes, and a strict majority of
  them voting ``reject`` rejects it.
* ``("appeal", key)`` — during the objections, appeal against the same-root rule's rejection
  of the word with this key; every other player then votes, and a strict majority of them
  voting ``keep`` reinstates it (it then scores as any word, and is not voted on again).
* ``("vote", "keep" | "reject")`` — a voter's ballot on the word objected to or appealed
  for: keep the word in the reading, or leave it out.
* ``("done",)`` — no (more) objections or appeals from this player this card.

Each word is voted on at most once a card. The writing closes when everyone has handed in,
or by the leader once at least half the table has (with a timer too: the leader's program
closes it when the time is up, and not before half the table has handed in).
"""

from __future__ import annotations

from protocol.contract import (
    BadResult,
    CoinResult,
    Committed,
    CommitTimeout,
    IllegalMove,
    JointCoin,
    Move,
    Result,
    excerpt,
)

from .fold import problem
from .reading import (
    BONUS,
    THRESHOLDS,
    appealable,
    build,
    card_points,
    objectable,
    reading_order,
)
from .state import (
    BALLOTS,
    KEEP,
    NOT_VOTED,
    OBJECTIONS,
    OPENING,
    OVER,
    REJECT,
    SUBJECT,
    VOTE,
    WRITING,
    Card,
    UnanimoState,
)
from .subjects import SUBJECTS

MAX_WORDS = 8
_DONE: Move = ("done",)
_NOTHING: Move = ("words", ())
_VOTES: tuple[Move, ...] = (("vote", "keep"), ("vote", "reject"))


# --------------------------------------------------------------------------- flow


def begin(st: UnanimoState) -> None:
    """Queue the first card's coin."""
    _start_card(st)


def _start_card(st: UnanimoState) -> None:
    n = st.n
    st.phase = SUBJECT
    st.leader = len(st.sheet) % n  # the host leads the first card, then clockwise
    st.handed = [False] * n
    st.absent = [False] * n
    st.words = [None] * n
    st.done = [False] * n
    st.objector, st.objected, st.appeal = -1, "", False
    st.ballots = [NOT_VOTED] * n
    st.verdicts = []
    st.reading, st.columns = (), ()
    st.requests.append(JointCoin(len(SUBJECTS) - len(st.used), "subject"))


def unused(st: UnanimoState) -> list[int]:
    """The cards not played yet, in card order: a coin's value ``v`` picks the v-th."""
    played = set(st.used)
    return [i for i in range(len(SUBJECTS)) if i not in played]


def missing(st: UnanimoState) -> tuple[int, ...]:
    """The seats still to hand in words (in reading order), while writing."""
    if st.phase != WRITING:
        return ()
    return tuple(s for s in reading_order(st) if not st.handed[s])


def to_open(st: UnanimoState) -> tuple[int, ...]:
    """The seats that handed in and have not opened yet, in reading order."""
    if st.phase != OPENING:
        return ()
    return tuple(s for s in reading_order(st) if st.handed[s] and st.words[s] is None)


def may_close(st: UnanimoState) -> bool:
    """May the leader close the writing now? Once at least half the table has handed in,
    with a timer or without (with one, the leader's program closes it when the time is up,
    or as soon as half the table has handed in after that)."""
    if st.phase != WRITING:
        return False
    return 2 * sum(st.handed) >= st.n


def _after_writing(st: UnanimoState) -> None:
    st.phase = OPENING
    if not to_open(st):
        _after_opening(st)


def _after_opening(st: UnanimoState) -> None:
    st.phase = OBJECTIONS
    st.reading, st.columns = build(st)
    if not objectable(st) and not appealable(st):
        _score(st)


def _score(st: UnanimoState) -> None:
    reading = st.reading
    points = card_points(reading, st.n)
    need = THRESHOLDS[st.n]
    bonus = [BONUS if p >= need else 0 for p in points]
    absent = tuple(s for s in range(st.n) if st.absent[s])
    card = Card(st.used[-1], st.leader, absent, tuple(points), tuple(bonus), reading, st.columns)
    st.sheet.append(card)
    for s in range(st.n):
        st.scores[s] += points[s] + bonus[s]
    st.reading, st.columns = (), ()
    if len(st.sheet) >= st.opts.cards:
        best = max(st.scores)
        st.winners = [s for s in range(st.n) if st.scores[s] == best]
        st.phase = OVER
        return
    _start_card(st)


def resolve(st: UnanimoState, result: Result) -> None:
    """Fold in a table result: the subject coin, a seat that handed in, or the writing
    closed early. Raise ``BadResult`` (state unchanged) if it is not due now."""
    if isinstance(result, CoinResult):
        if not st.requests or not 0 <= result.value < st.requests[0].n:
            raise BadResult(f"no coin of that range is pending: {excerpt(result.value)}")
        del st.requests[0]
        st.used.append(unused(st)[result.value])
        st.phase = WRITING
    elif isinstance(result, Committed):
        if result.seat not in missing(st):
            raise BadResult(f"seat {result.seat} has no words to hand in now")
        st.handed[result.seat] = True
        if all(st.handed):
            _after_writing(st)
    elif isinstance(result, CommitTimeout):
        if st.phase != WRITING or not may_close(st):
            raise BadResult("the writing cannot be closed now")
        if set(result.seats) != set(missing(st)) or len(result.seats) != len(missing(st)):
            raise BadResult(f"the seats still writing are {list(missing(st))}")
        for s in result.seats:
            st.absent[s] = True
        _after_writing(st)
    else:
        raise BadResult(f"unanimo never asks for {type(result).__name__}")
    st.step += 1


# --------------------------------------------------------------------------- check


def check_words(words: object) -> tuple[str, ...]:
    """The words of a ``("words", ...)`` move if the table can take them; else raise
    ``IllegalMove`` saying which word is wrong and why."""
    if type(words) is not tuple or not all(type(w) is str for w in words):
        raise IllegalMove("words are handed in as a list of texts")
    if len(words) > MAX_WORDS:
        raise IllegalMove(f"at most {MAX_WORDS} words, not {len(words)}")
    for i, w in enumerate(words):
        why = problem(w)
        if why is not None:
            raise IllegalMove(f"word {i + 1} ({excerpt(w)}) {why}")
    return words


def check(st: UnanimoState, seat: int, move: Move) -> None:  # noqa: C901
    """Raise ``IllegalMove`` with the reason unless ``seat`` may make ``move`` now. A sealed
    ``words`` move is judged alike when it is committed and when it is opened."""
    if type(move) is not tuple or not move:
        raise IllegalMove("a move is a non-empty tuple")
    if type(seat) is not int or not 0 <= seat < st.n:
        raise IllegalMove(f"there is no seat {excerpt(seat)}")
    if st.requests:
        raise IllegalMove("the table is drawing the subject card; wait for it")
    name, phase = move[0], st.phase
    if name == "words":
        if len(move) != 2:
            raise IllegalMove("hand in ('words', (word, ...))")
        if phase == WRITING:
            if st.handed[seat]:
                raise IllegalMove("you have handed in your words already")
        elif phase != OPENING or not st.handed[seat] or st.words[seat] is not None:
            raise IllegalMove("the writing is over" if phase != SUBJECT else "no card yet")
        check_words(move[1])
        return
    if name == "object":
        if len(move) != 2 or type(move[1]) is not str:
            raise IllegalMove("object to a word: ('object', word)")
        _check_objections(st, seat)
        if move[1] not in objectable(st):
            raise IllegalMove(
                f"{excerpt(move[1])} is not a scoring word that can still be objected to"
            )
        return
    if name == "appeal":
        if len(move) != 2 or type(move[1]) is not str:
            raise IllegalMove("appeal for a word: ('appeal', word)")
        _check_objections(st, seat)
        if move[1] not in appealable(st):
            raise IllegalMove(
                f"{excerpt(move[1])} is not a word the same-root rule rejected that can still "
                "be appealed for"
            )
        return
    if name == "done":
        if len(move) != 1:
            raise IllegalMove("'done' takes no arguments")
        _check_objections(st, seat)
        return
    if name == "vote":
        if len(move) != 2 or type(move[1]) is not str or move[1] not in BALLOTS:
            raise IllegalMove("vote ('vote', 'keep') or ('vote', 'reject')")
        if phase != VOTE:
            raise IllegalMove("there is no vote now")
        if seat == st.objector:
            raise IllegalMove(
                "the player who appealed does not vote" if st.appeal
                else "the player who objected does not vote"
            )  # fmt: skip
        if st.ballots[seat] != NOT_VOTED:
            raise IllegalMove("you have voted already")
        return
    raise IllegalMove(f"unknown move {excerpt(name)}")


def _check_objections(st: UnanimoState, seat: int) -> None:
    if st.phase == VOTE:
        raise IllegalMove("a vote is under way; objections and appeals wait for it")
    if st.phase != OBJECTIONS:
        raise IllegalMove("objections and appeals come after the reading")
    if st.done[seat]:
        raise IllegalMove("you said you were done with objections and appeals for this card")


# --------------------------------------------------------------------------- apply


def apply(st: UnanimoState, seat: int, move: Move) -> None:
    """Apply a checked move in place."""
    st.step += 1
    name = move[0]
    if name == "words":
        st.words[seat] = move[1]  # type: ignore[assignment]
        if not to_open(st):
            _after_opening(st)
    elif name == "done":
        st.done[seat] = True
        if all(st.done):
            _score(st)
    elif name in ("object", "appeal"):
        st.phase = VOTE
        st.objector = seat
        st.objected = str(move[1])
        st.appeal = name == "appeal"
        st.ballots = [NOT_VOTED] * st.n
    else:  # vote
        st.ballots[seat] = BALLOTS.index(str(move[1]))
        _count(st)


def _count(st: UnanimoState) -> None:
    """Settle the vote as soon as its result is certain: an objection rejects the word with
    a strict majority of the players other than the objector voting ``reject``; an appeal
    reinstates it with a strict majority of the players other than the appellant voting
    ``keep``."""
    voters = st.n - 1
    wanted = KEEP if st.appeal else REJECT  # the ballot that changes the word's fate
    yes = sum(1 for s, b in enumerate(st.ballots) if b == wanted and s != st.objector)
    cast = sum(1 for s, b in enumerate(st.ballots) if b != NOT_VOTED and s != st.objector)
    if 2 * yes > voters:
        carried = True
    elif 2 * (yes + voters - cast) <= voters:
        carried = False
    else:
        return
    rejected = not carried if st.appeal else carried
    st.verdicts.append((st.objected, st.objector, rejected, st.appeal))
    st.objector, st.objected, st.appeal = -1, "", False
    st.ballots = [NOT_VOTED] * st.n
    st.phase = OBJECTIONS
    st.reading, st.columns = build(st)
    if all(st.done) or (not objectable(st) and not appealable(st)):
        _score(st)


# --------------------------------------------------------------------------- listing


def voters_left(st: UnanimoState) -> tuple[int, ...]:
    """The voters who have not voted yet, in reading order."""
    if st.phase != VOTE:
        return ()
    return tuple(s for s in reading_order(st) if s != st.objector and st.ballots[s] == NOT_VOTED)


def legal_moves(st: UnanimoState, seat: int) -> list[Move]:
    """What ``seat`` can do now that can be listed: while writing, handing in nothing
    (the template of the words move: free words cannot be listed, ``check`` rules them);
    ``done``, an objection to each word that can take one and an appeal for each word the
    same-root rule rejected; the two ballots."""
    if st.requests or not 0 <= seat < st.n:
        return []
    phase = st.phase
    if phase == WRITING:
        return [] if st.handed[seat] else [_NOTHING]
    if phase == OBJECTIONS:
        if st.done[seat]:
            return []
        return [
            _DONE,
            *(("object", key) for key in objectable(st)),
            *(("appeal", key) for key in appealable(st)),
        ]
    if phase == VOTE:
        return list(_VOTES) if seat in voters_left(st) else []
    return []


__all__ = [
    "MAX_WORDS",
    "apply",
    "begin",
    "check",
    "check_words",
    "legal_moves",
    "may_close",
    "missing",
    "resolve",
    "to_open",
    "unused",
    "voters_left",
]

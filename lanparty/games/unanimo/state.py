"""The Unanimo state: one mutable object per peer copy, with a canonical plain encoding.

Nothing in it is secret: the subject is drawn by a joint coin and shown at once, and the
words reach the state only when they are opened (until then the table holds each sealed
move; the state knows only who handed in). So every copy is the same, and so is every view
but for its ``seat``.

The current card's *reading* (:class:`Announcement` s, and each seat's column: its words in
order, each with the announcement it joined) is derived from the opened words, the subject,
the table's writing language and the votes on objections and appeals; it is kept as a cache
(``reading``, ``columns``) and rebuilt on decode, so the encoding holds only what it is
derived from.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from protocol.contract import GameError, JointCoin, Plain

from ..encoding import decoding
from .options import UnanimoOptions

# Phases.
SUBJECT, WRITING, OPENING, OBJECTIONS, VOTE, OVER = range(6)
PHASE_NAMES = ("subject", "writing", "opening", "objections", "vote", "over")

# Why a word was rejected (``Announcement.rejected``): a sign or digit in it, the subject's
# root (the same-root rule), or the table's vote on an objection.
SYMBOLS, ROOT, VOTED = "symbols", "root", "vote"

# What a vote decides: an objection to a scoring word, or an appeal against the same-root
# rule's rejection.
OBJECTION, APPEAL = "object", "appeal"

# What a vote on a word decided (``Announcement.voted``): an objection rejected the word
# (it is then ``rejected`` as VOTED) or was voted down; an appeal reinstated the word or
# was voted down (the word stays rejected for its root).
OBJECTED, KEPT, REINSTATED, UPHELD = "objected", "kept", "reinstated", "upheld"
VOTE_OUTCOMES = (OBJECTED, KEPT, REINSTATED, UPHELD)

# A ballot in an objection vote.
NOT_VOTED, KEEP, REJECT = -1, 0, 1
BALLOTS = ("keep", "reject")


class Announcement(NamedTuple):
    """One new word of the reading: as its first reader wrote it (``word``), what matching
    compared (``key``), who read it out (``by``), everyone who wrote it (``writers``, in seat
    order), the points it gives each of them, why it was rejected (``None``: accepted) and
    what the table's vote on it decided (``voted``: ``None`` if none was held, else one of
    :data:`VOTE_OUTCOMES`)."""

    word: str
    key: str
    by: int
    writers: tuple[int, ...]
    points: int
    rejected: str | None
    voted: str | None = None


Column = tuple[tuple[str, int], ...]
"""One seat's words in the order written: each as written (tidied) with the index of the
announcement it joined."""


class Card(NamedTuple):
    """A finished card on the score sheet: the subject, its leader, the seats that handed in
    nothing, each seat's word points and bonus, and the whole reading with every column
    (``None`` for a seat that handed in nothing)."""

    subject: int
    leader: int
    absent: tuple[int, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]
    reading: tuple[Announcement, ...]
    columns: tuple[Column | None, ...]


class UnanimoState:
    """Mutable game state; see ``docs/engine.md`` for each field's meaning."""

    __slots__ = (
        "absent",
        "appeal",
        "ballots",
        "columns",
        "done",
        "handed",
        "leader",
        "n",
        "objected",
        "objector",
        "opts",
        "phase",
        "reading",
        "requests",
        "scores",
        "sheet",
        "step",
        "used",
        "verdicts",
        "winners",
        "words",
    )

    def __init__(self, n: int, opts: UnanimoOptions) -> None:
        self.n = n
        self.opts = opts
        self.step = 0  # inputs applied so far (moves and results)
        self.phase = SUBJECT
        self.requests: list[JointCoin] = []
        self.used: list[int] = []  # subject cards in play order; the last one is current
        self.leader = 0
        self.handed = [False] * n  # handed in this card's words (a commitment is logged)
        self.absent = [False] * n  # the writing closed before they handed in
        self.words: list[tuple[str, ...] | None] = [None] * n  # as opened, None until then
        self.done = [False] * n  # no (more) objections from this seat
        self.objector = -1  # the seat whose objection is being voted on
        self.objected = ""  # the key of the word objected to (or appealed for)
        self.appeal = False  # the vote is on an appeal, not an objection
        self.ballots = [NOT_VOTED] * n
        # This card's votes: (key, the seat that asked, rejected, an appeal?). An objection
        # rejected or an appeal lost leaves the word out; an appeal won reinstates it.
        self.verdicts: list[tuple[str, int, bool, bool]] = []
        self.reading: tuple[Announcement, ...] = ()  # derived: see the module's docstring
        self.columns: tuple[Column | None, ...] = ()  # derived too
        self.sheet: list[Card] = []
        self.scores = [0] * n
        self.winners: list[int] = []


# --------------------------------------------------------------------------- encoding


def _announcement_plain(a: Announcement) -> list[Plain]:
    return [a.word, a.key, a.by, list(a.writers), a.points, a.rejected, a.voted]


def _announcement(v: Any) -> Announcement:
    word, key, by, writers, points, rejected, voted = v
    return Announcement(str(word), str(key), int(by), tuple(int(s) for s in writers),
                        int(points), None if rejected is None else str(rejected),
                        None if voted is None else str(voted))  # fmt: skip


def _columns_plain(columns: tuple[Column | None, ...]) -> list[Plain]:
    return [None if c is None else [[w, i] for w, i in c] for c in columns]


def _columns(v: Any) -> tuple[Column | None, ...]:
    return tuple(None if c is None else tuple((str(w), int(i)) for w, i in c) for c in v)


def encode(st: UnanimoState) -> dict[str, Plain]:
    """Canonical plain encoding: equal states give equal values, key order included."""
    return {
        "game": "unanimo",
        "n": st.n,
        "options": st.opts.as_plain(),
        "step": st.step,
        "phase": st.phase,
        "requests": [[r.n, r.purpose] for r in st.requests],
        "used": list(st.used),
        "leader": st.leader,
        "handed": list(st.handed),
        "absent": list(st.absent),
        "words": [None if w is None else list(w) for w in st.words],
        "done": list(st.done),
        "objector": st.objector,
        "objected": st.objected,
        "appeal": st.appeal,
        "ballots": list(st.ballots),
        "verdicts": [[k, s, r, a] for k, s, r, a in st.verdicts],
        "sheet": [
            [
                c.subject,
                c.leader,
                list(c.absent),
                list(c.points),
                list(c.bonus),
                [_announcement_plain(a) for a in c.reading],
                _columns_plain(c.columns),
            ]
            for c in st.sheet
        ],
        "scores": list(st.scores),
        "winners": list(st.winners),
    }


def decode(value: Plain) -> UnanimoState:
    """Inverse of ``encode`` but for the derived reading (``reading.refresh`` rebuilds it:
    ``game.decode_state`` does both); raise ``GameError`` if the value is not an Unanimo
    state."""
    with decoding("unanimo", value) as v:
        st = UnanimoState(int(v["n"]), UnanimoOptions(**v["options"]))
        st.step, st.phase, st.leader = int(v["step"]), int(v["phase"]), int(v["leader"])
        st.requests = [JointCoin(int(n), str(p)) for n, p in v["requests"]]
        st.used = [int(i) for i in v["used"]]
        st.handed = [bool(x) for x in v["handed"]]
        st.absent = [bool(x) for x in v["absent"]]
        st.words = [None if w is None else tuple(str(x) for x in w) for w in v["words"]]
        st.done = [bool(x) for x in v["done"]]
        st.objector, st.objected = int(v["objector"]), str(v["objected"])
        st.appeal = bool(v["appeal"])
        st.ballots = [int(b) for b in v["ballots"]]
        st.verdicts = [(str(k), int(s), bool(r), bool(a)) for k, s, r, a in v["verdicts"]]
        st.sheet = [
            Card(int(c[0]), int(c[1]), tuple(int(s) for s in c[2]), tuple(int(p) for p in c[3]),
                 tuple(int(b) for b in c[4]), tuple(_announcement(a) for a in c[5]),
                 _columns(c[6]))
            for c in v["sheet"]
        ]  # fmt: skip
        st.scores = [int(s) for s in v["scores"]]
        st.winners = [int(s) for s in v["winners"]]
    per_seat = (st.handed, st.absent, st.words, st.done, st.ballots, st.scores)
    if any(len(x) != st.n for x in per_seat) or not 0 <= st.phase <= OVER:
        raise GameError("malformed unanimo state: per-seat lists do not match the seat count")
    return st

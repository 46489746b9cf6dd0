"""The KaTO state: one mutable object per peer copy, with a canonical plain encoding.

Cards are *handles* (ints, unique within a game). ``card_of`` maps the handles whose identity
this copy knows to card codes; everything else (the draw pile, other players' hands) is
handles only. A copy never holds a secret it was not told.
"""

from __future__ import annotations

from typing import Any

from protocol.contract import (
    GameError,
    Plain,
    Request,
)

from ..encoding import (
    decode_fields,
    decoding,
    encode_fields,
    request_from_plain,
    request_to_plain,
)
from .options import KatoOptions

# Phases.
SETUP, COLOUR_CHOICE, PLAY, DRAWN, VERDICT, SCORING, OVER = range(7)
PHASE_NAMES = ("setup", "name-colour", "play", "drawn", "verdict", "scoring", "over")

# What the current seat faces (``pend``): nothing, a Skip aimed at it (reflecting cones only),
# a Draw Two total, a Wild Draw Four total (challengeable).
P_NONE, P_SKIP, P_DRAW, P_W4 = range(4)
PEND_NAMES = ("none", "skip", "draw", "wild-draw-four")

# What to do once the queued table requests and owed draws are done (``then``).
T_NONE, T_DRAWN, T_SCORE, T_SCORED = range(4)

# A Wild Draw Four record: [step, seat, colour at play, hand handles after the play,
# verdict (-1 none, 0 innocent, 1 guilty), verdict step, challenger].
W_STEP, W_SEAT, W_COLOUR, W_HANDLES, W_VERDICT, W_VSTEP, W_BY = range(7)


class KatoState:
    """Mutable game state; see ``docs/engine.md`` for each field's meaning."""

    __slots__ = (
        "aggressor",
        "card_of",
        "colour",
        "current",
        "deck",
        "direction",
        "discard",
        "drawn",
        "first",
        "hands",
        "kato",
        "n",
        "next_handle",
        "opts",
        "owed",
        "pend",
        "phase",
        "reflect",
        "requests",
        "round_scores",
        "scores",
        "seen",
        "showing",
        "skips",
        "step",
        "then",
        "total",
        "wd4",
        "winners",
    )

    def __init__(self, n: int, opts: KatoOptions) -> None:
        self.n = n
        self.opts = opts
        self.reflect = opts.cones > 0 and opts.cone_mode == "reflect"
        self.step = 0  # inputs applied so far (moves and results)
        self.phase = SETUP
        self.requests: list[Request] = []
        self.then = T_NONE
        self.first = 0  # who started this round; the dealer is the seat before
        self.current = 0
        self.direction = 1
        self.colour = 4
        self.deck: list[int] = []  # handles, top of the pile at the end
        self.discard: list[int] = []  # handles, top at the end (all public)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.card_of: dict[int, int] = {}
        self.next_handle = 0
        self.pend = P_NONE
        self.total = 0  # cards the pending Draw Two/Four chain makes someone draw
        self.aggressor = -1  # who played the pending effect
        self.owed: list[list[int]] = []  # [seat, cards] still to be dealt, in order
        self.skips = [0] * n  # turns a seat must sit out (reflected effects)
        self.drawn = -1  # the card just drawn, while its owner may play it
        self.kato = -1  # seat with one card that has not called KaTO yet (catch window)
        self.wd4: list[list[Any]] = []
        self.seen: list[set[int]] = [set() for _ in range(n)]  # handles shown to a seat
        self.showing = -1  # the challenged Wild Draw Four (wd4 index) on show until play moves on
        self.scores = [0] * n
        self.round_scores: list[list[int]] = []
        self.winners: list[int] = []


def clone(st: KatoState) -> KatoState:
    """An independent copy of ``st`` (what a search plays on, leaving ``st`` as it was)."""
    out = KatoState.__new__(KatoState)
    for name in _INT_FIELDS:
        setattr(out, name, getattr(st, name))
    out.n, out.opts, out.reflect = st.n, st.opts, st.reflect
    out.requests = list(st.requests)
    out.deck = list(st.deck)
    out.discard = list(st.discard)
    out.hands = [list(h) for h in st.hands]
    out.card_of = dict(st.card_of)
    out.owed = [list(o) for o in st.owed]
    out.skips = list(st.skips)
    out.wd4 = [list(r) for r in st.wd4]
    out.seen = [set(s) for s in st.seen]
    out.scores = list(st.scores)
    out.round_scores = [list(r) for r in st.round_scores]
    out.winners = list(st.winners)
    return out


# --------------------------------------------------------------------------- encoding


_INT_FIELDS = (
    "step", "phase", "then", "first", "current", "direction", "colour", "next_handle", "pend",
    "total", "aggressor", "drawn", "kato", "showing",
)  # fmt: skip
_LAYOUT = dict.fromkeys(_INT_FIELDS, "int")


def encode(st: KatoState) -> dict[str, Plain]:
    """Canonical plain encoding: equal states give equal values, key order included."""
    out: dict[str, Plain] = {"game": "kato", "n": st.n, "options": st.opts.as_plain()}
    encode_fields(st, _LAYOUT, out)
    out["requests"] = [request_to_plain(r) for r in st.requests]
    out["deck"] = list(st.deck)
    out["discard"] = list(st.discard)
    out["hands"] = [list(h) for h in st.hands]
    out["cards"] = [[h, st.card_of[h]] for h in sorted(st.card_of)]
    out["owed"] = [list(o) for o in st.owed]
    out["skips"] = list(st.skips)
    out["wd4"] = [[r[0], r[1], r[2], list(r[3]), r[4], r[5], r[6]] for r in st.wd4]
    out["seen"] = [list(sorted(s)) for s in st.seen]
    out["scores"] = list(st.scores)
    out["round_scores"] = [list(r) for r in st.round_scores]
    out["winners"] = list(st.winners)
    return out


def decode(value: Plain) -> KatoState:
    """Inverse of ``encode``; raise ``GameError`` if the value is not a KaTO state."""
    from .options import KatoOptions

    with decoding("kato", value) as v:
        st = KatoState(int(v["n"]), KatoOptions(**v["options"]))
        decode_fields(st, _LAYOUT, v)
        st.requests = [request_from_plain(r) for r in v["requests"]]
        st.deck = [int(h) for h in v["deck"]]
        st.discard = [int(h) for h in v["discard"]]
        st.hands = [[int(h) for h in hand] for hand in v["hands"]]
        st.card_of = {int(h): int(c) for h, c in v["cards"]}
        st.owed = [[int(s), int(k)] for s, k in v["owed"]]
        st.skips = [int(s) for s in v["skips"]]
        st.wd4 = [
            [int(r[0]), int(r[1]), int(r[2]), tuple(int(h) for h in r[3]), int(r[4]), int(r[5]),
             int(r[6])]
            for r in v["wd4"]
        ]  # fmt: skip
        st.seen = [{int(h) for h in s} for s in v["seen"]]
        st.scores = [int(s) for s in v["scores"]]
        st.round_scores = [[int(p) for p in r] for r in v["round_scores"]]
        st.winners = [int(s) for s in v["winners"]]
    if len(st.hands) != st.n or len(st.skips) != st.n or len(st.seen) != st.n:
        raise GameError("malformed kato state: per-seat lists do not match the seat count")
    return st

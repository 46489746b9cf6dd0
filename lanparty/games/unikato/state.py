"""The Unikato state: one mutable object per peer copy, with a canonical plain encoding.

Tiles are *handles* (ints, unique within a game). ``card_of`` maps the handles whose identity
this copy knows to tile codes: the public tiles (grid, display, tiles taken from the display)
and this seat's own hand. The bag and other hands are handles only, so a copy never holds a
secret it was not told. ``board`` and ``handle_of`` are derived (rebuilt on decode).

``numbers`` gives each tile in a hand the number its holder calls it by (``place 3``): a tile
keeps its number for as long as it is in the hand, and a tile that comes in takes the lowest
number free (a deal of several in the order of the tiles, where this copy knows them, else in
handle order). It is a function of what this copy was told, so the seat's own copy and any
copy that knows the same tiles number that hand alike, and a resumed seat numbers it again the
same way.
"""

from __future__ import annotations

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
from .board import Board, Cell
from .options import UnikatoOptions, validate

# Phases. ACT: the current player chooses an action (the first, or with ``acts`` = 1 the
# bonus action); CHAIN: a placing action is under way; DRAW: the end-of-turn draw is owed.
SETUP, ACT, CHAIN, DRAW, OVER = range(5)
PHASE_NAMES = ("setup", "action", "placing", "draw", "over")

# What to do once the table requests in flight are answered (``then``).
T_NONE, T_END_ACTION, T_NEXT_TURN = range(3)

HAND = 10
"""Tiles dealt to each hand; the end-of-turn draw tops a hand up towards it."""
DISPLAY = 3
"""Tiles in a full display."""

# A pass record (for the audit): (step, seat, the hand's handles, every code that fitted
# somewhere on the grid then, each with its first cell as (code, x, y)).
PassRecord = tuple[int, int, tuple[int, ...], tuple[tuple[int, int, int], ...]]


class UnikatoState:
    """Mutable game state; see ``docs/engine.md`` for each field's meaning."""

    __slots__ = (
        "acts",
        "bag",
        "board",
        "bonus",
        "calm",
        "calm_turn",
        "card_of",
        "chain",
        "current",
        "display",
        "first",
        "handle_of",
        "hands",
        "n",
        "next_handle",
        "numbers",
        "open",
        "opts",
        "passes",
        "phase",
        "placed",
        "placed_turn",
        "requests",
        "round_ends",
        "round_scores",
        "scores",
        "step",
        "then",
        "winners",
    )

    def __init__(self, n: int, opts: UnikatoOptions) -> None:
        self.n = n
        self.opts = opts
        self.step = 0  # inputs applied so far (moves and results)
        self.phase = SETUP
        self.requests: list[Request] = []
        self.then = T_NONE
        self.first = 0  # who started this round
        self.current = 0
        self.acts = 0  # actions completed in this turn (0, or 1 before a bonus action)
        self.bonus = False  # the first action earned a bonus action
        self.chain: list[Cell] = []  # cells placed in the placing action under way
        self.placed_turn = 0  # tiles placed in this turn
        self.calm = 0  # turns in a row that placed nothing and began with the bag empty
        self.calm_turn = False  # this turn began with the bag empty
        self.bag: list[int] = []  # handles, top at the end
        self.display: list[int] = []  # handles (public), oldest first
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.numbers: list[dict[int, int]] = [{} for _ in range(n)]  # per hand: handle -> number
        self.card_of: dict[int, int] = {}
        self.open: set[int] = set()  # handles in hands that everyone saw (taken from the display)
        self.placed: list[tuple[int, int, int]] = []  # (x, y, handle) in the order laid
        self.board = Board()  # derived from ``placed``
        self.handle_of: dict[int, int] = {}  # derived from ``card_of``: code -> handle
        self.next_handle = 0
        self.passes: list[PassRecord] = []
        self.scores = [0] * n
        self.round_scores: list[list[int]] = []
        self.round_ends: list[tuple[int, ...]] = []  # (blocked 0/1, round winners...)
        self.winners: list[int] = []


# --------------------------------------------------------------------------- encoding


_INT_FIELDS = (
    "step", "phase", "then", "first", "current", "acts", "placed_turn", "calm", "next_handle",
)  # fmt: skip
_BOOL_FIELDS = ("bonus", "calm_turn")
_LAYOUT = {**dict.fromkeys(_INT_FIELDS, "int"), **dict.fromkeys(_BOOL_FIELDS, "bool")}


def encode(st: UnikatoState) -> dict[str, Plain]:
    """Canonical plain encoding: equal states give equal values, key order included."""
    out: dict[str, Plain] = {"game": "unikato", "n": st.n, "options": st.opts.as_plain()}
    encode_fields(st, _LAYOUT, out)
    out["requests"] = [request_to_plain(r) for r in st.requests]
    out["chain"] = [list(c) for c in st.chain]
    out["bag"] = list(st.bag)
    out["display"] = list(st.display)
    out["hands"] = [list(h) for h in st.hands]
    out["numbers"] = [[[h, k[h]] for h in sorted(k)] for k in st.numbers]
    out["cards"] = [[h, st.card_of[h]] for h in sorted(st.card_of)]
    out["open"] = [h for h in sorted(st.open)]
    out["placed"] = [list(p) for p in st.placed]
    out["passes"] = [
        [step, seat, list(hand), [list(f) for f in fits]] for step, seat, hand, fits in st.passes
    ]
    out["scores"] = list(st.scores)
    out["round_scores"] = [list(r) for r in st.round_scores]
    out["round_ends"] = [list(e) for e in st.round_ends]
    out["winners"] = list(st.winners)
    return out


def rebuild(st: UnikatoState) -> None:
    """Recompute the derived fields (``board``, ``handle_of``) from the stored ones."""
    st.handle_of = {code: h for h, code in st.card_of.items()}
    st.board = Board()
    for x, y, h in st.placed:
        st.board.add((x, y), st.card_of[h])


def decode(value: Plain) -> UnikatoState:
    """Inverse of ``encode``; raise ``GameError`` if the value is not a Unikato state."""
    with decoding("unikato", value) as v:
        st = UnikatoState(int(v["n"]), UnikatoOptions(**validate(v["options"])))  # type: ignore[arg-type]
        decode_fields(st, _LAYOUT, v)
        st.requests = [request_from_plain(r) for r in v["requests"]]
        st.chain = [(int(x), int(y)) for x, y in v["chain"]]
        st.bag = [int(h) for h in v["bag"]]
        st.display = [int(h) for h in v["display"]]
        st.hands = [[int(h) for h in hand] for hand in v["hands"]]
        st.numbers = [{int(h): int(k) for h, k in hand} for hand in v["numbers"]]
        st.card_of = {int(h): int(c) for h, c in v["cards"]}
        st.open = {int(h) for h in v["open"]}
        st.placed = [(int(x), int(y), int(h)) for x, y, h in v["placed"]]
        st.passes = [
            (
                int(step),
                int(seat),
                tuple(int(h) for h in hand),
                tuple((int(c), int(x), int(y)) for c, x, y in fits),
            )
            for step, seat, hand, fits in v["passes"]
        ]
        st.scores = [int(s) for s in v["scores"]]
        st.round_scores = [[int(p) for p in r] for r in v["round_scores"]]
        st.round_ends = [tuple(int(x) for x in e) for e in v["round_ends"]]
        st.winners = [int(s) for s in v["winners"]]
        rebuild(st)
    if not 2 <= st.n <= 4 or not SETUP <= st.phase <= OVER:
        raise GameError("malformed unikato state: seat count or phase out of range")
    if len(st.hands) != st.n or len(st.scores) != st.n or len(st.numbers) != st.n:
        raise GameError("malformed unikato state: per-seat lists do not match the seat count")
    return st

"""The Kill the Unicorns state: one mutable object per peer copy, with a canonical encoding.

Cards are *handles* (ints, unique within a game). ``card_of`` maps the handles whose label
this copy knows; every zone (the unicorn deck, each scheme deck, the schemes planted on a
unicorn, a face-down discard) is handles only. A copy never holds a secret it was not told:
the omniscient test dealer's copy knows every label, a peer's copy only what its seat was
shown, so a view built from ``card_of`` cannot leak more than the copy was given.
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
from .cards import ITEMS, TOKENS_PER_ITEM
from .options import UnicornsOptions

# Phases. SETUP: the table is dealing a day (or the game); TRAP: ``current`` plants a scheme;
# BID: ``current`` hunts, joins or passes; COMMIT: ``current`` seals its hunt cards; OPEN: the
# hunters open them; KNIGHT / WIZARD: that power's window; CHOOSE: the winner picks the scheme
# to reveal; REVEAL: the table reveals it; GIVE: a Trojan's owner gives a unicorn; COLOUR: the
# winner names a Chameleon's colour; MARKET: ``current`` may buy; OVER; CHARACTER: before
# day 1 (``option characters=choose``), ``current`` chooses a character.
(
    SETUP, TRAP, BID, COMMIT, OPEN, KNIGHT_TURN, CHOOSE, REVEAL, GIVE, COLOUR, WIZARD_TURN,
    MARKET, OVER, CHARACTER,
) = range(14)  # fmt: skip
PHASE_NAMES = (
    "setup", "trap", "bid", "commit", "open", "knight", "choose", "reveal", "give", "colour",
    "wizard", "market", "over", "character",
)  # fmt: skip
DAYS = 4


class UnicornsState:
    """Mutable game state; see ``docs/engine.md`` for the meaning of each field."""

    __slots__ = (
        "acted",
        "bid",
        "boost",
        "card_of",
        "cards",
        "characters",
        "chosen",
        "collections",
        "current",
        "day",
        "discards",
        "drawn",
        "escaped",
        "first",
        "hands",
        "hunt",
        "lost",
        "market",
        "n",
        "next_handle",
        "opts",
        "owner",
        "paint",
        "pates",
        "phase",
        "planted",
        "played",
        "requests",
        "reveals",
        "row",
        "scheme_decks",
        "scheme_on",
        "seen",
        "standings",
        "step",
        "takers",
        "tokens",
        "unicorn_deck",
        "used",
        "winner",
        "winners",
    )

    def __init__(self, n: int, opts: UnicornsOptions) -> None:
        self.n = n
        self.opts = opts
        self.step = 0  # inputs applied so far (moves and results, Committed included)
        self.phase = SETUP
        self.requests: list[Request] = []
        self.next_handle = 0
        self.day = 0
        self.first = 0  # the first-player token
        self.current = 0  # whose move it is in a turn phase
        self.acted = 0  # seats that have acted in this planting / hunt / market round
        self.characters = [-1] * n
        self.used = [False] * n  # power used today
        self.card_of: dict[int, str] = {}
        self.unicorn_deck: list[int] = []  # top first
        self.scheme_decks: list[list[int]] = [[] for _ in range(n)]  # top first
        self.owner: dict[int, int] = {}  # scheme handle -> the seat whose deck it is from
        self.drawn: list[list[int]] = [[] for _ in range(n)]  # today's two schemes, unplanted
        self.row: list[int] = []  # today's unicorns, in hunting order
        self.planted: dict[int, list[int]] = {}  # row unicorn -> face-down schemes (<= 2)
        self.discards: list[list[int]] = [[] for _ in range(n)]  # schemes discarded at planting
        self.lost: list[int] = []  # schemes gone with a hunt (unrevealed, or an escape's)
        self.escaped: list[int] = []  # unicorns that escaped or were butchered
        self.hands: list[list[int]] = [[] for _ in range(n)]  # hunt card values, sorted
        self.played: list[list[int]] = [[] for _ in range(n)]  # values discarded today
        self.collections: list[list[int]] = [[] for _ in range(n)]
        self.paint: dict[int, int] = {}  # unicorn -> colour given by a scheme or the market
        self.tokens: dict[int, list[str]] = {}  # unicorn -> market tokens on it
        self.scheme_on: dict[int, int] = {}  # collected unicorn -> its revealed scheme
        self.pates = [0] * n
        self.market = [TOKENS_PER_ITEM] * len(ITEMS)  # tokens left, by ``cards.ITEMS``
        self.seen: list[set[int]] = [set() for _ in range(n)]  # schemes shown to a seat
        self.hunt = -1  # index in ``row`` of the unicorn being hunted
        self.bid = 0  # hunt cards each hunter lays (0: nobody has started the hunt)
        self.takers: list[int] = []  # seats that hunt this unicorn, in the order they joined
        self.cards: list[list[int]] = [[] for _ in range(n)]  # opened hunt cards, this hunt
        self.boost = -1  # the Knight who added 2 to this hunt's total
        self.winner = -1  # the hunt's winner before (or while) a scheme acts
        self.chosen = -1  # the scheme revealed in this hunt
        self.reveals: list[list[int]] = []  # every scheme revealed in play: [unicorn, scheme]
        self.standings: list[list[int]] = []  # per day: what each seat gained that day
        self.winners: list[int] = []


# --------------------------------------------------------------------------- encoding


_INTS = (
    "step", "phase", "next_handle", "day", "first", "current", "acted", "hunt", "bid", "boost",
    "winner", "chosen",
)  # fmt: skip
_INT_LISTS = (
    "characters", "unicorn_deck", "row", "lost", "escaped", "pates", "market", "takers",
    "winners",
)  # fmt: skip
_NESTED = (
    "scheme_decks", "drawn", "discards", "hands", "played", "collections", "cards", "standings",
    "reveals",
)  # fmt: skip
_INT_MAPS = ("owner", "paint", "scheme_on")
_LAYOUT = {
    **dict.fromkeys(_INTS, "int"),
    **dict.fromkeys(_INT_LISTS, "ints"),
    **dict.fromkeys(_NESTED, "nested"),
    **dict.fromkeys(_INT_MAPS, "int_map"),
}


def encode(st: UnicornsState) -> dict[str, Plain]:
    """Canonical plain encoding: equal states give equal values, key order included."""
    out: dict[str, Plain] = {"game": "unicorns", "n": st.n, "options": st.opts.as_plain()}
    encode_fields(st, _LAYOUT, out)
    out["used"] = list(st.used)
    out["requests"] = [request_to_plain(r) for r in st.requests]
    out["cards_known"] = [[h, st.card_of[h]] for h in sorted(st.card_of)]
    out["planted"] = [[u, list(st.planted[u])] for u in sorted(st.planted)]
    out["tokens"] = [[u, list(st.tokens[u])] for u in sorted(st.tokens)]
    out["seen"] = [list(sorted(s)) for s in st.seen]
    return out


def decode(value: Plain) -> UnicornsState:
    """Inverse of ``encode``; raise ``GameError`` if the value is not a unicorns state."""
    from .options import make

    with decoding("unicorns", value) as v:
        n = v["n"]
        st = UnicornsState(n, make(n, v["options"]))
        decode_fields(st, _LAYOUT, v)
        st.used = [bool(x) for x in v["used"]]
        st.requests = [request_from_plain(r) for r in v["requests"]]
        st.card_of = {int(h): str(label) for h, label in v["cards_known"]}
        st.planted = {int(u): [int(h) for h in hs] for u, hs in v["planted"]}
        st.tokens = {int(u): [str(t) for t in ts] for u, ts in v["tokens"]}
        st.seen = [{int(h) for h in s} for s in v["seen"]]
    per_seat = (st.characters, st.used, st.pates, st.hands, st.played, st.collections, st.seen)
    if any(len(x) != n for x in per_seat) or len(st.cards) != n or len(st.drawn) != n:
        raise GameError("malformed unicorns state: per-seat lists do not match the seat count")
    return st

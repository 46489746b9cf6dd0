"""Kill the Unicorns moves: the single validator (``check``), ``apply`` and the lister.

Moves (canonical tuples; handles and values are ints, names are strings):

* ``("character", name)`` — before day 1 (``option characters=choose``), in turn from the
  first player: take one of the characters nobody has taken yet.
* ``("plant", keep, unicorn, discard, label)`` — keep one of today's two schemes face down on
  a row unicorn and discard the other; ``label`` names the discarded card (it is revealed),
  or is ``""`` under ``expert`` (it stays face down).
* ``("hunt", n)`` — open the hunt with ``n`` (1–3) hunt cards; ``("join",)`` — hunt with the
  same number; ``("pass",)`` — stay out (before anyone hunts, the first-player token moves
  on to the left).
* ``("cards", values)`` — the *sealed* move of a hunter: its hunt cards, lowest first.
* ``("peek", scheme)`` (Princess), ``("shift", scheme, unicorn)`` (Shaman) — before deciding
  in a hunt; ``("boost",)`` (Knight) after a reveal; ``("recall", value)`` (Wizard) after a
  hunt is settled; ``("decline",)`` lets a power's window or the market go by.
* ``("reveal", scheme)`` — the winner picks which of two schemes is revealed.
* ``("give", unicorn)`` — a Trojan's owner picks the unicorn the winner gets.
* ``("colour", colour)`` — the winner names a Chameleon's colour.
* ``("buy", item, unicorn, colour, payment)`` — a black-market purchase; ``colour`` is ``""``
  except for ``candy`` and ``dust``; ``payment`` lists hunt card values, lowest first, none
  more than needed.
"""

from __future__ import annotations

from itertools import combinations

from protocol.contract import IllegalMove, Move, ShowToSeat, excerpt

from .cards import (
    BUTCHER,
    CANDY,
    CHARACTERS,
    COLOUR_INDEX,
    COLOURS,
    COST,
    DUST,
    ITEMS,
    MAX_BID,
    PRINCESS,
    SCHEMES,
    SHAMAN,
)
from .flow import (
    advance_bid,
    begin_hunt,
    decide,
    give,
    market_done,
    may_use,
    next_hunt,
    opened,
    pick,
    reveal,
    take,
)
from .scoring import colour_of
from .state import (
    BID,
    CHARACTER,
    CHOOSE,
    COLOUR,
    COMMIT,
    GIVE,
    KNIGHT_TURN,
    MARKET,
    OPEN,
    OVER,
    TRAP,
    WIZARD_TURN,
    UnicornsState,
)

ARITY = {
    "plant": 5, "hunt": 2, "join": 1, "pass": 1, "cards": 2, "peek": 2, "shift": 3, "boost": 1,
    "reveal": 2, "give": 2, "colour": 2, "recall": 2, "buy": 5, "decline": 1, "character": 2,
}  # fmt: skip
_PHASE_MOVES = {
    CHARACTER: ("character",),
    TRAP: ("plant",),
    BID: ("hunt", "join", "pass", "peek", "shift"),
    COMMIT: ("cards",),
    OPEN: ("cards",),
    KNIGHT_TURN: ("boost", "decline"),
    CHOOSE: ("reveal",),
    GIVE: ("give",),
    COLOUR: ("colour",),
    WIZARD_TURN: ("recall", "decline"),
    MARKET: ("buy", "decline"),
}
_ASK = {
    CHARACTER: "choose a character",
    TRAP: "plant a scheme",
    BID: "hunt, join or pass",
    COMMIT: "lay hunt cards face down",
    OPEN: "open hunt cards",
    KNIGHT_TURN: "boost or decline",
    CHOOSE: "choose the scheme to reveal",
    GIVE: "give a unicorn",
    COLOUR: "name a colour",
    WIZARD_TURN: "recall a hunt card or decline",
    MARKET: "buy or decline",
}


def _s(n: int) -> str:
    """The plural's ``s`` after a count of ``n`` in the engine's English (``"1 card"``,
    ``"2 cards"``; the screen says it in the reader's language, :mod:`.refusals`)."""
    return "" if n == 1 else "s"


def _is_int(value: object) -> bool:
    return type(value) is int


def _values(value: object) -> tuple[int, ...] | None:
    """``value`` as a tuple of hunt card values, or ``None`` if it is not one."""
    if type(value) is not tuple:
        return None
    out = tuple(v for v in value if type(v) is int)
    return out if len(out) == len(value) else None


def _holds(hand: list[int], values: tuple[int, ...]) -> bool:
    rest = list(hand)
    for v in values:
        if v not in rest:
            return False
        rest.remove(v)
    return True


def unopened(st: UnicornsState) -> list[int]:
    """Hunters whose sealed cards are still closed, in the order they must open them."""
    return [s for s in st.takers if not st.cards[s]]


def remaining(st: UnicornsState) -> list[int]:
    """Row unicorns not hunted yet (the one being hunted included), in row order."""
    return [u for u in st.row if u in st.planted]


def min_payments(hand: list[int], cost: int) -> list[tuple[int, ...]]:
    """Every way to pay ``cost`` from ``hand`` with no card more than needed (dropping any
    card would fall short), as sorted value tuples, in a fixed order."""
    found: set[tuple[int, ...]] = set()
    values = sorted(hand)
    for k in range(1, len(values) + 1):
        for combo in combinations(values, k):
            total = sum(combo)
            if total >= cost and total - combo[0] < cost:
                found.add(combo)
    return sorted(found, key=lambda p: (len(p), p))


# --------------------------------------------------------------------------- check


def check(st: UnicornsState, seat: int, move: Move) -> None:
    """Raise ``IllegalMove`` with the reason unless ``seat`` may make ``move`` now. A sealed
    ``cards`` move is judged the same while it is committed and when it is opened."""
    if type(move) is not tuple or not move or type(move[0]) is not str:
        raise IllegalMove("a move is a tuple starting with its name")
    if type(seat) is not int or not 0 <= seat < st.n:
        raise IllegalMove(f"there is no seat {excerpt(seat)}")
    if st.requests:
        raise IllegalMove("the table is busy dealing or revealing; wait for it")
    if st.phase == OVER:
        raise IllegalMove("the game is over")
    name = move[0]
    if name not in ARITY:
        raise IllegalMove(f"unknown move {excerpt(name)}")
    if len(move) != ARITY[name]:
        raise IllegalMove(f"{name!r} takes {ARITY[name] - 1} argument{_s(ARITY[name] - 1)}")
    phase = st.phase
    due = unopened(st)[0] if phase == OPEN else st.current
    if seat != due:
        raise IllegalMove(f"it is not your turn: seat {due} is to {_ASK.get(phase, 'wait')}")
    if name not in _PHASE_MOVES.get(phase, ()):
        raise IllegalMove(f"not now: you are to {_ASK.get(phase, 'wait')}")
    _CHECKS[name](st, seat, move)


def _check_character(st: UnicornsState, seat: int, move: Move) -> None:
    name = move[1]
    if type(name) is not str or name not in CHARACTERS:
        raise IllegalMove(f"name a character: {', '.join(CHARACTERS)}")
    if CHARACTERS.index(name) in st.characters:
        raise IllegalMove(f"the {name} is taken: choose one nobody has")


def _check_plant(st: UnicornsState, seat: int, move: Move) -> None:
    _, keep, unicorn, discard, label = move
    if not (_is_int(keep) and _is_int(unicorn) and _is_int(discard) and type(label) is str):
        raise IllegalMove("plant as ('plant', keep, unicorn, discard, label)")
    if keep == discard or {keep, discard} != set(st.drawn[seat]):
        raise IllegalMove("keep one of the two schemes you drew today and discard the other")
    if unicorn not in st.planted:
        raise IllegalMove(f"{excerpt(unicorn)} is not a unicorn in today's row")
    if len(st.planted[unicorn]) >= 2:
        raise IllegalMove("that unicorn already holds two schemes")
    if st.opts.expert:
        if label != "":
            raise IllegalMove("in expert games the discarded scheme stays face down (label '')")
        return
    if label not in SCHEMES:
        raise IllegalMove(f"name the discarded scheme: {excerpt(label)} is not one")
    known = st.card_of.get(discard)  # type: ignore[arg-type]
    if known is not None and known != label:
        raise IllegalMove(f"the discarded scheme is not {excerpt(label)}")


def _check_hunt(st: UnicornsState, seat: int, move: Move) -> None:
    count = move[1]
    if st.bid:
        raise IllegalMove(f"this hunt is under way with {st.bid} card{_s(st.bid)}: join or pass")
    if not _is_int(count) or not 1 <= count <= MAX_BID:  # type: ignore[operator]
        raise IllegalMove(f"a hunt takes 1 to {MAX_BID} cards, not {excerpt(count)}")
    if count > len(st.hands[seat]):  # type: ignore[operator]
        held = len(st.hands[seat])
        raise IllegalMove(f"you hold only {held} hunt card{_s(held)}")


def _check_join(st: UnicornsState, seat: int, move: Move) -> None:
    if not st.bid:
        raise IllegalMove("nobody has started this hunt: hunt with 1 to 3 cards, or pass")
    if len(st.hands[seat]) < st.bid:
        raise IllegalMove(f"joining takes {st.bid} hunt cards and you hold fewer: pass")


def _check_pass(st: UnicornsState, seat: int, move: Move) -> None:
    return


def _check_cards(st: UnicornsState, seat: int, move: Move) -> None:
    values = _values(move[1])
    if values is None:
        raise IllegalMove("lay your hunt cards as ('cards', (values...))")
    if len(values) != st.bid:
        raise IllegalMove(f"this hunt takes exactly {st.bid} card{_s(st.bid)}")
    if list(values) != sorted(values):
        raise IllegalMove("list your hunt cards lowest first")
    if not _holds(st.hands[seat], values):
        raise IllegalMove(f"you do not hold the hunt cards {excerpt(values)}")


def _check_peek(st: UnicornsState, seat: int, move: Move) -> None:
    if not may_use(st, seat, PRINCESS):
        raise IllegalMove("only the Princess peeks, once a day, when powers are on")
    scheme = move[1]
    if not _is_int(scheme) or not any(scheme in st.planted[u] for u in st.planted):
        raise IllegalMove(f"{excerpt(scheme)} is not a face-down scheme on the row")
    if st.owner[scheme] == seat:  # type: ignore[index]
        raise IllegalMove("that scheme is yours: peek at someone else's")
    if scheme in st.seen[seat]:
        raise IllegalMove("you have already seen that scheme")


def _check_shift(st: UnicornsState, seat: int, move: Move) -> None:
    if not may_use(st, seat, SHAMAN):
        raise IllegalMove("only the Shaman moves a scheme, once a day, when powers are on")
    _, scheme, unicorn = move
    if not (_is_int(scheme) and _is_int(unicorn)):
        raise IllegalMove("move a scheme as ('shift', scheme, unicorn)")
    source = next((u for u in st.planted if scheme in st.planted[u]), None)
    if source is None:
        raise IllegalMove(f"{excerpt(scheme)} is not a face-down scheme on the row")
    if unicorn == source or unicorn not in st.planted:
        raise IllegalMove("move it to another unicorn of the row still to be hunted")
    if len(st.planted[unicorn]) >= 2:
        raise IllegalMove("that unicorn already holds two schemes")


def _check_nothing(st: UnicornsState, seat: int, move: Move) -> None:
    return


def _check_reveal(st: UnicornsState, seat: int, move: Move) -> None:
    if not _is_int(move[1]) or move[1] not in st.planted[st.row[st.hunt]]:
        raise IllegalMove(f"{excerpt(move[1])} is not a scheme on the hunted unicorn")


def _check_give(st: UnicornsState, seat: int, move: Move) -> None:
    if not _is_int(move[1]) or move[1] not in st.collections[seat] or move[1] == st.row[st.hunt]:
        raise IllegalMove("give one of the unicorns you had before this hunt")


def _check_colour(st: UnicornsState, seat: int, move: Move) -> None:
    if type(move[1]) is not str or move[1] not in COLOUR_INDEX:
        raise IllegalMove(f"name a colour: {', '.join(COLOURS)}")


def _check_recall(st: UnicornsState, seat: int, move: Move) -> None:
    if not _is_int(move[1]) or move[1] not in st.cards[seat]:
        raise IllegalMove("take back one of the hunt cards you played in this hunt")


def _check_buy(st: UnicornsState, seat: int, move: Move) -> None:
    _, item, unicorn, colour, payment = move
    if type(item) is not str or item not in COST:
        raise IllegalMove(f"the market sells {', '.join(ITEMS)}, not {excerpt(item)}")
    assert isinstance(item, str)
    if not st.market[ITEMS.index(item)]:
        raise IllegalMove(f"no {item} token is left")
    if not _is_int(unicorn) or unicorn not in st.collections[seat]:
        raise IllegalMove(f"{excerpt(unicorn)} is not one of your unicorns")
    assert isinstance(unicorn, int)
    if item in (CANDY, DUST):
        if type(colour) is not str or colour not in COLOUR_INDEX:
            raise IllegalMove(f"name the new colour: {', '.join(COLOURS)}")
        if COLOUR_INDEX[colour] == colour_of(st, unicorn):
            raise IllegalMove(f"that unicorn is {colour} already")
    elif colour != "":
        raise IllegalMove(f"a {item} changes no colour (use '')")
    pay = _values(payment)
    if pay is None or list(pay) != sorted(pay):
        raise IllegalMove("pay with hunt card values, lowest first")
    if not _holds(st.hands[seat], pay):
        raise IllegalMove(f"you do not hold the hunt cards {excerpt(pay)}")
    cost = COST[item]
    if sum(pay) < cost:
        raise IllegalMove(f"a {item} costs {cost}; {excerpt(pay)} is not enough")
    if not pay or sum(pay) - pay[0] >= cost:
        raise IllegalMove(f"pay no card more than needed for the {cost} a {item} costs")


_CHECKS = {
    "plant": _check_plant, "hunt": _check_hunt, "join": _check_join, "pass": _check_pass,
    "cards": _check_cards, "peek": _check_peek, "shift": _check_shift, "boost": _check_nothing,
    "reveal": _check_reveal, "give": _check_give, "colour": _check_colour,
    "recall": _check_recall, "buy": _check_buy, "decline": _check_nothing,
    "character": _check_character,
}  # fmt: skip


# --------------------------------------------------------------------------- apply


def apply(st: UnicornsState, seat: int, move: Move) -> None:  # noqa: C901
    """Apply a checked move in place, then move the game on."""
    st.step += 1
    name = move[0]
    phase = st.phase
    if name == "character":
        pick(st, seat, CHARACTERS.index(move[1]))
    elif name == "plant":
        _, keep, unicorn, discard, label = move
        st.drawn[seat] = []
        st.planted[unicorn].append(keep)  # type: ignore[index, arg-type]
        st.discards[seat].append(discard)  # type: ignore[arg-type]
        if label:
            st.card_of[discard] = label  # type: ignore[index, assignment]
        st.acted += 1
        if st.acted < st.n:
            st.current = (st.first + st.acted) % st.n
        else:
            begin_hunt(st, 0)
    elif name in ("hunt", "join"):
        if name == "hunt":
            st.bid = move[1]  # type: ignore[assignment]
        st.takers.append(seat)
        st.phase = COMMIT
    elif name == "pass":
        if not st.bid:
            st.first = (seat + 1) % st.n  # the token moves on to the left
        advance_bid(st)
    elif name == "cards":
        values: tuple[int, ...] = move[1]  # type: ignore[assignment]
        for v in values:
            st.hands[seat].remove(v)
        st.played[seat].extend(values)
        st.cards[seat] = list(values)
        if not unopened(st):
            opened(st)
    elif name == "peek":
        st.used[seat] = True
        peeked: int = move[1]  # type: ignore[assignment]
        st.requests.append(ShowToSeat(st.owner[peeked], seat, (peeked,)))
    elif name == "shift":
        st.used[seat] = True
        moved: int = move[1]  # type: ignore[assignment]
        target: int = move[2]  # type: ignore[assignment]
        for u in st.planted:
            if moved in st.planted[u]:
                st.planted[u].remove(moved)
        st.planted[target].append(moved)
    elif name == "boost":
        st.used[seat] = True
        st.boost = seat
        decide(st)
    elif name == "reveal":
        reveal(st, move[1])  # type: ignore[arg-type]
    elif name == "give":
        give(st, seat, move[1])  # type: ignore[arg-type]
    elif name == "colour":
        st.paint[st.row[st.hunt]] = COLOUR_INDEX[move[1]]  # type: ignore[index]
        take(st, st.winner)
    elif name == "recall":
        st.used[seat] = True
        value: int = move[1]  # type: ignore[assignment]
        st.played[seat].remove(value)
        st.hands[seat].append(value)
        st.hands[seat].sort()
        next_hunt(st)
    elif name == "buy":
        _buy(st, seat, move)
        market_done(st)
    elif phase == KNIGHT_TURN:  # decline
        decide(st)
    elif phase == WIZARD_TURN:
        next_hunt(st)
    else:  # decline at the market
        market_done(st)


def _buy(st: UnicornsState, seat: int, move: Move) -> None:
    _, item, unicorn, colour, payment = move
    assert isinstance(item, str) and isinstance(unicorn, int) and isinstance(payment, tuple)
    for v in payment:
        st.hands[seat].remove(v)  # type: ignore[arg-type]
        st.played[seat].append(v)  # type: ignore[arg-type]
    st.market[ITEMS.index(item)] -= 1
    if item == BUTCHER:
        st.collections[seat].remove(unicorn)
        st.escaped.append(unicorn)
        st.tokens.pop(unicorn, None)
        scheme = st.scheme_on.pop(unicorn, None)
        if scheme is not None:
            st.lost.append(scheme)
        st.paint.pop(unicorn, None)
        st.pates[seat] += 1
        return
    st.tokens.setdefault(unicorn, []).append(item)
    if colour:
        st.paint[unicorn] = COLOUR_INDEX[colour]  # type: ignore[index]


# --------------------------------------------------------------------------- listing


def legal_moves(st: UnicornsState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now that this copy can name, in a fixed order. Empty
    while the table is busy, for a seat that is not due, and at ``Open`` (the table opens
    what was sealed)."""
    phase = st.phase
    if st.requests or phase in (OVER, OPEN) or seat != st.current:
        return []
    if phase == CHARACTER:
        return [("character", c) for k, c in enumerate(CHARACTERS) if k not in st.characters]
    if phase == TRAP:
        return _list_plants(st, seat)
    if phase == BID:
        return _list_bids(st, seat)
    if phase == COMMIT:
        combos = sorted(set(combinations(st.hands[seat], st.bid)))
        return [("cards", c) for c in combos]
    if phase == KNIGHT_TURN:
        return [("boost",), ("decline",)]
    if phase == CHOOSE:
        return [("reveal", h) for h in st.planted[st.row[st.hunt]]]
    if phase == GIVE:
        hunted = st.row[st.hunt]
        return [("give", u) for u in st.collections[seat] if u != hunted]
    if phase == COLOUR:
        return [("colour", c) for c in COLOURS]
    if phase == WIZARD_TURN:
        return [*(("recall", v) for v in sorted(set(st.cards[seat]))), ("decline",)]
    return [*_list_buys(st, seat), ("decline",)]


def _list_plants(st: UnicornsState, seat: int) -> list[Move]:
    out: list[Move] = []
    pair = st.drawn[seat]
    for keep in pair:
        discard = next(h for h in pair if h != keep)
        label = "" if st.opts.expert else st.card_of.get(discard)
        if label is None:
            continue  # this copy does not know the card: it cannot name the move
        for u in st.row:
            if len(st.planted[u]) < 2:
                out.append(("plant", keep, u, discard, label))
    return out


def _list_bids(st: UnicornsState, seat: int) -> list[Move]:
    held = len(st.hands[seat])
    out: list[Move]
    if st.bid:
        out = [("join",)] if held >= st.bid else []
    else:
        out = [("hunt", k) for k in range(1, min(MAX_BID, held) + 1)]
    out.append(("pass",))
    row = remaining(st)
    if may_use(st, seat, PRINCESS):
        seen = st.seen[seat]
        for u in row:
            out.extend(("peek", h) for h in st.planted[u] if st.owner[h] != seat and h not in seen)
    if may_use(st, seat, SHAMAN):
        for u in row:
            for h in st.planted[u]:
                out.extend(("shift", h, v) for v in row if v != u and len(st.planted[v]) < 2)
    return out


def _list_buys(st: UnicornsState, seat: int) -> list[Move]:
    out: list[Move] = []
    hand = st.hands[seat]
    for i, item in enumerate(ITEMS):
        if not st.market[i]:
            continue
        payments = min_payments(hand, COST[item])
        for u in st.collections[seat]:
            if item in (CANDY, DUST):
                now = colour_of(st, u)
                colours = [c for k, c in enumerate(COLOURS) if k != now]
            else:
                colours = [""]
            for colour in colours:
                out.extend(("buy", item, u, colour, pay) for pay in payments)
    return out


__all__ = ["ARITY", "apply", "check", "legal_moves", "min_payments", "remaining"]

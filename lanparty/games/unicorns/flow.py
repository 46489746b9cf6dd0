"""Kill the Unicorns table flow: the game's and each day's requests, their results, and the
course of a hunt from the last bid to the unicorn changing hands.

Everything here runs inside ``resolve`` or at the end of ``apply``. It decides only from
public facts (handles, public labels, hunt card values, seats), so every copy takes the same
path and asks for the same requests.
"""

from __future__ import annotations

from protocol.contract import (
    BadResult,
    CoinResult,
    Committed,
    CommitTimeout,
    Deal,
    Dealt,
    JointCoin,
    Result,
    Revealed,
    RevealToAll,
    Shown,
    Shuffle,
    Shuffled,
    excerpt,
)

from ..answers import answered
from .cards import (
    AMBUSH,
    CHAMELEON,
    DECOY,
    HUNT_CARDS,
    KNIGHT,
    KNIGHT_BONUS,
    PERMUTATIONS,
    SCHEMES,
    STARTING,
    TROJAN,
    UNICORN_DECK,
    WIZARD,
)
from .scoring import double_rainbows, richest, scores
from .state import (
    BID,
    CHARACTER,
    CHOOSE,
    COLOUR,
    COMMIT,
    DAYS,
    GIVE,
    KNIGHT_TURN,
    MARKET,
    OPEN,
    OVER,
    REVEAL,
    SETUP,
    TRAP,
    WIZARD_TURN,
    UnicornsState,
)

UNICORN_DECK_NAME = "unicorns"
SCHEMES_PER_DAY = 2


def scheme_deck_name(seat: int) -> str:
    """The name of ``seat``'s private scheme deck."""
    return f"schemes-{seat}"


def _handles(st: UnicornsState, count: int) -> tuple[int, ...]:
    base = st.next_handle
    st.next_handle = base + count
    return tuple(range(base, base + count))


def begin(st: UnicornsState) -> None:
    """Queue the game's first batch: the coins (first player, characters unless they are
    chosen, starting unicorns), the unicorn deck's shuffle, every scheme deck's shuffle, then
    day 1; or, when characters are chosen, day 1 once everyone has chosen (``pick``)."""
    n = st.n
    if st.opts.first == "random":
        st.requests.append(JointCoin(n, "first"))
    if st.opts.characters == "random":
        st.requests.append(JointCoin(len(PERMUTATIONS), "characters"))
    st.requests.append(JointCoin(len(PERMUTATIONS), "start"))
    # A deck's order is fixed by its request (position i is handles[i]), so the decks are
    # known as lists of handles at once; only their labels stay unknown.
    deck = _handles(st, len(UNICORN_DECK))
    st.requests.append(Shuffle(UNICORN_DECK_NAME, UNICORN_DECK, deck))
    st.unicorn_deck = list(deck)
    if st.opts.schemes:
        for seat in range(n):
            handles = _handles(st, len(SCHEMES))
            st.requests.append(Shuffle(scheme_deck_name(seat), SCHEMES, handles))
            st.scheme_decks[seat] = list(handles)
            for h in handles:
                st.owner[h] = seat
    # The starting unicorns are public cards: a coin deals them (see docs/engine.md).
    for h, label in zip(_handles(st, len(STARTING)), STARTING, strict=True):
        st.card_of[h] = label
    if st.opts.characters == "random":
        start_day(st)


def pick(st: UnicornsState, seat: int, character: int) -> None:
    """``seat`` takes ``character``: the next player in turn from the first chooses, or day 1
    begins once everyone has a character."""
    st.characters[seat] = character
    st.acted += 1
    if st.acted < st.n:
        st.current = (st.first + st.acted) % st.n
    else:
        st.acted = 0
        start_day(st)


def _start_handle(st: UnicornsState, colour: int) -> int:
    return next(h for h, label in st.card_of.items() if label == STARTING[colour])


def start_day(st: UnicornsState) -> None:
    """A new day: hunt cards back in hand; reveal the row; deal two schemes to each player."""
    n = st.n
    st.day += 1
    st.phase = SETUP
    st.hands = [list(HUNT_CARDS) for _ in range(n)]
    st.played = [[] for _ in range(n)]
    st.used = [False] * n
    st.hunt = -1
    row = st.unicorn_deck[:n]
    del st.unicorn_deck[:n]
    st.row = row
    st.planted = {u: [] for u in row}
    st.requests.append(RevealToAll(tuple(row)))
    if st.opts.schemes:
        for seat in range(n):
            deck = st.scheme_decks[seat]
            top = tuple(deck[:SCHEMES_PER_DAY])
            del deck[:SCHEMES_PER_DAY]
            st.requests.append(Deal(scheme_deck_name(seat), seat, top))


def _after_batch(st: UnicornsState) -> None:
    if st.phase == SETUP and st.day == 0:  # the first player is known: choose characters
        st.phase = CHARACTER
        st.acted = 0
        st.current = st.first
    elif st.phase == SETUP:
        if st.opts.schemes:
            st.phase = TRAP
            st.acted = 0
            st.current = st.first
        else:
            begin_hunt(st, 0)


# --------------------------------------------------------------------------- results


def _learn(
    st: UnicornsState, handles: tuple[int, ...], cards: tuple[str, ...], allowed: object
) -> None:
    if len(cards) != len(handles):
        raise BadResult("one label per handle is needed")
    for h, label in zip(handles, cards, strict=True):
        if label not in allowed:  # type: ignore[operator]
            raise BadResult(f"{excerpt(label)} is not a card of this deck")
        old = st.card_of.get(h)
        if old is not None and old != label:
            raise BadResult(f"card {h} is {old}, not {excerpt(label)}")
    for h, label in zip(handles, cards, strict=True):
        st.card_of[h] = label


def resolve(st: UnicornsState, result: Result) -> None:
    """Fold in one result: a sealed hunt handed in (``Committed``), or the answer to the oldest
    pending request. Raise ``BadResult`` (the state unchanged) if it is neither."""
    if isinstance(result, Committed):
        if st.requests or st.phase != COMMIT or result.seat != st.current:
            raise BadResult(f"seat {result.seat} owes no sealed hunt now")
        st.step += 1
        advance_bid(st)
        return
    if isinstance(result, CommitTimeout):
        raise BadResult("a unicorns hunt is never closed early")
    req = answered("unicorns", st.requests, result)
    reveal_scheme = -1
    if isinstance(result, CoinResult):
        assert isinstance(req, JointCoin)  # answered() matched it
        _coin(st, req.purpose, result.value)
    elif isinstance(result, Shuffled):
        pass  # the decks' handles stay as they were: nothing to fold in
    elif isinstance(result, Revealed):
        if st.phase == REVEAL:
            _learn(st, result.handles, result.cards, SCHEMES)
            reveal_scheme = result.handles[0]
            st.reveals.append([st.row[st.hunt], reveal_scheme])
        else:
            _learn(st, result.handles, result.cards, UNICORN_DECK)
    elif isinstance(result, Dealt):
        if result.cards is not None:
            _learn(st, result.handles, result.cards, SCHEMES)
        st.drawn[result.seat] = list(result.handles)
    elif isinstance(result, Shown):
        if result.cards is not None:
            _learn(st, result.handles, result.cards, SCHEMES)
        st.seen[result.to_seat].update(result.handles)
    del st.requests[0]
    st.step += 1
    if reveal_scheme >= 0:
        _scheme_effect(st, reveal_scheme)
    elif not st.requests:
        _after_batch(st)


def _coin(st: UnicornsState, purpose: str, value: int) -> None:
    if purpose == "first":
        st.first = value
    elif purpose == "characters":
        order = PERMUTATIONS[value]
        st.characters = [order[s] for s in range(st.n)]
    else:  # "start": one starting unicorn to each seat, face up
        order = PERMUTATIONS[value]
        st.collections = [[_start_handle(st, order[s])] for s in range(st.n)]


# --------------------------------------------------------------------------- hunts


def seat_of(st: UnicornsState, character: int) -> int:
    """The seat playing ``character``, or -1 if nobody does."""
    chars = st.characters
    return chars.index(character) if character in chars else -1


def may_use(st: UnicornsState, seat: int, character: int) -> bool:
    """``seat`` plays ``character``, which has its power at this table, unused today."""
    return st.characters[seat] == character and st.opts.power_of(character) and not st.used[seat]


def begin_hunt(st: UnicornsState, index: int) -> None:
    """Start hunting ``row[index]``: the first player decides first."""
    st.phase = BID
    st.hunt = index
    st.bid = 0
    st.acted = 0
    st.takers = []
    st.cards = [[] for _ in range(st.n)]
    st.boost = -1
    st.winner = -1
    st.chosen = -1
    st.current = st.first


def advance_bid(st: UnicornsState) -> None:
    """``current`` has decided (and, as a hunter, sealed its cards): on to the next seat, or
    to the opening once everyone has decided (an escape if nobody hunts)."""
    st.acted += 1
    if st.acted < st.n:
        st.current = (st.current + 1) % st.n
        st.phase = BID
    elif st.takers:
        st.phase = OPEN
    else:
        escape(st)


def opened(st: UnicornsState) -> None:
    """Every hunter has opened: the Knight's window, else the winner."""
    knight = seat_of(st, KNIGHT)
    if knight >= 0 and may_use(st, knight, KNIGHT) and knight in st.takers and len(st.takers) > 1:
        st.phase = KNIGHT_TURN
        st.current = knight
        return
    decide(st)


def totals(st: UnicornsState) -> dict[int, int]:
    """Each hunter's total: the opened cards, plus the Knight's bonus if he used it."""
    return {s: sum(st.cards[s]) + (KNIGHT_BONUS if s == st.boost else 0) for s in st.takers}


def standing(st: UnicornsState) -> list[int]:
    """Hunters whose total nobody else shares, best total first (every shared total is out)."""
    tot = totals(st)
    values = list(tot.values())
    alone = [s for s in st.takers if values.count(tot[s]) == 1]
    return sorted(alone, key=lambda s: -tot[s])


def decide(st: UnicornsState) -> None:
    """The hunt's winner by the tie rule; then the scheme to reveal (or straight to taking)."""
    ranked = standing(st)
    if not ranked:
        escape(st)
        return
    winner = st.winner = ranked[0]
    schemes = st.planted[st.row[st.hunt]]
    if not schemes:
        take(st, winner)
    elif len(schemes) == 1:
        reveal(st, schemes[0])
    else:
        st.phase = CHOOSE
        st.current = winner


def reveal(st: UnicornsState, scheme: int) -> None:
    """Ask the table to reveal ``scheme`` (its owner's share is the one missing)."""
    st.chosen = scheme
    st.phase = REVEAL
    st.requests.append(RevealToAll((scheme,)))


def _scheme_effect(st: UnicornsState, scheme: int) -> None:
    label = st.card_of[scheme]
    winner = st.winner
    owner = st.owner[scheme]
    if label == TROJAN and owner != winner:
        gifts = list(st.collections[owner])
        take(st, owner, finish=False)
        if len(gifts) > 1:
            st.phase = GIVE
            st.current = owner
        elif gifts:
            give(st, owner, gifts[0])
        else:
            finish_hunt(st, owner)
    elif label == AMBUSH:
        ranked = standing(st)
        after = ranked[ranked.index(winner) + 1 :]
        if after:
            take(st, after[0])
        else:
            escape(st)
    elif label == DECOY and owner in st.takers:
        take(st, owner)
    elif label == CHAMELEON:
        st.phase = COLOUR
        st.current = winner
    else:
        take(st, winner)


def give(st: UnicornsState, owner: int, unicorn: int) -> None:
    """A Trojan's owner gives ``unicorn`` to the hunt's winner; the hunt is settled."""
    st.collections[owner].remove(unicorn)
    st.collections[st.winner].append(unicorn)
    finish_hunt(st, owner)


def take(st: UnicornsState, seat: int, finish: bool = True) -> None:
    """``seat`` takes the hunted unicorn with the revealed scheme; the others go unseen."""
    unicorn = st.row[st.hunt]
    st.collections[seat].append(unicorn)
    if st.chosen >= 0:
        st.scheme_on[unicorn] = st.chosen
    st.lost.extend(h for h in st.planted.pop(unicorn) if h != st.chosen)
    if finish:
        finish_hunt(st, seat)


def escape(st: UnicornsState) -> None:
    """The hunted unicorn escapes: it and its scheme cards are discarded."""
    unicorn = st.row[st.hunt]
    st.escaped.append(unicorn)
    st.lost.extend(st.planted.pop(unicorn))
    finish_hunt(st, -1)


def finish_hunt(st: UnicornsState, taker: int) -> None:
    """The hunt is settled (``taker`` = -1: it escaped): a double rainbow ends the game;
    the taker gets the first-player token; then the Wizard's window, or the next hunt."""
    if end_if_double_rainbow(st):
        return
    if taker >= 0:
        st.first = taker
    wizard = seat_of(st, WIZARD)
    if wizard >= 0 and may_use(st, wizard, WIZARD) and st.cards[wizard]:
        st.phase = WIZARD_TURN
        st.current = wizard
        return
    next_hunt(st)


def next_hunt(st: UnicornsState) -> None:
    """The next unicorn of the row, or the black market after the last one."""
    if st.hunt + 1 < len(st.row):
        begin_hunt(st, st.hunt + 1)
        return
    st.phase = MARKET
    st.hunt = -1
    st.acted = 0
    st.current = st.first
    st.takers = []
    st.cards = [[] for _ in range(st.n)]
    st.bid = 0
    st.boost = st.winner = st.chosen = -1


def market_done(st: UnicornsState) -> None:
    """``current`` has bought or declined: the next buyer, or the end of the day."""
    if end_if_double_rainbow(st):
        return
    st.acted += 1
    if st.acted < st.n:
        st.current = (st.first + st.acted) % st.n
        return
    _record_day(st)
    if st.day >= DAYS:
        st.winners = richest(st)
        st.phase = OVER
    else:
        start_day(st)


def _record_day(st: UnicornsState) -> None:
    now = scores(st)
    before = [sum(row[s] for row in st.standings) for s in range(st.n)]
    st.standings.append([now[s] - before[s] for s in range(st.n)])


def end_if_double_rainbow(st: UnicornsState) -> bool:
    """End the game at once if someone holds a double rainbow (they win; if two players got
    one by the same change, both do). Say whether it ended."""
    winners = double_rainbows(st)
    if not winners:
        return False
    _record_day(st)
    st.winners = winners
    st.phase = OVER
    st.requests.clear()
    return True


__all__ = [
    "advance_bid",
    "begin",
    "begin_hunt",
    "decide",
    "give",
    "market_done",
    "may_use",
    "next_hunt",
    "opened",
    "pick",
    "resolve",
    "reveal",
    "seat_of",
    "standing",
    "take",
    "totals",
]

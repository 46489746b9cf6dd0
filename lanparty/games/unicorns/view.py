"""What the table shows: whose turn, the view of one seat, the outcome, the audit."""

from __future__ import annotations

from collections.abc import Mapping

from protocol.contract import (
    Commit,
    GameOver,
    Open,
    Outcome,
    Plain,
    Status,
    TableOps,
    Turn,
    Violation,
)

from .cards import (
    CHARACTERS,
    COLOURS,
    ITEMS,
    NEUTRAL,
    PATE_VALUE,
    PRINCESS,
    SHAMAN,
    unicorn_coins,
)
from .flow import may_use, totals
from .rules import remaining, unopened
from .scoring import arrangement, collection_worths, colour_counts, scores
from .state import (
    BID,
    COMMIT,
    DAYS,
    MARKET,
    OPEN,
    OVER,
    PHASE_NAMES,
    SETUP,
    TRAP,
    UnicornsState,
)


def status(st: UnicornsState) -> Status:
    """Table requests first; a hunter's sealed cards (``Commit`` of one seat, then ``Open``
    of every hunter); else a turn; or over."""
    if st.requests:
        return TableOps(tuple(st.requests))
    if st.phase == OVER:
        return GameOver(outcome(st))
    if st.phase == COMMIT:
        return Commit((st.current,))
    if st.phase == OPEN:
        return Open(tuple(unopened(st)))
    return Turn(st.current)


def outcome(st: UnicornsState) -> Outcome:
    """Scores as they stand (final once over), what each seat gained per day, the winners."""
    return Outcome(
        totals=tuple(scores(st)),
        rounds=tuple(tuple(r) for r in st.standings),
        winners=tuple(st.winners),
        finished=st.phase == OVER,
    )


def _unicorn(st: UnicornsState, u: int, value: int, colour: int) -> dict[str, Plain]:
    """A collected unicorn ``u`` whose worth is ``value`` and colour ``colour`` now."""
    scheme = st.scheme_on.get(u)
    return {
        "unicorn": u,
        "label": st.card_of[u],
        "colour": COLOURS[colour] if colour != NEUTRAL else None,
        "coins": unicorn_coins(st.card_of[u]),
        "worth": value,
        "tokens": list(st.tokens.get(u, ())),
        "scheme": st.card_of[scheme] if scheme is not None else None,
    }


def _hunt(st: UnicornsState) -> dict[str, Plain] | None:
    if st.hunt < 0 or st.phase in (SETUP, TRAP, MARKET, OVER):
        return None
    n = st.n
    deciding = st.phase in (BID, COMMIT)
    decided = [(st.current - st.acted + i) % n for i in range(st.acted)] if deciding else range(n)
    writing = st.current if st.phase == COMMIT else -1
    out: dict[str, Plain] = {
        "unicorn": st.row[st.hunt],
        "bid": st.bid,
        "takers": list(st.takers),
        "passed": [s for s in decided if s not in st.takers],
        "sealed": [s for s in st.takers if not st.cards[s] and s != writing],
        "cards": [list(c) for c in st.cards],
        "boost": st.boost if st.boost >= 0 else None,
        "winner": st.winner if st.winner >= 0 else None,
    }
    if st.phase not in (BID, COMMIT, OPEN):
        out["totals"] = [[s, t] for s, t in totals(st).items()]
    return out


def view(st: UnicornsState, seat: int | None) -> dict[str, Plain]:
    """Everything ``seat`` may know (``None``: a spectator). Built from public fields plus
    the cards ``seat`` drew, discarded or was shown, so it is the same in every copy that
    knows what ``seat`` knows. A planted scheme's label is shown only to a Princess who
    peeked at it: its owner placed it and may remember it, but the table does not show it
    again."""
    card_of = st.card_of
    expert = st.opts.expert
    turn = st.phase not in (SETUP, OVER) and not st.requests
    # Each collected unicorn's worth and colour, worked out once for its row, the scores and
    # the rainbows (as ``scoring.score`` would: the same functions).
    held = collection_worths(st)
    counts = [colour_counts(c for _w, c in coll) for coll in held]
    v: dict[str, Plain] = {
        "seat": seat,
        "players": st.n,
        "day": st.day,
        "days": DAYS,
        "phase": PHASE_NAMES[st.phase],
        "current": st.current if turn and st.phase != OPEN else None,
        "first": st.first,
        "expert": expert,
        "schemes_in_play": st.opts.schemes,
        "characters": [CHARACTERS[c] if c >= 0 else None for c in st.characters],
        "powers": [c >= 0 and st.opts.power_of(c) for c in st.characters],
        "character_powers": {c: st.opts.power_of(k) for k, c in enumerate(CHARACTERS)},
        "used": list(st.used),
        "hands": [list(h) for h in st.hands],
        "row": [
            {
                "unicorn": u,
                "label": card_of.get(u),
                "schemes": [[h, st.owner[h]] for h in st.planted[u]],
            }
            for u in remaining(st)
        ],
        "hunt": _hunt(st),
        "collections": [
            [_unicorn(st, u, w, c) for u, (w, c) in zip(coll, worths, strict=True)]
            for coll, worths in zip(st.collections, held, strict=True)
        ],
        "pates": list(st.pates),
        "market": {item: st.market[i] for i, item in enumerate(ITEMS)},
        "scheme_decks": [len(d) for d in st.scheme_decks],
        "drawn": [len(d) for d in st.drawn],
        "scores": [
            sum(w for w, _c in coll) + PATE_VALUE * pates + arrangement(n)[0]
            for coll, pates, n in zip(held, st.pates, counts, strict=True)
        ],
        "rainbows": [arrangement(n)[1] for n in counts],
        "standings": [list(r) for r in st.standings],
        "reveals": [
            {"unicorn": u, "label": card_of[u], "owner": st.owner[h], "scheme": card_of[h]}
            for u, h in st.reveals
        ],
        "winners": list(st.winners),
    }
    if not expert:
        v["played"] = [list(p) for p in st.played]
        v["discards"] = [[card_of[h] for h in d] for d in st.discards]
    else:
        v["discards"] = [len(d) for d in st.discards]
    if seat is not None:
        v["my_drawn"] = [[h, card_of[h]] for h in st.drawn[seat]]
        if expert:
            v["my_discards"] = [card_of[h] for h in st.discards[seat]]
        seen = st.seen[seat]
        v["peeked"] = [
            [h, card_of.get(h)] for u in remaining(st) for h in st.planted[u] if h in seen
        ]
        v["may_peek"] = may_use(st, seat, PRINCESS)
        v["may_shift"] = may_use(st, seat, SHAMAN)
    return v


def audit(st: UnicornsState, cards: Mapping[int, str]) -> list[Violation]:
    """Nothing to name: no rule of this game depends on a card that stays hidden. Every card
    a move or a power shows is checked when it is shown (the protocol's proofs), a planted
    scheme may be any card its owner drew, and an unrevealed scheme has no effect. So the
    audit finds no violation the play could not catch; it returns an empty list."""
    return []

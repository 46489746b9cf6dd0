"""Kill the Unicorns played out by random and heuristic bots through the rig, in every variant.

Each bot chooses from its own seat's copy (its view and its legal moves). After every input
the rig checks each seat's view against the omniscient state and the legal moves of every
seat in both; every move is checked in every copy. Here we also check, after every input,
that no view pairs a planted scheme with its label unless that seat peeked at it, that no
view names a card still in a scheme deck, and at the end that the game is over with winners,
that replaying the log gives the same state bit for bit (in the omniscient state and in one
seat's copy), that every move survives the wire, and that the audit finds nothing. Last,
in every phase of a few random games, ``legal_moves`` is exactly the set of candidate moves
that ``check`` accepts.
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement
from typing import Any

import msgpack
import pytest
from unicorns_rig import G, Rig

from lanparty.games.bots import RandomBot
from lanparty.games.localdealer import for_seat
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.state import MARKET, OPEN
from protocol.contract import Commit, GameOver, IllegalMove, Turn

VARIANTS: list[dict[str, Any]] = [
    {},
    {"expert": True},
    {"powers": False, "first": "host"},
    {"initiation": "no_schemes"},
    {"initiation": "no_schemes_no_powers", "first": "host"},
]


def pack(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def _pairs(value: Any) -> list[tuple[int, str]]:
    """Every [handle, label] pair anywhere in a view."""
    out: list[tuple[int, str]] = []
    if isinstance(value, dict):
        for v in value.values():
            out.extend(_pairs(v))
    elif isinstance(value, list | tuple):
        if len(value) == 2 and type(value[0]) is int and isinstance(value[1], str):
            out.append((value[0], value[1]))
        else:
            for v in value:
                out.extend(_pairs(v))
    return out


class Watched(Rig):
    """The rig, plus a direct secrecy check of every view after every input."""

    def verify(self) -> None:
        super().verify()
        st = self.state
        planted = {h for hs in st.planted.values() for h in hs}
        in_decks = {h for deck in st.scheme_decks for h in deck}
        for seat in [*range(self.n), None]:
            for h, _label in _pairs(G.view(st, seat)):
                assert h not in in_decks, f"seat {seat} sees a card still in a scheme deck"
                if h in planted:
                    assert seat is not None and h in st.seen[seat], f"seat {seat} sees {h}"


def _play(seed: int, watched: bool) -> Rig:
    rng = random.Random(seed)
    n = 3 + seed % 2
    options = VARIANTS[seed % len(VARIANTS)]
    cls = Watched if watched else Rig
    rig = cls(n, rng=rng, copies=watched, check_views=watched, **options)
    bots = [HeuristicBot() if rng.random() < 0.5 else RandomBot() for _ in range(n)]
    rig.play(bots, rng)
    return rig


@pytest.mark.parametrize("seed", range(20))
def test_bots_play_every_variant_to_the_end_legally(seed: int) -> None:
    rig = _play(seed, watched=True)
    state = rig.state
    status = G.status(state)
    assert isinstance(status, GameOver) and status.outcome.finished and status.outcome.winners
    for copy in rig.copies:
        assert G.outcome(copy) == status.outcome
    assert G.audit(state, rig.cards) == []
    # Replay the log into a fresh state and into seat 0's copy: identical encodings.
    replay = G.setup(rig.n, rig.options)
    seat0 = G.setup(rig.n, rig.options)
    for actor, entry in rig.log:
        if actor is None:
            G.resolve(replay, entry)
            G.resolve(seat0, for_seat(entry, 0))
        else:
            G.check(replay, actor, entry)
            G.apply(replay, actor, entry)
            G.check(seat0, actor, entry)
            G.apply(seat0, actor, entry)
            wire = msgpack.unpackb(pack(entry), raw=False)
            assert G.moves.read(wire) == entry
    assert pack(G.encode_state(replay)) == pack(G.encode_state(state))
    assert pack(G.encode_state(seat0)) == pack(G.encode_state(rig.copies[0]))
    decoded = G.decode_state(msgpack.unpackb(pack(G.encode_state(rig.copies[1])), raw=False))
    assert pack(G.encode_state(decoded)) == pack(G.encode_state(rig.copies[1]))


def test_heuristic_bot_beats_random_bots() -> None:
    rng = random.Random(7)
    games, wins = 40, 0.0
    for g in range(games):
        n = 3 + g % 2
        hero = g % n
        rig = Rig(n, rng=rng, copies=False, check_views=False, **VARIANTS[g % len(VARIANTS)])
        rig.play([HeuristicBot() if s == hero else RandomBot() for s in range(n)], rng)
        winners = rig.state.winners
        wins += (hero in winners) / len(winners)
    assert wins / games > 0.6  # a random bot's share would be 1/3 or 1/4


# ----------------------------------------------------------------------------- legal == check


def _universe(rig: Rig, seat: int) -> list[tuple[Any, ...]]:
    """Candidate moves for ``seat`` now, well beyond the legal ones: every shape of move the
    phase knows, over the handles and values in play plus a few that are not."""
    st = rig.state
    schemes = sorted(st.owner)
    unicorns = sorted({*st.row, *(u for c in st.collections for u in c)})
    colours = ["pink", "blue", "green", "yellow", "", "violet"]
    combos = [c for k in range(5) for c in combinations_with_replacement(range(5), k)]
    out: list[tuple[Any, ...]] = [("pass",), ("join",), ("boost",), ("decline",)]
    out += [("hunt", k) for k in range(5)]
    out += [("cards", c) for c in combos] + [("cards", (3, 1))]
    out += [("recall", v) for v in range(5)] + [("colour", c) for c in colours]
    out += [("reveal", h) for h in schemes] + [("give", u) for u in unicorns]
    out += [("peek", h) for h in schemes]
    out += [("shift", h, u) for h in schemes for u in st.row]
    pair = st.drawn[seat] or [0, 1]
    for keep in [*pair, schemes[0] if schemes else 0]:
        for discard in pair:
            for u in [*st.row, -1]:
                for label in ["", "shiny", *(st.card_of.get(h, "x") for h in pair)]:
                    out.append(("plant", keep, u, discard, label))
    if st.phase == MARKET:
        mine = st.collections[seat] + [u for u in unicorns if u not in st.collections[seat]][:1]
        hand = st.hands[seat]
        pays = sorted({c for k in range(1, len(hand) + 1) for c in combinations(hand, k)})
        for item in ("butcher", "horn", "candy", "dust"):
            for u in mine:
                for colour in colours[:5]:
                    out += [("buy", item, u, colour, p) for p in pays]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_legal_moves_are_exactly_the_moves_check_accepts(seed: int) -> None:
    rng = random.Random(100 + seed)
    rig = Rig(3 + seed % 2, rng=rng, check_views=False, **VARIANTS[seed])
    bots = [RandomBot() for _ in range(rig.n)]
    while not isinstance(G.status(rig.state), GameOver):
        if rig.state.phase not in (OPEN,) and not rig.state.requests:
            seat = rig.state.current
            legal = set(G.legal_moves(rig.state, seat))
            accepted = set()
            for move in _universe(rig, seat):
                try:
                    G.check(rig.state, seat, move)
                except IllegalMove:
                    continue
                accepted.add(move)
            assert accepted == legal, (rig.state.phase, accepted ^ legal)
            other = (seat + 1) % rig.n
            assert G.legal_moves(rig.state, other) == []
        status = G.status(rig.state)
        seat = status.seat if isinstance(status, Turn) else status.seats[0]  # type: ignore[union-attr]
        move = bots[seat].choose({}, G.legal_moves(rig.copies[seat], seat), rng)
        if isinstance(status, Commit):
            rig.seal(seat, *move)
        else:
            rig.move(seat, *move)

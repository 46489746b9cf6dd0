"""Kill the Unicorns played out by random and heuristic bots through the rig, in every variant.

Each bot chooses from its own seat's copy (its view and its legal moves). After every input
the rig checks each seat's view against the omniscient state and the legal moves of every
seat in both; every move is checked in every copy. Here we also check, after every input,
that no view pairs a planted scheme with its label unless that seat peeked at it, that no
view names a card still in a scheme deck, and at the end that the game is over with winners,
that replaying the log gives the same state bit for bit (in the omniscient state and in one
seat's copy), that every move survives the wire, and that the audit finds nothing.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
from unicorns_rig import G, Rig

from lanparty.games.bots import RandomBot
from lanparty.games.localdealer import for_seat
from lanparty.games.unicorns.bots import HeuristicBot
from protocol.contract import GameOver

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
            assert G.decode_move(wire) == entry
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

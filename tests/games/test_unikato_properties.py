"""Property tests: random Unikato games through the local table, one omniscient state and
one copy per seat told only what that seat may know.

All 81 tiles are where they belong after every input, and the grid is always legal.

After every input: every copy agrees on the public view; each seat's view is the same from
its own copy and from the omniscient state; the seat to move lists the same legal moves in
both. Every move is checked by every copy (``LocalTable.submit``). Each game ends with
winners, an empty audit (the bots are honest), and a replay of its log (and of one seat's
share of it) gives the same encoding, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanparty.games.bots import RandomBot, bots_for
from lanparty.games.localdealer import LocalTable, for_seat
from lanparty.games.unikato import UNIKATO
from lanparty.games.unikato.bots import HeuristicBot
from lanparty.games.unikato.state import UnikatoState
from lanparty.games.unikato.tiles import CODE, differences
from protocol.contract import GameOver, Move, Plain, Turn


def pack(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


options = st.fixed_dictionaries(
    {"first": st.sampled_from(["random", "host"]), "rounds": st.integers(1, 2)}
)


def tiles_conserved_and_grid_legal(state: UnikatoState, labels: dict[int, str]) -> None:
    """All 81 tiles, each exactly once, in the bag, the display, the hands and the grid; every
    tile laid touches one laid before it (the start aside) and differs in exactly one
    feature from every tile it touches; no cell holds two. (``labels``: the dealer's, which
    knows the bag too.)"""
    where = [*state.bag, *state.display, *(h for hand in state.hands for h in hand)]
    where += [h for _, _, h in state.placed]
    assert len(where) == len(set(where)) == 81
    code = {h: CODE[labels[h]] for h in where}
    assert sorted(code.values()) == list(range(81))
    at: dict[tuple[int, int], int] = {}
    for i, (x, y, h) in enumerate(state.placed):
        assert (x, y) not in at
        touching = [at[c] for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if c in at]
        assert i == 0 or touching
        assert all(len(differences(code[h], code[o])) == 1 for o in touching)
        at[(x, y)] = h


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options,
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.lists(st.booleans(), min_size=4, max_size=4),
    st.integers(0, 300),
)
def test_random_games_stay_legal_private_and_replayable(
    opts: dict[str, Plain], seats: int, seed: int, clever: list[bool], cut: int
) -> None:
    table = LocalTable(UNIKATO, seats, opts, random.Random(seed), copies=True)
    table.record = True
    factories = bots_for("unikato")
    players = [factories["heuristic" if clever[s] else "random"]() for s in range(seats)]
    inputs = 0
    while True:
        table.resolve_pending()
        state, copies = table.state, table.copies
        public = UNIKATO.view(state, None)
        for seat in range(seats):
            assert UNIKATO.view(copies[seat], None) == public
            assert UNIKATO.view(copies[seat], seat) == UNIKATO.view(state, seat)
        if public["phase"] in ("action", "placing", "draw"):
            tiles_conserved_and_grid_legal(state, table.dealer.cards)
        status = UNIKATO.status(state)
        if isinstance(status, Turn):
            mover = status.seat
            assert UNIKATO.legal_moves(copies[mover], mover) == UNIKATO.legal_moves(state, mover)
        if inputs == cut:
            plain = UNIKATO.encode_state(state)
            again = UNIKATO.decode_state(msgpack.unpackb(pack(plain), raw=False))
            assert pack(UNIKATO.encode_state(again)) == pack(plain)
        if not table.step(players):
            break
        inputs += 1
        assert inputs < 20_000, "the game did not end"
    outcome = UNIKATO.outcome(state)
    assert isinstance(UNIKATO.status(state), GameOver) and outcome.finished and outcome.winners
    assert len(outcome.rounds) == opts["rounds"]
    assert all(sum(outcome.rounds[r][s] for r in range(len(outcome.rounds))) == outcome.totals[s]
               for s in range(seats))  # fmt: skip
    assert UNIKATO.audit(state, table.dealer.cards) == []

    replay = UNIKATO.setup(seats, opts)
    seat0 = UNIKATO.setup(seats, opts)
    for actor, entry in table.log:
        if actor is None:
            UNIKATO.resolve(replay, entry)  # type: ignore[arg-type]
            UNIKATO.resolve(seat0, for_seat(entry, 0))  # type: ignore[arg-type]
        else:
            wire = msgpack.unpackb(pack(entry), raw=False)
            move = UNIKATO.moves.read(wire)
            assert move == entry
            UNIKATO.check(seat0, actor, move)
            UNIKATO.apply(replay, actor, move)
            UNIKATO.apply(seat0, actor, move)
    assert pack(UNIKATO.encode_state(replay)) == pack(UNIKATO.encode_state(state))
    assert pack(UNIKATO.encode_state(seat0)) == pack(UNIKATO.encode_state(copies[0]))


class Watched(HeuristicBot):
    """The heuristic bot, watched: it never passes or ends its first action without placing
    while it could place."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        move = super().choose(view, legal, rng)
        assert move in legal
        can_place = any(m is not None and m[0] == "place" for m in legal)
        if can_place:
            assert move is not None and move[0] == "place", (move, view["phase"])
        return move


def test_the_heuristic_bot_places_whenever_it_can() -> None:
    rng = random.Random(3)
    for _ in range(12):
        LocalTable(UNIKATO, 4, {"rounds": 1}, rng).play([Watched() for _ in range(4)])


def test_the_heuristic_bot_beats_random_bots() -> None:
    rng = random.Random(11)
    wins = 0.0
    games = 40
    for g in range(games):
        hero = g % 4
        players = [HeuristicBot() if s == hero else RandomBot() for s in range(4)]
        outcome = LocalTable(UNIKATO, 4, {"rounds": 1}, rng).play(players)
        wins += (hero in outcome.winners) / len(outcome.winners)
    assert wins / games > 0.7  # a random bot's share would be 0.25


def test_the_heuristic_bot_finds_the_longest_chain_and_prefers_a_bonus() -> None:
    # Grid: the start cOsW at (0, 0). Hand: cOmW, cOlW, cPlW (a row of three to the right)
    # and sOsW (one tile alone). The bot starts the row of three.
    view: dict[str, Plain] = {
        "phase": "action", "action": 1, "bonus": False, "bag": 10,
        "grid": [[0, 0, "cOsW"]], "display": [],
        "hand": [[1, "sOsW"], [2, "cPlW"], [3, "cOlW"], [4, "cOmW"]],
    }  # fmt: skip
    state = _state_for(view)
    legal = UNIKATO.legal_moves(state, 0)
    move = HeuristicBot().choose(view, legal, random.Random(0))
    assert move is not None and move[2] == "cOmW"
    assert move[3:] == (0, -1)  # the first such cell, top row first
    # A tile diagonal to the start makes two cells touch two tiles: the bot takes the first of
    # those (the row of three still fits on from there) for the bonus action.
    view["grid"] = [[0, 0, "cOsW"], [-1, 1, "cOmG"]]
    state = _state_for(view)
    move = HeuristicBot().choose(view, UNIKATO.legal_moves(state, 0), random.Random(0))
    assert move is not None and move[2:] == ("cOmW", -1, 0)


def _state_for(view: dict[str, Plain]):  # type: ignore[no-untyped-def]
    """A state whose seat 0 sees ``view``'s grid and hand (only for listing moves)."""
    from lanparty.games.unikato.flow import learn
    from lanparty.games.unikato.state import ACT
    from lanparty.games.unikato.tiles import CODE

    state = UNIKATO.setup(2, {"first": "host"})
    state.requests.clear()
    state.phase = ACT
    handle = 100
    for x, y, label in view["grid"]:  # type: ignore[union-attr,misc]
        learn(state, handle, CODE[label])
        state.board.add((x, y), CODE[label])
        state.placed.append((x, y, handle))
        handle += 1
    for h, label in view["hand"]:  # type: ignore[union-attr,misc]
        learn(state, h, CODE[label])
        state.hands[0].append(h)
    state.bag = [200]
    return state

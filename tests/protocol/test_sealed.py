"""Sealed moves (the contract's Commit/Open) and a joint coin, with a two-line test game:
nobody sees a pick before every pick is committed, and an opening must match its commitment."""

from __future__ import annotations

from dataclasses import replace

from protocol import Phase, Rejected
from protocol._bodies import SealedOpen
from protocol.contract import (
    CoinResult,
    Commit,
    Committed,
    GameOver,
    IllegalMove,
    JointCoin,
    Open,
    Outcome,
    TableOps,
)
from protocol.harness import Harness


class _State:
    def __init__(self, n):
        self.n, self.coin, self.requests = n, -1, [JointCoin(n, "who")]
        self.committed, self.picks = set(), {}


class Guess:
    """Each seat secretly picks 0..9; the coin names whose pick wins."""

    name, min_seats, max_seats, option_specs = "guess", 2, 4, ()

    def validate_options(self, given):
        if given:
            raise IllegalMove("no options")
        return {}

    def setup(self, seats, options):
        return _State(seats)

    def status(self, st):
        if st.requests:
            return TableOps(tuple(st.requests))
        missing = tuple(s for s in range(st.n) if s not in st.committed)
        if missing:
            return Commit(missing)
        unopened = tuple(s for s in range(st.n) if s not in st.picks)
        if unopened:
            return Open(unopened)
        return GameOver(self.outcome(st))

    def check(self, st, seat, move):
        if not (len(move) == 2 and move[0] == "pick" and move[1] in range(10)):
            raise IllegalMove("pick a number 0..9")

    def apply(self, st, seat, move):
        st.picks[seat] = move[1]

    def resolve(self, st, result):
        if isinstance(result, CoinResult):
            st.coin = result.value
            st.requests.clear()
        elif isinstance(result, Committed):
            st.committed.add(result.seat)

    def legal_moves(self, st, seat):
        return [("pick", k) for k in range(10)]

    def view(self, st, seat):
        return {"picks": sorted(st.picks.items()), "coin": st.coin}

    def outcome(self, st):
        over = len(st.picks) == st.n
        return Outcome((0,) * st.n, (), (st.coin,) if over else (), over)

    def encode_state(self, st):
        return [st.coin, sorted(st.committed), sorted(st.picks.items())]

    def decode_state(self, value):
        raise NotImplementedError

    def decode_move(self, value):
        return tuple(value)

    def audit(self, st, cards):
        return []


class _Pick:
    def choose(self, view, legal, rng):
        return legal[rng.randrange(len(legal))]


def test_sealed_moves_and_coin():
    games = {"guess": Guess()}
    h = Harness(games, "guess", 3, {}, [_Pick() for _ in range(3)], seed=5)
    h.pump()
    for _ in range(2):  # two seats commit; nothing about their picks is public yet
        assert h.step()
        h.pump()
    assert all(p.table.state.picks == {} for p in h.parties)
    assert [se.entry.body.KIND for se in h.host.table.log.entries[-2:]] == ["seal_commit"] * 2
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    picks = [p.table.state.picks for p in h.parties]
    assert picks[0] == picks[1] == picks[2] and len(picks[0]) == 3
    coins = {p.table.state.coin for p in h.parties}
    assert len(coins) == 1 and coins.pop() in range(3)


def test_opening_that_does_not_match_is_refused():
    games = {"guess": Guess()}
    h = Harness(games, "guess", 2, {}, [_Pick() for _ in range(2)], seed=6)

    def change(e):
        if isinstance(e.body, SealedOpen):
            o = e.body.opening
            return replace(e, body=SealedOpen(replace(o, value=o.value[:-1] + b"\x09")))
        return None

    h.tamper(1, change)
    h.run()
    errors = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert len(errors) == 1 and "bad opening" in errors[0].reason and errors[0].seat == 1
    assert all(p.phase is Phase.CLOSED for p in h.parties)

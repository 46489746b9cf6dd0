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
    CommitTimeout,
    GameOver,
    IllegalMove,
    JointCoin,
    Open,
    Outcome,
    TableOps,
)
from protocol.harness import Harness
from protocol.shapes import Int, Moves


class _State:
    def __init__(self, n):
        self.n, self.coin, self.requests = n, -1, [JointCoin(n, "who")]
        self.committed, self.picks, self.absent = set(), {}, set()


class Guess:
    """Each seat secretly picks 0..9; the coin names whose pick wins. With ``closer``, that
    seat may close the picking early: the seats still missing pick nothing."""

    name, min_seats, option_specs = "guess", 2, ()
    moves = Moves.of(pick=(Int(-(2**31), 2**31),))

    def __init__(self, closer=None, max_seats=4):
        self.closer, self.max_seats = closer, max_seats

    def validate_options(self, given):
        if given:
            raise IllegalMove("no options")
        return {}

    def setup(self, seats, options):
        return _State(seats)

    def status(self, st):
        if st.requests:
            return TableOps(tuple(st.requests))
        missing = tuple(s for s in range(st.n) if s not in st.committed | st.absent)
        if missing:
            return Commit(missing, timer=30 if self.closer is not None else 0, closer=self.closer)
        unopened = tuple(s for s in sorted(st.committed) if s not in st.picks)
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
        elif isinstance(result, CommitTimeout):
            st.absent.update(result.seats)

    def legal_moves(self, st, seat):
        return [("pick", k) for k in range(10)]

    def view(self, st, seat):
        return {"picks": sorted(st.picks.items()), "coin": st.coin}

    def outcome(self, st):
        over = len(st.picks) + len(st.absent) == st.n
        return Outcome((0,) * st.n, (), (st.coin,) if over else (), over)

    def encode_state(self, st):
        return [st.coin, sorted(st.committed), sorted(st.picks.items())]

    def decode_state(self, value):
        raise NotImplementedError

    def audit(self, st, cards):
        return []


class _Pick:
    def choose(self, view, legal, rng):
        return legal[rng.randrange(len(legal))]


def test_sealed_moves_and_coin():
    games = {"guess": Guess()}
    h = Harness(games, "guess", 3, {}, [_Pick() for _ in range(3)], seed=5)
    h.pump()
    # Every seat commits at the same moment: their commitments race for log positions, and
    # none is lost (once, two of three were dropped silently). Nothing about a pick is public.
    assert h.step()
    h.deliver_to_host(0, h.peers[0].data_to_send())
    h.deliver_to_host(1, h.peers[1].data_to_send())  # both proposed for one position
    h.pump()
    kinds = [se.entry.body.KIND for se in h.host.table.log.entries]
    assert kinds.count("seal_commit") == 3
    last_commit = max(i for i, k in enumerate(kinds) if k == "seal_commit")
    assert kinds.index("seal_open") > last_commit  # every pick sealed before one is shown
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


def _commit_all(h, seats, pick=3):
    """Every seat in ``seats`` seals ``pick`` at once; bytes flow only afterwards."""
    for seat in seats:
        h.by_seat(seat).play(("pick", pick))


def test_the_closer_ends_the_phase_and_the_missing_pick_nothing():
    games = {"guess": Guess(closer=0)}
    h = Harness(games, "guess", 3, {}, [_Pick() for _ in range(3)], seed=7)
    h.pump()
    st = h.host.status()
    assert isinstance(st, Commit) and st.closer == 0 and h.host.table.missing() == (0, 1, 2)
    _commit_all(h, [1])
    h.pump()
    assert h.host.table.missing() == (0, 2)  # every seat still missing is named
    late = h.by_seat(2)
    with __import__("pytest").raises(Exception, match="may not close"):
        late.close_phase()  # only the closer
    h.host.close_phase()
    h.pump()
    assert all(p.table.state.absent == {0, 2} for p in h.parties)
    with __import__("pytest").raises(Exception, match="not this peer's move"):
        late.play(("pick", 1))  # too late: the phase is over
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert all(p.table.state.picks == {1: 3} for p in h.parties)


def test_a_sealed_move_is_checked_before_it_is_committed_and_a_bad_one_stops_the_table():
    import pytest

    from crypto import commit
    from protocol import LocalProtocolError, Stopped, pack

    games = {"guess": Guess()}
    h = Harness(games, "guess", 2, {}, [_Pick() for _ in range(2)], seed=8)
    h.pump()
    peer = h.by_seat(1)
    with pytest.raises(LocalProtocolError, match="pick a number"):
        peer.play(("pick", 42))
    # A program that skips the check commits to 42 anyway: when it opens, the table stops
    # at once naming it, with its commitment and its opening as evidence.
    t = peer.table
    digest, opening = commit(pack(["pick", 42]), t._ctx("sealed", t.anchor, 1))
    t._mine = (t.anchor, digest, opening, False)
    peer._act()
    h.by_seat(0).play(("pick", 4))
    h.pump()
    for i, party in enumerate(h.parties):
        assert party.phase is Phase.STOPPED
        [stop] = [e for e in h.events[i] if isinstance(e, Stopped)]
        assert "sealed a move the rules refuse" in stop.error.reason and stop.error.seat == 1
        assert len(stop.error.evidence) == 2


def test_a_restarted_peer_opens_what_it_sealed_before():
    from protocol import Peer, SealedMove

    games = {"guess": Guess()}
    h = Harness(games, "guess", 3, {}, [_Pick() for _ in range(3)], seed=9)
    h.pump()
    i = next(k for k, p in enumerate(h.peers) if p.seat == 1)
    old = h.peers[i]
    old.play(("pick", 7))
    [blob] = [e.blob for e in iter(old.next_event, None) if isinstance(e, SealedMove)]
    h.deliver_to_host(i, old.data_to_send())  # its commitment is logged, then it dies
    h.host.close(h.conns[i])
    me = old.table.me
    new = Peer(me.identity, old.name, games, key=me.key, seal=me.seal, sealed=blob)
    new.resume(h.host.table_id)
    h.peers[i], h.conns[i] = new, h.host.connect()
    _commit_all(h, [0, 2], pick=5)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert all(p.table.state.picks == {0: 5, 1: 7, 2: 5} for p in h.parties)

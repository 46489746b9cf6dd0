"""Races for a log position (a KaTO call or catch while the next player may play) are won by
a draw every peer can check, never by which move reached the host first: the host's own move
waits in the race like anyone's."""

from __future__ import annotations

from protocol import Applied, Host, MoveDropped, RaceOpened, race_rank
from protocol.contract import Turn
from protocol.harness import Harness

from .conftest import Honest


class Forgetful(Honest):
    """An honest bot that never calls KaTO with its play: a catch then races the next move."""

    def choose(self, view, legal, rng):
        return super().choose(view, [m for m in legal if not (m and len(m) == 5)], rng)


def _to_a_race(games, seed: int) -> Harness:
    """A 3-seat game played until several seats may move for the next position."""
    h = Harness(games, "kato", 3, {"rounds": 1, "hand_size": 3}, [Forgetful()] * 3, seed=seed)
    h.pump()
    for _ in range(400):
        st = h.host.status()
        if isinstance(st, Turn) and len(st.also) >= 1:
            return h
        if not h.step():
            break
        h.pump()
    raise AssertionError("no race in this game")


def test_every_seat_that_may_move_enters_and_the_rank_decides(games) -> None:
    for seed in range(1, 6):
        h = _to_a_race(games, seed)
        st = h.host.status()
        assert isinstance(st, Turn)
        pos, prev = len(h.host.table.log), h.host.table.log.head
        entrants = [h.by_seat(s) for s in (st.seat, *st.also)]
        for party in entrants:  # every one of them moves at once, the host too
            party.play(party.legal_moves()[0])
        assert h.host.racing() == pos
        h.pump()
        [won] = [e for e in h.events[0] if isinstance(e, Applied) and e.pos == pos]
        keys = {p.seat: p.table.me.identity.public.raw for p in entrants}
        assert won.seat == min(keys, key=lambda s: race_rank(prev, keys[s]))
        assert won.contested
        for i, party in enumerate(h.parties):
            if party in entrants and party.seat != won.seat:
                dropped = [e for e in h.events[i] if isinstance(e, MoveDropped)]
                assert dropped and dropped[-1].outranked
        assert any(isinstance(e, RaceOpened) and e.pos == pos for e in h.events[0])
        assert len({p.table.log.head for p in h.parties}) == 1


def test_a_peer_sees_when_the_move_taken_ranks_below_its_own(games) -> None:
    """The host cannot be caught lying about time, but a peer can tell when the winner it was
    shown ranks below its own move (the host then claims that move came too late)."""
    for seed in range(1, 30):
        h = _to_a_race(games, seed)
        st = h.host.status()
        prev = h.host.table.log.head
        peers = [h.by_seat(s) for s in (st.seat, *st.also) if s != 0]
        if not peers or not isinstance(h.by_seat(0), Host) or 0 not in (st.seat, *st.also):
            continue
        mine, theirs = h.host.table.me.identity.public.raw, peers[0].table.me.identity.public.raw
        if race_rank(prev, mine) < race_rank(prev, theirs):
            continue  # we need a peer that ranks before the host
        peers[0].play(peers[0].legal_moves()[0])
        h.host.play(h.host.legal_moves()[0])
        h.host.close_race()  # before the peer's move is even read: the host takes its own
        h.pump()
        i = h.parties.index(peers[0])
        [dropped] = [e for e in h.events[i] if isinstance(e, MoveDropped)]
        assert not dropped.outranked
        return
    raise AssertionError("no seed gave a peer ranking before the host")

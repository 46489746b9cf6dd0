"""A move that shows a held card must prove it, whatever the game's move shape: the game names
the cards (``Game.reveals``) and the protocol demands the mover's share of each. A player who
claims a tile it was never dealt is refused and named (once accepted: the protocol only knew
KaTO's ``play``)."""

from __future__ import annotations

from dataclasses import replace

from protocol import Phase, Rejected
from protocol._bodies import MoveBody
from protocol.contract import (
    Deal,
    Dealt,
    GameOver,
    IllegalMove,
    Outcome,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)
from protocol.harness import Harness
from protocol.shapes import HANDLE, Moves, Text

LABELS = tuple("abcdefgh")


class _State:
    def __init__(self, n):
        self.n = n
        self.requests = [Shuffle("bag", LABELS, tuple(range(8)))]
        self.requests += [Deal("bag", s, (2 * s, 2 * s + 1)) for s in range(n)]
        self.hands: dict[int, list[int]] = {s: [2 * s, 2 * s + 1] for s in range(n)}
        self.placed: list[tuple[int, str]] = []
        self.turn = 0


class Place:
    """Each seat in turn places one tile of its hand, showing it: ``("place", h, label)``."""

    name, min_seats, max_seats, option_specs = "place", 2, 3, ()
    moves = Moves.of(place=(HANDLE, Text(8)))

    def validate_options(self, given):
        return {}

    def setup(self, seats, options):
        return _State(seats)

    def status(self, st):
        if st.requests:
            return TableOps(tuple(st.requests))
        if len(st.placed) == st.n:
            return GameOver(self.outcome(st))
        return Turn(st.turn)

    def reveals(self, move):
        return {move[1]: move[2]} if move[0] == "place" else {}

    def check(self, st, seat, move):
        if move[0] != "place" or move[1] not in st.hands[seat]:
            raise IllegalMove("place a tile of your hand")

    def apply(self, st, seat, move):
        st.hands[seat].remove(move[1])
        st.placed.append((move[1], move[2]))
        st.turn = (st.turn + 1) % st.n

    def resolve(self, st, result):
        assert isinstance(result, Shuffled | Dealt)
        st.requests.pop(0)

    def legal_moves(self, st, seat):
        return []  # the bot below reads its hand from the view

    def view(self, st, seat):
        return {"placed": list(st.placed), "hand": list(st.hands.get(seat, []))}

    def outcome(self, st):
        over = len(st.placed) == st.n
        return Outcome((0,) * st.n, (), (), over)

    def encode_state(self, st):
        return [st.placed, sorted(st.hands.items())]

    def decode_state(self, value):
        raise NotImplementedError

    def audit(self, st, cards):
        return []


def test_a_tile_placed_with_a_false_label_is_refused_and_named() -> None:
    games = {"place": Place()}
    h = Harness(games, "place", 3, {}, [None] * 3, seed=5)
    h.pump()
    seat0 = h.by_seat(0)
    hand = seat0.table.known
    handle = seat0.view()["hand"][0]
    seat0.play(("place", handle, hand[handle]))  # honest: the host places its own tile
    h.pump()
    peer = h.by_seat(1)
    mine = peer.view()["hand"][0]
    truth = peer.table.known[mine]
    lie = next(x for x in LABELS if x != truth)
    h.tamper(
        h.parties.index(peer),
        lambda e: replace(e, body=replace(e.body, move=("place", mine, lie)))
        if isinstance(e.body, MoveBody)
        else None,
    )
    peer.play(("place", mine, truth))
    h.pump()
    [rejected] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert f"card {mine} is not the {lie!r} the move claims" in rejected.reason
    assert rejected.seat == 1 and rejected.culprit == peer.table.me.identity.public.fingerprint
    assert [p for p, _ in h.host.table.game.view(h.host.table.state, None)["placed"]] == [handle]
    assert all(p.phase is Phase.GAME for p in h.parties)

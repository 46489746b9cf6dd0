"""Shared fixtures: the game registry and bots that play honestly, bluff, or challenge."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.kato.bots import HeuristicBot
from protocol import Host, Peer
from protocol.contract import Move, Plain


def _colour(label: str) -> str | None:
    return label[0] if label[0] in "rygb" else None


def is_bluff(view: dict[str, Plain], move: Move | None) -> bool:
    """A Wild Draw Four played while holding a card of the current colour."""
    if move is None or move[0] != "play" or move[2][-1] != "W+4":  # type: ignore[index]
        return False
    colour = view["colour"]
    hand = view["hand"]
    assert isinstance(hand, list)
    return any(_colour(label) == colour for _, label in hand)  # type: ignore[misc]


class Honest:
    """The heuristic bot, minus illegal Wild Draw Fours; ``challenge`` True: always challenge,
    False: never, None: as the heuristic bot decides."""

    def __init__(self, challenge: bool | None = None) -> None:
        self.bot = HeuristicBot()
        self.challenge = challenge

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        if self.challenge and ("challenge",) in legal:
            return ("challenge",)
        fair = [m for m in legal if not is_bluff(view, m)]
        if self.challenge is False:
            fair = [m for m in fair if m != ("challenge",)]
        return self.bot.choose(view, fair or list(legal), rng)


class Bluffer:
    """Plays an illegal Wild Draw Four whenever it can; never challenges."""

    def __init__(self) -> None:
        self.bot = HeuristicBot()
        self.bluffs = 0

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        for m in legal:
            if is_bluff(view, m):
                self.bluffs += 1
                return m
        return self.bot.choose(view, [m for m in legal if m != ("challenge",)], rng)


def play_until(games, bots, predicate, *, seeds, seats=2, tamper=None, options=None):
    """Play 2-seat KaTO rounds with ``bots()`` over ``seeds`` until ``predicate(h)`` holds."""
    from protocol.harness import Harness

    opts = options or {"rounds": 1, "first": "host"}
    for seed in seeds:
        h = Harness(games, "kato", seats, opts, bots(), seed=seed)
        if tamper is not None:
            tamper(h)
        h.run()
        if predicate(h):
            return h
    raise AssertionError("no seed produced the situation under test")


@pytest.fixture
def games():
    return GAMES


class Lobby:
    """A host and peers delivering bytes both ways until quiet."""

    def __init__(self, games, seats: int = 4, name: str = "ann") -> None:
        self.host = Host(Identity(), name, games, "kato", {"rounds": 1}, seats)
        self.games = games
        self.peers: list[Peer] = []
        self.conns: list[int] = []

    def add(self, name: str, identity: Identity | None = None) -> Peer:
        peer = Peer(identity or Identity(), name, self.games)
        self.peers.append(peer)
        self.conns.append(self.host.connect())
        self.pump()
        return peer

    def pump(self) -> None:
        moved = True
        while moved:
            moved = False
            for peer, cid in zip(self.peers, self.conns, strict=True):
                if (data := peer.data_to_send()) and not self.host.finished(cid):
                    moved = True
                    self.host.receive_data(cid, data)
                if data := self.host.data_to_send(cid):  # a finished one's last words too
                    moved = True
                    peer.receive_data(data)

"""The host's say over who sits before the game starts: it may remove a seated player (kick)
and may hold every join until it lets the newcomer in (approve). Every copy follows a kick;
a removed or turned-away key does not come back; nobody else may do either."""

from __future__ import annotations

import pytest

from crypto import Identity
from protocol import (
    Host,
    JoinAsked,
    LocalProtocolError,
    Peer,
    Phase,
    Propose,
    Refused,
    Rejected,
    Removed,
    encode_message,
    frame,
)
from protocol._bodies import Kick


class Lobby:
    """A host and peers delivering bytes both ways until quiet."""

    def __init__(self, games, seats: int = 4) -> None:
        self.host = Host(Identity(), "ann", games, "kato", {"rounds": 1}, seats)
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


def _events(party) -> list:
    return list(iter(party.next_event, None))


def test_a_kicked_player_is_removed_everywhere_and_cannot_come_back(games) -> None:
    t = Lobby(games)
    bob, cat = t.add("bob"), t.add("cat")
    assert (bob.seat, cat.seat) == (1, 2)
    _events(cat)
    t.host.kick(1)
    t.pump()
    assert [m.name for m in t.host.table.members] == ["ann", "cat"]
    assert cat.seat == 1 and [m.name for m in cat.table.members] == ["ann", "cat"]
    assert any(isinstance(e, Removed) and e.name == "bob" and e.seat == 1 for e in _events(cat))
    assert bob.seat is None and bob.refused == "the host removed you from the table"
    assert t.host.finished(t.conns[0])
    # bob's key is refused at its hello; the table fills with others and starts
    again = t.add("bob again", bob.table.me.identity)
    assert again.refused == "the host removed you from this table"
    t.add("dan")
    t.add("eve")
    assert t.host.phase is not Phase.LOBBY  # full: the seats are fixed
    assert [m.name for m in t.host.table.members] == ["ann", "cat", "dan", "eve"]


def test_only_the_host_kicks_and_only_before_the_game(games) -> None:
    t = Lobby(games, seats=2)
    with pytest.raises(LocalProtocolError, match="no player in seat 1"):
        t.host.kick(1)
    bob = t.add("bob")  # the table is full: the game has begun, the host may not kick now
    with pytest.raises(LocalProtocolError, match="only before the game starts"):
        t.host.kick(1)
    _events(t.host)
    se = bob.table.entry(Kick(1))  # nor may a player, ever
    t.host.receive_data(t.conns[0], frame(encode_message(Propose(se.raw, se.sig))))
    [rejected] = [e for e in _events(t.host) if isinstance(e, Rejected)]
    assert "out of turn" in rejected.error.reason


def test_with_approval_a_join_waits_for_the_hosts_yes(games) -> None:
    t = Lobby(games, seats=3)
    t.host.approve_joins = True
    bob = t.add("bob")
    assert bob.seat is None and t.host.awaiting(t.conns[0])
    [asked] = [e for e in _events(t.host) if isinstance(e, JoinAsked)]
    assert asked.name == "bob" and asked.fingerprint == bob.table.me.identity.public.fingerprint
    assert t.host.asking() == [(asked.request, "bob", asked.fingerprint)]
    cat = t.add("cat")  # cat asks too; bob's held join is now stale (the log did not move)
    t.host.let_in(asked.request)
    t.pump()
    assert bob.seat == 1 and not t.host.awaiting(t.conns[0])
    [cat_asked] = [e for e in _events(t.host) if isinstance(e, JoinAsked)]
    t.host.turn_away(cat_asked.request)
    t.pump()
    assert cat.refused == "the host did not let you in" and cat.seat is None
    assert any(isinstance(e, Refused) and e.fatal for e in _events(cat))
    with pytest.raises(LocalProtocolError, match="no join"):
        t.host.let_in(cat_asked.request)


def test_a_held_join_made_stale_by_another_is_proposed_again(games) -> None:
    t = Lobby(games, seats=4)
    t.host.approve_joins = True
    bob, cat = t.add("bob"), t.add("cat")
    fps = {e.name: e.request for e in _events(t.host) if isinstance(e, JoinAsked)}
    t.host.let_in(fps["cat"])
    t.pump()
    assert cat.seat == 1 and bob.seat is None  # the log moved on: bob's join is stale
    t.host.let_in(fps["bob"])
    t.pump()
    assert bob.seat == 2

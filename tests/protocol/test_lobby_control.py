"""The host's say over who sits before the game starts: it may remove a seated player (kick)
and may hold every join until it lets the newcomer in (approve). Every copy follows a kick;
a removed or turned-away key does not come back; nobody else may do either."""

from __future__ import annotations

import pytest

from crypto import Identity
from protocol import (
    JoinAsked,
    LocalProtocolError,
    Phase,
    Propose,
    Refused,
    Rejected,
    Removed,
    encode_message,
    frame,
)
from protocol._bodies import Kick

from .conftest import Lobby


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


def test_approval_names_one_request_and_its_key_whatever_the_names(games) -> None:
    """A stranger asking as "bob" after the friend's "Bob" once took the friend's place: the
    later request won a case-folded name. Each request now has its own number and key."""
    t = Lobby(games, seats=4)
    t.host.approve_joins = True
    friend, stranger = Identity(), Identity()
    bob = t.add("Bob", friend)
    eve = t.add("bob", stranger)
    asked = [e for e in _events(t.host) if isinstance(e, JoinAsked)]
    assert [(e.request, e.name, e.fingerprint) for e in asked] == [
        (1, "Bob", friend.public.fingerprint), (2, "bob", stranger.public.fingerprint)
    ]  # fmt: skip
    assert t.host.asking() == [(e.request, e.name, e.fingerprint) for e in asked]
    t.host.let_in(1)
    t.pump()
    assert bob.seat == 1 and eve.seat is None
    assert t.host.table.member_at(1).key == friend.public.raw  # type: ignore[union-attr]
    assert [n for n, _, _ in t.host.asking()] == [2]  # the stranger still waits, as itself
    t.host.turn_away(2)
    t.pump()
    assert eve.refused == "the host did not let you in"


def _join(t: Lobby, who: Identity, name: str, conn: int = -1) -> None:
    """``who`` proposes a join as ``name`` on its connection (the last one added)."""
    from crypto import SealKey
    from protocol import Entry, SignedEntry
    from protocol._bodies import Join

    host = t.host
    entry = Entry(host.table_id, len(host.table.log), host.table.log.head, who.public.raw,
                  Join(name, SealKey().public))  # fmt: skip
    se = SignedEntry.create(who, entry)
    host.receive_data(t.conns[conn], frame(encode_message(Propose(se.raw, se.sig))))


def test_a_request_asked_again_under_another_name_is_a_new_request(games) -> None:
    """A held join proposed again under a new name once kept its place silently: the host
    approved "Bob" and seated "Mallory". Now the old request is withdrawn, with a notice, and
    the new one has a number of its own; an approval seats exactly the name approved."""
    from protocol import JoinWithdrawn

    t = Lobby(games, seats=4)
    t.host.approve_joins = True
    who = Identity()
    t.add("Bob", who)
    [first] = [e for e in _events(t.host) if isinstance(e, JoinAsked)]
    _join(t, who, "Bob")  # the same name again: the same request, no new notice
    assert _events(t.host) == [] and [n for n, _, _ in t.host.asking()] == [first.request]
    _join(t, who, "Mallory")
    withdrawn, again = _events(t.host)
    assert withdrawn == JoinWithdrawn(first.request, "Bob", who.public.fingerprint, 2)
    assert again == JoinAsked("Mallory", who.public.fingerprint, 2)
    with pytest.raises(LocalProtocolError, match="no join request 1"):
        t.host.let_in(first.request)
    t.host.let_in(2)
    t.pump()
    assert [m.name for m in t.host.table.members] == ["ann", "Mallory"]


def test_an_approval_seats_only_the_name_approved(games) -> None:
    t = Lobby(games, seats=4)
    t.host.approve_joins = True
    who = Identity()
    t.add("Bob", who)
    t.add("cat")
    _events(t.host)
    t.host.let_in(2)  # cat sits down first: Bob's held join is stale now
    t.host.let_in(1)  # approved, Bob must propose again…
    _join(t, who, "Robert", 0)  # …but proposes under another name: a new request, no seat
    assert t.host.table.member(who.public.raw) is None
    assert [(n, name) for n, name, _ in t.host.asking()] == [(3, "Robert")]
    _join(t, who, "Bob", 0)  # the name approved: seated at once
    assert t.host.table.member(who.public.raw).name == "Bob"  # type: ignore[union-attr]

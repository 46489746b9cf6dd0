"""Table lifecycle: joining (duplicate names and full tables refused clearly), starting early,
key shares in seat order, and the public surface."""

from __future__ import annotations

import protocol
from crypto import Identity
from protocol import (
    Host,
    Joined,
    LocalProtocolError,
    Peer,
    Phase,
    Refused,
    Rejected,
    SeatsFixed,
)


def _link(host, peer, cid):
    """Deliver both ways until quiet."""
    while True:
        a = peer.data_to_send()
        if a:
            host.receive_data(cid, a)
        b = host.data_to_send(cid)
        if b:
            peer.receive_data(b)
        if not a and not b:
            return


def _drain(party):
    return list(iter(party.next_event, None))


def test_join_refusals_are_clear_and_fatal(games):
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 3)
    bob, cid_bob = Peer(Identity(), "Bob", games), host.connect()
    _link(host, bob, cid_bob)
    assert bob.seat == 1
    twin, cid_twin = Peer(Identity(), "bob", games), host.connect()
    _link(host, twin, cid_twin)
    assert twin.seat is None
    [refused] = [e for e in _drain(twin) if isinstance(e, Refused)]
    assert refused.fatal and "name 'bob' is already taken" in refused.reason
    [rejected] = [e for e in _drain(host) if isinstance(e, Rejected)]
    assert rejected.error.culprit == twin.table.me.identity.public.fingerprint
    cat, cid_cat = Peer(Identity(), "Cat", games), host.connect()
    _link(host, cat, cid_cat)
    assert cat.seat == 2 and host.phase is not Phase.LOBBY
    late, cid_late = Peer(Identity(), "Dan", games), host.connect()
    _link(host, late, cid_late)
    [refused] = [e for e in _drain(late) if isinstance(e, Refused)]
    assert refused.fatal and "the table is full (3 of 3 seats taken)" in refused.reason
    assert [m.name for m in host.table.members] == ["Ann", "Bob", "Cat"]


def test_host_starts_early_and_keys_follow_in_seat_order(games):
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 4)
    bob, cid = Peer(Identity(), "Bob", games), host.connect()
    _link(host, bob, cid)
    assert [e for e in _drain(bob) if isinstance(e, Joined)][-1].name == "Bob"
    host.start()
    _link(host, bob, cid)
    assert [e.names for e in _drain(bob) if isinstance(e, SeatsFixed)] == [("Ann", "Bob")]
    kinds = [se.entry.body.KIND for se in host.table.log.entries]
    assert kinds[:5] == ["open", "join", "start", "key", "key"]
    authors = [se.entry.author for se in host.table.log.entries if se.entry.body.KIND == "key"]
    assert authors == [m.key for m in host.table.members]
    assert host.table.table_key == bob.table.table_key is not None
    assert host.table.log.head == bob.table.log.head


def test_local_misuse_raises_local_error(games):
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 2)
    try:
        host.play(("draw",))
    except LocalProtocolError as exc:
        assert "not this peer's move" in exc.reason
    else:
        raise AssertionError("playing in the lobby must be refused")
    try:
        Host(Identity(), "Ann", games, "kato", {"nonsense": 1}, 2)
    except LocalProtocolError as exc:
        assert "nonsense" in exc.reason
    else:
        raise AssertionError("bad options must be refused")


def test_public_surface():
    for name in protocol.__all__:
        assert hasattr(protocol, name), name
    assert "contract" not in protocol.__all__
    import sys

    assert not {"trio", "zeroconf", "prompt_toolkit", "socket"} & {
        m.split(".")[0] for m in sys.modules if m.startswith("protocol")
    }


def test_a_host_with_deferred_duties_relays_first_and_owes_until_asked(games):
    """``defer_duties``: sequencing relays the entry but leaves the host's own duty (here its
    key share once the seats are fixed) to ``perform_duty``; the table then goes on."""
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 2)
    host.defer_duties = True
    bob, cid = Peer(Identity(), "Bob", games), host.connect()
    _link(host, bob, cid)
    assert host.phase is Phase.KEYS and host.table.waiting_on() == (0, "key")
    assert bob.table.waiting_on() == (0, "key")  # Bob saw the seats fixed already
    assert host.perform_duty() and not host.perform_duty()
    _link(host, bob, cid)
    assert host.table.waiting_on() != (0, "key")

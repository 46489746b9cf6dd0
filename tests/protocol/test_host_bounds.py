"""What the host keeps stays bounded by what is connected now (issue 20): a closed connection
leaves every structure, spectators are capped per origin, and the refusal budget belongs to a
key over all its connections, so coming back on a new one resets nothing."""

from __future__ import annotations

import pytest

from crypto import Identity
from protocol import (
    Entry,
    Host,
    Propose,
    Refuse,
    RemoteProtocolError,
    Watcher,
    decode_message,
    encode_message,
    frame,
)
from protocol._bodies import Join, MoveBody
from protocol._frames import FrameReader
from protocol._host import MAX_REFUSALS
from protocol._lobby import MAX_KEYS_COUNTED, SPECTATORS_PER_ORIGIN
from protocol._messages import Hello, SignedEntry, hello_signature
from protocol.contract import Turn
from protocol.harness import Harness

from .conftest import Honest

OPTIONS = {"rounds": 1}


def _frames(data: bytes) -> list[object]:
    reader = FrameReader()
    reader.feed(data)
    out = []
    while (payload := reader.next_frame()) is not None:
        out.append(decode_message(payload))
    return out


def _hello(host: Host, who: Identity, cid: int | None = None) -> int:
    """Connection ``cid`` (a new one by default) on which ``who`` says hello; its id (the log
    it was sent is read)."""
    cid = host.connect() if cid is None else cid
    [challenge] = _frames(host.data_to_send(cid))
    sig = hello_signature(who, challenge.nonce, 0)  # type: ignore[attr-defined]
    host.receive_data(cid, frame(encode_message(Hello(who.public.raw, 0, sig))))
    host.data_to_send(cid)
    return cid


def _propose(host: Host, cid: int, se: SignedEntry) -> list[object]:
    host.receive_data(cid, frame(encode_message(Propose(se.raw, se.sig))))
    return _frames(host.data_to_send(cid))


def test_closed_connections_leave_the_host_and_ids_are_never_reused(games) -> None:
    host = Host(Identity(), "ann", games, "kato", OPTIONS, 4)
    seen = set()
    for i in range(2000):  # strangers: some say hello, some watch, some say nothing
        cid = host.connect("10.0.0.9")
        assert cid not in seen
        seen.add(cid)
        if i % 3 == 1:
            _hello(host, Identity(), cid)
        elif i % 3 == 2:
            _watch(host, cid)
        host.close(cid)
    assert host.connections() == 0 and host.watchers == 0
    assert host.finished(cid) and host.chunks_to_send(cid) == [] and host.member_of(cid) is None


def test_a_held_join_leaves_with_its_connection(games) -> None:
    host = Host(Identity(), "ann", games, "kato", OPTIONS, 4)
    host.approve_joins = True
    bob = Identity()
    cid = _hello(host, bob)
    join = Entry(host.table_id, 1, host.table.log.head, bob.public.raw, Join("bob", _seal()))
    assert _propose(host, cid, SignedEntry.create(bob, join)) == []  # held: no answer yet
    assert [n for n, _, _ in host.asking()] == [1] and host.awaiting(cid)
    host.close(cid)
    assert host.asking() == [] and host.connections() == 0


def _seal() -> bytes:
    from crypto import SealKey

    return SealKey().public


def _watch(host: Host, origin: str | int | None) -> tuple[int, Watcher]:
    """A spectator from ``origin`` (or on connection ``origin``, if a number)."""
    w = Watcher(host.table.games)
    cid = origin if isinstance(origin, int) else host.connect(origin)
    w.receive_data(host.data_to_send(cid))
    host.receive_data(cid, w.data_to_send())
    w.receive_data(host.data_to_send(cid))
    return cid, w


def test_one_address_holds_at_most_its_share_of_the_spectators(games) -> None:
    host = Host(Identity(), "ann", games, "kato", OPTIONS, 2, spectators=16)
    for _ in range(SPECTATORS_PER_ORIGIN):
        cid, w = _watch(host, "10.0.0.9")
        assert host.watching(cid) and w.refused is None
    cid, w = _watch(host, "10.0.0.9")
    assert host.finished(cid) and not host.watching(cid)
    assert w.refused == (f"{SPECTATORS_PER_ORIGIN} spectators are watching from your address "
                         "already (the most one address may have)")  # fmt: skip
    other, w = _watch(host, "10.0.0.10")  # another address still gets in
    assert host.watching(other) and w.refused is None
    unknown, w = _watch(host, None)  # a driver that cannot tell origins apart caps nothing
    assert host.watching(unknown)
    assert host.watchers == SPECTATORS_PER_ORIGIN + 2


def _stranger_join_at_wrong_position(host: Host, who: Identity) -> list[object]:
    cid = _hello(host, who)
    late = len(host.table.log) + 5
    join = Entry(host.table_id, late, host.table.log.head, who.public.raw, Join("eve", _seal()))
    return _propose(host, cid, SignedEntry.create(who, join))


def test_a_strangers_refusals_add_up_over_its_connections(games) -> None:
    """The budget once lived on the connection: 96 refusals over 8 reconnects, never
    stopped. Now the key's count carries over: past the budget, every further proposal on
    every new connection is refused for good."""
    host = Host(Identity(), "ann", games, "kato", OPTIONS, 4)
    eve = Identity()
    for _ in range(MAX_REFUSALS):  # one refusal per connection, each on a new one
        [refusal] = _stranger_join_at_wrong_position(host, eve)
        assert isinstance(refusal, Refuse) and not refusal.fatal
    for _ in range(8):
        with pytest.raises(RemoteProtocolError, match=f"more than {MAX_REFUSALS} proposals"):
            _stranger_join_at_wrong_position(host, eve)
    assert host.table.member(eve.public.raw) is None


def test_refusal_counts_are_bounded_and_seated_keys_are_never_forgotten(games) -> None:
    host = Host(Identity(), "ann", games, "kato", OPTIONS, 4)
    bob = Identity()
    cid = _hello(host, bob)
    join = Entry(host.table_id, 1, host.table.log.head, bob.public.raw, Join("bob", _seal()))
    assert _propose(host, cid, SignedEntry.create(bob, join))  # seated: relayed to it
    assert host.table.member(bob.public.raw) is not None
    [refusal] = _stranger_join_at_wrong_position(host, bob)  # a seat's refusal, counted
    assert isinstance(refusal, Refuse)
    for _ in range(MAX_KEYS_COUNTED + 50):  # then a crowd of strangers, one refusal each
        _stranger_join_at_wrong_position(host, Identity())
    counted = host._refusals
    assert len(counted) <= MAX_KEYS_COUNTED + len(host.table.members)
    assert counted[bob.public.raw] == 1


def _out_of_turn(h: Harness, peer) -> None:  # type: ignore[no-untyped-def]
    """``peer`` proposes a draw while it is not its turn: refused, not fatally."""
    st = h.host.status()
    assert isinstance(st, Turn) and st.seat != peer.seat
    se = peer.table.entry(MoveBody(("draw",)))
    i = h.peers.index(peer)
    h.deliver_to_host(i, frame(encode_message(Propose(se.raw, se.sig))))


def test_a_seats_budget_survives_its_reconnections_but_lost_races_cost_nothing(games) -> None:
    h = Harness(games, "kato", 3, OPTIONS, [Honest() for _ in range(3)], seed=3)
    h.pump()
    st = h.host.status()
    assert isinstance(st, Turn)
    peer = next(p for p in h.peers if p.seat != st.seat)
    i = h.peers.index(peer)
    me = peer.table.me
    assert me is not None
    # A race it lost, again and again: an entry for a position already taken by another
    # seat is dropped, never refused nor counted.
    for pos in range(1, len(peer.table.log)):
        if h.host.table.log.entries[pos].entry.author == me.identity.public.raw:
            continue
        prev = h.host.table.log.entries[pos - 1].hash
        stale = Entry(h.host.table_id, pos, prev, me.identity.public.raw, MoveBody(("draw",)))
        se = SignedEntry.create(me.identity, stale)
        h.deliver_to_host(i, frame(encode_message(Propose(se.raw, se.sig))))
        assert not [m for m in _frames(h.host.data_to_send(h.conns[i])) if isinstance(m, Refuse)]
    refused = 0
    while refused < MAX_REFUSALS:  # then its budget, spread over three connections
        _out_of_turn(h, peer)
        refused += 1
        if refused % 6 == 0:
            h.conns[i] = h.host.connect()
            peer.reconnect()
            h.pump()
    h.conns[i] = h.host.connect()
    peer.reconnect()
    h.pump()
    with pytest.raises(RemoteProtocolError, match=f"more than {MAX_REFUSALS} proposals"):
        _out_of_turn(h, peer)
    assert h.host.finished(h.conns[i])

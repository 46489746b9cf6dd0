"""A seated peer that lost its connection comes back on a new one (its hello answers the new
connection's challenge) and the game goes on; a forged, replayed or foreign hello is refused;
a peer that leaves for good makes the host halt at once."""

from __future__ import annotations

import pytest

from crypto import Identity
from protocol import (
    Challenge,
    Hello,
    Host,
    Leave,
    Peer,
    Phase,
    RemoteProtocolError,
    Returned,
    Stopped,
    decode_message,
    encode_message,
    frame,
)
from protocol._messages import hello_signature, leave_signature
from protocol.harness import Harness

from .conftest import Honest


def _drop_and_rejoin(h: Harness, i: int) -> None:
    """Peer ``i``'s connection dies with bytes in flight both ways; it rejoins on a new one."""
    h.host.data_to_send(h.conns[i])  # lost on the wire
    h.peers[i].data_to_send()  # lost too: its entry in flight, if any
    h.host.close(h.conns[i])
    h.conns[i] = h.host.connect()
    h.peers[i].reconnect()


@pytest.mark.parametrize("moves_before", [0, 7, 30])
def test_a_peer_rejoins_mid_game_and_the_game_completes(games, moves_before: int) -> None:
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=11)
    h.pump()
    for _ in range(moves_before):
        if not h.step():
            break
        h.pump()
    assert h.host.phase is Phase.GAME
    _drop_and_rejoin(h, 1)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert len({p.transcript() for p in h.parties}) == 1
    [back] = [e for e in h.events[0] if isinstance(e, Returned)]
    assert back.seat == h.peers[1].seat and back.name == "p2"


def test_a_rejoin_mid_shuffle_resends_what_was_lost(games) -> None:
    """Dropped while its own shuffle proof was on the wire: it is proposed again."""
    h = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=12)
    peer = h.peers[0]
    # Deliver until the peer's own shuffle is on its way to the host, and lose it there.
    while not (peer.busy and peer.table.waiting_on() == (peer.seat, "shuffle")):
        data = h.host.data_to_send(h.conns[0])
        if data:
            peer.receive_data(data)
        else:
            h.deliver_to_host(0, peer.data_to_send())
    _drop_and_rejoin(h, 0)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)


def _challenge(host: Host, cid: int) -> bytes:
    """The nonce of the challenge queued for a new connection."""
    msg = decode_message(host.data_to_send(cid)[4:])
    assert isinstance(msg, Challenge)
    return msg.nonce


def test_forged_replayed_and_foreign_hellos_are_refused(games) -> None:
    h = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=13)
    h.pump()
    bob = h.peers[0].table.me.identity
    stranger = Identity()
    old_nonce = _challenge(h.host, h.host.connect())

    def hello(who: Identity, nonce: bytes, pos: int, signed_pos: int | None = None) -> Hello:
        sig = hello_signature(who, nonce, pos if signed_pos is None else signed_pos)
        return Hello(who.public.raw, pos, sig)

    cases = {
        # a hello that answered another connection's challenge: a replay gains nothing
        "bad hello signature": lambda n: hello(bob, old_nonce, 3),
        "bad hello signature ": lambda n: hello(bob, n, 3, 4),
        "said hello holding": lambda n: hello(bob, n, 10**6),
        "the table is full": lambda n: hello(stranger, n, 0),
    }
    for reason, make in cases.items():
        cid = h.host.connect()
        msg = make(_challenge(h.host, cid))
        try:
            h.host.receive_data(cid, frame(encode_message(msg)))
        except RemoteProtocolError as exc:
            assert reason.strip() in exc.reason
        refusal = decode_message(h.host.data_to_send(cid)[4:])
        assert refusal.fatal and reason.strip() in refusal.reason
        assert h.host.finished(cid) and not h.host.member_of(cid)
    assert h.host.phase is Phase.GAME and h.host.connected(1)  # the table is not disturbed


def test_a_leave_must_be_signed_on_its_own_connection(games) -> None:
    h = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=13)
    h.pump()
    bob = h.peers[0].table.me.identity
    cid = h.host.connect()
    nonce = _challenge(h.host, cid)
    h.host.receive_data(
        cid, frame(encode_message(Hello(bob.public.raw, 0, hello_signature(bob, nonce, 0))))
    )
    other_nonce = _challenge(h.host, h.host.connect())
    with pytest.raises(RemoteProtocolError, match="bad leave signature"):
        h.host.receive_data(cid, frame(encode_message(Leave(leave_signature(bob, other_nonce)))))
    assert h.host.phase is Phase.GAME


def test_a_peer_that_leaves_is_named_and_the_table_halts(games) -> None:
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=14)
    h.pump()
    h.step()
    h.pump()
    h.peers[1].leave()
    h.pump()
    name, seat = h.peers[1].name, h.peers[1].seat
    for party, events in zip(h.parties, h.events, strict=True):
        assert party.phase is Phase.STOPPED
        [stop] = [e for e in events if isinstance(e, Stopped)]
        assert f"{name} (seat {seat}) left the table" in str(stop.error)


def test_connected_follows_the_seat_across_connections(games) -> None:
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 2)
    bob, cid = Peer(Identity(), "Bob", games), host.connect()
    while (a := bob.data_to_send()) or (b := host.data_to_send(cid)):
        if a:
            host.receive_data(cid, a)
        else:
            bob.receive_data(b)
    assert host.connected(1)
    host.close(cid)
    assert not host.connected(1)
    cid2 = host.connect()
    bob.reconnect()
    bob.receive_data(host.data_to_send(cid2))  # the new challenge
    host.receive_data(cid2, bob.data_to_send())
    assert host.connected(1)
    # a third connection of the same seat makes the second one finished
    cid3 = host.connect()
    bob.reconnect()
    bob.receive_data(host.data_to_send(cid3))
    host.receive_data(cid3, bob.data_to_send())
    assert host.finished(cid2) and not host.finished(cid3) and host.connected(1)


@pytest.mark.parametrize("moves_before", [0, 12])
def test_a_restarted_peer_resumes_its_seat_from_its_secrets(games, moves_before: int) -> None:
    """The peer's process died: a new Peer with the same identity, key share and seal key
    resumes (a rejoin holding nothing), replays the log, and the game completes."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=15)
    h.pump()
    for _ in range(moves_before):
        if not h.step():
            break
        h.pump()
    old = h.peers[0]
    me = old.table.me
    h.host.data_to_send(h.conns[0])  # lost with the process
    h.host.close(h.conns[0])
    new = Peer(me.identity, old.name, games, key=me.key, seal=me.seal)
    new.resume(h.host.table_id)
    h.peers[0] = new
    h.conns[0] = h.host.connect()
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert new.seat == old.seat and new.refused is None
    assert len({p.transcript() for p in h.parties}) == 1


def test_handshake_and_leave_frames_round_trip_and_are_strict() -> None:
    from protocol import PROTOCOL_VERSION as V
    from protocol import pack

    welcome = Challenge(bytes(32), 5, bytes(32), "Ann's kato", True)
    for msg in (welcome, Hello(bytes(32), 7, bytes(64)), Leave(bytes(64))):
        assert decode_message(encode_message(msg)) == msg
    for bad in (
        {"v": V, "type": "hello", "key": bytes(31), "pos": 7, "sig": bytes(64)},
        {"v": V, "type": "hello", "key": bytes(32), "pos": -1, "sig": bytes(64)},
        {"v": V, "type": "hello", "key": bytes(32), "pos": 7},
        {"v": V, "type": "challenge", "nonce": bytes(16), "pos": 0},
        {"v": V, "type": "leave", "why": "bored"},
        {"v": V, "type": "leave", "sig": bytes(63)},
    ):
        with pytest.raises(RemoteProtocolError):
            decode_message(pack(bad))


@pytest.mark.parametrize("moves_before", [0, 15])
def test_a_restarted_host_restores_the_table_and_peers_rejoin(games, moves_before: int) -> None:
    """The host's process died: from the relay frames it had sent and its secrets a new Host
    rebuilds the table; every peer rejoins and the game completes."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=16)
    h.pump()
    for _ in range(moves_before):
        if not h.step():
            break
        h.pump()
    old = h.host
    me = old.table.me
    frames = old.relays_since(0)
    for cid in h.conns:
        old.data_to_send(cid)  # lost with the process
    new = Host.restore(me.identity, games, frames, key=me.key, seal=me.seal)
    assert new.table.log.head == old.table.log.head and new.seat == 0
    assert new.view() == old.view()
    h.host = new
    h.conns = [new.connect() for _ in h.peers]
    for peer in h.peers:
        peer.data_to_send()  # lost too
        peer.reconnect()
    while new.perform_duty():
        pass
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert len({p.transcript() for p in h.parties}) == 1


def test_restoring_from_frames_of_another_host_is_refused(games) -> None:
    from protocol import LocalProtocolError

    h = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=17)
    h.pump()
    me = h.host.table.me
    with pytest.raises(LocalProtocolError, match="cannot restore"):
        Host.restore(Identity(), games, h.host.relays_since(0), key=me.key, seal=me.seal)
    with pytest.raises(LocalProtocolError, match="no entries"):
        Host.restore(me.identity, games, [], key=me.key, seal=me.seal)


def test_an_honest_resume_raises_no_alarm(games) -> None:
    """A restarted peer replays the log one frame at a time (as the network node feeds it):
    it proposes nothing it already proposed before it dies (its challenge says how long the
    log was), so the host sees no 'two different entries for one position'."""
    from protocol import FrameReader, Rejected

    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=21)
    h.pump()
    for _ in range(10):
        h.step()
        h.pump()
    old = h.peers[0]
    me = old.table.me
    h.host.close(h.conns[0])
    new = Peer(me.identity, old.name, games, key=me.key, seal=me.seal)
    new.resume(h.host.table_id)
    h.peers[0] = new
    h.conns[0] = h.host.connect()
    before = len(h.events[0])
    reader = FrameReader()
    for _ in range(10_000):  # the new peer gets its frames one at a time
        reader.feed(h.host.data_to_send(h.conns[0]))
        payload = reader.next_frame()
        if payload is None and not (out := new.data_to_send()):
            break
        if payload is not None:
            new.receive_data(frame(payload))
        if out := new.data_to_send():
            h.host.receive_data(h.conns[0], out)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    alarms = [e for e in h.events[0][before:] if isinstance(e, Rejected)]
    assert not alarms, alarms


def test_a_peer_restarted_between_its_coin_commitment_and_its_opening_opens_it(games) -> None:
    """A coin's contribution is derived from the seat's key share, not kept in memory: a
    peer whose process died after its commitment was logged, and before it opened it,
    resumes with its saved secrets and opens exactly what it committed."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=15)
    old = h.peers[0]
    me = old.table.me
    assert me is not None

    def committed() -> bool:
        return any(se.entry.body.KIND == "coin_commit" and se.entry.author == me.identity.public.raw
                   for se in h.host.table.log.entries)  # fmt: skip

    while not committed():  # one exchange at a time, up to the host logging its commitment
        assert h.exchange(), "the table stalled before the coin"
    h.host.data_to_send(h.conns[0])  # lost with the process
    h.host.close(h.conns[0])
    new = Peer(me.identity, old.name, games, key=me.key, seal=me.seal)
    new.resume(h.host.table_id)
    h.peers[0] = new
    h.conns[0] = h.host.connect()
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties), new.table.stop_error
    opens = [se for se in h.host.table.log.entries
             if se.entry.body.KIND == "coin_open" and se.entry.author == me.identity.public.raw]
    assert opens  # fmt: skip

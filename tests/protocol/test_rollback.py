"""A resumed seat cannot be rolled back (issue 20).

Before anything a seat signs leaves, it keeps what it holds of the log (``Holding``: the last
entry it applied, with the host's relay signature, and the last it signed). Restarted with
that record it refuses a host that gives it an earlier cut of the log, or another entry
where one it held (or signed) was — naming the host, with the record as evidence — and it
proposes an entry the host never sequenced again byte for byte, so it never signs two
different things for one position of one history. A joint coin's contribution is bound to
the log head it is committed on, so a host that saw it opened on one history cannot know it
on another.
"""

from __future__ import annotations

import pytest

from crypto import KeyShare, coin_commitment
from protocol import (
    Challenge,
    Holding,
    Host,
    Peer,
    Phase,
    Propose,
    Relay,
    SignedEntry,
    Stopped,
    decode_message,
    encode_message,
    frame,
)
from protocol._bodies import MoveBody
from protocol._frames import FrameReader
from protocol._held import Held
from protocol._log import context
from protocol._messages import Entry, relay_signature
from protocol.harness import Harness

from .conftest import Honest


def _played(games, steps: int, seed: int = 31) -> tuple[Harness, Held]:
    """A 3-seat KaTO table ``steps`` moves in, and what seat 1 held when it last signed."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=seed)
    h.pump()
    for _ in range(steps):
        if not h.step():
            break
        h.pump()
    blobs = [e.blob for e in h.events[1] if isinstance(e, Holding)]
    assert len(blobs) >= 3  # a key share, a shuffle, shares at least
    held = Held.from_bytes(blobs[-1])
    assert held.signed is not None and held.signed.entry.author == _key(h)
    return h, held


def _key(h: Harness) -> bytes:
    me = h.peers[0].table.me
    assert me is not None
    return me.identity.public.raw


def _restarted(h: Harness, held: Held) -> Peer:
    """Seat 1's program, restarted from its saved secrets and its held record."""
    me = h.peers[0].table.me
    assert me is not None
    new = Peer(me.identity, "p1", h._games, key=me.key, seal=me.seal)
    new.resume(h.host.table_id, held=held.to_bytes())
    return new


def _restored_host(h: Harness, cut: int) -> Host:
    """The host's program restored from the first ``cut`` relays of its journal."""
    me = h.host.table.me
    assert me is not None
    return Host.restore(me.identity, h._games, h.host.relays_since(0)[:cut], key=me.key,
                        seal=me.seal)  # fmt: skip


def _serve(host: Host, peer: Peer, rounds: int = 10_000) -> list[bytes]:
    """Let ``peer`` talk to ``host`` alone until both are quiet; what the peer sent."""
    cid = host.connect()
    sent: list[bytes] = []
    for _ in range(rounds):
        down = host.data_to_send(cid)
        if down:
            peer.receive_data(down)
        up = peer.data_to_send()
        if up:
            sent.append(up)
            host.receive_data(cid, up)
        if not down and not up:
            break
    return sent


def _frames(chunks: list[bytes]) -> list[object]:
    reader, out = FrameReader(), []
    for chunk in chunks:
        reader.feed(chunk)
        while (payload := reader.next_frame()) is not None:
            out.append(decode_message(payload))
    return out


def _stopped_by_the_host(peer: Peer, host_key: bytes) -> Stopped:
    [stop] = [e for e in iter(peer.next_event, None) if isinstance(e, Stopped)]
    err = stop.error
    assert peer.stopped is err and peer.phase is not Phase.CLOSED
    assert err.seat == 0 and err.culprit is not None
    from crypto import fingerprint

    assert err.culprit == fingerprint(host_key)
    assert "rolled this seat back" in err.reason and err.evidence
    return stop


@pytest.mark.parametrize("back", [0, 1, 6])
def test_a_host_restored_from_an_earlier_cut_is_refused_and_named(games, back: int) -> None:
    """The host replays its journal cut ``back`` entries before the last one seat 1 had
    applied: seat 1 stops at the challenge, naming the host, and sends nothing at all (no
    hello, no share, no coin: nothing the host could learn from a second branch)."""
    h, held = _played(games, 12)
    host = _restored_host(h, held.applied - back)
    peer = _restarted(h, held)
    sent = _serve(host, peer)
    stop = _stopped_by_the_host(peer, host.identity.public.raw)
    assert held.to_bytes() in stop.error.evidence  # the host's own relay signature
    assert sent == [] and not host.connected(1)
    later = host.table.log.entries[held.applied - back :]
    assert not any(se.entry.author == _key(h) for se in later)


def test_an_honest_host_restart_before_it_sequenced_our_entry_is_no_rollback(games) -> None:
    """The host's process died holding seat 1's last entry unsequenced (the journal ends
    just before it): the resumed seat proposes that very entry again, byte for byte, and
    the game goes on to its end."""
    h, held = _played(games, 12)
    assert held.signed is not None and held.signed.entry.pos == held.applied + 1
    cut = held.signed.entry.pos
    host = _restored_host(h, cut)
    peer = _restarted(h, held)
    sent = _serve(host, peer)
    proposed = [m for m in _frames(sent) if isinstance(m, Propose)]
    assert proposed and proposed[0].raw == held.signed.raw and proposed[0].sig == held.signed.sig
    assert host.table.log.entries[cut].raw == held.signed.raw
    assert peer.stopped is None and peer.table.log.head == host.table.log.head


def _fake_host(h: Harness, peer: Peer, upto: int, then: SignedEntry) -> None:
    """A host that says its log has ``upto + 1`` entries, relays the real first ``upto`` and
    then ``then`` (another entry of its making) at position ``upto``."""
    host = h.host.identity
    peer.receive_data(frame(encode_message(Challenge(bytes(32), upto + 1, host.public.raw))))
    for se in [*h.host.table.log.entries[:upto], then]:
        peer.receive_data(frame(encode_message(Relay(se.raw, se.sig, relay_signature(host,
                                                                                    se.raw)))))


def _host_entry(h: Harness, pos: int) -> SignedEntry:
    """A validly signed entry of the host's at ``pos``, following the real log there."""
    log = h.host.table.log
    prev = log.entries[pos - 1].hash
    me = h.host.identity
    return SignedEntry.create(me, Entry(h.host.table_id, pos, prev, me.public.raw,
                                        MoveBody(("draw",))))  # fmt: skip


def test_another_entry_where_the_seat_held_one_is_refused_and_named(games) -> None:
    h, held = _played(games, 12)
    peer = _restarted(h, held)
    _fake_host(h, peer, held.applied, _host_entry(h, held.applied))
    _stopped_by_the_host(peer, h.host.identity.public.raw)
    assert len(peer.table.log) == held.applied and peer.data_to_send()[:0] == b""


def test_another_entry_where_the_seats_own_duty_went_is_refused_and_named(games) -> None:
    """The host keeps seat 1's last signed entry (a duty: nobody else may take its place)
    out of the log and sequences one of its own there instead."""
    h, held = _played(games, 0)  # in the deal: seat 1's last entry is a protocol duty
    assert held.signed is not None and held.signed.entry.body.KIND in ("shuffle", "shares")
    s = held.signed.entry.pos
    peer = _restarted(h, held)
    _fake_host(h, peer, s, _host_entry(h, s))
    stop = _stopped_by_the_host(peer, h.host.identity.public.raw)
    assert f"seat's own {held.signed.entry.body.KIND}" in stop.error.reason


def test_a_damaged_held_record_is_refused_at_resume(games) -> None:
    from protocol import LocalProtocolError

    h, held = _played(games, 2)
    me = h.peers[0].table.me
    assert me is not None
    new = Peer(me.identity, "p1", games, key=me.key, seal=me.seal)
    with pytest.raises(LocalProtocolError, match="damaged"):
        new.resume(h.host.table_id, held=held.to_bytes()[:-5])


def test_a_coin_contribution_depends_on_the_log_head_it_is_committed_on() -> None:
    """Restart-safe (the same head gives the same contribution) and not steerable (a host
    that rolled the log back to before the commitment shows the seat another head: the
    contribution it saw opened on the first history tells nothing of the second)."""
    key = KeyShare()
    table = bytes(16)

    def contribution(head: bytes) -> bytes:
        return coin_commitment(key, context(table, "coin", 40, 1, 0, head))[1].value

    first, again, other = contribution(b"a" * 32), contribution(b"a" * 32), contribution(b"b" * 32)
    assert first == again and first != other

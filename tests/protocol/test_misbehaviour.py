"""Misbehaviour: each is detected, the culprit named, honest state unchanged, and the game
either goes on without the bad entry or stops with evidence."""

from __future__ import annotations

import contextlib
import os
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto import Identity, KeyShare, ShareBatch
from protocol import (
    MAX_ENTRY,
    MAX_FRAME,
    PROTOCOL_VERSION,
    Entry,
    Peer,
    Phase,
    Propose,
    Refused,
    Rejected,
    Relay,
    RemoteProtocolError,
    SignedEntry,
    Stopped,
    context,
    decode_message,
    encode_message,
    frame,
    pack,
)
from protocol._bodies import (
    KeyShareBody,
    MoveBody,
    SharesBody,
    Show,
    ShuffleBody,
)
from protocol._messages import (
    relay_signature,
)
from protocol.contract import Turn
from protocol.harness import Harness

from .conftest import Honest

OPTIONS = {"rounds": 1, "first": "host", "hand_size": 4}


def _harness(games, seats=3, seed=11):
    return Harness(games, "kato", seats, OPTIONS, [Honest() for _ in range(seats)], seed=seed)


def _snapshot(party):
    t = party.table
    state = t.game.encode_state(t.state) if t.state is not None else None
    return len(t.log), t.log.head, pack(state)


def _rejections(h):
    h.pump()
    return [e.error for e in h.events[0] if isinstance(e, Rejected)]


def _finish_and_check(h):
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert len({p.transcript() for p in h.parties}) == 1
    assert h.host.table.report is not None and h.host.table.report.ok


def _continues(h):
    """The game goes on: the next moves are accepted and every copy agrees."""
    n = len(h.host.table.log)
    for _ in range(3):
        h.step()
        h.pump()
    assert len(h.host.table.log) > n
    assert len({p.table.log.head for p in h.parties}) == 1
    assert not [p for p in h.parties if p.phase is Phase.STOPPED]


def _frames(data):
    """The messages in ``data`` (a host's output to one connection)."""
    from protocol import FrameReader

    reader, out = FrameReader(), []
    reader.feed(data)
    while (payload := reader.next_frame()) is not None:
        out.append(decode_message(payload))
    return out


def _propose(h, party, se):
    h.deliver_to_host(party - 1, frame(encode_message(Propose(se.raw, se.sig))))


def _turn_peer(h):
    """A peer whose turn it is (the harness is at a move), and a peer whose turn it is not."""
    st = h.host.status()
    assert isinstance(st, Turn)
    mover = next(i for i, p in enumerate(h.parties) if p.seat == st.seat)
    other = next(i for i, p in enumerate(h.parties) if i and p.seat != st.seat)
    return mover, other


def _culprit(h, party):
    return h.parties[party].table.me.identity.public.fingerprint


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda e: replace(e, pos=e.pos + 1), "wrong log position"),
        (lambda e: replace(e, prev=bytes(32)), "previous-entry hash"),
        (lambda e: replace(e, table=os.urandom(16)), "another table"),
    ],
    ids=["position", "prev-hash", "other-table"],
)
def test_misplaced_entries_are_refused_and_game_continues(games, change, reason):
    h = _harness(games)
    h.tamper(1, lambda e: change(e) if e.body.KIND == "shuffle" else None)
    h.pump()
    [err] = _rejections(h)
    assert reason in err.reason
    assert err.culprit == _culprit(h, 1)
    assert any(isinstance(e, Refused) for e in h.events[1])
    _finish_and_check(h)


def test_forged_signature_closes_the_connection_and_the_seat_comes_back(games):
    """An entry its connection's key did not sign is refused before it is read, fatally:
    the connection is finished. The seat's own program reconnects and the game goes on."""
    h = _harness(games)
    h.pump()
    before = _snapshot(h.host)
    t = h.peers[0].table
    se = t.entry(MoveBody(("draw",)))
    forged = SignedEntry(se.raw, Identity().sign("lanparty/table-entry", se.raw), se.entry)
    with pytest.raises(RemoteProtocolError, match="signature") as info:
        _propose(h, 1, forged)
    assert info.value.culprit == _culprit(h, 1) and info.value.seat == h.peers[0].seat
    assert h.host.finished(h.conns[0])
    refusal = _frames(h.host.data_to_send(h.conns[0]))[-1]
    assert refusal.fatal and "signature" in refusal.reason
    assert _snapshot(h.host) == before
    h.conns[0] = h.host.connect()
    h.peers[0].reconnect()
    _continues(h)


def test_forged_relay_stops_peer_and_names_host(games):
    h = _harness(games)
    h.pump()
    peer = h.peers[0]
    before = _snapshot(peer)
    se = peer.table.entry(MoveBody(("draw",)))
    bad_sig = Identity().sign("lanparty/table-entry", se.raw)
    seq = relay_signature(h.host.identity, se.raw)
    peer.receive_data(frame(encode_message(Relay(se.raw, bad_sig, seq))))
    [stop] = [e for e in iter(peer.next_event, None) if isinstance(e, Stopped)]
    assert stop.error.culprit == h.host.identity.public.fingerprint
    assert stop.error.evidence
    assert _snapshot(peer) == before


def test_move_out_of_turn(games):
    h = _harness(games)
    h.pump()
    _, other = _turn_peer(h)
    before = _snapshot(h.host)
    _propose(h, other, h.parties[other].table.entry(MoveBody(("draw",))))
    [err] = _rejections(h)
    assert "out of turn" in err.reason and err.culprit == _culprit(h, other)
    assert err.seat == h.parties[other].seat
    assert _snapshot(h.host) == before
    _continues(h)


def test_illegal_move(games):
    h = _harness(games)
    h.pump()
    mover, _ = _turn_peer(h)
    if mover == 0:  # let the host move once so that a peer is to play
        h.step()
        h.pump()
        mover, _ = _turn_peer(h)
    before = _snapshot(h.host)
    _propose(h, mover, h.parties[mover].table.entry(MoveBody(("pass",))))
    [err] = _rejections(h)
    assert "illegal move" in err.reason and err.culprit == _culprit(h, mover)
    assert _snapshot(h.host) == before
    _continues(h)


def _peer_to_move(h):
    h.pump()
    for _ in range(10):
        mover, _ = _turn_peer(h)
        if mover:
            return mover
        h.step()
        h.pump()
    raise AssertionError("no peer got a turn")


def _shown(t, handles, pos=None):
    """``MoveBody`` arguments: this peer's shares of ``handles`` and their batch proof."""
    pos = len(t.log) if pos is None else pos
    ctx = context(t.table_id, "reveal", pos, t.my_seat)
    batch = ShareBatch.create(t.me.key, [t.cards.ct[h] for h in handles], ctx)
    return tuple(zip(handles, batch.ds, strict=True)), batch.proof


def test_playing_a_card_not_in_hand(games):
    h = _harness(games)
    mover = _peer_to_move(h)
    t = h.parties[mover].table
    seat = t.my_seat
    foreign = next(s for s in range(3) if s != seat)
    hand = h.host.table.game.view(h.by_seat(foreign).table.state, foreign)["hand"]
    handle, label = hand[0]
    colour = "r" if label[0] not in "rygb" else ""
    body = MoveBody(("play", (handle,), (label,), colour), *_shown(t, [handle]))
    before = _snapshot(h.host)
    _propose(h, mover, t.entry(body))
    [err] = _rejections(h)
    assert f"card {handle} is not in seat {seat}'s hand" in err.reason
    assert err.culprit == _culprit(h, mover)
    assert _snapshot(h.host) == before
    # and a card of one's own hand under a false label
    own_handle, own_label = h.parties[mover].view()["hand"][0]
    lie = "W" if own_label != "W" else "r1"
    body = MoveBody(("play", (own_handle,), (lie,), "r" if lie == "W" else ""),
                    *_shown(t, [own_handle]))  # fmt: skip
    _propose(h, mover, t.entry(body))
    errs = _rejections(h)
    assert len(errs) == 2 and f"is not the {lie!r} the move claims" in errs[1].reason
    assert _snapshot(h.host) == before
    _continues(h)


def test_bad_shuffle_proof(games):
    h = _harness(games)

    def swap(e: Entry):
        if not isinstance(e.body, ShuffleBody):
            return None
        deck = list(e.body.deck)
        deck[0], deck[1] = deck[1], deck[0]
        return replace(e, body=replace(e.body, deck=tuple(deck)))

    h.tamper(2, swap)
    h.pump()
    [err] = _rejections(h)
    assert "bad shuffle proof" in err.reason and err.culprit == _culprit(h, 2)
    _finish_and_check(h)


def test_wrong_decryption_share(games):
    h = _harness(games)

    def corrupt(e: Entry):
        if not isinstance(e.body, SharesBody):
            return None
        shares = list(e.body.shares)
        (h0, _), (_, d1) = shares[0], shares[1]
        shares[0] = (h0, d1)  # another card's share under this card's handle
        return replace(e, body=SharesBody(tuple(shares), e.body.proof))

    h.tamper(1, corrupt)
    h.pump()
    [err] = _rejections(h)
    assert "wrong decryption share" in err.reason and err.culprit == _culprit(h, 1)
    _finish_and_check(h)


def test_equivocating_author_leaves_evidence(games):
    h = _harness(games)
    h.pump()
    peer = h.peers[0]
    first = h.host.table.log.entries[len(h.parties)]  # seat 0's key share: the host's
    assert isinstance(first.entry.body, KeyShareBody)
    seat1 = next(
        se
        for se in h.host.table.log.entries
        if se.entry.author == peer.table.me.identity.public.raw
        and isinstance(se.entry.body, KeyShareBody)
    )
    other = replace(seat1.entry, body=KeyShareBody(peer.table.me.key.prove(b"another")))
    _propose(h, 1, SignedEntry.create(peer.table.me.identity, other))
    [err] = _rejections(h)
    assert "two different entries" in err.reason and err.culprit == _culprit(h, 1)
    assert err.evidence == (seat1.raw, SignedEntry.create(peer.table.me.identity, other).raw)
    [ev] = h.host.table.log.evidence
    assert ev.pos == seat1.entry.pos


def test_host_sending_different_entries_is_caught(games):
    h = _harness(games)
    host = h.host
    target = len(h.parties)  # the host's key share comes right after the joins

    def fork(i: int, data: bytes) -> bytes:
        if i != 1:
            return data
        out = b""
        from protocol import FrameReader

        r = FrameReader()
        r.feed(data)
        while (p := r.next_frame()) is not None:
            msg = decode_message(p)
            if not isinstance(msg, Relay):
                out += frame(p)
                continue
            se = SignedEntry.parse(msg.raw, msg.sig)
            if se.entry.pos == target:
                ctx = context(host.table_id, "key", target, 0)
                body = KeyShareBody(host.table.me.key.prove(ctx))  # valid, but not the same
                alt = SignedEntry.create(host.identity, replace(se.entry, body=body))
                p = encode_message(Relay(alt.raw, alt.sig, relay_signature(host.identity, alt.raw)))
            out += frame(p)
        return out

    h.host_out = fork
    h.pump()
    victim = h.peers[1]
    stops = [e for e in h.events[2] if isinstance(e, Stopped)]
    assert stops, "the peer on the forked branch must stop"
    err = stops[0].error
    assert err.culprit == host.identity.public.fingerprint and err.seat == 0
    assert "fork" in err.reason and len(err.evidence) == 2
    frozen = _snapshot(victim)
    h.run()
    assert _snapshot(victim) == frozen


def test_oversized_frame_and_unknown_type_name_the_sender(games):
    h = _harness(games)
    h.pump()
    with pytest.raises(RemoteProtocolError, match="exceeds") as info:
        h.host.receive_data(h.conns[0], (MAX_FRAME + 1).to_bytes(4, "big"))
    assert info.value.culprit == _culprit(h, 1)
    assert "refuse" in h.host.data_to_send(h.conns[0]).decode("latin1")
    with pytest.raises(RemoteProtocolError, match="unknown message type") as info:
        h.host.receive_data(h.conns[1], frame(pack({"v": PROTOCOL_VERSION, "type": "boom"})))
    assert info.value.culprit == _culprit(h, 2)
    with pytest.raises(RemoteProtocolError, match="exceeds") as info:
        h.peers[1].receive_data((MAX_FRAME + 1).to_bytes(4, "big"))
    assert info.value.culprit == h.host.identity.public.fingerprint


def test_version_mismatch_is_refused_with_both_versions(games):
    h = _harness(games, seats=2)
    other = PROTOCOL_VERSION + 1
    with pytest.raises(RemoteProtocolError, match=rf"version {other}.*version {PROTOCOL_VERSION}"):
        h.host.receive_data(h.conns[0], frame(pack({"v": other, "type": "hello"})))
    refusal = _frames(h.host.data_to_send(h.conns[0]))[-1]
    assert refusal.fatal and f"version {other}" in refusal.reason


def test_bad_key_share_proof(games):
    h = _harness(games)
    h.tamper(
        1,
        lambda e: (
            replace(e, body=KeyShareBody(KeyShare().prove(b"x")))
            if isinstance(e.body, KeyShareBody)
            else None
        ),
    )
    h.pump()
    [err] = _rejections(h)
    assert "bad key share" in err.reason and err.culprit == _culprit(h, 1)
    _continues(h)


_FUZZ: list[Harness] = []


def _fuzz_harness():
    if not _FUZZ:
        from lanparty.games import GAMES

        h = _harness(GAMES, seats=2)
        h.pump()
        _FUZZ.append(h)
    return _FUZZ[0]


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_into_host_and_peer(data):
    h = _fuzz_harness()
    before = _snapshot(h.host)
    fresh = Peer(Identity(), "z", h.host.table.games)
    for feed in (lambda d: h.host.receive_data(h.host.connect(), d), fresh.receive_data):
        with contextlib.suppress(RemoteProtocolError):
            feed(data)
    assert _snapshot(h.host) == before
    assert len(fresh.table.log) == 0


@pytest.mark.parametrize(
    "body",
    [
        Show(bytes(MAX_ENTRY - 1024)),  # fitted a propose frame, not its relay: killed a host
        MoveBody(("draw", "x" * 100_000)),
    ],
    ids=["show", "move"],
)
def test_an_entry_over_its_kinds_size_is_refused_before_anything_is_applied(games, body):
    h = _harness(games)
    mover = _peer_to_move(h)
    before = _snapshot(h.host)
    with pytest.raises(RemoteProtocolError, match=f"a {body.KIND} entry of .* bytes") as info:
        _propose(h, mover, h.parties[mover].table.entry(body))
    assert info.value.culprit == _culprit(h, mover)
    assert _snapshot(h.host) == before
    assert len(h.host.relays_since(0)) == len(h.host.table.log)  # log and relays agree


def test_a_play_with_the_kato_call_must_prove_its_cards_too(games):
    """The call rides on the play (a fifth item): the cards it plays are shown with proof all
    the same, so a card of another seat's hand is refused."""
    h = _harness(games)
    mover = _peer_to_move(h)
    t = h.parties[mover].table
    seat = t.my_seat
    foreign = next(s for s in range(3) if s != seat)
    handle, label = h.host.table.game.view(h.by_seat(foreign).table.state, foreign)["hand"][0]
    colour = "r" if label[0] not in "rygb" else ""
    body = MoveBody(("play", (handle,), (label,), colour, "kato"), *_shown(t, [handle]))
    before = _snapshot(h.host)
    _propose(h, mover, t.entry(body))
    [err] = _rejections(h)
    assert f"card {handle} is not in seat {seat}'s hand" in err.reason
    assert _snapshot(h.host) == before
    # and with no share at all, as a game that forgot the call's shape would have let pass
    _propose(h, mover, t.entry(MoveBody(("play", (handle,), (label,), colour, "kato"))))
    errs = _rejections(h)
    assert len(errs) == 2 and "must carry exactly its shares" in errs[1].reason
    assert _snapshot(h.host) == before

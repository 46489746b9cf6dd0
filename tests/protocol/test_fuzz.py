"""Fuzzing the sans-IO core with what a hostile peer or stranger could send: real frames of a
game, mutated byte by byte and field by field. Whatever arrives, the host and a peer raise
nothing but :class:`RemoteProtocolError`, keep their state, and the host answers a frame it
will not take with at most a short refusal."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crypto import Identity
from protocol import (
    Challenge,
    FrameReader,
    Hello,
    Peer,
    RemoteProtocolError,
    decode_message,
    encode_message,
    frame,
    pack,
    unpack,
)
from protocol._messages import hello_signature
from protocol.harness import Harness

from .conftest import Honest


def _frames(chunks: list[bytes]) -> list[bytes]:
    reader, out = FrameReader(), []
    for chunk in chunks:
        reader.feed(chunk)
        while (payload := reader.next_frame()) is not None:
            out.append(payload)
    return out


@functools.cache
def _game() -> tuple[Harness, list[bytes], list[bytes]]:
    """A 3-seat table some moves into its game, and every payload the host received and
    sent so far (the material the mutations start from)."""
    from lanparty.games import GAMES

    h = Harness(GAMES, "kato", 3, {"rounds": 1, "hand_size": 4}, [Honest()] * 3, seed=3)
    h.pump()
    for _ in range(6):
        h.step()
        h.pump()
    return h, _frames(h.received[0]), _frames(h.received[1])


@functools.cache
def _lobby() -> Harness:
    """A 4-seat table where one peer of three has joined: strangers may still say hello."""
    from lanparty.games import GAMES

    h = Harness(GAMES, "kato", 4, {"rounds": 1}, [Honest()] * 4, seed=4)
    h.deliver_to_peer(0, h.host.data_to_send(h.conns[0]))
    while (data := h.peers[0].data_to_send()) or (back := h.host.data_to_send(h.conns[0])):
        if data:
            h.deliver_to_host(0, data)
        else:
            h.deliver_to_peer(0, back)
    assert h.peers[0].seat == 1
    return h


def _snapshot(party: Any) -> tuple[int, bytes, bytes]:
    t = party.table
    state = t.game.encode_state(t.state) if t.state is not None else None
    return len(t.log), t.log.head, pack(state)


plain = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=20)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)  # fmt: skip


@st.composite
def mutated(draw: st.DrawFn, which: int) -> bytes:
    """A payload of the game, mutated: bytes flipped, cut, spliced, or one field replaced."""
    payload = draw(st.sampled_from(_game()[which + 1]))
    how = draw(st.sampled_from(["flip", "cut", "splice", "field", "entry-field"]))
    if how == "flip":
        i = draw(st.integers(0, len(payload) - 1))
        return payload[:i] + bytes([payload[i] ^ draw(st.integers(1, 255))]) + payload[i + 1 :]
    if how == "cut":
        return payload[: draw(st.integers(0, len(payload) - 1))]
    if how == "splice":
        i = draw(st.integers(0, len(payload)))
        return payload[:i] + draw(st.binary(min_size=1, max_size=64)) + payload[i:]
    value = unpack(payload, 1 << 20)
    assert isinstance(value, dict)
    if how == "entry-field" and isinstance(value.get("entry"), bytes):
        entry = unpack(value["entry"], 1 << 20)
        assert isinstance(entry, dict)
        entry[draw(st.sampled_from(sorted(entry)))] = draw(plain)
        value["entry"] = pack(entry)
    else:
        value[draw(st.sampled_from(sorted(value)))] = draw(plain)
    return pack(value)


def _hello_as(h: Harness, cid: int, who: Identity) -> None:
    challenge = decode_message(h.host.data_to_send(cid)[4:])
    assert isinstance(challenge, Challenge)
    hello = Hello(who.public.raw, 0, hello_signature(who, challenge.nonce, 0))
    h.host.receive_data(cid, frame(encode_message(hello)))
    h.host.data_to_send(cid)
    assert not h.host.finished(cid)


def _check_host(h: Harness, cid: int, payload: bytes) -> None:
    before = _snapshot(h.host)
    try:
        h.host.receive_data(cid, frame(payload, 1 << 21))
    except RemoteProtocolError:
        assert h.host.finished(cid)
    out = _frames([h.host.data_to_send(cid)])
    assert sum(len(p) for p in out) < 1024 or not h.host.finished(cid)
    assert _snapshot(h.host) == before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(0))
def test_a_strangers_mutated_frames_change_nothing(payload: bytes) -> None:
    h = _game()[0]
    cid = h.host.connect()
    h.host.data_to_send(cid)  # the challenge
    _check_host(h, cid, payload)
    lobby = _lobby()  # where a stranger may say hello and propose (a join)
    cid = lobby.host.connect()
    _hello_as(lobby, cid, Identity())
    _check_host(lobby, cid, payload)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(0))
def test_a_seated_players_mutated_frames_change_nothing(payload: bytes) -> None:
    h = _game()[0]
    seated = h.peers[0].table.me.identity
    cid = h.host.connect()
    _hello_as(h, cid, seated)
    _check_host(h, cid, payload)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(1))
def test_a_hosts_mutated_frames_stop_a_peer_at_worst(payload: bytes) -> None:
    """A fresh peer fed the host's frames, one of them mutated: it raises nothing but a
    protocol error, and a bad entry stops it where it was."""
    from lanparty.games import GAMES

    sent = _game()[2]
    peer = Peer(Identity(), "zed", GAMES)
    try:
        for p in sent[:4]:  # the challenge, the opening and the joins: no proof to check
            peer.receive_data(frame(p))
        peer.receive_data(frame(payload, 1 << 21))
    except RemoteProtocolError:
        return
    assert peer.table.phase.value in ("lobby", "keys", "game", "stopped")

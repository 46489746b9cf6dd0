"""The wire format: canonical codec, frames, strict message and entry decoding."""

from __future__ import annotations

import contextlib

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto import Identity, KeyShare
from protocol import (
    MAX_FRAME,
    PROTOCOL_VERSION,
    Entry,
    FrameReader,
    Hello,
    LocalProtocolError,
    Propose,
    Refuse,
    Relay,
    RemoteProtocolError,
    SignedEntry,
    VersionMismatchError,
    decode_entry,
    decode_message,
    encode_message,
    frame,
    pack,
    unpack,
)
from protocol._bodies import (
    Join,
    KeyShareBody,
    MoveBody,
    OpenTable,
)


def test_pack_is_canonical_sorted_and_refuses_non_plain():
    assert pack({"b": 1, "a": [1, (2, 3)]}) == pack({"a": [1, [2, 3]], "b": 1})
    with pytest.raises(TypeError):
        pack({"a": 1.5})
    with pytest.raises(TypeError):
        pack({1: "x"})


@pytest.mark.parametrize(
    "data",
    [
        msgpack.packb({"b": 1, "a": 2}),  # keys not sorted
        b"\xd1\x00\x01",  # int16 for 1: not minimal
        msgpack.packb(1.5),  # float
        msgpack.packb(msgpack.ExtType(5, b"x")),  # extension type
        msgpack.packb(msgpack.Timestamp(1, 0)),  # the timestamp extension
        msgpack.packb(1) + b"\x00",  # trailing bytes
        b"\x92\x01",  # truncated
    ],
)
def test_unpack_refuses_non_canonical_and_extensions(data):
    with pytest.raises(RemoteProtocolError):
        unpack(data, 1000)


def test_unpack_size_limit():
    with pytest.raises(RemoteProtocolError, match="exceeds"):
        unpack(pack(b"x" * 100), 50)


def test_frames_reassemble_from_pieces():
    payloads = [b"", b"a", b"hello" * 100]
    stream = b"".join(frame(p) for p in payloads)
    reader = FrameReader()
    got = []
    for i in range(len(stream)):
        reader.feed(stream[i : i + 1])
        while (p := reader.next_frame()) is not None:
            got.append(p)
    assert got == payloads
    assert reader.pending == 0


def test_oversized_frame_refused_at_header():
    reader = FrameReader()
    reader.feed((MAX_FRAME + 1).to_bytes(4, "big"))  # no body needed to refuse it
    with pytest.raises(RemoteProtocolError, match="exceeds"):
        reader.next_frame()
    with pytest.raises(LocalProtocolError):
        reader.feed(b"more")
    with pytest.raises(LocalProtocolError):
        frame(bytes(MAX_FRAME + 1))


def test_messages_round_trip():
    for msg in [
        Hello(bytes(32), 0, bytes(64)),
        Propose(b"entry", bytes(64)),
        Relay(b"entry", bytes(64), bytes(64)),
        Refuse(3, "no", False),
    ]:
        assert decode_message(encode_message(msg)) == msg


def test_unknown_type_extra_field_and_wrong_types_refused():
    with pytest.raises(RemoteProtocolError, match="unknown message type"):
        decode_message(pack({"v": PROTOCOL_VERSION, "type": "gossip"}))
    with pytest.raises(RemoteProtocolError, match="fields differ"):
        decode_message(pack({"v": PROTOCOL_VERSION, "type": "hello", "x": 1}))
    with pytest.raises(RemoteProtocolError, match="signature"):
        decode_message(pack({"v": PROTOCOL_VERSION, "type": "propose", "entry": b"", "sig": b"x"}))
    with pytest.raises(RemoteProtocolError, match="expected a map"):
        decode_message(pack([1, 2]))


def test_refusals_quote_a_short_printable_excerpt_of_what_was_sent():
    """A value from outside never grows an error (or the refusal quoting it) beyond a line."""
    for sent in ("\x00" * 300_000, ["x" * 1000] * 100, b"\xff" * 500_000):
        with pytest.raises(RemoteProtocolError) as info:
            decode_message(pack({"v": PROTOCOL_VERSION, "type": sent}))
        reason = info.value.reason
        assert "unknown message type" in reason
        assert len(reason) <= 120 and reason.isprintable()
    huge = RemoteProtocolError("\n\x1b[2J" + "y" * 10_000)
    assert len(huge.reason) <= 300 and huge.reason.isprintable() and "\\x1b" in huge.reason
    assert Refuse(0, "\x00" * 5000, True).reason.isprintable()


def test_a_proposal_too_large_to_relay_is_refused_when_decoded():
    """Every accepted proposal fits its relay: the entry leaves room for the relay's fields."""
    from protocol import MAX_ENTRY, Relay

    just = Propose(bytes(MAX_ENTRY), bytes(64))
    assert decode_message(encode_message(just)) == just
    assert len(frame(encode_message(Relay(just.raw, bytes(64), bytes(64))))) <= MAX_FRAME + 4
    with pytest.raises(RemoteProtocolError, match="at most"):
        decode_message(encode_message(Propose(bytes(MAX_ENTRY + 1), bytes(64))))


def test_version_mismatch_names_both_versions():
    with pytest.raises(VersionMismatchError) as info:
        decode_message(pack({"v": PROTOCOL_VERSION + 1, "type": "hello"}))
    text = str(info.value)
    assert f"version {PROTOCOL_VERSION + 1}" in text
    assert f"version {PROTOCOL_VERSION}" in text


def _entry(body, ident=None, pos=1):
    ident = ident or Identity()
    return SignedEntry.create(ident, Entry(bytes(16), pos, bytes(32), ident.public.raw, body))


def test_entries_round_trip_and_sign_exact_bytes():
    ident = Identity()
    share = KeyShare().prove(b"ctx")
    for body in [
        OpenTable("kato", {"rounds": 1}, 4, "ann", bytes(range(32))),
        Join("bob", bytes(range(1, 33))),
        KeyShareBody(share),
        MoveBody(["draw"], ()),
    ]:
        se = _entry(body, ident)
        again = SignedEntry.parse(se.raw, se.sig)
        again.verify()
        assert again.entry.encode() == se.raw
        assert again.entry == se.entry
    tampered = SignedEntry.parse(se.raw.replace(b"draw", b"drop"), se.sig)
    with pytest.raises(RemoteProtocolError, match="signature"):
        tampered.verify()


def test_entry_decoding_is_strict():
    se = _entry(Join("bob", bytes(range(1, 33))))
    value = unpack(se.raw, MAX_FRAME)
    value["body"]["extra"] = 1
    with pytest.raises(RemoteProtocolError, match="fields differ"):
        decode_entry(pack(value))
    value = unpack(se.raw, MAX_FRAME)
    value["kind"] = "teleport"
    with pytest.raises(RemoteProtocolError, match="unknown entry kind"):
        decode_entry(pack(value))
    value = unpack(se.raw, MAX_FRAME)
    value["body"]["name"] = " spaced "
    with pytest.raises(RemoteProtocolError, match="name"):
        decode_entry(pack(value))
    value = unpack(se.raw, MAX_FRAME)
    value["v"] = 99
    with pytest.raises(VersionMismatchError):
        decode_entry(pack(value))


def test_points_are_validated_at_decode():
    se = _entry(KeyShareBody(KeyShare().prove(b"ctx")))
    value = unpack(se.raw, MAX_FRAME)
    value["body"]["share"][0] = bytes(32)  # not a valid point
    with pytest.raises(RemoteProtocolError, match="key share"):
        decode_entry(pack(value))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_only_raise_remote_protocol_error(data):
    for decode in (decode_message, decode_entry):
        with contextlib.suppress(RemoteProtocolError):
            decode(data)
    reader = FrameReader(max_size=64)
    reader.feed(data)
    try:
        while reader.next_frame() is not None:
            pass
    except RemoteProtocolError:
        pass


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text() | st.binary(),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_canonical_round_trip(value):
    data = pack(value)
    assert pack(unpack(data, 1 << 20)) == data
    with contextlib.suppress(RemoteProtocolError):
        decode_message(data)

"""Serialisation: every object round-trips through plain values; every decoder refuses junk
with a DecodeError and nothing else."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto import (
    CardSet,
    Ciphertext,
    DecodeError,
    DecryptionShare,
    DleqProof,
    KeyShare,
    Opening,
    PublicIdentity,
    PublicKeyShare,
    SchnorrProof,
    ShuffleProof,
    commit,
    deck_from_wire,
    deck_to_wire,
    read_commitment,
    read_seal_public,
    shuffle,
)
from crypto._elgamal import unpack_shares

from .conftest import Table


def via_msgpack(value: object) -> object:
    """What a peer receives: the plain value packed and unpacked strictly."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def test_round_trips_through_msgpack(table3: Table) -> None:
    deck = CardSet("w", 6).open_mask(table3.key)
    out, proof = shuffle(deck, table3.key, b"ctx")
    assert deck_from_wire(via_msgpack(deck_to_wire(out)), 6) == out
    assert ShuffleProof.from_wire(via_msgpack(proof.to_wire()), 6) == proof
    share = DecryptionShare.create(table3.keys[0], out[0], b"ctx")
    assert DecryptionShare.from_wire(via_msgpack(share.to_wire())) == share
    pk = table3.keys[1].prove(b"ctx")
    assert PublicKeyShare.from_wire(via_msgpack(pk.to_wire())) == pk
    _, opening = commit(b"value", b"ctx")
    assert Opening.from_wire(via_msgpack(opening.to_wire())) == opening


DECODERS: dict[str, Callable[[object], object]] = {
    "ciphertext": Ciphertext.from_wire,
    "deck": deck_from_wire,
    "shuffle proof": lambda v: ShuffleProof.from_wire(v, 4),
    "decryption share": DecryptionShare.from_wire,
    "dleq proof": DleqProof.from_wire,
    "schnorr proof": SchnorrProof.from_wire,
    "key share": PublicKeyShare.from_wire,
    "opening": Opening.from_wire,
    "commitment": read_commitment,
    "seal public key": read_seal_public,
    "identity": PublicIdentity,
    "packed shares": lambda v: unpack_shares(v, 2),
}

plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.binary(max_size=70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=7) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=30,
)


@pytest.mark.parametrize("name", sorted(DECODERS))
@given(value=plain)
@settings(max_examples=80, deadline=None)  # per decoder: 1,360 values in all
def test_decoders_refuse_junk_with_decode_error(name: str, value: object) -> None:
    with contextlib.suppress(DecodeError):
        DECODERS[name](value)


@pytest.mark.parametrize("name", sorted(DECODERS))
@given(data=st.binary(max_size=400))
@settings(max_examples=100, deadline=None)
def test_decoders_refuse_random_msgpack_bytes(name: str, data: bytes) -> None:
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception:  # msgpack's own errors belong to the protocol's codec, not to us
        return
    with contextlib.suppress(DecodeError):
        DECODERS[name](value)


@given(st.lists(st.binary(min_size=32, max_size=32), min_size=2, max_size=2))
@settings(max_examples=200, deadline=None)
def test_ciphertext_from_random_point_bytes(pair: list[bytes]) -> None:
    try:
        ct = Ciphertext.from_wire(pair)
    except DecodeError:
        return
    assert ct.to_wire() == pair


def test_decoders_name_what_is_wrong(table3: Table) -> None:
    deck = CardSet("w", 4).open_mask(table3.key)
    wire = deck_to_wire(deck)
    with pytest.raises(DecodeError, match="expected 5 items"):
        deck_from_wire(wire, 5)
    wire[2][1] = b"\x00" * 32
    with pytest.raises(DecodeError, match=r"ciphertext b"):
        deck_from_wire(wire)
    _, proof = shuffle(deck, table3.key, b"c")
    w = proof.to_wire()
    assert ShuffleProof.from_wire(w, 4) == proof
    with pytest.raises(DecodeError, match="expected 5 items"):
        ShuffleProof.from_wire(w, 5)
    with pytest.raises(DecodeError, match="deck size"):
        ShuffleProof.from_wire(w, 0)
    with pytest.raises(DecodeError, match=r"integer|bytes"):
        SchnorrProof.from_wire([1, 2])
    k = KeyShare()
    assert KeyShare(k.secret).public == k.public

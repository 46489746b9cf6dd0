"""Decryption shares of several cards under one batched proof: honest batches verify, any
wrong, swapped, missing or misbound share is refused, and the wire form is strict."""

from __future__ import annotations

import pytest

from crypto import (
    CardSet,
    DecodeError,
    KeyShare,
    ProofError,
    ShareBatch,
    joint_key,
    shuffle,
    unmask,
)


def _table(n: int = 5) -> tuple[list[KeyShare], list]:
    keys = [KeyShare(), KeyShare()]
    ctxs = [b"k0", b"k1"]
    y = joint_key([k.prove(c) for k, c in zip(keys, ctxs, strict=True)], ctxs)
    deck, _ = shuffle(CardSet("batch", n).open_mask(y), y, b"s")  # every a differs now
    return keys, deck


def test_an_honest_batch_verifies_and_opens_the_cards() -> None:
    keys, cts = _table()
    batches = [ShareBatch.create(k, cts, b"ctx") for k in keys]
    for k, b in zip(keys, batches, strict=True):
        b.verify(k.public, cts, b"ctx")
    cards = set(CardSet("batch", 5).points)
    assert {unmask(ct, [b.ds[i] for b in batches]) for i, ct in enumerate(cts)} == cards


@pytest.mark.parametrize("how", ["one wrong", "two swapped", "another key", "another context",
                                 "a share short", "other cards"])  # fmt: skip
def test_a_bad_batch_is_refused(how: str) -> None:
    keys, cts = _table()
    good = ShareBatch.create(keys[0], cts, b"ctx")
    ds, public, ctx, against = list(good.ds), keys[0].public, b"ctx", list(cts)
    if how == "one wrong":
        ds[2] = ds[2] + ds[3]
    elif how == "two swapped":
        ds[0], ds[1] = ds[1], ds[0]
    elif how == "another key":
        public = keys[1].public
    elif how == "another context":
        ctx = b"other"
    elif how == "a share short":
        ds = ds[:-1]
    else:
        against = against[1:] + against[:1]
    with pytest.raises(ProofError):
        ShareBatch(tuple(ds), good.proof).verify(public, against, ctx)


def test_the_wire_form_round_trips_and_is_strict() -> None:
    keys, cts = _table(3)
    b = ShareBatch.create(keys[1], cts, b"w")
    again = ShareBatch.from_wire(b.to_wire(), 3)
    assert again == b
    again.verify(keys[1].public, cts, b"w")
    with pytest.raises(DecodeError):
        ShareBatch.from_wire(b.to_wire(), 2)  # the count comes from the entry, not the wire
    with pytest.raises(DecodeError):
        ShareBatch.from_wire([[bytes(32)] * 3, b.to_wire()[1]], 3)  # the identity
    with pytest.raises(ValueError):
        ShareBatch.create(keys[0], [], b"w")

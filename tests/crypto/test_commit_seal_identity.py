"""Commit-reveal, the joint coin, sealed boxes, show-to-one, identities."""

from __future__ import annotations

import math
import re
import secrets
from collections import Counter

import pytest

from crypto import (
    CardSet,
    DecodeError,
    Identity,
    KnownKeys,
    ProofError,
    PublicIdentity,
    SealKey,
    commit,
    joint_coin,
    open_shown_cards,
    seal,
    show_cards,
    unmask,
    verify_opening,
)
from crypto._commit import Opening

from .conftest import Table


def test_commitment_opens_only_with_its_value_salt_and_context() -> None:
    digest, opening = commit(b"bid:3", b"hunt/1")
    verify_opening(digest, opening, b"hunt/1")
    for bad, ctx in (
        (Opening(opening.salt, b"bid:4"), b"hunt/1"),
        (Opening(bytes(32), b"bid:3"), b"hunt/1"),
        (opening, b"hunt/2"),
    ):
        with pytest.raises(ProofError):
            verify_opening(digest, bad, ctx)


def test_commitments_hide_equal_values() -> None:
    a, _ = commit(b"same", b"ctx")
    b, _ = commit(b"same", b"ctx")
    assert a != b  # fresh salt each time


def test_joint_coin_is_deterministic_and_depends_on_every_contribution() -> None:
    seeds = [secrets.token_bytes(32) for _ in range(4)]
    value = joint_coin(seeds, 1000, b"who-starts")
    assert value == joint_coin(seeds, 1000, b"who-starts")
    changed = [
        joint_coin([*seeds[:i], secrets.token_bytes(32), *seeds[i + 1 :]], 2**32, b"c")
        for i in range(4)
    ]
    assert len(set(changed)) == 4
    with pytest.raises(ValueError):
        joint_coin(seeds, 0, b"c")


@pytest.mark.parametrize("n", [2, 3, 7, 10])
def test_joint_coin_is_uniform(n: int) -> None:
    trials = 600 * n
    counts = Counter(
        joint_coin([i.to_bytes(4, "big"), b"peer2"], n, b"uniformity") for i in range(trials)
    )
    expected = trials / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert set(counts) == set(range(n))
    # Critical values of chi-square at p = 0.001 for n - 1 degrees of freedom.
    critical = {1: 10.83, 2: 13.82, 6: 22.46, 9: 27.88}[n - 1]
    assert chi2 < critical


def test_sealed_box_opens_only_for_its_recipient_and_context() -> None:
    alice, mallory = SealKey(), SealKey()
    box = seal(alice.public, b"your cards", b"ctx")
    assert alice.open(box, b"ctx") == b"your cards"
    with pytest.raises(ProofError):
        mallory.open(box, b"ctx")
    with pytest.raises(ProofError):
        alice.open(box, b"other")
    tampered = box[:-1] + bytes([box[-1] ^ 1])
    with pytest.raises(ProofError):
        alice.open(tampered, b"ctx")
    with pytest.raises(DecodeError):
        alice.open(b"short", b"ctx")
    # The published secret lets an auditor re-open the same box later.
    assert SealKey(alice.secret_bytes()).open(box, b"ctx") == b"your cards"


def test_seal_refuses_bad_recipient_keys() -> None:
    with pytest.raises(DecodeError):
        seal(bytes(32), b"x", b"c")
    with pytest.raises(DecodeError):
        seal(b"short", b"x", b"c")


def test_show_to_one_reveals_a_hand_to_the_challenger_only(table3: Table) -> None:
    holder = 0
    cards = CardSet("hand", 5)
    hand = [c.rerandomize(table3.key, 7 + i) for i, c in enumerate(cards.open_mask(table3.key))]
    # From the deal, every share except the holder's is already public.
    public = [[ct.a * table3.keys[p].secret for p in (1, 2)] for ct in hand]
    box = show_cards(table3.keys[holder], hand, SealKey().public, b"x")  # to someone else
    challenger_key = SealKey()
    box = show_cards(table3.keys[holder], hand, challenger_key.public, b"challenge/9")
    d = open_shown_cards(challenger_key, box, hand, table3.shares[holder].point, b"challenge/9")
    shown = [cards.index_of(unmask(ct, [*public[i], d[i]])) for i, ct in enumerate(hand)]
    assert shown == [0, 1, 2, 3, 4]
    with pytest.raises(ProofError):  # a third peer cannot open it
        open_shown_cards(SealKey(), box, hand, table3.shares[holder].point, b"challenge/9")


def test_show_to_one_catches_a_holder_who_lies(table3: Table) -> None:
    cards = CardSet("hand", 2)
    hand = cards.open_mask(table3.key)
    key = SealKey()
    # Shares made with another peer's key: the proofs do not match the holder's public share.
    box = show_cards(table3.keys[2], hand, key.public, b"c")
    with pytest.raises(ProofError, match="holder"):
        open_shown_cards(key, box, hand, table3.shares[0].point, b"c")
    # A box with the wrong number of shares is malformed.
    with pytest.raises(DecodeError):
        open_shown_cards(
            key, seal(key.public, b"\x00" * 96, b"c"), hand, table3.shares[0].point, b"c"
        )


def test_signatures_are_bound_to_key_purpose_and_message() -> None:
    me, other = Identity(), Identity()
    sig = me.sign("log-entry", b"hello")
    me.public.verify("log-entry", b"hello", sig)
    for key, purpose, msg in (
        (other.public, "log-entry", b"hello"),
        (me.public, "join", b"hello"),
        (me.public, "log-entry", b"hellO"),
    ):
        with pytest.raises(ProofError):
            key.verify(purpose, msg, sig)
    with pytest.raises(DecodeError):
        me.public.verify("log-entry", b"hello", sig[:-1])
    assert Identity(me.seed()).public == me.public


def test_fingerprint_is_short_readable_and_stable() -> None:
    me = Identity()
    fp = me.public.fingerprint
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}", fp)
    assert PublicIdentity(me.public.raw).fingerprint == fp
    assert Identity().public.fingerprint != fp


def test_invalid_identity_key_is_refused() -> None:
    with pytest.raises(DecodeError):
        PublicIdentity(b"\x00" * 31)


def test_coin_bias_bound_is_negligible() -> None:
    # Rejection sampling: the probability of needing a second word is below n / 2^64.
    assert math.isclose(((1 << 64) % 10) / (1 << 64), 0.0, abs_tol=1e-18)


@pytest.mark.parametrize(
    "raw",
    [
        bytes.fromhex("01" + "00" * 31),  # the identity point: (R=identity, s=0) verifies anything
        bytes.fromhex("ec" + "ff" * 30 + "7f"),  # order 2
        bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    ],
)
def test_small_order_identity_keys_are_refused(raw: bytes) -> None:
    with pytest.raises(DecodeError):
        PublicIdentity(raw)


def test_known_keys_check_each_key_once_and_every_signature_always() -> None:
    """A peer's known keys: a key is checked the first time and kept, a bad one is refused
    every time and never kept, a forged signature by a known key is still refused, and a
    stranger's keys cannot grow it past its limit."""
    known = KnownKeys(limit=3)
    me = Identity()
    key = known.get(me.public.raw)
    assert key == me.public and known.get(me.public.raw) is key and len(known) == 1
    sig = me.sign("log-entry", b"hello")
    known.get(me.public.raw).verify("log-entry", b"hello", sig)
    with pytest.raises(ProofError):
        known.get(me.public.raw).verify("log-entry", b"hellO", sig)
    for bad in (bytes.fromhex("01" + "00" * 31), b"\x00" * 31, "not bytes", None):
        for _ in range(2):
            with pytest.raises(DecodeError):
                known.get(bad)  # type: ignore[arg-type]
    assert len(known) == 1
    strangers = [Identity().public.raw for _ in range(7)]
    for raw in strangers:
        assert known.get(raw).raw == raw
        assert 1 <= len(known) <= 3
    assert known.get(strangers[-1]).raw == strangers[-1]


def test_joint_key_takes_one_context_per_share() -> None:
    from crypto import KeyShare, joint_key

    keys = [KeyShare() for _ in range(3)]
    shares = [k.prove(b"seat-%d" % i) for i, k in enumerate(keys)]
    total = joint_key(shares, [b"seat-0", b"seat-1", b"seat-2"])
    assert total == keys[0].public + keys[1].public + keys[2].public
    with pytest.raises(ProofError, match="key share 1"):
        joint_key(shares, [b"seat-0", b"seat-0", b"seat-2"])
    with pytest.raises(ValueError):
        joint_key(shares, [b"seat-0"])


def test_a_coin_commitment_is_the_same_for_its_key_and_context_and_opens() -> None:
    from crypto import KeyShare, coin_commitment

    key, other = KeyShare(), KeyShare()
    digest, opening = coin_commitment(key, b"table/coin/0")
    verify_opening(digest, opening, b"table/coin/0")
    # The same key share (a restarted peer) makes the same commitment and opening again.
    assert coin_commitment(KeyShare(key.secret), b"table/coin/0") == (digest, opening)
    # Another context or another key: unrelated values.
    values = {opening.value, coin_commitment(key, b"table/coin/1")[1].value,
              coin_commitment(other, b"table/coin/0")[1].value}  # fmt: skip
    assert len(values) == 3 and len(opening.salt) == 32 and len(opening.value) == 32
    with pytest.raises(ProofError):
        verify_opening(digest, opening, b"table/coin/1")

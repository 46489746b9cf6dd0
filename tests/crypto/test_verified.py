"""A process that stands for several peers may verify a shuffle statement once (the suite
turns it on: tests/conftest.py): what it remembers never lets through a proof, deck, key or
context that differs from one it verified, in any part; off, it remembers nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from crypto import (
    L,
    ProofError,
    base_mul,
    remember_verified,
    shuffle,
    verified_afresh,
    verify_shuffle,
)
from crypto._shuffle import _VERIFIED_MAX, ShuffleProof, _verified

from .conftest import Table
from .test_cheating import CHEATS, CTX, honest


def _variants(proof: ShuffleProof) -> list[ShuffleProof]:
    """The proof with one part changed: a response of each kind, the challenge (also by L:
    the digest must not reduce it as the arithmetic does), a commitment, the chain."""
    s = proof.s
    return [
        replace(proof, s=(s[0] + 1, s[1], s[2], s[3])),
        replace(proof, s_hat=(proof.s_hat[0] + 1, *proof.s_hat[1:])),
        replace(proof, s_prime=(*proof.s_prime[:-1], proof.s_prime[-1] + 1)),
        replace(proof, challenge=proof.challenge + 1),
        replace(proof, challenge=proof.challenge + L),
        replace(proof, challenge=proof.challenge - L),
        replace(
            proof, commitments=(proof.commitments[1], proof.commitments[0], *proof.commitments[2:])
        ),
        replace(proof, chain=(proof.chain[0] + base_mul(1), *proof.chain[1:])),
    ]


def test_after_a_proof_verified_every_variant_of_it_is_still_refused(table3: Table) -> None:
    src, dst, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    verify_shuffle(src, out, table3.key, proof, CTX)
    verify_shuffle(src, out, table3.key, proof, CTX)  # remembered: the same verdict
    for bad in _variants(proof):
        with pytest.raises(ProofError):
            verify_shuffle(src, out, table3.key, bad, CTX)
    for other in (b"table/shuffle/4", b""):
        with pytest.raises(ProofError):
            verify_shuffle(src, out, table3.key, proof, other)
    with pytest.raises(ProofError):
        verify_shuffle(src, out, table3.key + base_mul(1), proof, CTX)
    swapped = [out[1], out[0], *out[2:]]
    with pytest.raises(ProofError):
        verify_shuffle(src, swapped, table3.key, proof, CTX)
    for cheat in CHEATS.values():
        with pytest.raises(ProofError):
            verify_shuffle(src, cheat(table3, out), table3.key, proof, CTX)
    with pytest.raises(ProofError):
        verify_shuffle(dst, out, table3.key, proof, CTX)  # another input deck


def test_a_refused_proof_is_refused_again(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    bad = replace(proof, challenge=proof.challenge + 1)
    for _ in range(2):
        with pytest.raises(ProofError):
            verify_shuffle(src, out, table3.key, bad, CTX)
    verify_shuffle(src, out, table3.key, proof, CTX)


def test_afresh_remembers_nothing_and_the_memory_is_bounded(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    before = len(_verified._seen)
    with verified_afresh():
        verify_shuffle(src, out, table3.key, proof, CTX)
    assert len(_verified._seen) == before
    for i in range(_VERIFIED_MAX + 5):
        _verified.add(i.to_bytes(32, "big"))
    assert len(_verified._seen) == _VERIFIED_MAX
    assert (0).to_bytes(32, "big") not in _verified  # the oldest went first
    assert (_VERIFIED_MAX + 4).to_bytes(32, "big") in _verified


def test_off_it_remembers_nothing(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    remember_verified(False)
    try:
        verify_shuffle(src, out, table3.key, proof, CTX)
        assert len(_verified._seen) == 0
    finally:
        remember_verified(True)
    verify_shuffle(src, out, table3.key, proof, CTX)
    assert len(_verified._seen) == 1

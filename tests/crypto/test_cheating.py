"""Every way of cheating on a shuffle, a share or a key is caught by verification."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from crypto import (
    CardSet,
    Ciphertext,
    DecryptionShare,
    KeyShare,
    ProofError,
    PublicKeyShare,
    SeededRng,
    base_mul,
    joint_key,
    shuffle,
    verify_shuffle,
)
from crypto._shuffle import _prove

from .conftest import Table

N = 12
CTX = b"table/shuffle/3"


def honest(table: Table) -> tuple[list[Ciphertext], list[Ciphertext], list[int], list[int]]:
    """An input deck, a correct shuffle of it, and the prover's permutation and randomness."""
    src = CardSet("cheat", N).open_mask(table.key)
    rng = SeededRng(b"cheater")
    psi = [(5 * i + 3) % N for i in range(N)]
    rerand = [rng.scalar() for _ in range(N)]
    dst = [src[psi[i]].rerandomize(table.key, rerand[i]) for i in range(N)]
    return src, dst, psi, rerand


def test_honest_proof_verifies(table3: Table) -> None:
    src, dst, psi, rerand = honest(table3)
    proof = _prove(src, dst, psi, rerand, table3.key, CTX, SeededRng(b"p"))
    verify_shuffle(src, dst, table3.key, proof, CTX)


def _replace(table: Table, dst: list[Ciphertext]) -> list[Ciphertext]:
    other = CardSet("cheat-other", 1).open_mask(table.key)[0]
    return [other.rerandomize(table.key, 7), *dst[1:]]


def _duplicate(table: Table, dst: list[Ciphertext]) -> list[Ciphertext]:
    return [dst[1].rerandomize(table.key, 9), *dst[1:]]


def _bad_reencryption(table: Table, dst: list[Ciphertext]) -> list[Ciphertext]:
    # a gets r·G but b gets r'·Y with r != r': the card silently changes.
    c = dst[0]
    return [Ciphertext(c.a + base_mul(11), c.b + table.key * 12), *dst[1:]]


def _shift_plaintext(table: Table, dst: list[Ciphertext]) -> list[Ciphertext]:
    # Adding a known offset to b turns the card into another point (a marked card).
    c = dst[0]
    return [Ciphertext(c.a, c.b + base_mul(1)), *dst[1:]]


CHEATS: dict[str, Callable[[Table, list[Ciphertext]], list[Ciphertext]]] = {
    "replace": _replace,
    "duplicate": _duplicate,
    "bad re-encryption": _bad_reencryption,
    "marked card": _shift_plaintext,
}


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_prover_cannot_prove_a_dishonest_shuffle(table3: Table, cheat: str) -> None:
    src, dst, psi, rerand = honest(table3)
    bad = CHEATS[cheat](table3, dst)
    # The cheater runs the prover on the false statement with the honest witness.
    proof = _prove(src, bad, psi, rerand, table3.key, CTX, SeededRng(b"p"))
    with pytest.raises(ProofError):
        verify_shuffle(src, bad, table3.key, proof, CTX)


@pytest.mark.parametrize("cheat", sorted(CHEATS))
def test_honest_proof_does_not_cover_a_tampered_deck(table3: Table, cheat: str) -> None:
    src, dst, psi, rerand = honest(table3)
    proof = _prove(src, dst, psi, rerand, table3.key, CTX, SeededRng(b"p"))
    with pytest.raises(ProofError):
        verify_shuffle(src, CHEATS[cheat](table3, dst), table3.key, proof, CTX)


def test_dropped_card_is_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    with pytest.raises(ProofError, match="cards"):
        verify_shuffle(src, out[:-1], table3.key, proof, CTX)


def test_swapped_outputs_are_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    out[0], out[1] = out[1], out[0]
    with pytest.raises(ProofError):
        verify_shuffle(src, out, table3.key, proof, CTX)


def test_proof_for_another_context_is_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    for other in (b"table/shuffle/4", b"other-table/shuffle/3", b""):
        with pytest.raises(ProofError):
            verify_shuffle(src, out, table3.key, proof, other)


def test_proof_for_another_deck_is_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    other_src = CardSet("cheat-2", N).open_mask(table3.key)
    with pytest.raises(ProofError):
        verify_shuffle(other_src, out, table3.key, proof, CTX)
    # Nor does it carry over to another shuffle's output of the same deck.
    out2, _ = shuffle(src, table3.key, CTX)
    with pytest.raises(ProofError):
        verify_shuffle(src, out2, table3.key, proof, CTX)


def test_proof_under_another_key_is_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    with pytest.raises(ProofError):
        verify_shuffle(src, out, table3.key + base_mul(1), proof, CTX)


def test_tampered_proof_responses_are_refused(table3: Table) -> None:
    src, _, _, _ = honest(table3)
    out, proof = shuffle(src, table3.key, CTX)
    from dataclasses import replace

    s = proof.s
    for bad in (
        replace(proof, s=(s[0] + 1, s[1], s[2], s[3])),
        replace(proof, s_hat=(proof.s_hat[0] + 1, *proof.s_hat[1:])),
        replace(proof, s_prime=(*proof.s_prime[:-1], proof.s_prime[-1] + 1)),
        replace(proof, challenge=proof.challenge + 1),
        replace(
            proof, commitments=(proof.commitments[1], proof.commitments[0], *proof.commitments[2:])
        ),
        replace(proof, chain=proof.chain[:-1]),
    ):
        with pytest.raises(ProofError):
            verify_shuffle(src, out, table3.key, bad, CTX)


def test_wrong_decryption_share_is_refused(table3: Table) -> None:
    ct = CardSet("c", 3).open_mask(table3.key)[0].rerandomize(table3.key, 99)
    good = DecryptionShare.create(table3.keys[0], ct, b"deal")
    good.verify(table3.shares[0].point, ct, b"deal")
    # A share made with another key, checked against peer 0's public share.
    forged = DecryptionShare.create(table3.keys[1], ct, b"deal")
    with pytest.raises(ProofError):
        forged.verify(table3.shares[0].point, ct, b"deal")
    # The right proof attached to a wrong point.
    with pytest.raises(ProofError):
        DecryptionShare(good.d + base_mul(1), good.proof).verify(
            table3.shares[0].point, ct, b"deal"
        )
    # Another context or another ciphertext.
    with pytest.raises(ProofError):
        good.verify(table3.shares[0].point, ct, b"deal2")
    with pytest.raises(ProofError):
        good.verify(table3.shares[0].point, ct.rerandomize(table3.key, 5), b"deal")


def test_key_share_proof_for_another_key_is_refused() -> None:
    a, b = KeyShare(), KeyShare()
    pa = a.prove(b"ctx")
    pa.verify(b"ctx")
    with pytest.raises(ProofError):
        PublicKeyShare(b.public, pa.proof).verify(b"ctx")
    with pytest.raises(ProofError):
        pa.verify(b"other-ctx")


def test_rogue_key_without_proof_of_knowledge_is_refused() -> None:
    honest_keys = [KeyShare() for _ in range(2)]
    shares = [k.prove(b"ctx") for k in honest_keys]
    # The rogue key cancels the others so the attacker alone would know the table key.
    attacker = KeyShare()
    rogue = attacker.public - shares[0].point - shares[1].point
    forged = PublicKeyShare(rogue, attacker.prove(b"ctx").proof)
    with pytest.raises(ProofError, match="key share 2"):
        joint_key([*shares, forged], b"ctx")


def test_duplicated_key_share_is_refused() -> None:
    k = KeyShare()
    s = k.prove(b"ctx")
    with pytest.raises(ProofError, match="duplicates"):
        joint_key([s, KeyShare().prove(b"ctx"), s], b"ctx")

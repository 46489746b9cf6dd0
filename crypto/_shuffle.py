"""Verifiable re-encryption shuffles: the Terelius–Wikström proof of shuffle.

The proof follows GenShuffleProof / CheckShuffleProof of Haenni, Locher, Koenig and Dubuis,
"Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets" (FC 2017) and the CHVote
specification, written here in additive notation over ristretto255. ElGamal ciphertexts are
``(a, b) = (r·G, M + r·Y)``; re-encryption adds ``(r'·G, r'·Y)``.

The prover commits to the permutation (``c_j = r_j·G + h_i`` for ``j = ψ(i)``), derives
challenges ``u`` from everything public, and proves with one sigma protocol that (1) the
commitments open to a permutation matrix, via a commitment chain ``ĉ`` to the products of the
permuted challenges, and (2) the output deck is the input deck permuted by that matrix and
re-encrypted. The Fiat–Shamir challenge binds the caller's context (table, step, log position),
the table key and both decks, so a proof cannot be replayed anywhere else.

Cost for ``n`` cards: proving ≈ 6n variable-base and 4n fixed-base multiplications (the
re-encryption included); verifying ≈ 8n variable-base and n fixed-base, plus validating the
4n points received. A process that stands for several peers (the tests' harness) may verify
each statement and proof once: :func:`remember_verified` (:class:`_Verified`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from ._elgamal import MAX_DECK, Ciphertext
from ._errors import DecodeError, ProofError
from ._group import (
    IDENTITY,
    L,
    Point,
    base_mul,
    encode_scalar,
    hash_bytes,
    hash_to_point,
    hash_to_scalar,
    lincomb,
    point_sum,
)
from ._rng import SYSTEM_RNG, Rng, random_permutation
from ._wire import expect_list, read_points, read_scalar, read_scalars


@lru_cache(maxsize=8)
def _generators(n: int) -> tuple[Point, tuple[Point, ...]]:
    """``H0`` and ``h_1..h_n``: independent generators nobody knows a logarithm of."""
    h0 = hash_to_point("shuffle/generator", b"h0")
    return h0, tuple(hash_to_point("shuffle/generator", i.to_bytes(4, "big")) for i in range(n))


@lru_cache(maxsize=8)
def _generators_sum(n: int) -> Point:
    """``h_1 + … + h_n``: a public constant of the deck size, added once, not per proof."""
    return point_sum(list(_generators(n)[1]))


def _encode_points(points: Sequence[Point]) -> bytes:
    return b"".join(p.encode() for p in points)


def _encode_deck(deck: Sequence[Ciphertext]) -> bytes:
    return b"".join(c.a.encode() + c.b.encode() for c in deck)


def _u_challenges(
    context: bytes, key: Point, src: bytes, dst: bytes, commitments: Sequence[Point]
) -> list[int]:
    seed = hash_bytes("shuffle/u", context, key.encode(), src, dst, _encode_points(commitments))
    return [
        hash_to_scalar("shuffle/u_i", seed, i.to_bytes(4, "big")) for i in range(len(commitments))
    ]


def _final_challenge(
    context: bytes,
    key: Point,
    src: bytes,
    dst: bytes,
    commitments: Sequence[Point],
    chain: Sequence[Point],
    t: Sequence[Point],
    t_hat: Sequence[Point],
) -> int:
    return hash_to_scalar(
        "shuffle/c",
        context,
        key.encode(),
        src,
        dst,
        _encode_points(commitments),
        _encode_points(chain),
        _encode_points(t),
        _encode_points(t_hat),
    )


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A non-interactive proof that one deck is a re-encrypted permutation of another."""

    commitments: tuple[Point, ...]  # c: commitment to the permutation
    chain: tuple[Point, ...]  # ĉ: commitment chain
    challenge: int
    s: tuple[int, int, int, int]
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    def to_wire(self) -> list[object]:
        """Plain form ``[c, ĉ, challenge, [s1..s4], ŝ, s']`` (points and scalars as bytes)."""
        return [
            [p.encode() for p in self.commitments],
            [p.encode() for p in self.chain],
            encode_scalar(self.challenge),
            [encode_scalar(x) for x in self.s],
            [encode_scalar(x) for x in self.s_hat],
            [encode_scalar(x) for x in self.s_prime],
        ]

    @classmethod
    def from_wire(cls, value: object, n: int) -> ShuffleProof:
        """Parse a proof for a deck of ``n`` cards (every point validated).

        Raises :class:`DecodeError` on any wrong type, length or encoding.
        """
        if not 1 <= n <= MAX_DECK:
            raise DecodeError(f"shuffle proof: deck size {n} out of range")
        c, chain, challenge, s, s_hat, s_prime = expect_list(value, "shuffle proof", 6)
        s1, s2, s3, s4 = read_scalars(s, "shuffle proof s", 4)
        return cls(
            tuple(read_points(c, "shuffle proof c", n)),
            tuple(read_points(chain, "shuffle proof chain", n)),
            read_scalar(challenge, "shuffle proof challenge"),
            (s1, s2, s3, s4),
            tuple(read_scalars(s_hat, "shuffle proof s_hat", n)),
            tuple(read_scalars(s_prime, "shuffle proof s_prime", n)),
        )


def shuffle(
    deck: Sequence[Ciphertext],
    table_key: Point,
    context: bytes,
    rng: Rng = SYSTEM_RNG,
    permutation: Sequence[int] | None = None,
) -> tuple[list[Ciphertext], ShuffleProof]:
    """Re-encrypt and permute ``deck``, and prove it.

    Output card ``i`` is input card ``permutation[i]`` (a fresh uniform permutation unless one
    is given, which only tests do). The permutation and randomness are forgotten on return.
    Raises :class:`ValueError` for an empty or oversized deck or a bad permutation.
    """
    n = len(deck)
    if not 1 <= n <= MAX_DECK:
        raise ValueError(f"deck size must be 1..{MAX_DECK}, got {n}")
    psi = list(permutation) if permutation is not None else random_permutation(n, rng)
    if sorted(psi) != list(range(n)):
        raise ValueError("permutation must be a permutation of range(len(deck))")
    rerand = [rng.scalar() for _ in range(n)]
    out = [deck[psi[i]].rerandomize(table_key, rerand[i]) for i in range(n)]
    return out, _prove(deck, out, psi, rerand, table_key, context, rng)


def _prove(
    src: Sequence[Ciphertext],
    dst: Sequence[Ciphertext],
    psi: Sequence[int],
    rerand: Sequence[int],
    key: Point,
    context: bytes,
    rng: Rng,
) -> ShuffleProof:
    n = len(src)
    h0, h = _generators(n)
    src_bytes, dst_bytes = _encode_deck(src), _encode_deck(dst)

    # Permutation commitment: c_{ψ(i)} = r_{ψ(i)}·G + h_i.
    r = [0] * n
    commitments: list[Point] = [IDENTITY] * n
    for i in range(n):
        j = psi[i]
        r[j] = rng.scalar()
        commitments[j] = base_mul(r[j]) + h[i]

    u = _u_challenges(context, key, src_bytes, dst_bytes, commitments)
    u_perm = [u[psi[i]] for i in range(n)]

    # Commitment chain: ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}, ĉ_0 = H0.
    r_hat = [rng.scalar() for _ in range(n)]
    chain: list[Point] = []
    prev = h0
    for i in range(n):
        prev = base_mul(r_hat[i]) + prev * u_perm[i]
        chain.append(prev)

    # Aggregated randomness of the four statements.
    r_bar = sum(r) % L
    r_hat_sum = 0
    v = 1  # v_i = Π_{j>i} u'_j, accumulated from the end
    for i in range(n - 1, -1, -1):
        r_hat_sum = (r_hat_sum + r_hat[i] * v) % L
        v = v * u_perm[i] % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % L
    r_prime = sum(ri * ui for ri, ui in zip(rerand, u_perm, strict=True)) % L

    w1, w2, w3, w4 = (rng.scalar() for _ in range(4))
    w_hat = [rng.scalar() for _ in range(n)]
    w_prime = [rng.scalar() for _ in range(n)]

    t1 = base_mul(w1)
    t2 = base_mul(w2)
    t3 = base_mul(w3) + lincomb(w_prime, list(h))
    t4a = lincomb(w_prime, [c.a for c in dst]) - base_mul(w4)
    t4b = lincomb(w_prime, [c.b for c in dst]) - key * w4
    t_hat = [base_mul(w_hat[i]) + (chain[i - 1] if i else h0) * w_prime[i] for i in range(n)]

    ch = _final_challenge(
        context, key, src_bytes, dst_bytes, commitments, chain, (t1, t2, t3, t4a, t4b), t_hat
    )
    return ShuffleProof(
        commitments=tuple(commitments),
        chain=tuple(chain),
        challenge=ch,
        s=(
            (w1 + ch * r_bar) % L,
            (w2 + ch * r_hat_sum) % L,
            (w3 + ch * r_tilde) % L,
            (w4 + ch * r_prime) % L,
        ),
        s_hat=tuple((w_hat[i] + ch * r_hat[i]) % L for i in range(n)),
        s_prime=tuple((w_prime[i] + ch * u_perm[i]) % L for i in range(n)),
    )


#: How many verified shuffles a process remembers (:func:`verify_shuffle`): a table's whole
#: game has a few dozen, each remembered by a 32-byte digest.
_VERIFIED_MAX = 512


class _Verified:
    """Digests of the shuffle statements (decks, key, context and proof) this process has
    verified, the most recent :data:`_VERIFIED_MAX`, once :func:`remember_verified` is on:
    checking the same bytes again gives the same answer, so where one process stands for
    several peers (the tests' harness) it is not computed again. A peer's own process never
    sees a statement twice, and leaves it off. Safe to use from several threads."""

    def __init__(self) -> None:
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        self._lock = threading.Lock()
        self.on = False  # :func:`remember_verified`
        self.afresh = 0  # > 0: inside :func:`verified_afresh`, nothing is remembered

    def _remembering(self) -> bool:
        return self.on and not self.afresh

    def __contains__(self, digest: bytes) -> bool:
        with self._lock:
            if self._remembering() and digest in self._seen:
                self._seen.move_to_end(digest)
                return True
            return False

    def add(self, digest: bytes) -> None:
        """Remember ``digest`` (forgetting the oldest beyond the limit)."""
        with self._lock:
            if not self._remembering():
                return
            self._seen[digest] = None
            self._seen.move_to_end(digest)
            while len(self._seen) > _VERIFIED_MAX:
                self._seen.popitem(last=False)


_verified = _Verified()


def remember_verified(on: bool) -> None:
    """Whether this process remembers the shuffles it verified (off unless turned on: for a
    process that stands for several peers, each of which verifies the same proofs; the test
    suite turns it on)."""
    with _verified._lock:
        _verified.on = on
        if not on:
            _verified._seen.clear()


@contextmanager
def verified_afresh() -> Iterator[None]:
    """Within the block, :func:`verify_shuffle` verifies every proof in full, one verified
    before too, and remembers none: for benchmarks whose one process stands for several
    peers, each of which verifies on its own."""
    with _verified._lock:
        _verified.afresh += 1
    try:
        yield
    finally:
        with _verified._lock:
            _verified.afresh -= 1


def _statement(
    src: bytes, dst: bytes, table_key: Point, proof: ShuffleProof, context: bytes
) -> bytes:
    """A digest of everything :func:`verify_shuffle` reads: equal digests, equal verdicts.
    Each response is taken as the integer it is, each in a part of its own (not reduced
    mod L: a challenge off by L fails verification and must not match the one it aliases)."""
    scalars = (proof.challenge, *proof.s, *proof.s_hat, *proof.s_prime)
    return hash_bytes(
        "shuffle/verified",
        context,
        table_key.encode(),
        src,
        dst,
        _encode_points(proof.commitments),
        _encode_points(proof.chain),
        *(x.to_bytes(x.bit_length() // 8 + 1, "little", signed=True) for x in scalars),
        size=32,
    )


def verify_shuffle(
    src: Sequence[Ciphertext],
    dst: Sequence[Ciphertext],
    table_key: Point,
    proof: ShuffleProof,
    context: bytes,
) -> None:
    """Check that ``dst`` is a re-encrypted permutation of ``src`` under ``table_key``.

    All points must already be validated (they are, when parsed with ``from_wire``).
    Raises :class:`ProofError` if the proof does not hold for exactly these decks, key and
    context.
    """
    n = len(src)
    if not 1 <= n <= MAX_DECK or len(dst) != n:
        raise ProofError(f"shuffle must map {n} cards to {n} cards, got {len(dst)}")
    if len(proof.commitments) != n or len(proof.chain) != n:
        raise ProofError("shuffle proof has the wrong number of commitments")
    if len(proof.s_hat) != n or len(proof.s_prime) != n:
        raise ProofError("shuffle proof has the wrong number of responses")
    src_bytes, dst_bytes = _encode_deck(src), _encode_deck(dst)
    statement = _statement(src_bytes, dst_bytes, table_key, proof, context)
    if statement in _verified:
        return
    h0, h = _generators(n)
    c_list, chain = list(proof.commitments), list(proof.chain)
    ch = proof.challenge
    s1, s2, s3, s4 = proof.s
    s_prime = list(proof.s_prime)

    u = _u_challenges(context, table_key, src_bytes, dst_bytes, c_list)
    u_prod = 1
    for ui in u:
        u_prod = u_prod * ui % L

    neg = L - ch  # −c
    c_bar = point_sum(c_list) - _generators_sum(n)
    c_hat = chain[-1] - h0 * u_prod
    t1 = c_bar * neg + base_mul(s1)
    t2 = c_hat * neg + base_mul(s2)
    # −c·c̃ with c̃ = Σ u_i·c_i, folded into one linear combination.
    t3 = lincomb([neg * ui % L for ui in u], c_list) + base_mul(s3) + lincomb(s_prime, list(h))
    t4a = (
        lincomb([neg * ui % L for ui in u], [c.a for c in src])
        + lincomb(s_prime, [c.a for c in dst])
        - base_mul(s4)
    )
    t4b = (
        lincomb([neg * ui % L for ui in u], [c.b for c in src])
        + lincomb(s_prime, [c.b for c in dst])
        - table_key * s4
    )
    t_hat = [
        chain[i] * neg + base_mul(proof.s_hat[i]) + (chain[i - 1] if i else h0) * s_prime[i]
        for i in range(n)
    ]
    expected = _final_challenge(
        context, table_key, src_bytes, dst_bytes, c_list, chain, (t1, t2, t3, t4a, t4b), t_hat
    )
    if expected != ch:
        raise ProofError("shuffle proof does not verify for these decks, key and context")
    _verified.add(statement)

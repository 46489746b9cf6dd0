"""Decryption shares of several cards under one proof (a batched Chaum–Pedersen proof).

A peer opening ``n`` cards at once publishes ``D_i = x·A_i`` for each card's ``A_i`` and one
proof that every ``D_i`` was made with the secret of its key share ``X = x·G``. The proof is
a :class:`DleqProof` on a random linear combination: with weights ``w_i`` hashed from the
context, ``X``, every ``A_i`` and every ``D_i`` (so fixed only once the shares are),
``A* = Σ w_i·A_i`` and ``D* = Σ w_i·D_i``, it shows ``log_G X = log_{A*} D*``. If some
``D_j ≠ x·A_j`` the combination matches ``x·A*`` only with probability ``1/L`` over the hash
(the group has prime order, so every difference ``D_j − x·A_j`` generates it), and the DLEQ
proof fails. Checking costs two multiplications per share instead of three, and the wire
carries one proof instead of ``n``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._dleq import DleqProof
from ._elgamal import Ciphertext
from ._errors import DecodeError, ProofError
from ._group import Point, base_mul, hash_bytes, hash_to_scalar, lincomb
from ._keys import KeyShare
from ._wire import expect_list, read_point

__all__ = ["MAX_BATCH", "ShareBatch"]

#: The most shares one batch may hold (a whole deck).
MAX_BATCH = 1024


def _weights(context: bytes, public: Point, a: Sequence[Point], d: Sequence[Point]) -> list[int]:
    seed = hash_bytes(
        "dleq-batch", context, public.encode(), len(a).to_bytes(4, "big"),
        b"".join(p.encode() for p in a), b"".join(p.encode() for p in d),
    )  # fmt: skip
    return [hash_to_scalar("dleq-batch/weight", seed, i.to_bytes(4, "big")) for i in range(len(a))]


@dataclass(frozen=True, slots=True)
class ShareBatch:
    """A peer's shares ``ds[i] = x·cts[i].a`` of several ciphertexts, with one proof."""

    ds: tuple[Point, ...]
    proof: DleqProof

    @classmethod
    def create(cls, key: KeyShare, cts: Sequence[Ciphertext], context: bytes) -> ShareBatch:
        """This peer's shares of ``cts`` (at least one), proved under ``context``."""
        if not 1 <= len(cts) <= MAX_BATCH:
            raise ValueError(f"a batch holds 1 to {MAX_BATCH} shares")
        x = key.secret
        a = [ct.a for ct in cts]
        ds = tuple(p * x for p in a)
        w = _weights(context, base_mul(x), a, ds)
        _, proof = DleqProof.prove(x, lincomb(w, a), context)
        return cls(ds, proof)

    def verify(self, public: Point, cts: Sequence[Ciphertext], context: bytes) -> None:
        """Check every share against the author's key share ``public``; raises
        :class:`ProofError` if any does not hold (the batch names no single card)."""
        if len(cts) != len(self.ds) or not self.ds:
            raise ProofError(f"{len(self.ds)} shares for {len(cts)} cards")
        a = [ct.a for ct in cts]
        w = _weights(context, public, a, self.ds)
        try:
            self.proof.verify(public, lincomb(w, a), lincomb(w, list(self.ds)), context)
        except ProofError:
            raise ProofError("decryption shares proof (batched DLEQ) does not verify") from None

    def to_wire(self) -> list[object]:
        """Plain form ``[[D_0, …], proof]``."""
        return [[d.encode() for d in self.ds], self.proof.to_wire()]

    @classmethod
    def from_wire(cls, value: object, count: int) -> ShareBatch:
        """Parse exactly ``count`` shares (points validated); raises :class:`DecodeError`."""
        ds, proof = expect_list(value, "share batch", 2)
        points = expect_list(ds, "share batch shares", count)
        if not 1 <= count <= MAX_BATCH:
            raise DecodeError(f"a share batch holds 1 to {MAX_BATCH} shares")
        return cls(
            tuple(read_point(p, f"share batch D[{i}]") for i, p in enumerate(points)),
            DleqProof.from_wire(proof),
        )

"""Chaum–Pedersen proofs of discrete-log equality (DLEQ).

A proof that ``log_G X == log_A D`` without revealing the logarithm: it shows a decryption
share ``D = x·A`` was made with the same secret ``x`` as the published key share ``X = x·G``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._errors import ProofError
from ._group import L, Point, base_mul, encode_scalar, hash_to_scalar, random_scalar
from ._wire import expect_list, read_scalar


def _challenge(context: bytes, x: Point, a: Point, d: Point, r1: Point, r2: Point) -> int:
    return hash_to_scalar(
        "dleq", context, x.encode(), a.encode(), d.encode(), r1.encode(), r2.encode()
    )


@dataclass(frozen=True, slots=True)
class DleqProof:
    """``(c, s)`` with ``c = H(ctx, X, A, D, s·G − c·X, s·A − c·D)``."""

    c: int
    s: int

    @classmethod
    def prove(cls, secret: int, a: Point, context: bytes) -> tuple[Point, DleqProof]:
        """Return ``D = secret·a`` and a proof that it matches ``secret·G``."""
        x = base_mul(secret)
        d = a * secret
        k = random_scalar()
        c = _challenge(context, x, a, d, base_mul(k), a * k)
        return d, cls(c, (k + c * secret) % L)

    def verify(self, x: Point, a: Point, d: Point, context: bytes) -> None:
        """Check that ``log_G x == log_a d``; raises :class:`ProofError` otherwise."""
        r1 = base_mul(self.s) - x * self.c
        r2 = a * self.s - d * self.c
        if _challenge(context, x, a, d, r1, r2) != self.c:
            raise ProofError("decryption share proof (DLEQ) does not verify")

    def to_wire(self) -> list[bytes]:
        """Plain form ``[c, s]``."""
        return [encode_scalar(self.c), encode_scalar(self.s)]

    @classmethod
    def from_wire(cls, value: object) -> DleqProof:
        """Parse the plain form; raises :class:`DecodeError`."""
        c, s = expect_list(value, "dleq proof", 2)
        return cls(read_scalar(c, "dleq proof c"), read_scalar(s, "dleq proof s"))

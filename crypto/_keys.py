"""Per-peer key shares for the table's joint ElGamal key, with Schnorr proofs of knowledge.

Each peer draws a secret ``x`` and publishes ``X = x·G`` with a proof that it knows ``x``, bound
to a caller-given context (table id, step, log position). The table key is the sum of all
shares; decrypting anything under it needs every peer's cooperation (l-out-of-l threshold).
Without the proof a peer could choose ``X = Y - Σ others`` and decrypt alone (a rogue-key attack).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._errors import ProofError
from ._group import (
    G,
    L,
    Point,
    base_mul,
    encode_scalar,
    hash_bytes,
    hash_to_scalar,
    point_sum,
    random_scalar,
)
from ._wire import expect_list, read_point, read_scalar


@dataclass(frozen=True, slots=True)
class SchnorrProof:
    """A non-interactive proof of knowledge of ``log_G X`` (challenge form ``(c, s)``)."""

    c: int
    s: int

    def to_wire(self) -> list[bytes]:
        """Plain form: ``[c, s]`` as 32-byte scalars."""
        return [encode_scalar(self.c), encode_scalar(self.s)]

    @classmethod
    def from_wire(cls, value: object) -> SchnorrProof:
        """Parse the plain form; raises :class:`DecodeError`."""
        c, s = expect_list(value, "schnorr proof", 2)
        return cls(read_scalar(c, "schnorr proof c"), read_scalar(s, "schnorr proof s"))


def _challenge(context: bytes, public: Point, commitment: Point) -> int:
    return hash_to_scalar("key-share", context, public.encode(), commitment.encode())


@dataclass(frozen=True, slots=True)
class PublicKeyShare:
    """A peer's published share ``X`` with its proof of knowledge."""

    point: Point
    proof: SchnorrProof

    def verify(self, context: bytes) -> None:
        """Check the proof for ``context``; raises :class:`ProofError` if it does not hold."""
        commitment = base_mul(self.proof.s) - self.point * self.proof.c
        if _challenge(context, self.point, commitment) != self.proof.c:
            raise ProofError("key share proof does not verify for this key and context")

    def to_wire(self) -> list[object]:
        """Plain form: ``[X, proof]``."""
        return [self.point.encode(), self.proof.to_wire()]

    @classmethod
    def from_wire(cls, value: object) -> PublicKeyShare:
        """Parse the plain form (points validated); raises :class:`DecodeError`."""
        point, proof = expect_list(value, "key share", 2)
        return cls(read_point(point, "key share point"), SchnorrProof.from_wire(proof))


class KeyShare:
    """A peer's secret key share. The secret never leaves this object except via
    :meth:`secret_bytes`, which is meant for the end-of-game audit and local persistence."""

    __slots__ = ("_x", "public")

    def __init__(self, secret: int | None = None) -> None:
        self._x = random_scalar() if secret is None else secret
        self.public = base_mul(self._x)

    @property
    def secret(self) -> int:
        """The secret scalar ``x``."""
        return self._x

    def secret_bytes(self) -> bytes:
        """The canonical encoding of ``x`` (for the audit reveal and saving to disk)."""
        return encode_scalar(self._x)

    def derive(self, domain: str, context: bytes, size: int = 32) -> bytes:
        """``size`` bytes (at most 64) only this key's holder can compute, the same every
        time for one ``domain`` and ``context``: a domain-separated BLAKE2b hash of the
        secret and the context (a pseudorandom function of the context, keyed by the
        secret). A peer restarted with its saved key share makes the same bytes again."""
        return hash_bytes("key-derived/" + domain, encode_scalar(self._x), context, size=size)

    def prove(self, context: bytes) -> PublicKeyShare:
        """The public share with a Schnorr proof bound to ``context``."""
        k = random_scalar()
        c = _challenge(context, self.public, base_mul(k))
        return PublicKeyShare(self.public, SchnorrProof(c, (k + c * self._x) % L))

    def __repr__(self) -> str:
        return f"KeyShare(public={self.public!r})"


def joint_key(shares: Sequence[PublicKeyShare], contexts: bytes | Sequence[bytes]) -> Point:
    """Verify every share's proof and return the table key ``Σ X_i``.

    ``contexts`` is one context for all shares or one per share (the protocol binds each to its
    author and log position). Raises :class:`ProofError` naming the index of the first bad
    share, or if two shares are equal (a copied share is not the copier's own key).
    Raises :class:`ValueError` if the number of contexts does not match.
    """
    per_share = [contexts] * len(shares) if isinstance(contexts, bytes) else list(contexts)
    if len(per_share) != len(shares):
        raise ValueError("joint_key needs one context per share")
    seen: set[Point] = set()
    for i, (share, context) in enumerate(zip(shares, per_share, strict=True)):
        try:
            share.verify(context)
        except ProofError as exc:
            raise ProofError(f"key share {i}: {exc}") from None
        if share.point in seen:
            raise ProofError(f"key share {i} duplicates another share")
        seen.add(share.point)
    return point_sum([s.point for s in shares])


__all__ = ["G", "KeyShare", "PublicKeyShare", "SchnorrProof", "joint_key"]

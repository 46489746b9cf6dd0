"""Sources of secret randomness for the prover side of the protocols.

Production code uses :data:`SYSTEM_RNG` (the OS CSPRNG). :class:`SeededRng` is deterministic
and exists so tests and benchmarks can replay exactly; it must never protect real secrets.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from ._group import L


class Rng(Protocol):
    """Randomness for provers: non-zero scalars and uniform integers."""

    def scalar(self) -> int:
        """A uniform non-zero scalar mod L."""
        ...

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (``n >= 1``)."""
        ...


class SystemRng:
    """The operating system's CSPRNG."""

    def scalar(self) -> int:
        """A uniform non-zero scalar mod L (512 random bits reduced: bias below 2^-259)."""
        while True:
            s = int.from_bytes(secrets.token_bytes(64), "little") % L
            if s:
                return s

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1``."""
        return secrets.randbelow(n)


class SeededRng:
    """A deterministic stream from a seed (BLAKE2b in counter mode). For tests only."""

    def __init__(self, seed: bytes) -> None:
        self._seed = hashlib.blake2b(seed, person=b"lp-test-rng").digest()
        self._counter = 0

    def _block(self) -> bytes:
        self._counter += 1
        return hashlib.blake2b(
            self._counter.to_bytes(8, "little"), key=self._seed, digest_size=64
        ).digest()

    def scalar(self) -> int:
        """A uniform non-zero scalar mod L."""
        while True:
            s = int.from_bytes(self._block(), "little") % L
            if s:
                return s

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` by rejection sampling."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 512) - (1 << 512) % n
        while True:
            v = int.from_bytes(self._block(), "little")
            if v < limit:
                return v % n


SYSTEM_RNG = SystemRng()


def random_permutation(n: int, rng: Rng) -> list[int]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates driven by ``rng``)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = rng.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm

"""Commit-reveal commitments and the joint coin.

A commitment is ``H("commit", context, salt, value)`` with a fresh 32-byte salt: hiding (the
salt is secret until the reveal) and binding (collision resistance). A joint coin is decided
by a hash of every peer's revealed value: as long as one peer chose its value at random and
committed before seeing the others, nobody can steer the outcome.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from ._errors import DecodeError, ProofError
from ._group import hash_bytes
from ._keys import KeyShare
from ._wire import expect_bytes, expect_list

SALT_BYTES = 32
DIGEST_BYTES = 32
#: Largest range of a joint coin.
MAX_COIN = 1 << 32
#: Largest committed value accepted.
MAX_VALUE = 64 * 1024


@dataclass(frozen=True, slots=True)
class Opening:
    """What a committer reveals: the salt and the value."""

    salt: bytes
    value: bytes

    def to_wire(self) -> list[bytes]:
        """Plain form ``[salt, value]``."""
        return [self.salt, self.value]

    @classmethod
    def from_wire(cls, value: object) -> Opening:
        """Parse; raises :class:`DecodeError` on wrong types or sizes."""
        salt, val = expect_list(value, "opening", 2)
        data = expect_bytes(val, "opening value")
        if len(data) > MAX_VALUE:
            raise DecodeError(f"opening value: over {MAX_VALUE} bytes")
        return cls(expect_bytes(salt, "opening salt", SALT_BYTES), data)


def _digest(context: bytes, opening: Opening) -> bytes:
    return hash_bytes("commit", context, opening.salt, opening.value, size=DIGEST_BYTES)


def commit(value: bytes, context: bytes) -> tuple[bytes, Opening]:
    """Commit to ``value``: returns the public digest and the secret opening."""
    if len(value) > MAX_VALUE:
        raise ValueError(f"committed value over {MAX_VALUE} bytes")
    opening = Opening(secrets.token_bytes(SALT_BYTES), value)
    return _digest(context, opening), opening


def read_commitment(value: object) -> bytes:
    """A commitment digest from outside; raises :class:`DecodeError`."""
    return expect_bytes(value, "commitment", DIGEST_BYTES)


def verify_opening(commitment: bytes, opening: Opening, context: bytes) -> None:
    """Raise :class:`ProofError` unless ``opening`` opens ``commitment`` under ``context``."""
    if not hmac.compare_digest(_digest(context, opening), commitment):
        raise ProofError("opening does not match the commitment")


def coin_commitment(key: KeyShare, context: bytes) -> tuple[bytes, Opening]:
    """A commitment to a joint-coin contribution drawn from ``key``'s secret and the coin's
    ``context``: the salt and the contribution are two values derived from both
    (:meth:`KeyShare.derive`), unpredictable to anyone without the secret (which is
    published only at the audit, after every coin), and the same every time, so a peer
    restarted with its saved key share opens exactly what it committed. Returns the public
    digest and the opening."""
    opening = Opening(key.derive("coin-salt", context, SALT_BYTES), key.derive("coin", context))
    return _digest(context, opening), opening


def joint_coin(contributions: Sequence[bytes], n: int, context: bytes) -> int:
    """A uniform integer in ``0..n-1`` from every peer's revealed contribution (in seat order).

    The contributions are hashed into a SHAKE-256 stream read in 64-bit words; words at or
    above the largest multiple of ``n`` are rejected, so the result has no modulo bias.
    Raises :class:`ValueError` for ``n < 1`` or no contributions.
    """
    if not 1 <= n <= MAX_COIN:
        raise ValueError(f"joint_coin needs 1 <= n <= {MAX_COIN}")
    if not contributions:
        raise ValueError("joint_coin needs at least one contribution")
    material = hash_bytes("coin", context, n.to_bytes(8, "big"), *contributions)
    limit = (1 << 64) - (1 << 64) % n
    block = 256
    while True:
        stream = hashlib.shake_256(material).digest(block)
        for i in range(0, block, 8):
            word = int.from_bytes(stream[i : i + 8], "big")
            if word < limit:
                return word % n
        block *= 2  # astronomically unlikely: read a longer prefix of the same stream

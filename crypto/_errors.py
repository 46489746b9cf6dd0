"""Errors raised by the crypto package.

Two families, in the spirit of h11: :class:`DecodeError` means bytes or values that came from
outside (a peer, a file) are malformed; :class:`ProofError` means well-formed data failed a
cryptographic check, so its author misbehaved. Anything else escaping this package is a bug.
"""

from __future__ import annotations


class CryptoError(Exception):
    """Base class of every error this package raises on purpose."""


class DecodeError(CryptoError, ValueError):
    """A value from outside is malformed: wrong type, length, or not a valid encoding."""


class InvalidPointError(DecodeError):
    """Thirty-two bytes that are not a canonical point of the prime-order subgroup."""


class ProofError(CryptoError):
    """A proof, share, commitment or signature failed verification."""

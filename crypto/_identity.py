"""Peer identities: an Ed25519 signing key per peer, and a fingerprint to read aloud.

Every signature is domain-separated: the signed bytes are a fixed tag, the purpose, and the
message, so a signature made for one purpose never verifies for another.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from nacl.bindings import crypto_core_ed25519_is_valid_point as is_valid_point

from ._errors import DecodeError, ProofError
from ._wire import expect_bytes

PUBLIC_BYTES = 32
SIGNATURE_BYTES = 64
# Crockford's base32 alphabet: no I, L, O or U, so it reads aloud without ambiguity.
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_STD_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_TO_CROCKFORD = str.maketrans(_STD_B32, _CROCKFORD)


def _signed_bytes(purpose: str, message: bytes) -> bytes:
    p = purpose.encode()
    return b"lanparty/v1/sig\x00" + len(p).to_bytes(2, "big") + p + message


def fingerprint(public: bytes) -> str:
    """A short fingerprint of a public key: 16 Crockford base32 characters (80 bits) in four
    groups, e.g. ``"7QXM-K2PA-93TD-HB0R"``; two people compare it by reading it aloud."""
    digest = hashlib.blake2b(b"lanparty/v1/fingerprint\x00" + public, digest_size=10).digest()
    text = base64.b32encode(digest).decode().translate(_TO_CROCKFORD)
    return "-".join(text[i : i + 4] for i in range(0, 16, 4))


class PublicIdentity:
    """A peer's public Ed25519 key."""

    __slots__ = ("_key", "raw")

    def __init__(self, raw: bytes) -> None:
        """Wrap 32 raw bytes; raises :class:`DecodeError` if they are not a valid key."""
        self.raw = expect_bytes(raw, "identity key", PUBLIC_BYTES)
        # A small-order key (the identity point, say) admits signatures that verify for every
        # message, so anyone could sign in its name: only prime-order-subgroup keys are taken.
        if not is_valid_point(self.raw):
            raise DecodeError("identity key: not a valid Ed25519 public key")
        try:
            self._key = Ed25519PublicKey.from_public_bytes(self.raw)
        except ValueError:
            raise DecodeError("identity key: not a valid Ed25519 public key") from None

    @property
    def fingerprint(self) -> str:
        """See :func:`fingerprint`."""
        return fingerprint(self.raw)

    def verify(self, purpose: str, message: bytes, signature: object) -> None:
        """Raise :class:`ProofError` unless ``signature`` signs ``message`` for ``purpose``."""
        sig = expect_bytes(signature, "signature", SIGNATURE_BYTES)
        try:
            self._key.verify(sig, _signed_bytes(purpose, message))
        except InvalidSignature:
            raise ProofError(f"bad signature by {self.fingerprint}") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicIdentity) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"PublicIdentity({self.fingerprint})"


class KnownKeys:
    """The public keys one peer has checked: each key is validated and parsed once (about
    as costly as checking a signature), however many signatures it then verifies.

    One per peer, never shared between peers: what one peer checked is checked again by the
    next. It holds at most ``limit`` keys and forgets them all when one more comes, so a
    stranger's keys cannot grow it; a key that fails its check is never kept.
    """

    __slots__ = ("_keys", "limit")

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self._keys: dict[bytes, PublicIdentity] = {}

    def get(self, raw: bytes) -> PublicIdentity:
        """The key ``raw``, checked the first time it is asked for; raises
        :class:`DecodeError` (every time) if it is not a valid key."""
        key = self._keys.get(raw) if type(raw) is bytes else None
        if key is None:
            key = PublicIdentity(raw)
            if len(self._keys) >= self.limit:
                self._keys.clear()
            self._keys[raw] = key
        return key

    def __len__(self) -> int:
        return len(self._keys)


class Identity:
    """A peer's Ed25519 signing key."""

    __slots__ = ("_sk", "public")

    def __init__(self, seed: bytes | None = None) -> None:
        """A new random key, or the one whose 32-byte private seed is given."""
        self._sk = (
            Ed25519PrivateKey.generate()
            if seed is None
            else Ed25519PrivateKey.from_private_bytes(expect_bytes(seed, "identity seed", 32))
        )
        self.public = PublicIdentity(
            self._sk.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        )

    def seed(self) -> bytes:
        """The 32-byte private seed, for saving the identity to disk. Never send it."""
        return self._sk.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, purpose: str, message: bytes) -> bytes:
        """A 64-byte signature over ``message`` for ``purpose``."""
        return self._sk.sign(_signed_bytes(purpose, message))

    def __repr__(self) -> str:
        return f"Identity({self.public.fingerprint})"


__all__ = ["Identity", "KnownKeys", "ProofError", "PublicIdentity", "fingerprint"]

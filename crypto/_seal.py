"""Sealed boxes: a message readable by one peer only, bound to a context.

X25519 with a fresh ephemeral key per box, HKDF-SHA256 over the shared secret, both public keys
and the context, then ChaCha20-Poly1305 with the context as associated data. Used for "show to
one": a holder's decryption shares sent to a single peer through the public, host-relayed log.
The box itself names no sender; the signed log entry that carries it does.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from ._errors import DecodeError, ProofError
from ._wire import expect_bytes

_NONCE = bytes(12)  # every box has its own key, so a fixed nonce never repeats under one key
_KEY_BYTES = 32
_TAG_BYTES = 16
#: Largest plaintext a box may carry.
MAX_SEALED = 1 << 20


def _raw(public: X25519PublicKey) -> bytes:
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw)


def _derive(shared: bytes, eph: bytes, recipient: bytes, context: bytes) -> bytes:
    info = b"lanparty/v1/seal\x00" + eph + recipient + len(context).to_bytes(8, "big") + context
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(shared)


#: 2^255 - 19, the field prime of Curve25519: a canonical u-coordinate is below it.
_FIELD_PRIME = 2**255 - 19
#: Any fixed secret serves to test a public key: X25519 clamps every scalar to a multiple of
#: the cofactor, so the exchange gives the all-zero secret exactly for the small-order points.
_PROBE = X25519PrivateKey.from_private_bytes(b"lanparty/v1/seal-key-probe\x00\x00\x00\x00\x00\x00")


def read_seal_public(value: object) -> bytes:
    """A peer's X25519 public key from outside, validated where it enters.

    Refused with :class:`DecodeError`: anything but 32 bytes, a non-canonical encoding (the
    top bit set, or a u-coordinate not below 2^255 - 19), and every small-order point (which
    would make a shared secret that does not depend on our secret, and ``seal`` fail later).
    """
    data = expect_bytes(value, "seal public key", _KEY_BYTES)
    if int.from_bytes(data, "little") >= _FIELD_PRIME:
        raise DecodeError("seal public key: not a canonical X25519 key")
    try:
        _PROBE.exchange(X25519PublicKey.from_public_bytes(data))
    except ValueError:
        raise DecodeError("seal public key: a small-order point is refused") from None
    return data


class SealKey:
    """A peer's X25519 key pair for receiving sealed boxes (one per table)."""

    __slots__ = ("_sk", "public")

    def __init__(self, secret: bytes | None = None) -> None:
        self._sk = (
            X25519PrivateKey.generate()
            if secret is None
            else X25519PrivateKey.from_private_bytes(expect_bytes(secret, "seal key", 32))
        )
        self.public: bytes = _raw(self._sk.public_key())

    def secret_bytes(self) -> bytes:
        """The raw private key (for saving, and for publishing in the end-of-game audit)."""
        return self._sk.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def open(self, box: bytes, context: bytes) -> bytes:
        """Decrypt a box sealed to this key under ``context``.

        Raises :class:`DecodeError` for a malformed box and :class:`ProofError` if it was not
        sealed to this key and context or was altered.
        """
        data = expect_bytes(box, "sealed box")
        if not _KEY_BYTES + _TAG_BYTES <= len(data) <= _KEY_BYTES + _TAG_BYTES + MAX_SEALED:
            raise DecodeError("sealed box: wrong size")
        eph = data[:_KEY_BYTES]
        try:
            shared = self._sk.exchange(X25519PublicKey.from_public_bytes(eph))
        except ValueError:
            raise ProofError("sealed box: degenerate ephemeral key") from None
        key = _derive(shared, eph, self.public, context)
        try:
            return ChaCha20Poly1305(key).decrypt(_NONCE, data[_KEY_BYTES:], context)
        except InvalidTag:
            raise ProofError("sealed box does not open for this key and context") from None


def seal(recipient: bytes, plaintext: bytes, context: bytes) -> bytes:
    """Encrypt ``plaintext`` so only the holder of ``recipient``'s secret can read it.

    Raises :class:`DecodeError` for a malformed recipient key and :class:`ValueError` for a
    plaintext over :data:`MAX_SEALED` bytes.
    """
    recipient = read_seal_public(recipient)
    if len(plaintext) > MAX_SEALED:
        raise ValueError(f"sealed plaintext over {MAX_SEALED} bytes")
    eph = X25519PrivateKey.generate()
    eph_pub = _raw(eph.public_key())
    try:
        shared = eph.exchange(X25519PublicKey.from_public_bytes(recipient))
    except ValueError:
        raise DecodeError("seal public key: a low-order point is refused") from None
    key = _derive(shared, eph_pub, recipient, context)
    return eph_pub + ChaCha20Poly1305(key).encrypt(_NONCE, plaintext, context)

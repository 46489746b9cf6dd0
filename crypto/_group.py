"""The prime-order subgroup of edwards25519, through libsodium (as bundled by PyNaCl).

Points are immutable wrappers of their canonical 32-byte encoding; scalars are Python ints
reduced mod :data:`L`. All curve arithmetic is libsodium's; this module only adds the identity
element, which libsodium's multiplication refuses, and strict validation of foreign points.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Final

from nacl import bindings as _na

from ._errors import DecodeError, InvalidPointError

#: Order of the prime-order subgroup (and of the scalar field).
L: Final = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES: Final = 32
SCALAR_BYTES: Final = 32

_IDENTITY_BYTES: Final = b"\x01" + bytes(31)
_PROTOCOL_TAG: Final = b"lanparty/v1/"

_add = _na.crypto_core_ed25519_add
_sub = _na.crypto_core_ed25519_sub
_mul = _na.crypto_scalarmult_ed25519_noclamp
_mul_base = _na.crypto_scalarmult_ed25519_base_noclamp
_valid = _na.crypto_core_ed25519_is_valid_point
_from_uniform = _na.crypto_core_ed25519_from_uniform


class Point:
    """An element of the prime-order subgroup, held as its canonical encoding.

    Construct from foreign bytes only through :meth:`decode`, which validates.
    """

    __slots__ = ("_b",)
    _b: bytes

    def __init__(self, encoded: bytes) -> None:
        # Trusted constructor: callers pass libsodium output or already-validated bytes.
        object.__setattr__(self, "_b", encoded)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    @classmethod
    def decode(cls, data: object) -> Point:
        """Validate and wrap a point received from outside.

        Raises :class:`InvalidPointError` unless ``data`` is 32 bytes encoding a canonical point on
        the curve, in the prime-order subgroup, and not of small order (the identity included).
        """
        if not isinstance(data, bytes) or len(data) != POINT_BYTES:
            raise InvalidPointError("a point must be exactly 32 bytes")
        if not _valid(data):
            raise InvalidPointError(
                "not a canonical point of the prime-order subgroup (or of small order)"
            )
        return cls(data)

    def encode(self) -> bytes:
        """The canonical 32-byte encoding."""
        return self._b

    @property
    def is_identity(self) -> bool:
        """True for the neutral element."""
        return self._b == _IDENTITY_BYTES

    def __add__(self, other: Point) -> Point:
        return Point(_add(self._b, other._b))

    def __sub__(self, other: Point) -> Point:
        return Point(_sub(self._b, other._b))

    def __neg__(self) -> Point:
        return IDENTITY - self

    def __mul__(self, scalar: int) -> Point:
        """Scalar multiplication ``scalar * self`` (variable base)."""
        s = scalar % L
        if s == 0 or self._b == _IDENTITY_BYTES:
            return IDENTITY
        if self._b == _BASE_BYTES:
            return Point(_mul_base(s.to_bytes(32, "little")))
        return Point(_mul(s.to_bytes(32, "little"), self._b))

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and other._b == self._b

    def __hash__(self) -> int:
        return hash(self._b)

    def __repr__(self) -> str:
        return f"Point({self._b[:6].hex()}…)"


def base_mul(scalar: int) -> Point:
    """``scalar * G`` with libsodium's fixed-base multiplication."""
    s = scalar % L
    if s == 0:
        return IDENTITY
    return Point(_mul_base(s.to_bytes(32, "little")))


IDENTITY: Final = Point(_IDENTITY_BYTES)
G: Final = base_mul(1)
_BASE_BYTES: Final = G.encode()


def point_sum(points: list[Point]) -> Point:
    """The sum of ``points`` (the identity for an empty list)."""
    acc = _IDENTITY_BYTES
    for p in points:
        acc = _add(acc, p._b)
    return Point(acc)


def lincomb(scalars: list[int], points: list[Point]) -> Point:
    """``Σ scalars[i] * points[i]``; the lists must have equal length."""
    if len(scalars) != len(points):
        raise ValueError("lincomb needs as many scalars as points")
    acc = _IDENTITY_BYTES
    for s, p in zip(scalars, points, strict=True):
        acc = _add(acc, (p * s)._b)
    return Point(acc)


def random_scalar() -> int:
    """A uniformly random non-zero scalar from the operating system's CSPRNG."""
    while True:
        s = int.from_bytes(secrets.token_bytes(64), "little") % L
        if s:
            return s


def encode_scalar(s: int) -> bytes:
    """The canonical 32-byte little-endian encoding of ``s mod L``."""
    return (s % L).to_bytes(SCALAR_BYTES, "little")


def decode_scalar(data: object) -> int:
    """Decode a canonical scalar; raises :class:`DecodeError` for wrong length or ``>= L``."""
    if not isinstance(data, bytes) or len(data) != SCALAR_BYTES:
        raise DecodeError("a scalar must be exactly 32 bytes")
    s = int.from_bytes(data, "little")
    if s >= L:
        raise DecodeError("scalar is not reduced modulo the group order")
    return s


def _frame(domain: str, parts: tuple[bytes, ...]) -> bytes:
    """Unambiguous encoding of a domain and parts (every piece length-prefixed)."""
    d = domain.encode()
    out = [_PROTOCOL_TAG, len(d).to_bytes(2, "big"), d]
    for p in parts:
        out.append(len(p).to_bytes(8, "big"))
        out.append(p)
    return b"".join(out)


def hash_bytes(domain: str, *parts: bytes, size: int = 64) -> bytes:
    """A domain-separated hash of ``parts`` (BLAKE2b, ``size`` bytes, at most 64)."""
    return hashlib.blake2b(_frame(domain, parts), digest_size=size).digest()


def hash_to_scalar(domain: str, *parts: bytes) -> int:
    """A domain-separated hash of ``parts`` mapped to a scalar (512 bits reduced mod L)."""
    return int.from_bytes(hash_bytes(domain, *parts), "little") % L


def hash_to_point(domain: str, *parts: bytes) -> Point:
    """A domain-separated hash onto the prime-order subgroup.

    Two independent field elements go through libsodium's Elligator 2 map (which clears the
    cofactor) and the images are added, so the result is close to uniform and nobody knows its
    discrete logarithm with respect to any other point.
    """
    h = hashlib.blake2b(_frame("hash-to-point/" + domain, parts), digest_size=64).digest()
    return Point(_add(_from_uniform(h[:32]), _from_uniform(h[32:])))

"""The ristretto255 group (RFC 9496), through libsodium (as bundled by ``rbcl``).

Points are immutable wrappers of their canonical 32-byte encoding; scalars are Python ints
reduced mod :data:`L`. All curve arithmetic is libsodium's, called directly (``_native`` loads
it); this module adds the identity element, which libsodium's multiplication refuses, strict
validation of foreign points (one encoding per element: the top bit libsodium ignores is
refused), and turns any failure of the library into :class:`InvalidPointError`.

ristretto255 is a prime-order group built on edwards25519: every canonical encoding names one
element of a group of order ``L``, so a foreign point needs no subgroup check (the costly part
of validating an edwards25519 point), and multiplication does not re-check its input either.
Measured on this code (``python -m crypto.group_ab``): a multiplication costs about half of an
edwards25519 one through PyNaCl, and checking a decoded point about a twelfth.
"""

from __future__ import annotations

import ctypes
import hashlib
import secrets
from typing import Any, Final

from . import _native
from ._errors import DecodeError, InvalidPointError

#: Order of the group (and of the scalar field).
L: Final = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES: Final = 32
SCALAR_BYTES: Final = 32

_IDENTITY_BYTES: Final = bytes(32)
#: Bumped with the group (v1 hashed onto edwards25519): nothing hashed here equals anything
#: hashed for the other group.
_PROTOCOL_TAG: Final = b"lanparty/v2/"

_lib: Any = _native.load()  # rbcl's libsodium, never from a temporary file (see _native)
_c_add = _lib.crypto_core_ristretto255_add
_c_sub = _lib.crypto_core_ristretto255_sub
_c_mul = _lib.crypto_scalarmult_ristretto255
_c_mul_base = _lib.crypto_scalarmult_ristretto255_base
_c_valid = _lib.crypto_core_ristretto255_is_valid_point
_c_from_hash = _lib.crypto_core_ristretto255_from_hash
_Buf = ctypes.c_char * POINT_BYTES

# Every call into libsodium goes through these and checks its return code. The points given
# are libsodium's own output or passed Point.decode, so none of them fails; if one ever did, it
# would be on a point that came from outside, so it raises InvalidPointError (a CryptoError,
# blamed on the sender), never the library's own error or a silent identity.


def _refused(what: str) -> InvalidPointError:
    return InvalidPointError(f"the group library refused a point ({what})")


def _add(p: bytes, q: bytes) -> bytes:
    r = _Buf()
    if _c_add(r, p, q) != 0:
        raise _refused("addition")
    return r.raw


def _sub(p: bytes, q: bytes) -> bytes:
    r = _Buf()
    if _c_sub(r, p, q) != 0:
        raise _refused("subtraction")
    return r.raw


def _mul(s: bytes, p: bytes) -> bytes:
    # libsodium fails for an invalid point and for the identity as the result, which a valid
    # point other than the identity times a scalar other than 0 mod L never gives.
    r = _Buf()
    if _c_mul(r, s, p) != 0:
        raise _refused("multiplication")
    return r.raw


def _mul_base(s: bytes) -> bytes:
    r = _Buf()
    if _c_mul_base(r, s) != 0:
        raise _refused("fixed-base multiplication")
    return r.raw


def _from_hash(h: bytes) -> bytes:
    r = _Buf()
    _c_from_hash(r, h)  # defined for every 64-byte input
    return r.raw


class Point:
    """An element of the group, held as its canonical encoding.

    Construct from foreign bytes only through :meth:`decode`, which validates.
    """

    __slots__ = ("_b",)
    _b: bytes

    def __init__(self, encoded: bytes) -> None:
        # Trusted constructor: callers pass libsodium output or already-validated bytes. The
        # length is still checked: libsodium reads 32 bytes from whatever it is given.
        if type(encoded) is not bytes or len(encoded) != POINT_BYTES:
            raise ValueError("a Point holds exactly 32 bytes")
        object.__setattr__(self, "_b", encoded)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    @classmethod
    def decode(cls, data: object) -> Point:
        """Validate and wrap a point received from outside.

        Raises :class:`InvalidPointError` unless ``data`` is the 32-byte canonical encoding of
        a ristretto255 element other than the identity (which no honest message carries).
        Canonical: the bundled libsodium ignores the top bit of the last byte, so it is
        refused here; below it, libsodium refuses every other non-canonical encoding (a
        field element not below 2^255 - 19, or negative), so each element has exactly one
        encoding that decodes, and two points are equal exactly when their bytes are.
        """
        if not isinstance(data, bytes) or len(data) != POINT_BYTES:
            raise InvalidPointError("a point must be exactly 32 bytes")
        if data[31] & 0x80:
            raise InvalidPointError("not a canonical ristretto255 encoding (top bit set)")
        if data == _IDENTITY_BYTES:
            raise InvalidPointError("the identity element is refused")
        if _c_valid(data) != 1:
            raise InvalidPointError("not a canonical ristretto255 encoding")
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
    """``scalar * G`` with libsodium's fixed-base multiplication (``G``: RFC 9496's generator)."""
    s = scalar % L
    if s == 0:
        return IDENTITY
    return Point(_mul_base(s.to_bytes(32, "little")))


IDENTITY: Final = Point(_IDENTITY_BYTES)
G: Final = base_mul(1)
_BASE_BYTES: Final = G.encode()


def point_sum(points: list[Point]) -> Point:
    """The sum of ``points`` (the identity for an empty list)."""
    if not points:
        return IDENTITY
    acc = points[0]._b  # the first term as it is: adding it to the identity changes nothing
    for p in points[1:]:
        acc = _add(acc, p._b)
    return Point(acc)


def lincomb(scalars: list[int], points: list[Point]) -> Point:
    """``Σ scalars[i] * points[i]``; the lists must have equal length."""
    if len(scalars) != len(points):
        raise ValueError("lincomb needs as many scalars as points")
    if not points:
        return IDENTITY
    acc = (points[0] * scalars[0])._b  # the first term as it is, not added to the identity
    for s, p in zip(scalars[1:], points[1:], strict=True):
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
    """A domain-separated hash onto the group.

    A 64-byte BLAKE2b digest goes through RFC 9496's one-way map (two Elligator maps, added),
    so the result is close to uniform and nobody knows its discrete logarithm with respect to
    any other point.
    """
    h = hashlib.blake2b(_frame("hash-to-point/" + domain, parts), digest_size=64).digest()
    return Point(_from_hash(h))

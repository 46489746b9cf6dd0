"""The group layer: arithmetic agrees with libsodium, foreign points are validated."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings

from crypto import IDENTITY, DecodeError, G, InvalidPointError, L, Point, base_mul, hash_to_point
from crypto._group import decode_scalar, encode_scalar, hash_to_scalar

# Encodings of points of small order (the torsion subgroup), and their sign-bit variants.
SMALL_ORDER = [
    bytes.fromhex("0100000000000000000000000000000000000000000000000000000000000000"),  # identity
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  # order 2
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000000"),  # order 4
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000080"),  # order 4
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),  # order 8
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),  # order 8
]


@pytest.mark.parametrize("encoded", SMALL_ORDER)
def test_small_order_points_are_refused(encoded: bytes) -> None:
    with pytest.raises(InvalidPointError, match="small order"):
        Point.decode(encoded)


def test_non_canonical_encoding_is_refused() -> None:
    # y = p (= 0 mod p) written without reduction: a non-canonical encoding.
    p_bytes = (2**255 - 19).to_bytes(32, "little")
    with pytest.raises(InvalidPointError):
        Point.decode(p_bytes)
    # A valid point with y + p would not fit 255 bits; the sign bit set on x = 0 is also refused.
    with pytest.raises(InvalidPointError):
        Point.decode(bytes.fromhex("01" + "00" * 30 + "80"))


def test_point_outside_prime_order_subgroup_is_refused() -> None:
    p = hash_to_point("test", b"x")
    mixed = bindings.crypto_core_ed25519_add(p.encode(), SMALL_ORDER[4])
    with pytest.raises(InvalidPointError):
        Point.decode(mixed)


def test_point_not_on_curve_is_refused() -> None:
    # y = 2 has no matching x on edwards25519 (x^2 = (y^2 - 1)/(d y^2 + 1) is a non-square).
    with pytest.raises(InvalidPointError):
        Point.decode((2).to_bytes(32, "little"))


@pytest.mark.parametrize("value", [b"", b"\x00" * 31, b"\x00" * 33, "x" * 32, 5, None, [b"1"]])
def test_wrong_type_or_length_is_refused(value: object) -> None:
    with pytest.raises(InvalidPointError, match="32 bytes"):
        Point.decode(value)


@given(st.binary(min_size=32, max_size=32))
@settings(max_examples=300, deadline=None)
def test_random_bytes_decode_or_refuse_cleanly(data: bytes) -> None:
    try:
        p = Point.decode(data)
    except InvalidPointError:
        return
    assert bindings.crypto_core_ed25519_is_valid_point(data)
    assert p.encode() == data


@given(st.integers(min_value=0, max_value=2 * L), st.integers(min_value=0, max_value=2 * L))
@settings(max_examples=50, deadline=None)
def test_scalar_arithmetic_is_homomorphic(a: int, b: int) -> None:
    assert base_mul(a) + base_mul(b) == base_mul(a + b)
    assert G * a == base_mul(a)
    assert base_mul(a) * b == base_mul(a * b)
    assert base_mul(a) - base_mul(a) == IDENTITY


def test_identity_and_zero_are_handled() -> None:
    p = hash_to_point("t", b"1")
    assert p * 0 == IDENTITY
    assert p * L == IDENTITY
    assert IDENTITY * 5 == IDENTITY
    assert p + IDENTITY == p
    assert (p - p).is_identity
    assert -p + p == IDENTITY


def test_hash_to_point_is_deterministic_and_domain_separated() -> None:
    a = hash_to_point("cards", b"deck", b"1")
    assert a == hash_to_point("cards", b"deck", b"1")
    assert a != hash_to_point("other", b"deck", b"1")
    assert a != hash_to_point("cards", b"deck1", b"")  # parts are length-prefixed
    Point.decode(a.encode())  # lands in the prime-order subgroup


def test_hash_to_scalar_is_length_prefixed() -> None:
    assert hash_to_scalar("d", b"ab", b"c") != hash_to_scalar("d", b"a", b"bc")


@given(st.integers(min_value=0, max_value=L - 1))
def test_scalar_encoding_round_trips(s: int) -> None:
    assert decode_scalar(encode_scalar(s)) == s


def test_unreduced_scalar_is_refused() -> None:
    with pytest.raises(DecodeError, match="not reduced"):
        decode_scalar(L.to_bytes(32, "little"))
    with pytest.raises(DecodeError):
        decode_scalar(os.urandom(31))

"""One encoding per point: every place a point enters the crypto package refuses the second
encoding the bundled libsodium would take (the top bit of the last byte set) and the identity,
and any failure of the group library on a point from outside is a ``CryptoError``, never the
library's own error (which a verifier would let escape as a bug)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crypto import (
    IDENTITY,
    CardSet,
    Ciphertext,
    CryptoError,
    DecryptionShare,
    DleqProof,
    G,
    InvalidPointError,
    KeyShare,
    L,
    Point,
    PublicKeyShare,
    SchnorrProof,
    SealKey,
    ShareBatch,
    ShuffleProof,
    base_mul,
    deck_from_wire,
    deck_to_wire,
    hash_to_point,
    joint_key,
    open_shown_cards,
    seal,
    shuffle,
    verify_shuffle,
)
from crypto._dleq import _challenge as dleq_challenge
from crypto._elgamal import pack_shares, unpack_shares
from crypto._group import _IDENTITY_BYTES, _add
from crypto._keys import _challenge as key_challenge
from crypto._shuffle import _prove

from .conftest import Table

P = 2**255 - 19
#: The identity with the top bit set: libsodium decodes it as the identity.
IDENTITY_ALIAS = bytes(31) + b"\x80"


def top_bit(encoded: bytes) -> bytes:
    """The second encoding libsodium accepts for the same element."""
    return encoded[:31] + bytes([encoded[31] | 0x80])


ALIASES: dict[str, Callable[[bytes], bytes]] = {
    "top-bit": top_bit,
    "identity-alias": lambda _: IDENTITY_ALIAS,
    "identity": lambda _: _IDENTITY_BYTES,
}


def test_the_bundled_library_takes_the_aliases_that_decode_refuses() -> None:
    # Why decode checks the top bit itself: libsodium ignores it (the aliases below are
    # "valid" to it, and name the same elements).
    from crypto._group import _c_valid

    assert _c_valid(top_bit(G.encode())) == 1 and _c_valid(IDENTITY_ALIAS) == 1
    assert _add(top_bit(G.encode()), _IDENTITY_BYTES) == G.encode()
    for alias in (top_bit(G.encode()), top_bit(base_mul(7).encode()), IDENTITY_ALIAS):
        with pytest.raises(InvalidPointError, match="canonical"):
            Point.decode(alias)


@given(st.integers(min_value=1, max_value=L - 1))
@settings(max_examples=200, deadline=None)
def test_every_element_has_exactly_one_encoding_that_decodes(k: int) -> None:
    p = base_mul(k).encode()
    assert Point.decode(p).encode() == p
    with pytest.raises(InvalidPointError):
        Point.decode(top_bit(p))


@pytest.mark.parametrize("s", range(P, 2**255))
def test_every_unreduced_field_element_is_refused(s: int) -> None:
    # Below the top bit an encoding is a field element s, little-endian; the only other bit
    # pattern for the same s is s + p, which fits for s < 19 only: the 19 encodings of
    # s >= 2^255 - 19. None decodes, with or without the top bit; with the top bit refused
    # too, no element has a second encoding.
    for data in (s.to_bytes(32, "little"), top_bit(s.to_bytes(32, "little"))):
        with pytest.raises(InvalidPointError):
            Point.decode(data)


@given(st.binary(min_size=32, max_size=32))
@settings(max_examples=500, deadline=None)
def test_whatever_decodes_is_what_libsodium_encodes_back(data: bytes) -> None:
    for candidate in (data, top_bit(data), data[:31] + bytes([data[31] & 0x7F])):
        try:
            p = Point.decode(candidate)
        except InvalidPointError:
            continue
        # libsodium decodes and re-encodes: the bytes come back unchanged.
        assert _add(candidate, _IDENTITY_BYTES) == candidate == p.encode()


# --------------------------------------------------------------------------- wire readers


def _swap(value: object, path: tuple[int, ...], make: Callable[[bytes], bytes]) -> object:
    """``value`` (nested lists) with the bytes at ``path`` replaced by ``make(bytes)``."""
    if not path:
        assert isinstance(value, bytes)
        return make(value)
    assert isinstance(value, list)
    out = list(value)
    out[path[0]] = _swap(out[path[0]], path[1:], make)
    return out


def _places(table: Table) -> list[tuple[str, object, tuple[int, ...], Callable[[object], object]]]:
    """(name, honest wire value, where a point sits in it, the reader) for every reader."""
    deck = CardSet("aliases", 4).open_mask(table.key)
    out, proof = shuffle(deck, table.key, b"ctx")
    share = DecryptionShare.create(table.keys[0], out[1], b"ctx")
    batch = ShareBatch.create(table.keys[0], out, b"ctx")
    key = table.keys[1].prove(b"ctx")
    return [
        ("ciphertext a", out[0].to_wire(), (0,), Ciphertext.from_wire),
        ("ciphertext b", out[0].to_wire(), (1,), Ciphertext.from_wire),
        ("deck a", deck_to_wire(out), (2, 0), partial(deck_from_wire, length=4)),
        ("deck b", deck_to_wire(out), (3, 1), deck_from_wire),
        ("shuffle commitment", proof.to_wire(), (0, 1), lambda v: ShuffleProof.from_wire(v, 4)),
        ("shuffle chain", proof.to_wire(), (1, 3), lambda v: ShuffleProof.from_wire(v, 4)),
        ("key share", key.to_wire(), (0,), PublicKeyShare.from_wire),
        ("decryption share", share.to_wire(), (0,), DecryptionShare.from_wire),
        ("share batch", batch.to_wire(), (0, 2), lambda v: ShareBatch.from_wire(v, 4)),
    ]


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_every_wire_reader_refuses_an_alias_of_any_point(table3: Table, alias: str) -> None:
    for name, wire, path, read in _places(table3):
        read(wire)  # the honest value reads
        with pytest.raises(InvalidPointError) as info:
            read(_swap(wire, path, ALIASES[alias]))
        assert "canonical" in str(info.value) or "identity" in str(info.value), name


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_packed_and_shown_shares_refuse_an_alias(table3: Table, alias: str) -> None:
    deck = CardSet("shown", 3).open_mask(table3.key)
    holder, recipient = table3.keys[0], SealKey()
    shares = [DecryptionShare.create(holder, ct, b"show") for ct in deck]
    packed = bytearray(pack_shares(shares))
    packed[96:128] = ALIASES[alias](bytes(packed[96:128]))  # the second card's D
    with pytest.raises(InvalidPointError):
        unpack_shares(bytes(packed), 3)
    box = seal(recipient.public, bytes(packed), b"show")
    with pytest.raises(InvalidPointError):
        open_shown_cards(recipient, box, deck, holder.public, b"show")


# ------------------------------------------------- proofs made over an alias's bytes


def _key_share_over(key: KeyShare, encoded: bytes, context: bytes) -> PublicKeyShare:
    """A Schnorr proof whose challenge hashes ``encoded`` (an alias of ``key.public``)."""
    alias, k = Point(encoded), 12345
    c = key_challenge(context, alias, base_mul(k))
    return PublicKeyShare(alias, SchnorrProof(c, (k + c * key.secret) % L))


def test_a_key_share_proved_under_its_alias_would_verify_and_is_refused_at_the_door() -> None:
    key = KeyShare()
    aliased = _key_share_over(key, top_bit(key.public.encode()), b"ctx")
    aliased.verify(b"ctx")  # the arithmetic cannot tell: only decoding can
    with pytest.raises(InvalidPointError, match="canonical"):
        PublicKeyShare.from_wire(aliased.to_wire())


def test_a_decryption_share_proved_under_its_alias_is_refused(table3: Table) -> None:
    key, ct = table3.keys[2], CardSet("d", 1).open_mask(table3.key)[0]
    d = ct.a * key.secret
    alias, k = Point(top_bit(d.encode())), 777
    c = dleq_challenge(b"ctx", key.public, ct.a, alias, base_mul(k), ct.a * k)
    share = DecryptionShare(alias, DleqProof(c, (k + c * key.secret) % L))
    share.verify(key.public, ct, b"ctx")
    with pytest.raises(InvalidPointError, match="canonical"):
        DecryptionShare.from_wire(share.to_wire())


def test_a_shuffle_proved_over_an_aliased_deck_is_refused(table3: Table) -> None:
    deck = CardSet("s", 4).open_mask(table3.key)
    psi, rerand = [2, 0, 3, 1], [11, 22, 33, 44]
    out = [deck[psi[i]].rerandomize(table3.key, rerand[i]) for i in range(4)]
    out[1] = Ciphertext(Point(top_bit(out[1].a.encode())), out[1].b)
    from crypto import SeededRng

    proof = _prove(deck, out, psi, rerand, table3.key, b"ctx", SeededRng(b"alias"))
    verify_shuffle(deck, out, table3.key, proof, b"ctx")  # holds for the aliased bytes
    with pytest.raises(InvalidPointError, match="canonical"):
        deck_from_wire(deck_to_wire(out), 4)


# ----------------------------- the group library's failures are CryptoErrors, not its own


def test_arithmetic_on_a_point_libsodium_refuses_raises_invalid_point() -> None:
    bad = Point(b"\xff" * 32)  # bypasses decode, as only a bug could
    g = G
    for op in (lambda: bad + g, lambda: g + bad, lambda: bad - g, lambda: bad * 5):
        with pytest.raises(InvalidPointError, match="group library refused"):
            op()
    with pytest.raises(InvalidPointError):
        Point(IDENTITY_ALIAS) * 3  # libsodium's error for an identity result


def test_verifiers_fed_an_undecoded_identity_alias_raise_crypto_errors(table3: Table) -> None:
    alias = Point(IDENTITY_ALIAS)
    key = table3.keys[0]
    ct = CardSet("v", 2).open_mask(table3.key)
    share = DecryptionShare.create(key, ct[0], b"ctx")
    batch = ShareBatch.create(key, ct, b"ctx")
    out, proof = shuffle(ct, table3.key, b"ctx")
    bad_proof = ShuffleProof(
        (alias, *proof.commitments[1:]), proof.chain, proof.challenge, proof.s, proof.s_hat,
        proof.s_prime,
    )  # fmt: skip
    checks: list[Callable[[], object]] = [
        lambda: share.proof.verify(alias, ct[0].a, share.d, b"ctx"),
        lambda: share.proof.verify(key.public, ct[0].a, alias, b"ctx"),
        lambda: ShareBatch((alias, batch.ds[1]), batch.proof).verify(key.public, ct, b"ctx"),
        lambda: PublicKeyShare(alias, key.prove(b"ctx").proof).verify(b"ctx"),
        lambda: joint_key([PublicKeyShare(alias, key.prove(b"c").proof)], b"c"),
        lambda: verify_shuffle(ct, out, table3.key, bad_proof, b"ctx"),
        lambda: verify_shuffle(ct, [Ciphertext(alias, out[0].b), out[1]], table3.key, proof, b""),
    ]
    for check in checks:
        with pytest.raises(CryptoError):
            check()


def test_the_identity_exists_only_inside_computations() -> None:
    p = hash_to_point("t", b"x")
    assert (p - p) == IDENTITY and (p - p).encode() == _IDENTITY_BYTES
    for data in (_IDENTITY_BYTES, IDENTITY_ALIAS):
        with pytest.raises(InvalidPointError):
            Point.decode(data)


@pytest.mark.parametrize("value", [b"\x01" * 31, b"\x01" * 33, bytearray(32), "x" * 32])
def test_not_even_the_trusted_constructor_hands_libsodium_a_short_buffer(value: object) -> None:
    # libsodium reads 32 bytes from the pointer it is given, whatever lies behind it.
    with pytest.raises(ValueError, match="exactly 32 bytes"):
        Point(value)  # type: ignore[arg-type]

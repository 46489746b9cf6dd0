"""ElGamal over ristretto255 for mental poker: cards, masking, re-encryption, unmasking.

A card is a point ``M``; under the table key ``Y`` a masked card is ``(a, b) = (r·G, M + r·Y)``.
Unmasking needs every peer's decryption share ``D_i = x_i·a``: ``M = b − Σ D_i``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ._dleq import DleqProof
from ._errors import DecodeError, ProofError
from ._group import G, Point, base_mul, hash_to_point, point_sum
from ._keys import KeyShare
from ._wire import expect_bytes, expect_int, expect_list, read_point

#: Largest deck accepted (the biggest game deck is 110 cards).
MAX_DECK = 1024


@dataclass(frozen=True, slots=True)
class Ciphertext:
    """An ElGamal ciphertext ``(a, b)``."""

    a: Point
    b: Point

    def rerandomize(self, table_key: Point, r: int) -> Ciphertext:
        """The same card under fresh randomness: ``(a + r·G, b + r·Y)``."""
        return Ciphertext(self.a + base_mul(r), self.b + table_key * r)

    def to_wire(self) -> list[bytes]:
        """Plain form ``[a, b]``."""
        return [self.a.encode(), self.b.encode()]

    @classmethod
    def from_wire(cls, value: object) -> Ciphertext:
        """Parse (both points validated); raises :class:`DecodeError`."""
        a, b = expect_list(value, "ciphertext", 2)
        return cls(read_point(a, "ciphertext a"), read_point(b, "ciphertext b"))


def deck_to_wire(deck: Sequence[Ciphertext]) -> list[list[bytes]]:
    """Plain form of a list of ciphertexts."""
    return [c.to_wire() for c in deck]


def deck_from_wire(value: object, length: int | None = None) -> list[Ciphertext]:
    """Parse a list of ciphertexts (exactly ``length`` when given); raises :class:`DecodeError`."""
    items = expect_list(value, "deck", length)
    if len(items) > MAX_DECK:
        raise DecodeError(f"deck: {len(items)} cards is more than {MAX_DECK}")
    return [Ciphertext.from_wire(v) for v in items]


class CardSet:
    """The points of one named deck's cards, and the map back from point to card index.

    Card ``i`` of deck ``name`` is ``hash_to_point("card", name, i)``: anyone can compute it,
    and nobody knows a discrete logarithm between two cards.
    """

    __slots__ = ("_index", "name", "points")

    def __init__(self, name: str, size: int) -> None:
        if not 1 <= size <= MAX_DECK:
            raise ValueError(f"deck size must be 1..{MAX_DECK}, got {size}")
        self.name = name
        self.points: tuple[Point, ...] = _card_points(name, size)
        self._index = {p: i for i, p in enumerate(self.points)}

    def __len__(self) -> int:
        return len(self.points)

    def index_of(self, point: Point) -> int:
        """The card index of ``point``; raises :class:`ProofError` if it is no card of this deck
        (so an unmasking that used a wrong share is caught)."""
        try:
            return self._index[point]
        except KeyError:
            raise ProofError(f"unmasked point is not a card of deck {self.name!r}") from None

    def open_mask(self, table_key: Point, indexes: Sequence[int] | None = None) -> list[Ciphertext]:
        """Mask cards openly, with the public randomness 1: ``(G, M + Y)``.

        Every peer computes the same list, so a deck starts (or a public pile restarts) from
        ciphertexts nobody needs to trust; the verified shuffles that follow hide the order.
        """
        chosen = range(len(self.points)) if indexes is None else indexes
        return [Ciphertext(G, self.points[i] + table_key) for i in chosen]


@lru_cache(maxsize=32)
def _card_points(name: str, size: int) -> tuple[Point, ...]:
    return tuple(hash_to_point("card", name.encode(), i.to_bytes(4, "big")) for i in range(size))


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """Peer ``x``'s share ``D = x·a`` for one ciphertext, with its DLEQ proof."""

    d: Point
    proof: DleqProof

    @classmethod
    def create(cls, key: KeyShare, ct: Ciphertext, context: bytes) -> DecryptionShare:
        """Make this peer's share for ``ct`` with a proof bound to ``context``."""
        d, proof = DleqProof.prove(key.secret, ct.a, context)
        return cls(d, proof)

    def verify(self, public: Point, ct: Ciphertext, context: bytes) -> None:
        """Check the share against its author's public key share; raises :class:`ProofError`."""
        self.proof.verify(public, ct.a, self.d, context)

    def to_wire(self) -> list[object]:
        """Plain form ``[D, proof]``."""
        return [self.d.encode(), self.proof.to_wire()]

    @classmethod
    def from_wire(cls, value: object) -> DecryptionShare:
        """Parse (point validated); raises :class:`DecodeError`."""
        d, proof = expect_list(value, "decryption share", 2)
        return cls(read_point(d, "decryption share D"), DleqProof.from_wire(proof))


def unmask(ct: Ciphertext, shares: Sequence[Point]) -> Point:
    """``b − Σ D_i``: the card point once every peer's share is included."""
    return ct.b - point_sum(list(shares))


def unmask_with_own(ct: Ciphertext, others: Sequence[Point], key: KeyShare) -> Point:
    """Unmask privately: the other peers' (verified) shares plus this peer's own share."""
    return ct.b - point_sum([*others, ct.a * key.secret])


def card_index_from_wire(value: object, deck_size: int) -> int:
    """A card index received from outside; raises :class:`DecodeError`."""
    return expect_int(value, "card index", 0, deck_size - 1)


_SHARE_BYTES = 96  # D, c, s


def pack_shares(shares: Sequence[DecryptionShare]) -> bytes:
    """Fixed-width binary form of decryption shares (for sealing to one peer)."""
    return b"".join(s.d.encode() + s.proof.to_wire()[0] + s.proof.to_wire()[1] for s in shares)


def unpack_shares(value: object, count: int) -> list[DecryptionShare]:
    """Parse exactly ``count`` shares packed by :func:`pack_shares`; raises :class:`DecodeError`."""
    data = expect_bytes(value, "packed shares")
    if len(data) != count * _SHARE_BYTES:
        raise DecodeError(f"packed shares: expected {count * _SHARE_BYTES} bytes, got {len(data)}")
    out = []
    for i in range(count):
        chunk = data[i * _SHARE_BYTES : (i + 1) * _SHARE_BYTES]
        out.append(DecryptionShare.from_wire([chunk[:32], [chunk[32:64], chunk[64:]]]))
    return out

"""lanparty's cryptography: mental poker over ristretto255, pure and synchronous.

Layout (implementation in private modules, this file only re-exports):

- ``_group``: points of the prime-order subgroup, scalars, domain-separated hashing;
- ``_keys``: per-peer key shares with Schnorr proofs, the joint table key;
- ``_elgamal``: cards as points, open masking, re-encryption, decryption shares, unmasking;
- ``_dleq``: Chaum–Pedersen proofs that a decryption share is honest;
- ``_shuffle``: re-encryption shuffles with the Terelius–Wikström proof of shuffle;
- ``_seal`` and ``_show``: sealed boxes (X25519, HKDF, ChaCha20-Poly1305), show-to-one;
- ``_commit``: commit-reveal and the joint coin;
- ``_identity``: Ed25519 identities, read-aloud fingerprints, the keys a peer checked;
- ``_rng``: prover randomness (the OS CSPRNG; a seeded stream for tests).

Errors: :class:`DecodeError` (malformed input from outside, :class:`InvalidPointError` for points)
and :class:`ProofError` (a check failed: its author misbehaved), both :class:`CryptoError`.
See ``docs/crypto.md`` for the scheme and what every peer verifies.
"""

from ._batch import MAX_BATCH, ShareBatch
from ._commit import (
    Opening,
    coin_commitment,
    commit,
    joint_coin,
    read_commitment,
    verify_opening,
)
from ._dleq import DleqProof
from ._elgamal import (
    MAX_DECK,
    CardSet,
    Ciphertext,
    DecryptionShare,
    deck_from_wire,
    deck_to_wire,
    unmask,
    unmask_with_own,
)
from ._errors import CryptoError, DecodeError, InvalidPointError, ProofError
from ._group import IDENTITY, G, L, Point, base_mul, hash_to_point, random_scalar
from ._identity import Identity, KnownKeys, PublicIdentity, fingerprint
from ._keys import KeyShare, PublicKeyShare, SchnorrProof, joint_key
from ._rng import SYSTEM_RNG, Rng, SeededRng
from ._seal import SealKey, read_seal_public, seal
from ._show import open_shown_cards, show_cards
from ._shuffle import (
    ShuffleProof,
    remember_verified,
    shuffle,
    verified_afresh,
    verify_shuffle,
)

__all__ = [
    "IDENTITY",
    "MAX_BATCH",
    "MAX_DECK",
    "SYSTEM_RNG",
    "CardSet",
    "Ciphertext",
    "CryptoError",
    "DecodeError",
    "DecryptionShare",
    "DleqProof",
    "G",
    "Identity",
    "InvalidPointError",
    "KeyShare",
    "KnownKeys",
    "L",
    "Opening",
    "Point",
    "ProofError",
    "PublicIdentity",
    "PublicKeyShare",
    "Rng",
    "SchnorrProof",
    "SealKey",
    "SeededRng",
    "ShareBatch",
    "ShuffleProof",
    "base_mul",
    "coin_commitment",
    "commit",
    "deck_from_wire",
    "deck_to_wire",
    "fingerprint",
    "hash_to_point",
    "joint_coin",
    "joint_key",
    "open_shown_cards",
    "random_scalar",
    "read_commitment",
    "read_seal_public",
    "remember_verified",
    "seal",
    "show_cards",
    "shuffle",
    "unmask",
    "unmask_with_own",
    "verified_afresh",
    "verify_opening",
    "verify_shuffle",
]

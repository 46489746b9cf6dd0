"""Show to one: a holder reveals cards to a single peer through a public channel.

The holder's decryption shares (with DLEQ proofs) are sealed to the recipient's X25519 key and
bound to the context. The recipient opens the box, verifies every proof against the holder's
public key share, and adds the other peers' shares (already public from the deal) to unmask.
If the recipient later publishes its per-table seal key (the end-of-game audit does), every
peer can open the same box and check both the holder's shares and the recipient's claims.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._elgamal import Ciphertext, DecryptionShare, pack_shares, unpack_shares
from ._errors import ProofError
from ._group import Point
from ._keys import KeyShare
from ._seal import SealKey, seal


def show_cards(
    key: KeyShare, cards: Sequence[Ciphertext], recipient: bytes, context: bytes
) -> bytes:
    """Seal this peer's proved decryption shares of ``cards`` to ``recipient`` alone."""
    shares = [DecryptionShare.create(key, ct, context) for ct in cards]
    return seal(recipient, pack_shares(shares), context)


def open_shown_cards(
    seal_key: SealKey,
    box: bytes,
    cards: Sequence[Ciphertext],
    holder_public: Point,
    context: bytes,
) -> list[Point]:
    """Open a box made by :func:`show_cards` and return the holder's verified shares ``D``.

    Raises :class:`ProofError` if the box does not open or any share's proof fails (the
    holder cheated), and :class:`DecodeError` if the content is malformed.
    """
    shares = unpack_shares(seal_key.open(box, context), len(cards))
    out = []
    for i, (share, ct) in enumerate(zip(shares, cards, strict=True)):
        try:
            share.verify(holder_public, ct, context)
        except ProofError:
            raise ProofError(f"shown card {i}: the holder's decryption share is wrong") from None
        out.append(share.d)
    return out

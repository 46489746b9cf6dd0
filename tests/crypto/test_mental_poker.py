"""Whole-deck mental poker among 2..7 peers: joint verified shuffle, private deal, reveal."""

from __future__ import annotations

import pytest

from crypto import (
    CardSet,
    Ciphertext,
    DecryptionShare,
    ProofError,
    ShuffleProof,
    deck_from_wire,
    deck_to_wire,
    shuffle,
    unmask,
    unmask_with_own,
    verify_shuffle,
)

from .conftest import Table, make_table


def joint_shuffle(table: Table, deck: list[Ciphertext], ctx: bytes) -> list[Ciphertext]:
    """Every peer shuffles in turn; its deck and proof are verified from the wire form, as
    every other peer would (once: each of them runs the same computation on the same bytes,
    and a check has no randomness of its own)."""
    n = len(table.keys)
    for author in range(n):
        step_ctx = ctx + b"/shuffle/" + bytes([author])
        out, proof = shuffle(deck, table.key, step_ctx)
        wire_deck, wire_proof = deck_to_wire(out), proof.to_wire()
        received = deck_from_wire(wire_deck, len(deck))
        verify_shuffle(
            deck, received, table.key, ShuffleProof.from_wire(wire_proof, len(deck)), step_ctx
        )
        assert received == out
        deck = out
    return deck


@pytest.mark.parametrize("peers", [2, 3, 4, 5, 6, 7])
def test_joint_shuffle_deal_and_reveal_every_card_once(peers: int) -> None:
    table = make_table(peers)
    cards = CardSet("kato", 108)
    deck = joint_shuffle(table, cards.open_mask(table.key), b"table-1")
    assert len(deck) == 108

    seen: list[int] = []
    for pos, ct in enumerate(deck):
        recipient = pos % peers
        ctx = b"deal/" + pos.to_bytes(2, "big")
        others = [
            (i, DecryptionShare.create(table.keys[i], ct, ctx))
            for i in range(peers)
            if i != recipient
        ]
        for i, share in others:  # the recipient (and anyone) checks every public share
            share.verify(table.shares[i].point, ct, ctx)
        other_points = [s.d for _, s in others]

        # Without the recipient's own share the point is no card at all.
        with pytest.raises(ProofError):
            cards.index_of(unmask(ct, other_points))

        seen.append(cards.index_of(unmask_with_own(ct, other_points, table.keys[recipient])))

        # Revealing to all: the recipient publishes its share too, and anyone can unmask.
        own = DecryptionShare.create(table.keys[recipient], ct, ctx)
        own.verify(table.shares[recipient].point, ct, ctx)
        assert cards.index_of(unmask(ct, [*other_points, own.d])) == seen[-1]

    assert sorted(seen) == list(range(108))
    assert seen != list(range(108))  # the joint shuffle moved the cards


def test_card_points_are_distinct_and_deck_specific() -> None:
    a, b = CardSet("kato", 108), CardSet("unikato", 81)
    assert len(set(a.points)) == 108
    assert not set(a.points) & set(b.points)
    assert CardSet("kato", 108).points == a.points


def test_open_mask_is_public_and_unmasks_without_randomness(table3: Table) -> None:
    cards = CardSet("pile", 5)
    deck = cards.open_mask(table3.key, [4, 0])
    assert deck == cards.open_mask(table3.key, [4, 0])  # every peer computes the same
    shares = [deck[0].a * k.secret for k in table3.keys]
    assert cards.index_of(unmask(deck[0], shares)) == 4

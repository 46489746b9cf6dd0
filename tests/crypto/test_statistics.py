"""Honest joint shuffles place cards uniformly (seeded, so the test is deterministic)."""

from __future__ import annotations

import itertools
from collections import Counter

from crypto import CardSet, SeededRng, shuffle, unmask, verify_shuffle

from .conftest import make_table


def test_joint_shuffle_orders_are_uniform() -> None:
    table = make_table(3)
    cards = CardSet("stats", 3)
    start = cards.open_mask(table.key)
    secret = sum(k.secret for k in table.keys)
    rngs = [SeededRng(b"peer-%d" % i) for i in range(3)]
    orders: Counter[tuple[int, ...]] = Counter()
    trials = 360
    for t in range(trials):
        deck = start
        for author, rng in enumerate(rngs):
            ctx = b"stats/%d/%d" % (t, author)
            out, proof = shuffle(deck, table.key, ctx, rng=rng)
            if t % 60 == 0:  # spot-check that the seeded shuffles are honest
                verify_shuffle(deck, out, table.key, proof, ctx)
            deck = out
        orders[tuple(cards.index_of(unmask(ct, [ct.a * secret])) for ct in deck)] += 1
    perms = list(itertools.permutations(range(3)))
    assert set(orders) == set(perms)
    expected = trials / len(perms)
    chi2 = sum((orders[p] - expected) ** 2 / expected for p in perms)
    assert chi2 < 20.52  # chi-square, 5 degrees of freedom, p = 0.001


def test_one_honest_shuffler_suffices() -> None:
    """Two peers always apply the identity permutation; the third alone makes it uniform."""
    table = make_table(3)
    cards = CardSet("stats-1", 3)
    secret = sum(k.secret for k in table.keys)
    rng = SeededRng(b"honest")
    positions: Counter[int] = Counter()
    for t in range(300):
        deck = cards.open_mask(table.key)
        for author in range(3):
            perm = None if author == 1 else [0, 1, 2]
            deck, _ = shuffle(deck, table.key, b"s/%d" % t, rng=rng, permutation=perm)
        first = [cards.index_of(unmask(ct, [ct.a * secret])) for ct in deck].index(0)
        positions[first] += 1
    chi2 = sum((positions[k] - 100) ** 2 / 100 for k in range(3))
    assert chi2 < 13.82  # 2 degrees of freedom, p = 0.001

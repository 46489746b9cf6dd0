"""Shared helpers for the crypto tests: a table of peers with key shares."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from crypto import KeyShare, Point, PublicKeyShare


@dataclass
class Table:
    keys: list[KeyShare]
    shares: list[PublicKeyShare]
    key: Point


def make_table(n: int, context: bytes = b"test-table") -> Table:
    keys = [KeyShare() for _ in range(n)]
    shares = [k.prove(context + bytes([i])) for i, k in enumerate(keys)]
    for i, s in enumerate(shares):
        s.verify(context + bytes([i]))
    return Table(keys, shares, sum((s.point for s in shares[1:]), shares[0].point))


@pytest.fixture(scope="module")
def table3() -> Table:
    return make_table(3)

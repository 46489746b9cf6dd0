"""The LAN model's composition of proof and check times (a pure function)."""

from __future__ import annotations

import pytest

from lanparty.bench.model import compose


def test_free_checks_leave_the_chain_of_proofs() -> None:
    assert compose(4, 0.1, 0.0, hop_s=0.0) == pytest.approx(0.4)
    assert compose(4, 0.1, 0.0, hop_s=0.001) == pytest.approx(0.408)


def test_each_peer_checks_the_others_one_after_another_beside_its_proving() -> None:
    # Proofs every 0.1 s; a check takes 0.3 s. Seat 0 checks shuffles 1, 2, 3, arriving at
    # 0.2, 0.3, 0.4: done at 0.5, 0.8, 1.1. Seat 1 checks 0, 2, 3: 0.4, 0.7, 1.0 ...
    assert compose(4, 0.1, 0.3, hop_s=0.0) == pytest.approx(1.1)


def test_the_last_shuffle_is_checked_after_it_arrives() -> None:
    # Quick checks: the last shuffle (at 0.3) is checked by the other three by 0.31.
    assert compose(3, 0.1, 0.01, hop_s=0.0) == pytest.approx(0.31)


def test_nonsense_is_refused() -> None:
    with pytest.raises(ValueError):
        compose(0, 0.1, 0.1)
    with pytest.raises(ValueError):
        compose(2, -1.0, 0.1)

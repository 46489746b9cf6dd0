"""Room for strangers is bounded, room for seats is not: the admission bookkeeping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanparty.net.admission import Admission


def test_per_address_and_total_bounds_let_the_oldest_of_the_busiest_go() -> None:
    adm = Admission(total=4, per_address=2)
    assert adm.admit(0, "a") == [] and adm.admit(1, "a") == []
    assert adm.admit(2, "a") == [0]  # a third from "a": its own oldest goes
    assert adm.admit(3, "b") == [] and adm.admit(4, "c") == []
    assert adm.admit(5, "d") == [1]  # full: the oldest of the busiest address ("a")
    assert len(adm) == 4


def test_a_seated_connection_no_longer_counts() -> None:
    adm = Admission(total=2, per_address=2)
    adm.admit(0, "a")
    adm.seated(0)
    assert not adm.pending(0)
    assert adm.admit(1, "a") == [] and adm.admit(2, "a") == []


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError):
        Admission(total=2, per_address=3)


@given(st.lists(st.sampled_from("abcdefg"), max_size=200), st.integers(1, 5), st.integers(0, 5))
def test_a_newcomer_always_gets_in_and_the_bounds_always_hold(
    addresses: list[str], per_address: int, extra: int
) -> None:
    total = per_address + extra
    adm = Admission(total=total, per_address=per_address)
    alive: dict[int, str] = {}
    for cid, address in enumerate(addresses):
        for old in adm.admit(cid, address):
            assert old != cid and old in alive
            del alive[old]
        alive[cid] = address
        assert adm.pending(cid)
        assert len(alive) <= total
        assert all(list(alive.values()).count(a) <= per_address for a in alive.values())
        assert len(alive) == len(adm)

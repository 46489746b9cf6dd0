"""Room for strangers is bounded, room for seats is not: the admission bookkeeping."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanparty.net.admission import Admission, Buckets


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


def test_new_connections_are_bounded_per_address_over_time() -> None:
    adm = Admission(burst=4, rate=2.0)
    assert [adm.knock("a", 0.0) for _ in range(5)] == [True] * 4 + [False]
    assert adm.knock("b", 0.0)  # another address has its own bucket
    assert not adm.knock("a", 0.2) and adm.knock("a", 0.5)  # two a second
    assert not adm.knock("a", 0.5)
    assert [adm.knock("a", 100.0) for _ in range(5)] == [True] * 4 + [False]  # full again
    assert adm.refused == 4


def test_the_buckets_kept_are_bounded_and_many_addresses_buy_little() -> None:
    b = Buckets(burst=2, rate=1.0, most=8)
    granted = sum(b.take(f"10.0.{i // 250}.{i % 250}", 0.0) == 0.0 for i in range(1000))
    assert len(b) == 8
    assert granted == 8 + 2  # each kept address one, then the one shared bucket its burst
    # Addresses not kept share one bucket: it refills at the rate, like any other.
    assert b.take("fresh", 1.0) == 0.0 and b.take("other", 1.0) > 0
    # An address idle for a whole refill time (burst / rate) makes room, having lost nothing:
    # the newcomer gets a bucket of its own.
    assert b.take("late", 2.0) == 0.0 and b.take("late", 2.0) == 0.0 and len(b) == 8
    assert b.take("late", 2.0) > 0


@given(
    st.lists(st.tuples(st.integers(0, 40), st.floats(0, 0.5), st.floats(1, 5000)), max_size=300),
    st.integers(1, 40),
)
def test_buckets_keep_their_bound_and_an_address_never_gets_more_than_its_rate(
    steps: list[tuple[int, float, float]], most: int
) -> None:
    burst, rate = 5000.0, 1000.0
    b = Buckets(burst, rate, most=most)
    now = 0.0
    given_to: dict[str, float] = {}
    first: dict[str, float] = {}
    for address, dt, amount in steps:
        now += dt
        key = f"a{address}"
        first.setdefault(key, now)
        if b.take(key, now, amount) == 0.0:
            given_to[key] = given_to.get(key, 0.0) + amount
        assert len(b) <= most
    if len(first) <= most:  # every address kept all along: each got its burst and rate
        for key, amount in given_to.items():
            assert amount <= burst + rate * (now - first[key]) + 1e-6


def test_the_docs_state_the_limits_in_force() -> None:
    """docs/app.md's limits table and the README say what the code does."""
    from pathlib import Path

    from lanparty.net.admission import CONNECT_BURST, CONNECT_RATE, MAX_ADDRESSES
    from lanparty.net.server import PULL_BURST, PULL_RATE, SPECTATOR_SLICE
    from protocol._host import MAX_REFUSALS
    from protocol._lobby import MAX_KEYS_COUNTED, SPECTATORS_PER_ORIGIN

    root = Path(__file__).resolve().parents[2]
    app = " ".join((root / "docs" / "app.md").read_text().split())
    readme = " ".join((root / "README.md").read_text().split())
    rate = f"{CONNECT_BURST} at once, then {CONNECT_RATE:g} a second"
    pull = f"{PULL_BURST >> 20} MiB at once, then {PULL_RATE >> 10} KiB a second"
    assert rate in app and f"({CONNECT_BURST} at once, then {CONNECT_RATE:g} a second)" in readme
    assert pull in app and f"{PULL_RATE * 60 / (1 << 20):g} MiB a minute" in app
    assert f"| {MAX_ADDRESSES}; the least recently used" in app
    assert f"| {MAX_REFUSALS}, over all its connections" in app
    assert f"at most {MAX_KEYS_COUNTED} keys" in app
    assert f"| {SPECTATORS_PER_ORIGIN} at once" in app
    assert f"{SPECTATOR_SLICE >> 10} KiB, `SPECTATOR_SLICE`" in app
    assert f"may hold {SPECTATORS_PER_ORIGIN} spectators at once" in readme
    assert f"at most {PULL_BURST >> 20} MiB and then {PULL_RATE >> 10} KiB a second" in readme
    # A fresh Admission lets an address open its burst at once, and no more.
    adm = Admission()
    assert sum(adm.knock("x", 0.0) for _ in range(CONNECT_BURST + 5)) == CONNECT_BURST

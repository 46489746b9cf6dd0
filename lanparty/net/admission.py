"""Who may hold a connection to a host: room for strangers is bounded, room for seats is not.

A connection that has not proved it holds a seat (it has not said hello yet, or it is a
newcomer not yet seated) is *pending*. Pending connections are bounded in all and per address;
when a new one would pass a bound, the oldest pending connection of the address that holds
the most is let go, never the new one. So a flood of strangers cannot keep a seated player
from coming back: its new connection always gets in, proves its seat in one round trip, and
no longer counts. A seated connection never counts against either bound.

Pure bookkeeping (no I/O, no clock): the host's server asks it on every accepted connection
and tells it when a connection is seated or gone.
"""

from __future__ import annotations

from collections import Counter

__all__ = ["MAX_PENDING", "MAX_PENDING_PER_ADDRESS", "Admission"]

#: Connections without a seat at once, from every address together.
MAX_PENDING = 24
#: Connections without a seat at once from one address (a whole table of bots on one
#: machine joins from one address: ten seats at most, joining at once).
MAX_PENDING_PER_ADDRESS = 10


class Admission:
    """The pending connections, oldest first, and their addresses."""

    def __init__(
        self, total: int = MAX_PENDING, per_address: int = MAX_PENDING_PER_ADDRESS
    ) -> None:
        if not 1 <= per_address <= total:
            raise ValueError("need 1 <= per_address <= total")
        self._total = total
        self._per_address = per_address
        self._pending: dict[int, str] = {}  # insertion order: oldest first
        self._count: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._pending)

    def admit(self, cid: int, address: str) -> list[int]:
        """Take the new pending connection ``cid`` from ``address``; returns the connections
        to let go to make room for it (oldest first; never ``cid`` itself)."""
        self._pending[cid] = address
        self._count[address] += 1
        evicted: list[int] = []
        while self._count[address] > self._per_address:
            evicted.append(self._evict(address, cid))
        while len(self._pending) > self._total:
            busiest = max(self._count, key=lambda a: (self._count[a], a != address))
            evicted.append(self._evict(busiest, cid))
        return evicted

    def _evict(self, address: str, spare: int) -> int:
        victim = next(c for c, a in self._pending.items() if a == address and c != spare)
        self.forget(victim)
        return victim

    def seated(self, cid: int) -> None:
        """Connection ``cid`` proved it holds a seat: it no longer counts."""
        self.forget(cid)

    def forget(self, cid: int) -> None:
        """Connection ``cid`` is gone (or seated); unknown ids are ignored."""
        address = self._pending.pop(cid, None)
        if address is not None:
            self._count[address] -= 1
            if not self._count[address]:
                del self._count[address]

    def pending(self, cid: int) -> bool:
        """True while ``cid`` counts as a pending connection."""
        return cid in self._pending

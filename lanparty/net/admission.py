"""Who may hold a connection to a host: room for strangers is bounded, room for seats is not.

A connection that has not proved it holds a seat (it has not said hello yet, or it is a
newcomer not yet seated) is *pending*. Pending connections are bounded in all and per address;
when a new one would pass a bound, the oldest pending connection of the address that holds
the most is let go, never the new one. So a flood of strangers cannot keep a seated player
from coming back: its new connection always gets in, proves its seat in one round trip, and
no longer counts. A seated connection never counts against either bound.

New connections are also bounded per address *over time* (:meth:`Admission.knock`): a token
bucket per address lets a burst in (a machine starting a whole table of bots) and then a few a
second; beyond that a connection is closed as soon as it is accepted, before the protocol
sees it, so churning connections costs the host an accept and a close. The buckets are
bounded too (:class:`Buckets`): an address that has been quiet long enough to be full again
is forgotten first, and addresses beyond the bound share one bucket.

Pure bookkeeping (no I/O, no clock of its own: the caller says what time it is): the host's
server asks it on every accepted connection and tells it when a connection is seated or gone.
"""

from __future__ import annotations

from collections import Counter, OrderedDict

__all__ = [
    "CONNECT_BURST",
    "CONNECT_RATE",
    "MAX_ADDRESSES",
    "MAX_PENDING",
    "MAX_PENDING_PER_ADDRESS",
    "Admission",
    "Buckets",
]

#: Connections without a seat at once, from every address together.
MAX_PENDING = 24
#: Connections without a seat at once from one address (a whole table of bots on one
#: machine joins from one address: ten seats at most, joining at once).
MAX_PENDING_PER_ADDRESS = 10
#: New connections one address may open at once (a machine starting ten bots and a few
#: spectators, each coming back once, stays well inside it)…
CONNECT_BURST = 32
#: …and then per second (a peer reconnects after a pause of a quarter second or more).
CONNECT_RATE = 2.0
#: Addresses whose buckets are kept at once; beyond it new addresses share one bucket.
MAX_ADDRESSES = 256


class Buckets:
    """Token buckets, one per address, of ``burst`` tokens refilled at ``rate`` a second;
    at most ``most`` addresses are kept. A new address starts full. When the table is full,
    the least recently used address is forgotten if it took nothing for a whole refill time
    (``burst / rate``: its bucket is full again, it lost nothing), else the newcomer shares one
    overflow bucket with every other address not kept. So many addresses buy little: a fresh
    bucket needs a kept one idle for a refill time, at most ``most`` of them per refill time."""

    def __init__(self, burst: float, rate: float, most: int = MAX_ADDRESSES) -> None:
        if burst <= 0 or rate <= 0 or most < 1:
            raise ValueError("need burst > 0, rate > 0, most >= 1")
        self.burst, self.rate, self.most = burst, rate, most
        self._kept: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, as of
        self._overflow = (burst, float("-inf"))

    def __len__(self) -> int:
        return len(self._kept)

    def _level(self, state: tuple[float, float], now: float) -> float:
        tokens, then = state
        return min(self.burst, tokens + (now - then) * self.rate)

    def take(self, address: str, now: float, amount: float = 1.0) -> float:
        """Take ``amount`` tokens of ``address``'s bucket at time ``now``: 0.0 if taken, else
        the seconds until they will be there (nothing is taken then). An amount over the
        burst is taken once the bucket is full (and leaves it in debt)."""
        state = self._kept.get(address)
        if state is not None:
            self._kept.move_to_end(address)
        elif len(self._kept) < self.most:
            state = (self.burst, now)
        else:
            oldest = next(iter(self._kept))
            if now - self._kept[oldest][1] >= self.burst / self.rate:
                del self._kept[oldest]  # idle for a whole refill: full again, it lost nothing
                state = (self.burst, now)
        level = self._level(state if state is not None else self._overflow, now)
        need = min(amount, self.burst)
        if level < need:
            return (need - level) / self.rate
        after = (level - amount, now)
        if state is None:
            self._overflow = after
        else:
            self._kept[address] = after
        return 0.0


class Admission:
    """The pending connections, oldest first, and their addresses; and the rate at which
    each address may open new ones."""

    def __init__(
        self,
        total: int = MAX_PENDING,
        per_address: int = MAX_PENDING_PER_ADDRESS,
        *,
        burst: float = CONNECT_BURST,
        rate: float = CONNECT_RATE,
        addresses: int = MAX_ADDRESSES,
    ) -> None:
        """Raises :class:`ValueError` for bounds that cannot hold."""
        if not 1 <= per_address <= total:
            raise ValueError("need 1 <= per_address <= total")
        self._total = total
        self._per_address = per_address
        self._pending: dict[int, str] = {}  # insertion order: oldest first
        self._count: Counter[str] = Counter()
        self._knocks = Buckets(burst, rate, addresses)
        #: Connections closed at once for coming too fast from their address.
        self.refused = 0

    def __len__(self) -> int:
        return len(self._pending)

    def knock(self, address: str, now: float) -> bool:
        """May a new connection from ``address`` be served (at time ``now``, in seconds)?
        False once the address opened more than its burst and its rate allow: close it."""
        if self._knocks.take(address, now) == 0.0:
            return True
        self.refused += 1
        return False

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

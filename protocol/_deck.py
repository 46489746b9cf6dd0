"""The deck sub-protocol: joint shuffles, deals, reveals, show-to-one and joint coins.

A batch of the game's table requests (``TableOps``) becomes a fixed schedule of entries, each
owed by one seat, in this order: for every ``Shuffle``, one shuffle per seat (seat 0 first,
each verified by every other peer); if there are coins, every seat's commitments then every
seat's openings; one entry of decryption shares per seat that owes any (for every ``Deal`` and
``RevealToAll``); for every ``ShowToSeat``, the holder's sealed box and the recipient's answer.
Because the order is fixed, the author of every entry is known in advance, so an entry out of
turn is refused, and nothing races.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from crypto import CardSet, Ciphertext, KeyShare, Point, unmask, unmask_with_own

from ._errors import RemoteProtocolError
from .contract import Deal, JointCoin, Request, RevealToAll, ShowToSeat, Shuffle


class Cards:
    """Every handle's current ciphertext, the card set it was masked from, and every verified
    decryption share published for it (by seat)."""

    __slots__ = ("ct", "origin", "public", "shares")

    def __init__(self) -> None:
        self.ct: dict[int, Ciphertext] = {}
        self.origin: dict[int, tuple[CardSet, tuple[str, ...]]] = {}
        self.shares: dict[int, dict[int, Point]] = {}
        self.public: dict[int, str] = {}

    def add(
        self,
        handles: Sequence[int],
        deck: Sequence[Ciphertext],
        cs: CardSet,
        labels: tuple[str, ...],
    ) -> None:
        """Record a freshly shuffled deck: position ``i`` is handle ``handles[i]``."""
        for h, ct in zip(handles, deck, strict=True):
            self.ct[h] = ct
            self.origin[h] = (cs, labels)
            self.shares[h] = {}

    def label(self, handle: int, point: Point) -> str:
        """The label of the card ``point`` unmasked from ``handle``; raises ``ProofError`` if
        it is no card of that deck."""
        cs, labels = self.origin[handle]
        return labels[cs.index_of(point)]

    def missing(self, handle: int, seats: int) -> list[int]:
        """Seats that have not yet published a share for ``handle``."""
        have = self.shares[handle]
        return [s for s in range(seats) if s not in have]

    def open_public(self, handle: int) -> str:
        """Unmask with every seat's published share."""
        return self.label(handle, unmask(self.ct[handle], list(self.shares[handle].values())))

    def open_mine(self, handle: int, key: KeyShare) -> str:
        """Unmask privately: every other seat's published share plus this peer's own."""
        return self.label(
            handle, unmask_with_own(self.ct[handle], list(self.shares[handle].values()), key)
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One scheduled entry: its kind, the seat that owes it, and the request it serves."""

    kind: str
    seat: int
    index: int = -1


@dataclass(slots=True)
class Batch:
    """The state of one ``TableOps`` batch in progress."""

    requests: tuple[Request, ...]
    anchor: int
    steps: list[Step]
    owed: dict[int, tuple[int, ...]]
    at: int = 0
    decks: dict[int, list[Ciphertext]] = field(default_factory=dict)
    cardsets: dict[int, CardSet] = field(default_factory=dict)
    coin_digests: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    #: The log head each seat's coin commitment was made on (its entry's ``prev``): bound
    #: into the contribution, so another history never draws the same one.
    coin_heads: dict[int, bytes] = field(default_factory=dict)
    coin_values: dict[int, tuple[bytes, ...]] = field(default_factory=dict)
    boxes: dict[int, tuple[int, bytes]] = field(default_factory=dict)
    shown: dict[int, tuple[str, ...]] = field(default_factory=dict)
    complaint: dict[int, str] = field(default_factory=dict)

    @property
    def step(self) -> Step | None:
        """The entry due next, or ``None`` once every step is done."""
        return self.steps[self.at] if self.at < len(self.steps) else None

    @property
    def coins(self) -> list[int]:
        """Indexes of the batch's joint coins."""
        return [i for i, r in enumerate(self.requests) if isinstance(r, JointCoin)]


def plan(requests: tuple[Request, ...], anchor: int, seats: int, cards: Cards) -> Batch:
    """The fixed schedule of entries that fulfils ``requests``.

    Raises :class:`RemoteProtocolError` only if the game asks for something impossible (a
    handle that does not exist), which is a bug of the game, not of a peer.
    """
    steps: list[Step] = []
    for i, r in enumerate(requests):
        if isinstance(r, Shuffle):
            steps.extend(Step("shuffle", s, i) for s in range(seats))
    if any(isinstance(r, JointCoin) for r in requests):
        steps.extend(Step("coin_commit", s) for s in range(seats))
        steps.extend(Step("coin_open", s) for s in range(seats))
    fresh = {h for r in requests if isinstance(r, Shuffle) for h in r.handles}
    owed: dict[int, list[int]] = {s: [] for s in range(seats)}
    for r in requests:
        if isinstance(r, Deal | RevealToAll):
            for h in r.handles:
                if h not in fresh and h not in cards.ct:
                    raise RemoteProtocolError(f"the game asked for unknown card handle {h}")
                have = cards.shares.get(h, {})
                for s in range(seats):
                    due = isinstance(r, RevealToAll) or s != r.seat
                    if due and s not in have and h not in owed[s]:
                        owed[s].append(h)
    steps.extend(Step("shares", s) for s in range(seats) if owed[s])
    for i, r in enumerate(requests):
        if isinstance(r, ShowToSeat):
            steps.append(Step("show", r.from_seat, i))
            steps.append(Step("show_ack", r.to_seat, i))
    return Batch(requests, anchor, steps, {s: tuple(v) for s, v in owed.items() if v})


def check_share_set(got: tuple[tuple[int, Point], ...], owed: tuple[int, ...], seat: int) -> None:
    """Raise :class:`RemoteProtocolError` unless ``got`` covers exactly the ``owed`` handles."""
    handles = [h for h, _ in got]
    if handles != list(owed):
        raise RemoteProtocolError(
            f"seat {seat} must publish shares for handles {list(owed)}, not {handles}"
        )

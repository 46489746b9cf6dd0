"""Who sits at a table: the phases of its life, its members, and one peer's own secrets."""

from __future__ import annotations

import enum
from typing import Final

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey, fingerprint


class Phase(enum.Enum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    KEYS = "keys"
    GAME = "game"
    AUDIT = "audit"
    SIGNOFF = "signoff"
    CLOSED = "closed"
    STOPPED = "stopped"


#: What a table may wait for (``Table.waiting_on``'s kinds) that is a person's to choose — a
#: move, a sealed move to write — unlike every other entry, a duty its seat's program owes
#: at once (a seat, or the host relaying it, that withholds a duty stalls the table).
PERSONS_CHOICE: Final = ("move", "seal_commit")


class Member:
    """A seated peer: its seat, identity key, name and per-table seal key."""

    __slots__ = ("fingerprint", "key", "name", "seal", "seat")

    def __init__(self, seat: int, key: bytes, name: str, seal: bytes) -> None:
        self.seat, self.key, self.name, self.seal = seat, key, name, seal
        self.fingerprint = fingerprint(key)


class Private:
    """What one peer alone holds: its signing identity, key share, seal key and prover RNG."""

    __slots__ = ("identity", "key", "rng", "seal")

    def __init__(
        self,
        identity: Identity,
        key: KeyShare | None = None,
        seal: SealKey | None = None,
        rng: Rng = _SYSTEM_RNG,
    ) -> None:
        self.identity = identity
        self.key = key or KeyShare()
        self.seal = seal or SealKey()
        self.rng = rng

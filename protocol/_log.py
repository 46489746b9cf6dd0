"""The signed, hash-chained table log, crypto contexts, and the transcript file.

Every entry names the table, its position and the previous entry's hash, and is signed by its
author; the host adds a relay signature when it sequences it. The log keeps, besides the
entries, any pair of different signed entries one author made for one position (equivocation).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from crypto import fingerprint

from ._codec import pack, unpack
from ._errors import RemoteProtocolError
from ._messages import (
    ENTRY_VERSION,
    GENESIS_PREV,
    SIG_BYTES,
    SignedEntry,
    _check_version,
)

#: Largest transcript file accepted.
MAX_TRANSCRIPT: Final = 256 << 20


def context(table: bytes, kind: str, pos: int, seat: int, *extra: int | str | bytes) -> bytes:
    """The one canonical context for a crypto call: table id, step kind, log position, seat.

    Every proof, share, commitment and sealed box of the protocol is bound to the context of
    the entry that carries it (or, for commit-reveal, of the entry that opened the step), so
    nothing verifies at another table, step, position or seat.
    """
    return pack(["lanparty/ctx", table, kind, pos, seat, *extra])


@dataclass(frozen=True, slots=True)
class Equivocation:
    """Two different entries signed by ``culprit`` (an author or the relaying host) for one
    log position: ``first`` and ``second`` are the raw entries (and signatures)."""

    culprit: str
    pos: int
    first: tuple[bytes, bytes]
    second: tuple[bytes, bytes]


class Log:
    """The ordered entries of one table, with their relay signatures and hashes."""

    __slots__ = ("entries", "evidence", "head", "seqs")

    def __init__(self) -> None:
        self.entries: list[SignedEntry] = []
        self.seqs: list[bytes] = []
        self.head: bytes = GENESIS_PREV
        self.evidence: list[Equivocation] = []

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def table(self) -> bytes | None:
        """The table id (``None`` before the first entry)."""
        return self.entries[0].entry.table if self.entries else None

    def check_place(self, se: SignedEntry) -> None:
        """Raise :class:`RemoteProtocolError` unless ``se`` belongs right after the head."""
        e = se.entry
        table = self.table
        if table is not None and e.table != table:
            raise RemoteProtocolError(
                f"entry for another table ({e.table.hex()[:8]}…, this is {table.hex()[:8]}…)"
            )
        if e.pos != len(self.entries):
            raise RemoteProtocolError(
                f"wrong log position {e.pos} (the next position is {len(self.entries)})"
            )
        if e.prev != self.head:
            raise RemoteProtocolError("previous-entry hash does not match this log")

    def append(self, se: SignedEntry, seq: bytes) -> None:
        """Add an entry already checked in place (and applied)."""
        self.entries.append(se)
        self.seqs.append(seq)
        self.head = se.hash

    def note_conflict(self, pos: int, author: bytes, raw: bytes, sig: bytes) -> Equivocation | None:
        """If the entry ``raw`` (by ``author`` for ``pos``, its signature ``sig`` already
        verified) differs from the logged entry at that position and has the same author,
        keep and return the equivocation evidence."""
        if pos >= len(self.entries):
            return None
        logged = self.entries[pos]
        if logged.raw == raw or logged.entry.author != author:
            return None
        ev = Equivocation(fingerprint(author), pos, (logged.raw, logged.sig), (raw, sig))
        self.evidence.append(ev)
        return ev

    def transcript(self) -> bytes:
        """The self-contained transcript file: every entry, signature and relay signature."""
        return pack(
            {
                "v": ENTRY_VERSION,
                "type": "lanparty-transcript",
                "entries": [
                    [s.raw, s.sig, q] for s, q in zip(self.entries, self.seqs, strict=True)
                ],
            }
        )


def read_transcript(data: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """The ``(entry, signature, relay signature)`` triples of a transcript file.

    Raises :class:`RemoteProtocolError` if the file is malformed (entries are decoded later).
    """
    value = unpack(data, MAX_TRANSCRIPT)
    if not isinstance(value, dict) or set(value) != {"v", "type", "entries"}:
        raise RemoteProtocolError("not a lanparty transcript (fields differ)")
    _check_version(value["v"], entries=True)
    if value["type"] != "lanparty-transcript":
        raise RemoteProtocolError("not a lanparty transcript")
    items = value["entries"]
    if not isinstance(items, list):
        raise RemoteProtocolError("transcript entries: expected a list")
    out = []
    for item in items:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(x, bytes) for x in item)
            or len(item[1]) != SIG_BYTES
            or len(item[2]) != SIG_BYTES
        ):
            raise RemoteProtocolError("transcript entry: expected [entry, sig, relay sig]")
        out.append((item[0], item[1], item[2]))
    return out


def raws(entries: Iterable[SignedEntry]) -> tuple[bytes, ...]:
    """Raw bytes of entries, for evidence."""
    return tuple(e.raw for e in entries)

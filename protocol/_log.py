"""The signed, hash-chained table log, crypto contexts, and the transcript file.

Every entry names the table, its position and the previous entry's hash, and is signed by its
author; the host adds a relay signature when it sequences it. The log keeps, besides the
entries, any pair of different signed entries one author made for one position (equivocation).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

import msgpack

from crypto import fingerprint

from ._codec import _refuse_ext, check_canonical, pack
from ._errors import RemoteProtocolError
from ._frames import MAX_FRAME
from ._messages import (
    ENTRY_VERSION,
    GENESIS_PREV,
    SIG_BYTES,
    SignedEntry,
    _check_version,
)

#: Largest transcript file accepted: 64 MiB, 4 times the longest 10-seat KaTO game to 500
#: points measured (15.4 MB, 49 rounds of about 320 KB). See docs/protocol.md.
MAX_TRANSCRIPT: Final = 64 << 20
#: The transcript's fields, in canonical (sorted) order.
_FIELDS: Final = ("entries", "type", "v")
#: Bytes read from the source at a time.
_CHUNK: Final = 1 << 16
#: The largest value in a transcript that can be valid: an ``[entry, sig, relay sig]`` triple
#: whose entry has the largest size an entry may have (:data:`MAX_FRAME`).
_MAX_VALUE: Final = 1 + (5 + MAX_FRAME) + 2 * (2 + SIG_BYTES)
#: The most elements of an array or map inside such a value (a triple has 3).
_MAX_ITEMS: Final = 1024

_T = TypeVar("_T")


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

    @property
    def version(self) -> int:
        """The entry version of this log: its first entry's (every entry has it), else
        :data:`ENTRY_VERSION` (what a new table is written in)."""
        return self.entries[0].entry.v if self.entries else ENTRY_VERSION

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
        if self.entries and e.v != self.version:
            raise RemoteProtocolError(
                f"an entry of version {e.v} in a log of version {self.version} (every entry "
                "of a table has its open's version)"
            )

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
        """The self-contained transcript file: every entry, signature and relay signature,
        under the log's entry version."""
        return pack(
            {
                "v": self.version,
                "type": "lanparty-transcript",
                "entries": [
                    [s.raw, s.sig, q] for s, q in zip(self.entries, self.seqs, strict=True)
                ],
            }
        )


class ByteSource(Protocol):
    """A binary file-like object a transcript is read from (short reads are fine)."""

    def read(self, size: int, /) -> bytes:
        """Up to ``size`` further bytes; ``b""`` at the end."""
        ...


class _Stream:
    """The values of a transcript file, decoded one at a time, strictly and canonically.

    Holds one value (at most :data:`_MAX_VALUE` bytes) and one chunk, never the whole file.
    Each value's and each header's bytes must be exactly the canonical encoding of what they
    decode to, as :func:`unpack` demands of a whole message; so the file is canonical as a
    whole, and a transcript passes here exactly when ``unpack`` and the checks of its fields
    pass on the whole file (no valid transcript holds a value over the size of an entry).
    """

    __slots__ = ("_data", "_limit", "_pending", "_read", "_start", "_total", "_unpacker")

    def __init__(self, source: bytes | ByteSource, limit: int) -> None:
        if isinstance(source, bytes):
            if len(source) > limit:
                raise _too_large(limit, len(source))
            self._data: bytes | None = source
            self._read: Callable[[int], bytes] | None = None
        else:
            self._data, self._read = None, source.read
        self._limit = limit
        self._total = 0  # bytes taken from the source so far
        self._pending = bytearray()  # bytes taken but not yet decoded into a whole value
        self._start = 0  # the file offset of self._pending[0]
        self._unpacker = msgpack.Unpacker(
            raw=False,
            strict_map_key=True,
            use_list=True,
            ext_hook=_refuse_ext,
            max_buffer_size=_MAX_VALUE + 2 * _CHUNK,
            max_array_len=_MAX_ITEMS,  # whole values: a triple, a key, the type, the version
            max_map_len=_MAX_ITEMS,
        )

    def _more(self) -> bool:
        """Feed the decoder the next chunk; ``False`` at the end of the source."""
        if len(self._pending) > _MAX_VALUE:
            raise RemoteProtocolError(f"a value of over {_MAX_VALUE} bytes (no entry is as large)")
        if self._read is None:
            assert self._data is not None
            chunk = self._data[self._total : self._total + _CHUNK]
        else:
            chunk = self._read(_CHUNK)
            if not isinstance(chunk, bytes):
                raise TypeError("a transcript is read from a binary file")
        if not chunk:
            return False
        self._total += len(chunk)
        if self._total > self._limit:
            raise _too_large(self._limit)
        self._unpacker.feed(chunk)
        self._pending += chunk
        return True

    def _take(self, read: Callable[[], _T], what: str | None = None) -> tuple[_T, bytes]:
        """What ``read`` decodes next and the exact bytes it came from; an undecodable value
        is refused with ``what`` if given."""
        while True:
            try:
                value = read()
                break
            except msgpack.OutOfData:
                pass  # read more, below (OutOfData is an UnpackException)
            except RemoteProtocolError:
                raise
            except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as exc:
                reason = what or f"undecodable msgpack ({type(exc).__name__})"
                raise RemoteProtocolError(reason) from None
            if not self._more():
                raise RemoteProtocolError("truncated: the file ends inside the transcript")
        end = self._unpacker.tell()
        used = bytes(self._pending[: end - self._start])
        del self._pending[: end - self._start]
        self._start = end
        return value, used

    def value(self) -> object:
        """The next whole value; raises :class:`RemoteProtocolError` unless canonical."""
        value, used = self._take(self._unpacker.unpack)
        check_canonical(value, used)
        return value

    def map_header(self, what: str) -> int:
        """The number of fields of the map that comes next; ``what`` if it is no map."""
        n, used = self._take(self._unpacker.read_map_header, what)
        if msgpack.Packer().pack_map_header(n) != used:
            raise RemoteProtocolError("not in canonical encoding")
        return int(n)

    def array_header(self, what: str) -> int:
        """The length of the array that comes next; ``what`` if it is no array."""
        n, used = self._take(self._unpacker.read_array_header, what)
        if msgpack.Packer().pack_array_header(n) != used:
            raise RemoteProtocolError("not in canonical encoding")
        return int(n)

    def key(self, name: str) -> None:
        """Check that the next map key is ``name``, the next field in canonical order."""
        key = self.value()
        if key == name:
            return
        if key in _FIELDS:  # a transcript's field out of order, or twice
            raise RemoteProtocolError("not in canonical encoding")
        raise RemoteProtocolError("not a lanparty transcript (fields differ)")

    def end(self) -> None:
        """Check that nothing follows the transcript."""
        if self._pending or self._more():
            raise RemoteProtocolError("trailing bytes after the transcript")


def _too_large(limit: int, size: int | None = None) -> RemoteProtocolError:
    of = f" of {size} bytes" if size is not None else ""
    return RemoteProtocolError(f"transcript{of} larger than the {limit}-byte limit")


def iter_transcript(
    source: bytes | ByteSource, limit: int = MAX_TRANSCRIPT, *, version: list[int] | None = None
) -> Iterator[tuple[bytes, bytes, bytes]]:
    """The ``(entry, signature, relay signature)`` triples of a transcript file, in order,
    read from ``source`` (its bytes or a binary file) a chunk at a time: memory for one
    triple, not for the file. Accepts exactly the files :func:`read_transcript` accepts.

    Checks as it goes: a fault raises :class:`RemoteProtocolError` (naming the log position of
    a bad triple) when it is reached, after the triples before it were yielded; the type, the
    version and the end of the file come after the entries (canonical order) and are checked
    last. More than ``limit`` bytes are refused as soon as they are read. To refuse a malformed
    file before using any triple, read it with :func:`check_transcript` first. ``version``,
    if given, is appended the file's entry version once it is read (after the triples).
    """
    s = _Stream(source, limit)
    if s.map_header("not a lanparty transcript") != len(_FIELDS):
        raise RemoteProtocolError("not a lanparty transcript (fields differ)")
    s.key("entries")
    for pos in range(s.array_header("transcript entries: expected a list")):
        try:
            item = s.value()
        except RemoteProtocolError as exc:
            raise exc.blame(None, None, pos) from None
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(x, bytes) for x in item)
            or len(item[1]) != SIG_BYTES
            or len(item[2]) != SIG_BYTES
        ):
            raise RemoteProtocolError("transcript entry: expected [entry, sig, relay sig]", pos=pos)
        yield item[0], item[1], item[2]
    s.key("type")
    kind = s.value()
    s.key("v")
    v = s.value()
    _check_version(v, entries=True)
    if kind != "lanparty-transcript":
        raise RemoteProtocolError("not a lanparty transcript")
    s.end()
    if version is not None:
        assert isinstance(v, int)
        version.append(v)


def check_transcript(source: bytes | ByteSource, limit: int = MAX_TRANSCRIPT) -> int:
    """The number of entries of a well-formed transcript file, read as :func:`iter_transcript`
    reads it (keeping nothing); raises :class:`RemoteProtocolError` if it is malformed."""
    return transcript_form(source, limit)[0]


def transcript_form(source: bytes | ByteSource, limit: int = MAX_TRANSCRIPT) -> tuple[int, int]:
    """The number of entries and the entry version of a well-formed transcript file (read as
    :func:`check_transcript` reads it); raises :class:`RemoteProtocolError` if it is
    malformed."""
    version: list[int] = []
    n = sum(1 for _ in iter_transcript(source, limit, version=version))
    return n, version[0]


def read_transcript(
    source: bytes | ByteSource, limit: int = MAX_TRANSCRIPT
) -> list[tuple[bytes, bytes, bytes]]:
    """The ``(entry, signature, relay signature)`` triples of a transcript file.

    Raises :class:`RemoteProtocolError` if the file is malformed: not exactly one canonical
    ``{entries, type, v}`` map, a triple of the wrong shape, another version or type,
    anything after the map, or over ``limit`` bytes (entries are decoded later).
    """
    return list(iter_transcript(source, limit))


def raws(entries: Iterable[SignedEntry]) -> tuple[bytes, ...]:
    """Raw bytes of entries, for evidence."""
    return tuple(e.raw for e in entries)

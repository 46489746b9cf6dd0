"""Auditing a saved transcript offline: replay every entry as a spectator, re-verifying every
signature, relay signature, proof and move, then the end-of-game audit."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from crypto import fingerprint

from ._errors import RemoteProtocolError
from ._events import AuditReport, Finding
from ._log import ByteSource, iter_transcript, transcript_form
from ._messages import SignedEntry, read_head, verify_entry_signature, verify_relay
from ._roles import Phase
from ._table import Table
from .contract import Game


class SeekableSource(ByteSource, Protocol):
    """A binary file-like object that can be read again from a position (a regular file)."""

    def tell(self) -> int:
        """The current position."""
        ...

    def seek(self, offset: int, whence: int = 0, /) -> int:
        """Move to ``offset``; returns the new position."""
        ...


def audit_transcript(
    source: bytes | SeekableSource,
    games: Mapping[str, Game[Any]],
    *,
    seen: Callable[[int, bytes], None] | None = None,
) -> AuditReport:
    """Re-verify a whole transcript file (``Peer.transcript()``) with no secret of any peer.

    ``source`` is the file's bytes or a seekable binary file positioned at its start; a file
    is read twice, a chunk at a time: first its form (so a malformed file is refused before
    any entry is replayed), then each entry as it is replayed. ``seen(pos, raw)`` is called
    with each entry's bytes before it is replayed.

    Returns the audit's report: its findings name each broken rule with seat and log
    position; ``complete`` is false if the log stops before every seat signed off, and
    ``waiting`` then says which seat owed the next entry, and what (a table that stopped —
    someone left, vanished or stalled — ends its log there: a halt is not an entry). Raises
    :class:`RemoteProtocolError` if the file is malformed or too large (see
    :func:`read_transcript`), or naming the culprit (or at least the log position) if any
    entry is malformed, forged, out of turn or illegal (the transcript cannot be trusted past
    it).
    """
    if isinstance(source, bytes):
        _, version = transcript_form(source)
        return _replay(iter_transcript(source), games, seen, version)
    start = source.tell()
    _, version = transcript_form(source)
    source.seek(start)
    return _replay(iter_transcript(source), games, seen, version)


def _replay(
    items: Iterable[tuple[bytes, bytes, bytes]],
    games: Mapping[str, Game[Any]],
    seen: Callable[[int, bytes], None] | None,
    version: int,
) -> AuditReport:
    """Replay well-formed triples on a spectator's table; see :func:`audit_transcript`.
    ``version`` is the file's: its entries must be of it (the table checks each against
    the first)."""
    table = Table(games)
    host: bytes | None = None
    for pos, (raw, sig, seq) in enumerate(items):
        if seen is not None:
            seen(pos, raw)
        try:
            head = read_head(raw)
        except RemoteProtocolError as exc:  # keeps its class (another version, say)
            exc.pos = pos if exc.pos is None else exc.pos
            raise
        if host is None:
            if head.v != version:
                raise RemoteProtocolError(
                    f"a transcript of entry version {version} whose entries are of version "
                    f"{head.v}", pos=pos)  # fmt: skip
            host = head.author
        try:
            verify_relay(host, raw, seq, table.keys)
        except RemoteProtocolError as exc:
            raise exc.blame(None, 0, head.pos) from None
        member = table.member(head.author)
        try:  # the signature before the body's points: a forgery costs no point check
            verify_entry_signature(head.author, raw, sig, table.keys)
            se = SignedEntry(raw, sig, head.entry())
        except RemoteProtocolError as exc:
            raise exc.blame(fingerprint(head.author), member.seat if member else None,
                            head.pos) from None  # fmt: skip
        table.apply(se, seq, sig_checked=True)
        if table.phase is Phase.STOPPED and table.stop_error is not None:
            raise table.stop_error
    report = table.report
    tid, opening = table.table_id, table.opening
    if report is None:
        return AuditReport(
            (Finding(len(table.log), -1, "incomplete", "the game was not audited"),),
            complete=False,
            waiting=table.waiting_on(),
            table_id=tid,
            table_open=opening,
        )
    if table.phase is not Phase.CLOSED:
        return AuditReport(
            report.findings, complete=False, waiting=table.waiting_on(), table_id=tid,
            table_open=opening,
        )  # fmt: skip
    return replace(report, table_id=tid, table_open=opening, closing=table.closing)

"""Auditing a saved transcript offline: replay every entry as a spectator, re-verifying every
signature, relay signature, proof and move, then the end-of-game audit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import RemoteProtocolError
from ._events import AuditReport, Finding
from ._log import read_transcript
from ._messages import SignedEntry, verify_relay
from ._roles import Phase
from ._table import Table
from .contract import Game


def audit_transcript(data: bytes, games: Mapping[str, Game[Any]]) -> AuditReport:
    """Re-verify a whole transcript file (``Peer.transcript()``) with no secret of any peer.

    Returns the audit's report: its findings name each broken rule with seat and log
    position; ``complete`` is false if the log stops before every seat signed off. Raises
    :class:`RemoteProtocolError` naming the culprit if any entry is malformed, forged, out of
    turn or illegal (the transcript cannot be trusted past it).
    """
    table = Table(games)
    host: bytes | None = None
    for raw, sig, seq in read_transcript(data):
        se = SignedEntry.parse(raw, sig)
        if host is None:
            host = se.entry.author
        try:
            verify_relay(host, raw, seq)
        except RemoteProtocolError as exc:
            raise exc.blame(None, 0, se.entry.pos) from None
        table.apply(se, seq)
        if table.phase is Phase.STOPPED and table.stop_error is not None:
            raise table.stop_error
    report = table.report
    if report is None:
        return AuditReport(
            (Finding(len(table.log), -1, "incomplete", "the game was not audited"),),
            complete=False,
        )
    if table.phase is not Phase.CLOSED:
        return AuditReport(report.findings, complete=False)
    return report

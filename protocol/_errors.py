"""Errors raised by the protocol package, h11-style.

:class:`LocalProtocolError` means the caller misused the API (asked to play out of turn, fed a
frame to a closed table); :class:`RemoteProtocolError` means a peer misbehaved, and names it.
Anything else escaping this package is a bug.
"""

from __future__ import annotations


class ProtocolError(Exception):
    """Base class of every error this package raises on purpose."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class LocalProtocolError(ProtocolError):
    """The caller asked for something the protocol does not allow now."""


class RemoteProtocolError(ProtocolError):
    """A peer sent something malformed or dishonest; our state was not changed by it.

    ``culprit`` is the fingerprint of the peer at fault when it is known (``None`` while the
    sender is anonymous, e.g. garbage before a hello); ``seat`` its seat if it has one; ``pos``
    the log position concerned, if any; ``evidence`` the signed data that proves the fault
    (raw frames or entries), empty when the fault is only a malformed frame.
    """

    def __init__(
        self,
        reason: str,
        *,
        culprit: str | None = None,
        seat: int | None = None,
        pos: int | None = None,
        evidence: tuple[bytes, ...] = (),
    ) -> None:
        super().__init__(reason)
        self.culprit = culprit
        self.seat = seat
        self.pos = pos
        self.evidence = evidence

    def blame(
        self, culprit: str | None, seat: int | None = None, pos: int | None = None
    ) -> RemoteProtocolError:
        """A copy of this error naming ``culprit`` (and seat, position) where still unnamed."""
        return RemoteProtocolError(
            self.reason,
            culprit=self.culprit or culprit,
            seat=self.seat if self.seat is not None else seat,
            pos=self.pos if self.pos is not None else pos,
            evidence=self.evidence,
        )

    def __str__(self) -> str:
        who = self.culprit or "unknown peer"
        if self.seat is not None:
            who += f" (seat {self.seat})"
        where = f" at log position {self.pos}" if self.pos is not None else ""
        return f"{who}{where}: {self.reason}"


class VersionMismatchError(RemoteProtocolError):
    """The peer speaks another protocol version; the message names both."""

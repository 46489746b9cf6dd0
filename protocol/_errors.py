"""Errors raised by the protocol package, h11-style.

:class:`LocalProtocolError` means the caller misused the API (asked to play out of turn, fed a
frame to a closed table); :class:`RemoteProtocolError` means a peer misbehaved, and names it.
Anything else escaping this package is a bug.
"""

from __future__ import annotations

import reprlib
from typing import Final

#: Longest reason an error keeps (and so the longest a refusal or a halt can quote): a reason
#: built from a peer's value must not grow into a frame of its own.
MAX_REASON: Final = 300
_EXCERPT = 40

_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = _repr.maxlong = _EXCERPT
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 6
_repr.maxlevel = 3


def excerpt(value: object, limit: int = _EXCERPT) -> str:
    """A short, printable quotation of a value that came from outside (for error messages):
    its repr, with strings and bytes cut to about ``limit`` characters before quoting, and
    nested values cut short. The work done is bounded whatever the value's size."""
    if isinstance(value, str | bytes):
        text = repr(value[:limit])
        if len(text) > limit + 3:
            text = text[:limit] + "…"
        return text + (f" ({len(value)} in all)" if len(value) > limit else "")
    text = _repr.repr(value)
    return text if len(text) <= 2 * limit else text[: 2 * limit] + "…"


def clamp(reason: str) -> str:
    """``reason`` as one printable line of at most :data:`MAX_REASON` characters (characters
    that are not printable are escaped)."""
    if len(reason) <= MAX_REASON and reason.isprintable():
        return reason
    cut = reason[:MAX_REASON]
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in cut)
    if len(text) > MAX_REASON or len(reason) > MAX_REASON:
        text = text[: MAX_REASON - 1] + "…"
    return text


def engine_failure(exc: BaseException) -> str:
    """What to say of an exception a rules engine (or any code judging a peer's bytes)
    raised where it should have refused: its type and a short excerpt of its message."""
    return f"the rules engine failed on it ({type(exc).__name__}: {excerpt(str(exc))})"


class ProtocolError(Exception):
    """Base class of every error this package raises on purpose. Its ``reason`` is always
    short and printable (:func:`clamp`), whatever went into it."""

    def __init__(self, reason: str) -> None:
        reason = clamp(reason)
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
        if self.culprit is None and self.seat is None and self.pos is None:
            return self.reason  # blames nobody (it names whom it may in its own words)
        who = self.culprit or "unknown peer"
        if self.seat is not None:
            who += f" (seat {self.seat})"
        where = f" at log position {self.pos}" if self.pos is not None else ""
        return f"{who}{where}: {self.reason}"


class VersionMismatchError(RemoteProtocolError):
    """The peer speaks another protocol version; the message names both."""

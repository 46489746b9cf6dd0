"""Proof checks that may run beside the table instead of inside :meth:`Table.apply`.

A shuffle proof is the costliest check of a game (about 10 variable-base multiplications per
card) and it sits on the critical path twice: the host checks before it relays, and the next
shuffler checks before it proves. With ``Table.defer_checks`` set, a shuffle whose place,
author, size and points are right is applied at once and its proof check is queued as a
:class:`DeferredCheck`; the network layer runs it in a worker thread (libsodium releases the
GIL) while the host relays and the next shuffler proves, then reports the result with
:meth:`CheckQueue.checked`.

Nothing is weakened: while any check is open this copy owes no entry but a shuffle (no
decryption share, no show, no move: no card of an unchecked deck is ever opened by us), and a
proof that fails stops the table naming its author, as an inline check would. A bad shuffle
reaches the log before it is found out; the table stops there, so nothing built on it is
ever opened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from crypto import CryptoError

from ._errors import RemoteProtocolError

__all__ = ["CheckQueue", "DeferredCheck"]


@dataclass(frozen=True, slots=True, eq=False)
class DeferredCheck:
    """One proof to check: ``run()`` returns if it holds and raises if not (``CryptoError``,
    or anything else: see :func:`run_check`); it touches no table state, so any thread may
    run it. ``what`` names the check in the refusal; ``fingerprint``, ``seat`` and ``pos``
    name the entry's author and place. Two checks are equal only if they are the same
    object."""

    run: Callable[[], None]
    what: str
    fingerprint: str
    seat: int
    pos: int


def run_check(check: DeferredCheck) -> RemoteProtocolError | None:
    """Run ``check``: ``None`` if the proof holds, else the error naming its author. Raises no
    ``Exception`` (safe to call from a worker thread): whatever the check raises was raised
    on the author's data, so it is that author's proof error, not an internal error of ours."""
    try:
        check.run()
    except CryptoError as exc:
        reason = str(exc)
    except Exception as exc:  # the group library on a hostile point, say: still their proof
        reason = f"it cannot be checked ({type(exc).__name__}: {exc})"
    else:
        return None
    return RemoteProtocolError(
        f"{check.what}: {reason}", culprit=check.fingerprint, seat=check.seat, pos=check.pos
    )


class CheckQueue:
    """The checks of one table copy: queued, handed out, and still open. Mixed into
    ``Table``."""

    defer_checks: bool
    _queued: list[DeferredCheck]
    _unchecked: set[DeferredCheck]

    def _init_checks(self, defer: bool) -> None:
        self.defer_checks = defer
        self._queued = []
        self._unchecked = set()

    def _check(self, check: DeferredCheck) -> None:
        """Queue ``check`` to run beside the table (``defer_checks``), or run it now and
        raise :class:`RemoteProtocolError` if its proof does not hold."""
        if not self.defer_checks:
            err = run_check(check)
            if err is not None:
                raise RemoteProtocolError(err.reason)  # ``apply`` blames the entry's author
            return
        self._queued.append(check)
        self._unchecked.add(check)

    @property
    def checking(self) -> bool:
        """True while a deferred check has not been reported: this copy opens nothing."""
        return bool(self._unchecked)

    def take_checks(self) -> list[DeferredCheck]:
        """The checks queued since the last call, to run anywhere (each exactly once)."""
        out, self._queued = self._queued, []
        return out

    def checked(
        self, check: DeferredCheck, error: RemoteProtocolError | None
    ) -> RemoteProtocolError | None:
        """Record ``check``'s outcome (from :func:`run_check`); returns the error the table
        must stop for (the caller stops it), ``None`` if it holds or was already reported."""
        if check not in self._unchecked:
            return None
        self._unchecked.discard(check)
        return error

"""Events a peer's protocol object hands to its driver (UI, bot, network layer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from ._bodies import OpenTable
from ._errors import RemoteProtocolError
from .contract import Move, Outcome, Seat


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule broken, found by the audit: where (log position), by whom, which rule."""

    pos: int
    seat: Seat
    rule: str
    detail: str

    def to_plain(self) -> list[object]:
        """Plain form ``[pos, seat, rule, detail]``."""
        return [self.pos, self.seat, self.rule, self.detail]


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The verdict of the end-of-game audit: every finding (empty for an honest game)."""

    findings: tuple[Finding, ...]
    complete: bool = True
    #: For a log that stops early (an offline audit of a stopped table's transcript): the
    #: seat the table was waiting on where the log ends, and what it owed
    #: (:meth:`Table.waiting_on`); ``None`` otherwise, and not part of :meth:`to_plain`.
    waiting: tuple[Seat, str] | None = None
    #: What an offline audit (``audit_transcript``) read of the table, none of it part of
    #: :meth:`to_plain`: its id, its parsed ``open`` body (the game, options, seats and the
    #: ``night`` link to the table before it), and the closing digest every seat signed off
    #: (``None`` unless the log is complete): what links the next game of a night to it.
    #: Not compared either: a report equals another when their verdicts are equal.
    table_id: bytes | None = field(default=None, compare=False)
    table_open: OpenTable | None = field(default=None, compare=False)
    closing: bytes | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        """True when the transcript is complete and no rule was broken."""
        return self.complete and not self.findings

    def to_plain(self) -> list[object]:
        """Plain form, the part of the closing digest every peer signs."""
        return [self.complete, [f.to_plain() for f in self.findings]]


@dataclass(frozen=True, slots=True)
class Joined:
    """``name`` (key fingerprint ``fingerprint``) took seat ``seat``."""

    seat: Seat
    name: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class Removed:
    """The host removed ``name`` (key fingerprint ``fingerprint``) from ``seat`` before the
    game started; the seats after it moved up one."""

    seat: Seat
    name: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class JoinAsked:
    """At the host, with joins to approve: request number ``request``, ``name`` with the key
    of fingerprint ``fingerprint``, asks for a seat; :meth:`Host.let_in` or
    :meth:`Host.turn_away` answers it by that number, and seats exactly that key and name."""

    name: str
    fingerprint: str
    request: int


@dataclass(frozen=True, slots=True)
class JoinWithdrawn:
    """At the host: request ``request`` (``name``, key ``fingerprint``) no longer waits, and
    approving it would do nothing: its key asked again under another name (request
    ``replaced_by``), or its connection ended (``replaced_by`` is ``None``)."""

    request: int
    name: str
    fingerprint: str
    replaced_by: int | None


@dataclass(frozen=True, slots=True)
class SeatsFixed:
    """The seats are fixed; ``names`` in seat order. Key shares follow."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Applied:
    """The entry at ``pos`` by ``seat`` was checked and applied (``move`` for a move;
    ``contested``: it was made while other seats could move too, and won that race)."""

    pos: int
    seat: Seat | None
    kind: str
    move: Move | None = None
    contested: bool = False


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over; the audit (everyone publishes its deck secrets) follows."""

    outcome: Outcome


@dataclass(frozen=True, slots=True)
class AuditFinished:
    """Every seat published its secrets and this peer re-checked the game."""

    report: AuditReport


@dataclass(frozen=True, slots=True)
class TableClosed:
    """Every seat signed the audit's closing digest; the log is final."""

    report: AuditReport


@dataclass(frozen=True, slots=True)
class Rejected:
    """An entry was refused; our state did not change. ``error`` names the culprit."""

    error: RemoteProtocolError


@dataclass(frozen=True, slots=True)
class Stopped:
    """The table cannot go on; ``error`` names the culprit and carries the evidence."""

    error: RemoteProtocolError


@dataclass(frozen=True, slots=True)
class Refused:
    """The host refused our proposal (``fatal``: it takes nothing more from us)."""

    reason: str
    fatal: bool


@dataclass(frozen=True, slots=True)
class Returned:
    """``name`` (seat ``seat``) is back on a new connection after losing the old one."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True)
class MoveDropped:
    """Our move lost a race for its log position (another entry came first); choose again.
    ``outranked`` is False when the entry that won ranks below ours by the race rule
    (:func:`protocol.race_rank`): the host then says ours came after the window closed."""

    move: Move
    outranked: bool = True


@dataclass(frozen=True, slots=True)
class SealedMove:
    """We sealed a move: ``blob`` (secret: salt and move) is what to keep with the seat's
    secrets so a restarted program can still open it (``Peer(..., sealed=blob)``). Keep it
    before what is queued to send goes out."""

    blob: bytes


@dataclass(frozen=True, slots=True)
class Holding:
    """We are about to propose an entry we signed: ``blob`` is what this seat holds of the
    log now (see ``protocol._held``), to keep with the seat *before* what is queued to send
    goes out, so that a restarted program (``Peer.resume(..., held=blob)``) refuses a host
    that gives it a log rolled back past it."""

    blob: bytes


@dataclass(frozen=True, slots=True)
class PhaseClosed:
    """The sealed phase was closed by its closer: ``missing`` handed nothing in."""

    missing: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class Said:
    """A line of table talk (not a log entry: it changes no transcript): ``text`` said by
    ``name``, in ``seat``, or a spectator (``seat`` is ``None``; ``name`` is the one it
    gave), whose key has fingerprint ``fingerprint``. Its signature, its number and its
    bounds were checked here, whatever the host checked."""

    seat: Seat | None
    name: str
    text: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class TalkRefused:
    """The host refused a line of talk of ours (too fast, too long, not allowed): nothing
    else changes, and the next line may go."""

    reason: str


@dataclass(frozen=True, slots=True)
class RaceOpened:
    """At the host: moves that race for log position ``pos`` are being collected; call
    :meth:`Host.close_race` once the race window has passed (the driver keeps the time)."""

    pos: int


@dataclass(frozen=True, slots=True)
class Offered:
    """At a seat (or a spectator) whose table is over: its host offers the next game of the
    night, ``opening`` (the next table's ``open``, with its ``night`` link checked against
    the table just closed); answer with ``Peer.next_peer()`` (stay) or ``Peer.decline()``."""

    table: bytes
    opening: OpenTable
    #: (A spectator's offer) how many seats the host lets spectators take there (0: none;
    #: ask for one with ``Watcher.next_sitter()``).
    free: int = 0


@dataclass(frozen=True, slots=True)
class SeatAsked:
    """At the host of a night's next table: a spectator of the game before asks for a free
    seat under ``name`` (key ``fingerprint``); it is seated, in its turn, or refused
    (:class:`SeatDenied`)."""

    name: str
    fingerprint: str


@dataclass(frozen=True, slots=True)
class SeatDenied:
    """At the host of a night's next table: the spectator who asked for a seat (``name``:
    the name it asked under, "" if its join never came; key ``fingerprint``) keeps watching,
    for ``reason`` (English, as it was told)."""

    name: str
    fingerprint: str
    reason: str


@dataclass(frozen=True, slots=True)
class SitRefused:
    """At a spectator that asked for a seat (``Watcher.next_sitter``): the host refused it,
    for ``reason``; it keeps watching (``Peer.back_to_watching()``)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Answered:
    """At the host of a night's next table: the player ``name`` (key ``fingerprint``) of the
    game before stays for it (``stays``: its join came) or leaves (it said so, its
    connection ended, or it did not answer in time)."""

    name: str
    fingerprint: str
    stays: bool


@dataclass(frozen=True, slots=True)
class TooFew:
    """At the host of a night's next table: every player answered, and too few stayed for
    ``game`` (``seated`` sit, ``needed`` are needed). The table cannot start: halt it and
    offer another game, or end the night."""

    game: str
    seated: int
    needed: int


Event: TypeAlias = (
    Joined
    | Removed
    | JoinAsked
    | JoinWithdrawn
    | SeatsFixed
    | Applied
    | GameEnded
    | AuditFinished
    | TableClosed
    | Rejected
    | Stopped
    | Refused
    | MoveDropped
    | RaceOpened
    | Offered
    | Answered
    | TooFew
    | SeatAsked
    | SeatDenied
    | SitRefused
    | SealedMove
    | Holding
    | PhaseClosed
    | Returned
    | Said
    | TalkRefused
)

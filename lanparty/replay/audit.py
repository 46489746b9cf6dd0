"""Auditing a saved transcript offline: :func:`audit_file` and the :class:`Verdict` it gives.

The verdict is :func:`protocol.audit_transcript`'s, which replays the file as a spectator and
re-checks every signature, relay signature, chain link, proof, share, coin and move, then
runs the end-of-game audit. This module only opens the file (one over :data:`MAX_TRANSCRIPT`
is refused by its size, unread; the protocol reads the rest a chunk at a time), watches the
replay through the game contract (to tell the outcome) and gathers the result; whoever
audits may be told how far the replay got (:class:`Shows`). The verdict told in words and as
JSON: :mod:`lanparty.replay.auditwords`. A verdict is one of three (``Verdict.status``,
``Verdict.exit_code``):

- ``passed`` (:data:`EXIT_PASSED`): complete, every seat signed off, every signature, proof,
  share and move checked; a rule broken that nobody challenged during play (a bluffed Wild
  Draw Four) is listed — the same verdict every peer reaches at the table;
- ``failed`` (:data:`EXIT_FAILED`): an entry is forged, damaged, out of place or breaks a
  rule (named with its log position), or the file is not a transcript at all;
- ``incomplete`` (:data:`EXIT_INCOMPLETE`): every entry in the file verified, but the log
  stops before the end — the table stopped (someone left, vanished or stalled) or the file
  was cut. The log does not say why (the host's halt is not a signed entry), but it says
  where it stopped and whose entry the table was waiting for.

A file that cannot be audited at all (missing, unreadable, empty, over the size limit, or of
another version) raises :class:`lanparty.errors.NetError` with one line.
"""

from __future__ import annotations

import gettext
import os
import stat
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol

from crypto import fingerprint
from lanparty.errors import NetError
from lanparty.games import GAMES
from lanparty.i18n import _, ngettext
from lanparty.table.stopwords import OWED, said
from protocol import (
    PERSONS_CHOICE,
    AuditReport,
    Finding,
    NightLink,
    ProtocolError,
    RemoteProtocolError,
    VersionMismatchError,
    audit_transcript,
    unpack,
)
from protocol._log import MAX_TRANSCRIPT
from protocol.contract import Game, Outcome, Plain

__all__ = [
    "ENGLISH",
    "EXIT_FAILED",
    "EXIT_INCOMPLETE",
    "EXIT_PASSED",
    "MAX_TRANSCRIPT",
    "Shows",
    "Verdict",
    "Words",
    "audit_file",
    "refusal_text",
    "too_large",
]
EXIT_PASSED, EXIT_FAILED, EXIT_INCOMPLETE = 0, 1, 3
Words = gettext.NullTranslations
"""The words a verdict is told in: a catalogue (:func:`lanparty.i18n.catalogue`)."""
ENGLISH = gettext.NullTranslations()
"""The messages as written: what ``--json`` says, for scripts, whatever the language."""
#: The rule ``audit_transcript`` reports when the file ends before the audit ran.
_NOT_AUDITED = "incomplete"


class _Watched:
    """A game that delegates everything to ``game`` and keeps the state its ``setup`` made,
    so the outcome of the replayed table can be read once the audit returns."""

    def __init__(self, game: Game[Any]) -> None:
        self._game = game
        self.state: Any = None

    def setup(self, seats: int, options: Mapping[str, Plain]) -> Any:
        self.state = self._game.setup(seats, options)
        return self.state

    def final(self) -> Outcome | None:
        """The outcome so far, or ``None`` if the seats were never fixed."""
        return None if self.state is None else self._game.outcome(self.state)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


@dataclass
class Verdict:
    """What ``lanparty audit`` found in one transcript file."""

    path: str
    game: str = ""
    options: dict[str, Plain] = field(default_factory=dict)
    seats: int = 0
    names: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    #: Each seat's identity key (32 bytes, in seat order, as the names).
    authors: list[bytes] = field(default_factory=list)
    entries: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    last_kind: str = ""
    complete: bool = False
    outcome: Outcome | None = None
    findings: list[Finding] = field(default_factory=list)
    #: Where an incomplete log ends: the seat the table waited on, and what it owed.
    waiting: tuple[int, str] | None = None
    #: Why the audit failed (an entry forged, damaged, out of place or illegal), or "".
    error: str = ""
    error_pos: int | None = None
    #: The refusal behind ``error`` (told again in the reader's words), or ``None``.
    refused: ProtocolError | None = None
    #: The table's id, its ``open``'s night link (``None``: the table starts a night) and,
    #: for a complete log, the closing digest every seat signed: how the games of a night
    #: chain (``protocol.NightLink``). Known once the whole file verified.
    table_id: bytes | None = None
    night: NightLink | None = None
    closing: bytes | None = None

    @property
    def passed(self) -> bool:
        """Complete and every signature, proof, share and move valid (as at the table: rules
        broken that nobody challenged are listed, not a failure of the audit)."""
        return self.complete and not self.error

    @property
    def status(self) -> str:
        """``passed``, ``failed`` (something does not verify) or ``incomplete`` (everything
        verifies, but the log stops early)."""
        if self.error:
            return "failed"
        return "passed" if self.complete else "incomplete"

    @property
    def exit_code(self) -> int:
        """The exit status ``lanparty audit`` ends with for this verdict."""
        return {"passed": EXIT_PASSED, "failed": EXIT_FAILED}.get(self.status, EXIT_INCOMPLETE)

    def stopped(self, t: Words = ENGLISH) -> str:
        """Where an incomplete log stops, and whose entry the table was waiting for (in the
        words of ``t``: English unless told)."""
        n = self.entries
        if self.waiting is None:
            where = (t.gettext("before the seats were fixed") if self.outcome is None
                     else t.gettext("no entry due"))  # fmt: skip
            return t.gettext("stopped at entry {n}, {where}").format(n=n, where=where)
        seat, owed = self.waiting
        what = t.gettext(OWED[owed]) if owed in OWED else owed
        return t.gettext("stopped at entry {n}, waiting for {who}'s {what}").format(
            n=n, who=self.who(seat, t), what=what
        )

    @property
    def withheld(self) -> bool:
        """The log stops where a seat owed a protocol entry (a coin opening, shares…), not a
        person's choice: that seat, or the host that relays it, kept it back."""
        return (not self.complete and not self.error and self.waiting is not None
                and self.waiting[1] not in PERSONS_CHOICE)  # fmt: skip

    def who(self, seat: int, t: Words = ENGLISH) -> str:
        """``"ann (seat 1)"``, or ``"seat 1"`` when the name is not known."""
        name = self.name(seat)
        return (t.gettext("{name} (seat {seat})").format(name=name, seat=seat) if name
                else t.gettext("seat {seat}").format(seat=seat))  # fmt: skip

    def name(self, seat: int) -> str | None:
        """The name at ``seat``, if known."""
        return self.names[seat] if 0 <= seat < len(self.names) else None

    def stage(self, t: Words = ENGLISH) -> str:
        """Where the table stands: closed, or how far it got before the file ends (in the
        words of ``t``: English unless told)."""
        n = len(self.names)
        if self.complete:
            return t.ngettext("closed: the {n} seat signed off the audit",
                              "closed: all {n} seats signed off the audit", n).format(n=n)
        where = t.ngettext("stopped early after {n} entry (the last one a {kind})",
                           "stopped early after {n} entries (the last one a {kind})",
                           self.entries).format(n=self.entries, kind=repr(self.last_kind))
        if self.outcome is None:
            return t.gettext("{where}: the seats were never fixed").format(where=where)
        if not self.outcome.finished:
            return t.gettext("{where}: the game did not end").format(where=where)
        secrets, signoffs = self.kinds.get("secrets", 0), self.kinds.get("signoff", 0)
        if secrets < n:
            return t.gettext("{where}: the game ended, {secrets} of {n} seats published their "
                             "secrets").format(where=where, secrets=secrets, n=n)
        return t.gettext("{where}: {signoffs} of {n} seats signed off the audit").format(
            where=where, signoffs=signoffs, n=n)


class _Lobby:
    """Fills in a verdict's game, options, seats, names and keys from the table's opening
    entries, and counts the entry kinds, as the audit reads them; stops quietly at the first
    entry it cannot read (a damaged file is reported by the audit itself)."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.kinds: Counter[str] = Counter()
        self.entries = 0
        self._lost = False

    def see(self, pos: int, raw: bytes) -> None:
        """Note the entry ``raw`` at log position ``pos`` (called in order)."""
        self.entries = pos + 1
        if not self._lost:
            self._lost = not self._note(raw)

    def _note(self, raw: bytes) -> bool:
        """Take what the verdict shows from one entry; ``False`` if it cannot be read."""
        verdict = self.verdict
        try:
            value = unpack(raw, len(raw))
        except ProtocolError:
            return False
        if not isinstance(value, dict) or not isinstance(value.get("body"), dict):
            return False
        kind, body, author = value.get("kind"), value["body"], value.get("author")
        if not isinstance(kind, str):
            return False
        self.kinds[kind] += 1
        verdict.last_kind = kind
        if kind in ("open", "join") and isinstance(body.get("name"), str):
            verdict.names.append(body["name"])
            verdict.keys.append(fingerprint(author) if isinstance(author, bytes) else "?")
            verdict.authors.append(author if isinstance(author, bytes) else b"")
        seat = body.get("seat")
        if kind == "kick" and isinstance(seat, int) and 0 < seat < len(verdict.names):
            del verdict.names[seat], verdict.keys[seat], verdict.authors[seat]  # move up
        if kind == "open":
            verdict.game = str(body.get("game", ""))
            opts, seats = body.get("options"), body.get("seats")
            verdict.options = opts if isinstance(opts, dict) else {}
            verdict.seats = seats if isinstance(seats, int) else 0
        return True


class Shows(Protocol):
    """Where an audit says how far it got: a status line
    (:class:`lanparty.commands.progress.Progress` is one)."""

    def show(self, text: str, *, force: bool = False) -> None:
        """Put ``text`` on the status line (``force``: now, however recently it was told)."""


class _Unseen:
    """Told how far an audit got, and shows nobody."""

    def show(self, text: str, *, force: bool = False) -> None:
        """Show nothing."""


def refusal_text(path: str, exc: ProtocolError, verdict: Verdict, t: Words = ENGLISH) -> str:
    """One line saying why ``path`` is not a valid transcript, naming the culprit if known
    (our words in ``t``'s language; the reason is the protocol's, in English)."""
    said = t.gettext("{path} is not a valid lanparty transcript: {reason}")
    if not isinstance(exc, RemoteProtocolError):
        return said.format(path=path, reason=exc.reason)
    where = []
    if exc.pos is not None:
        where.append(t.gettext("log position {pos}").format(pos=exc.pos))
    if exc.seat is not None:
        who = verdict.name(exc.seat)
        where.append(t.gettext("seat {seat} ({name})").format(name=who, seat=exc.seat) if who
                     else t.gettext("seat {seat}").format(seat=exc.seat))  # fmt: skip
    if exc.culprit:
        where.append(t.gettext("key {key}").format(key=exc.culprit))
    suffix = f" [{', '.join(where)}]" if where else ""
    return said.format(path=path, reason=exc.reason) + suffix


def too_large(path: str, size: int | None = None) -> str:
    """The one-line refusal of a file over :data:`MAX_TRANSCRIPT` (of ``size`` bytes if known)."""
    limit = _("{mib} MiB ({n} bytes)").format(mib=MAX_TRANSCRIPT >> 20, n=MAX_TRANSCRIPT)
    if size is None:
        said = _("{path} is too large for a lanparty transcript: over the limit of {limit}")
        return said.format(path=path, limit=limit)
    said = _("{path} is too large for a lanparty transcript: {size} bytes, the limit is {limit}")
    return said.format(path=path, size=size, limit=limit)


def _audit(
    path: str,
    file: BinaryIO,
    lobby: _Lobby,
    games: Mapping[str, Game[Any]],
    progress: Shows,
    also: Callable[[int, bytes], None] | None = None,
) -> AuditReport:
    """Audit the open ``file``: a regular file is refused by its size before it is read,
    then streamed; anything else (a pipe) is read whole, up to the limit. Raises
    :class:`NetError` for a file that cannot be audited, ``ProtocolError`` for one that
    does not verify."""
    info = os.fstat(file.fileno())
    source: bytes | BinaryIO = file
    size = 0  # known for a regular file only: the progress shown is a share of it
    if stat.S_ISREG(info.st_mode):
        if info.st_size > MAX_TRANSCRIPT:
            raise NetError(too_large(path, info.st_size))
        size = info.st_size
        empty = size == 0
    else:
        source = file.read(MAX_TRANSCRIPT + 1)
        if len(source) > MAX_TRANSCRIPT:
            raise NetError(too_large(path))
        empty = not source
    if empty:
        raise NetError(_("{path} is empty, not a lanparty transcript").format(path=path))
    name = os.path.basename(path)
    progress.show(_("auditing {name}: reading…").format(name=name), force=True)

    def seen(pos: int, raw: bytes) -> None:
        lobby.see(pos, raw)
        if also is not None:
            also(pos, raw)
        n = pos + 1
        said = (ngettext("auditing {name}: {percent}%, {n} entry checked…",
                         "auditing {name}: {percent}%, {n} entries checked…", n) if size
                else ngettext("auditing {name}: {n} entry checked…",
                              "auditing {name}: {n} entries checked…", n))  # fmt: skip
        percent = 100 * file.tell() // size if size else 0  # a pipe cannot tell where it is
        progress.show(said.format(name=name, percent=percent, n=n))

    try:
        return audit_transcript(source, games, seen=seen)
    except VersionMismatchError as exc:  # not a forgery: a file this program cannot read
        raise NetError(f"{path}: {said(exc.reason)}") from None


def audit_file(
    path: str,
    games: Mapping[str, Game[Any]] = GAMES,
    progress: Shows | None = None,
    seen: Callable[[int, bytes], None] | None = None,
) -> Verdict:
    """Audit the transcript at ``path``, reading it a chunk at a time (``progress`` says
    how far it got; ``seen(pos, raw)`` is told each entry before it is replayed). A file
    that does not verify (not a transcript, or an entry forged, damaged, out of place or
    illegal) gives a verdict with ``error`` set.

    Raises :class:`NetError` with a one-line reason if the file cannot be read, is empty, is
    larger than :data:`MAX_TRANSCRIPT` (refused before it is read) or of another version.
    """
    verdict = Verdict(path)
    lobby = _Lobby(verdict)
    watched = {name: _Watched(game) for name, game in games.items()}
    try:
        with open(path, "rb") as file:
            report = _audit(path, file, lobby, watched, progress or _Unseen(), seen)
    except OSError as exc:
        raise NetError(
            _("cannot read {path}: {error}").format(path=path, error=exc.strerror or exc)
        ) from None
    except ProtocolError as exc:
        verdict.entries, verdict.kinds = lobby.entries, dict(lobby.kinds)
        verdict.error = refusal_text(path, exc, verdict)
        verdict.refused = exc
        verdict.error_pos = exc.pos if isinstance(exc, RemoteProtocolError) else None
        return verdict
    verdict.entries = lobby.entries
    verdict.kinds = dict(lobby.kinds)
    verdict.complete = report.complete
    verdict.waiting = report.waiting
    verdict.table_id, verdict.closing = report.table_id, report.closing
    verdict.night = report.table_open.night if report.table_open is not None else None
    verdict.findings = [f for f in report.findings if f.rule != _NOT_AUDITED or f.seat >= 0]
    game = watched.get(verdict.game)
    verdict.outcome = game.final() if game is not None else None
    return verdict

"""``lanparty audit FILE``: re-verify a saved transcript offline and print the verdict.

The verdict is :func:`protocol.audit_transcript`'s, which replays the file as a spectator and
re-checks every signature, relay signature, chain link, proof, share, coin and move, then
runs the end-of-game audit. This module only opens the file (one over :data:`MAX_TRANSCRIPT`
is refused by its size, unread; the protocol reads the rest a chunk at a time), watches the
replay through the game contract (to tell the outcome) and describes the result; on a
terminal a status line on stderr says how far the replay got. Exit statuses:

- 0 (:data:`EXIT_PASSED`) the audit passed: complete, every seat signed off, every signature,
  proof, share and move checked; a rule broken that nobody challenged during play (a bluffed
  Wild Draw Four) is listed — the same verdict every peer reaches at the table;
- 1 (:data:`EXIT_FAILED`) the audit failed: an entry is forged, damaged, out of place or
  breaks a rule (named with its log position), or the file is not a transcript at all;
- 2 the file cannot be audited: missing, unreadable, empty, over the size limit, or of
  another version (:class:`lanparty.errors.NetError`, one line);
- 3 (:data:`EXIT_INCOMPLETE`) incomplete: every entry in the file verified, but the log stops
  before the end — the table stopped (someone left, vanished or stalled) or the file was cut.
  The log does not say why (the host's halt is not a signed entry), but it says where it
  stopped and whose entry the table was waiting for.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from crypto import fingerprint
from lanparty.errors import NetError
from lanparty.games import GAMES
from lanparty.progress import Progress
from lanparty.text import printable
from protocol import (
    AuditReport,
    Finding,
    ProtocolError,
    RemoteProtocolError,
    VersionMismatchError,
    audit_transcript,
    unpack,
)
from protocol._log import MAX_TRANSCRIPT
from protocol.contract import Game, Outcome, Plain

__all__ = [
    "EXIT_FAILED",
    "EXIT_INCOMPLETE",
    "EXIT_PASSED",
    "MAX_TRANSCRIPT",
    "Verdict",
    "audit_file",
    "run_audit",
    "too_large",
    "verdict_json",
]
EXIT_PASSED, EXIT_FAILED, EXIT_INCOMPLETE = 0, 1, 3
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

    def stopped(self) -> str:
        """Where an incomplete log stops, and whose entry the table was waiting for."""
        n = self.entries
        if self.waiting is None:
            where = "before the seats were fixed" if self.outcome is None else "no entry due"
            return f"stopped at entry {n}, {where}"
        seat, owed = self.waiting
        who = f"{self.name(seat)} (seat {seat})" if self.name(seat) else f"seat {seat}"
        return f"stopped at entry {n}, waiting for {who}'s {_OWED.get(owed, owed)}"

    def name(self, seat: int) -> str | None:
        """The name at ``seat``, if known."""
        return self.names[seat] if 0 <= seat < len(self.names) else None

    def stage(self) -> str:
        """Where the table stands: closed, or how far it got before the file ends."""
        n = len(self.names)
        if self.complete:
            return f"closed: all {n} seats signed off the audit"
        where = f"stopped early after {self.entries} entries (the last one a {self.last_kind!r})"
        if self.outcome is None:
            return f"{where}: the seats were never fixed"
        if not self.outcome.finished:
            return f"{where}: the game did not end"
        secrets, signoffs = self.kinds.get("secrets", 0), self.kinds.get("signoff", 0)
        if secrets < n:
            return f"{where}: the game ended, {secrets} of {n} seats published their secrets"
        return f"{where}: {signoffs} of {n} seats signed off the audit"


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
        if kind == "open":
            verdict.game = str(body.get("game", ""))
            opts, seats = body.get("options"), body.get("seats")
            verdict.options = opts if isinstance(opts, dict) else {}
            verdict.seats = seats if isinstance(seats, int) else 0
        return True


#: What a seat owes, in words (``Table.waiting_on``'s kinds).
_OWED = {
    "key": "key share", "shuffle": "shuffle", "shares": "decryption shares",
    "coin_commit": "coin commitment", "coin_open": "coin opening", "show": "shown hand",
    "show_ack": "acknowledgement", "seal_commit": "sealed move", "seal_open": "opening",
    "secrets": "audit secrets", "signoff": "sign-off", "move": "move",
}  # fmt: skip


def _refusal(path: str, exc: ProtocolError, verdict: Verdict) -> str:
    """One line saying why ``path`` is not a valid transcript, naming the culprit if known."""
    if not isinstance(exc, RemoteProtocolError):
        return f"{path} is not a valid lanparty transcript: {exc.reason}"
    where = []
    if exc.pos is not None:
        where.append(f"log position {exc.pos}")
    if exc.seat is not None:
        who = verdict.name(exc.seat)
        where.append(f"seat {exc.seat}" + (f" ({who})" if who else ""))
    if exc.culprit:
        where.append(f"key {exc.culprit}")
    suffix = f" [{', '.join(where)}]" if where else ""
    return f"{path} is not a valid lanparty transcript: {exc.reason}{suffix}"


def too_large(path: str, size: int | None = None) -> str:
    """The one-line refusal of a file over :data:`MAX_TRANSCRIPT` (of ``size`` bytes if known)."""
    limit = f"{MAX_TRANSCRIPT >> 20} MiB ({MAX_TRANSCRIPT} bytes)"
    if size is None:
        return f"{path} is too large for a lanparty transcript: over the limit of {limit}"
    return f"{path} is too large for a lanparty transcript: {size} bytes, the limit is {limit}"


def _audit(
    path: str,
    file: BinaryIO,
    lobby: _Lobby,
    games: Mapping[str, Game[Any]],
    progress: Progress,
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
        raise NetError(f"{path} is empty, not a lanparty transcript")
    name = os.path.basename(path)
    progress.show(f"auditing {name}: reading…", force=True)

    def seen(pos: int, raw: bytes) -> None:
        lobby.see(pos, raw)
        if also is not None:
            also(pos, raw)
        done = f"{100 * file.tell() // size}%, " if size else ""
        progress.show(f"auditing {name}: {done}{pos + 1} entries checked…")

    try:
        return audit_transcript(source, games, seen=seen)
    except VersionMismatchError as exc:  # not a forgery: a file this program cannot read
        raise NetError(f"{path}: {exc.reason}") from None


def audit_file(
    path: str,
    games: Mapping[str, Game[Any]] = GAMES,
    progress: Progress | None = None,
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
            report = _audit(path, file, lobby, watched, progress or Progress(io.StringIO()), seen)
    except OSError as exc:
        raise NetError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ProtocolError as exc:
        verdict.entries, verdict.kinds = lobby.entries, dict(lobby.kinds)
        verdict.error = _refusal(path, exc, verdict)
        verdict.error_pos = exc.pos if isinstance(exc, RemoteProtocolError) else None
        return verdict
    verdict.entries = lobby.entries
    verdict.kinds = dict(lobby.kinds)
    verdict.complete = report.complete
    verdict.waiting = report.waiting
    verdict.findings = [f for f in report.findings if f.rule != _NOT_AUDITED or f.seat >= 0]
    game = watched.get(verdict.game)
    verdict.outcome = game.final() if game is not None else None
    return verdict


def verdict_json(v: Verdict) -> dict[str, Any]:
    """The verdict as one JSON-ready object (``--json``)."""
    out = v.outcome
    return {
        "file": v.path,
        "game": v.game,
        "options": v.options,
        "seats": v.seats,
        "names": v.names,
        "keys": v.keys,
        "entries": v.entries,
        "kinds": v.kinds,
        "complete": v.complete,
        "stage": v.stage(),
        "game_over": bool(out and out.finished),
        "scores": list(out.totals) if out else [],
        "rounds": [list(r) for r in out.rounds] if out else [],
        "winners": [v.name(w) or w for w in out.winners] if out else [],
        "findings": [_finding_json(v, f) for f in v.findings],
        "audit_ok": v.passed,
        "verdict": v.status,
        "stopped": None if v.complete or v.error else v.stopped(),
        "waiting_for": _waiting_json(v),
        "error": v.error or None,
        "error_pos": v.error_pos,
    }


def _waiting_json(v: Verdict) -> dict[str, Any] | None:
    if v.complete or v.error or v.waiting is None:
        return None
    seat, owed = v.waiting
    return {"seat": seat, "name": v.name(seat), "owed": owed}


def _finding_json(v: Verdict, f: Finding) -> dict[str, Any]:
    return {"pos": f.pos, "seat": f.seat, "name": v.name(f.seat), "rule": f.rule,
            "detail": f.detail}  # fmt: skip


def _finding_line(v: Verdict, f: Finding) -> str:
    who = f"seat {f.seat} ({v.name(f.seat)})" if v.name(f.seat) else "no seat"
    where = f"log position {f.pos}" if f.pos >= 0 else "no log position"
    return f"  - {f.rule}: {who}, {where}: {f.detail}"


def _option(value: Plain) -> str:
    """An option value as ``--option`` takes it (``rounds=1``, ``stacking=true``)."""
    return value if isinstance(value, str) else json.dumps(value, default=bytes.hex)


def verdict_text(v: Verdict) -> str:
    """The verdict for a human, several lines ending in ``audit passed`` or
    ``incomplete: stopped at entry N, waiting for …; everything up to there verified``."""
    opts = ", ".join(f"{k}={_option(val)}" for k, val in sorted(v.options.items()))
    seats = ", ".join(
        f"{i}: {n} [{k}]" for i, (n, k) in enumerate(zip(v.names, v.keys, strict=True))
    )
    lines = [
        f"transcript   {v.path}",
        f"game         {v.game} ({opts})" if opts else f"game         {v.game}",
        f"seats        {len(v.names)} of {v.seats}: {seats}",
        f"entries      {v.entries}",
        f"complete     {'yes' if v.complete else 'no'}: {v.stage()}",
    ]
    out = v.outcome
    if out is not None and out.finished:
        scores = ", ".join(f"{v.name(s)} {t}" for s, t in enumerate(out.totals))
        winners = ", ".join(v.name(w) or str(w) for w in out.winners)
        lines.append(f"outcome      winner: {winners}; scores: {scores}")
    elif out is not None:
        lines.append("outcome      none: the game did not end")
    if v.findings:
        lines.append(f"rules broken {len(v.findings)}, that nobody challenged:")
        lines.extend(_finding_line(v, f) for f in v.findings)
    elif v.complete or v.kinds.get("secrets", 0) >= len(v.names):
        lines.append("rules broken none")
    else:  # the secrets that open every hidden card were never published
        lines.append("rules broken none seen; the rules that depend on hidden cards could not "
                     "be checked (the game stopped before its audit)")  # fmt: skip
    if v.complete:
        lines.append("audit passed")
    else:
        lines.append("why          not in the log: the host's halt is not a signed entry (the "
                     "players were told who left, vanished or stalled)")  # fmt: skip
        lines.append(f"incomplete: {v.stopped()}; everything up to there verified")
    return "\n".join(lines)


def run_audit(args: argparse.Namespace) -> int:
    """``lanparty audit FILE [--json]``; the exit status is the verdict's (0 passed,
    1 failed, 3 incomplete: see the module's docstring). Raises :class:`NetError` for a
    file that cannot be audited (exit 2)."""
    with Progress() as progress:
        verdict = audit_file(args.file, progress=progress)
    if args.json:
        print(json.dumps(verdict_json(verdict)))
    elif verdict.error:
        print(printable(f"lanparty audit: FAILED: {verdict.error}"), file=sys.stderr)
    else:  # names and details come from the file: nothing in it may steer the terminal
        print("\n".join(printable(line) for line in verdict_text(verdict).splitlines()))
    return verdict.exit_code

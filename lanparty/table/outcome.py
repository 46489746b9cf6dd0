"""What a table leaves behind, and how it is told: the outcome a peer collects from its
protocol events (names, scores, moves, times, the audit), its JSON summary and its words.

Shared by every networked seat (:mod:`.hosting`, :mod:`.joining`, :mod:`.watching`) and
``lanparty demo``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

import trio

from lanparty.errors import NetError
from lanparty.games.bots import bot_label
from lanparty.i18n import _, ngettext
from lanparty.interrupt import call_on_ctrl_c
from lanparty.night import (
    GameResult,
    kept_nights,
    night_line,
    night_link,
    placing_points,
    record,
    saved_when,
)
from lanparty.store import save_transcript
from lanparty.table.stopwords import blamed, name_refused
from lanparty.table.stopwords import said as stop_said
from lanparty.text import printable, printable_lines
from lanparty.trace import Tracer
from protocol import (
    Answered,
    Applied,
    Event,
    GameEnded,
    Host,
    Joined,
    Peer,
    Refused,
    Rejected,
    SeatAsked,
    SeatDenied,
    SeatsFixed,
    Stopped,
    TableClosed,
    TooFew,
)
from protocol.contract import Outcome as GameOutcome

__all__ = [
    "NotSeated",
    "Outcome",
    "answer_line",
    "event_sink",
    "finish",
    "leave_on_ctrl_c",
    "name_at",
    "note_table",
    "refusal_line",
    "report",
    "say",
    "seat_levels",
    "summary",
    "verdict",
]


@dataclass
class Outcome:
    """What a finished (or stopped) table leaves behind, for the summary and exit code."""

    names: tuple[str, ...] = ()
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    audit_ok: bool = False
    stopped: str = ""
    findings: list[str] = field(default_factory=list)
    transcript: str = ""
    moves: int = 0
    rounds: int = 0
    #: Per seat: rounds it won (the best score of the round), and races it won (moves it made
    #: while other seats could move too, e.g. a KaTO call or catch): fairness, measured.
    rounds_won: list[int] = field(default_factory=list)
    races_won: list[int] = field(default_factory=list)
    #: Seconds from the start of this process to: every seat taken, the first move, the
    #: game's end, the table closed.
    times: dict[str, float] = field(default_factory=dict)
    #: The user pressed Ctrl-C: a headless peer left the table then, as a person who quits.
    interrupted: bool = False
    #: Why a joiner never got a seat (the host's refusal, a wrong key…), in English; "" once
    #: it had one. Such a join keeps no transcript: there was no game of ours.
    refused: str = ""
    #: Where the joiner dialled (``HOST:PORT``) and the key that opened the table there, if
    #: it got that far: another try (under another name) goes to the very same table.
    where: str = ""
    opener: str = ""
    #: A spectator's outcome (``lanparty watch``): it watched, it did not join.
    spectator: bool = False
    #: The game, its number in the night (1: the first) and its table id (hex).
    game: str = ""
    number: int = 1
    table: str = ""
    #: (A host) connections accepted over the night so far; (a joiner) connections made
    #: to the host: a night plays every game on the same one.
    connections: int = 0
    #: The transcripts of the night's earlier games, and whether any of them failed (its
    #: audit, or it stopped): the exit status says so too.
    earlier: list[str] = field(default_factory=list)
    earlier_failed: bool = False
    #: The night's board in a line once the game is counted in it (:mod:`lanparty.night`).
    night: str = ""
    #: The bots this program plays (its own seat's, a host's it started) by key
    #: fingerprint: each one's level. The same over a night.
    bot_levels: dict[str, str] = field(default_factory=dict)
    #: Per seat once the seats are fixed: the level of the bot there if it is one of
    #: :attr:`bot_levels`, else ``None`` (a person, or another program's bot).
    levels: list[str | None] = field(default_factory=list)

    def next_game(self, counted: bool = True) -> None:
        """The night goes on: this outcome is the next game's from here (what it said of
        the game just played is kept as an earlier game's; not ``counted``: it was a table
        whose game never began, too few stayed for it, and it counts for nothing)."""
        failed = self.earlier_failed or (counted and (not self.audit_ok or bool(self.stopped)))
        kept = {"where": self.where, "opener": self.opener, "spectator": self.spectator,
                "connections": self.connections, "number": self.number + int(counted),
                "earlier": [*self.earlier, *([self.transcript] if self.transcript else [])],
                "earlier_failed": failed, "bot_levels": self.bot_levels}  # fmt: skip
        for f in fields(self):
            value = f.default_factory() if f.default_factory is not MISSING else f.default
            setattr(self, f.name, kept.get(f.name, value))


class NotSeated(NetError):  # noqa: N818 - names what happened
    """A person's join that never got a seat: the line says why (``out.refused``, in the
    reader's words); ``out`` holds where it was, to try again."""

    def __init__(self, out: Outcome) -> None:
        super().__init__(refusal_line(out))
        self.out = out

    @property
    def name_refused(self) -> bool:
        """True if the host refused the name we asked for (taken, or too like one taken):
        another name may get in."""
        return name_refused(self.out.refused)


def refusal_line(out: Outcome) -> str:
    """Why ``out``'s join got no seat (a spectator's watch was refused), in one line in the
    reader's words."""
    line = _("could not watch: {why}") if out.spectator else _("could not join: {why}")
    return line.format(why=stop_said(out.refused))


_STARTED = time.monotonic()


def _count(tally: list[int], seat: int) -> None:
    """One more for ``seat`` in a per-seat tally (grown as needed)."""
    tally.extend([0] * (seat + 1 - len(tally)))
    tally[seat] += 1


def _seat_name(out: Outcome, seat: int) -> str:
    name = out.names[seat] if 0 <= seat < len(out.names) else "?"
    return f"{name} (seat {seat})"


def say(quiet: bool, text: str) -> None:
    if not quiet:
        print(printable(text), file=sys.stderr, flush=True)


def teller(note: Callable[[str], None] | None, quiet: bool) -> Callable[[str], None]:
    """Where a line for the player goes: ``note`` (a seat's log), else stderr unless
    ``quiet``; the network layer's English words (a notice) in the reader's language."""
    if note is not None:
        return lambda text: note(stop_said(text))
    return lambda text: say(quiet, stop_said(text))


def name_at(party: Host | Peer | None) -> Callable[[int], str | None]:
    """The name at a seat of ``party``'s table (``None`` for an empty seat, or no party)."""

    def name(seat: int) -> str | None:
        member = party.table.member_at(seat) if party is not None else None
        return member.name if member is not None else None

    return name


def event_sink(  # noqa: C901
    out: Outcome, quiet: bool, tracer: Tracer, party: Host | Peer | None = None
) -> Any:
    """A protocol event sink that fills ``out`` (and says what happens unless ``quiet``);
    ``party``'s table names the seats an error blames."""
    name_of = name_at(party)

    def mark(what: str) -> None:
        out.times.setdefault(what, round(time.monotonic() - _STARTED, 3))

    def sink(event: Event) -> None:
        if isinstance(event, Applied):
            tracer.record("applied", pos=event.pos, seat=event.seat, kind=event.kind)
            if event.kind == "move":
                out.moves += 1
                mark("first_move")
            if event.contested and event.seat is not None:
                _count(out.races_won, event.seat)
        elif isinstance(event, Joined):
            name = bot_label(event.name, out.bot_levels.get(event.fingerprint))
            say(quiet, _("seat {seat}: {name} joined  [key {key}]").format(
                seat=event.seat, name=name, key=event.fingerprint))  # fmt: skip
        elif isinstance(event, SeatsFixed):
            out.names = event.names
            out.levels = seat_levels(party, out.bot_levels, len(event.names))
            mark("seated")
            tracer.record("seats", n=len(event.names))
            names = ", ".join(map(bot_label, event.names, out.levels))
            say(quiet, _("seats fixed: {names}; shuffling…").format(names=names))
        elif isinstance(event, GameEnded):
            out.totals, out.winners = event.outcome.totals, event.outcome.winners
            out.rounds = len(event.outcome.rounds)
            for scores in event.outcome.rounds:
                best = max(scores, default=0)
                for seat, score in enumerate(scores):  # the best, unless all did as well
                    if score == best and min(scores) < best:
                        _count(out.rounds_won, seat)
            mark("over")
            tracer.record("over")
            say(quiet, _("game over; auditing the transcript…"))
        elif isinstance(event, TableClosed):
            mark("closed")
            out.findings = [
                f"{f.rule} by {_seat_name(out, f.seat)} at entry {f.pos}"
                for f in event.report.findings
            ]
            # Complete: every seat signed the same verdict over the whole transcript. Findings
            # (an unchallenged bluff, say) are reported, not a failure of the audit itself.
            out.audit_ok = event.report.complete
        elif isinstance(event, Stopped):
            out.stopped = blamed(event.error, name_of)
        elif isinstance(event, Refused) and event.fatal:
            out.stopped = f"refused by the host: {event.reason}"
        elif isinstance(event, Answered | TooFew | SeatAsked | SeatDenied):
            say(quiet, answer_line(event))
        elif isinstance(event, Rejected):  # the host refused an entry, naming its author
            error = stop_said(blamed(event.error, name_of))
            say(quiet, _("refused an entry: {error}").format(error=error))

    return sink


def seat_levels(
    party: Host | Peer | None, bot_levels: dict[str, str], seats: int
) -> list[str | None]:
    """Per seat of ``party``'s table (``seats`` of them), the level ``bot_levels`` gives the
    key seated there (``None``: a person, another program's bot, or a table not known)."""
    members = party.table.members if party is not None else []
    if len(members) != seats:
        return [None] * seats
    return [bot_levels.get(m.fingerprint) for m in members]


def answer_line(event: Answered | TooFew | SeatAsked | SeatDenied) -> str:
    """What the host is told of an answer to its offer of the next game, that too few
    stayed for it, or of a spectator asking for a free seat, in the reader's words."""
    if isinstance(event, TooFew):
        return _("too few players stayed for {game}: {n} of the {m} it needs").format(
            game=event.game, n=event.seated, m=event.needed)  # fmt: skip
    if isinstance(event, SeatAsked):
        return _("{name} (watching, key {key}) asks for a free seat").format(
            name=printable(event.name), key=event.fingerprint)  # fmt: skip
    if isinstance(event, SeatDenied):
        who = printable(event.name) if event.name else _("a spectator")
        why = stop_said(event.reason)
        return _("{name} keeps watching: {reason}").format(name=who, reason=why)
    said = _("{name} stays for the next game") if event.stays else _("{name} leaves the table")
    return said.format(name=printable(event.name))


def summary(out: Outcome) -> dict[str, Any]:
    """The JSON summary a table prints (``--json``)."""
    return {
        "names": list(out.names),
        "scores": list(out.totals),
        "winners": [out.names[w] if w < len(out.names) else w for w in out.winners],
        "audit_ok": out.audit_ok,
        "findings": out.findings,
        "stopped": out.stopped,
        "refused": out.refused,
        "transcript": out.transcript,
        "night": out.night,
        "moves": out.moves,
        "rounds": out.rounds,
        "rounds_won": _per_seat(out, out.rounds_won),
        "races_won": _per_seat(out, out.races_won),
        "times_s": out.times,
        "game": out.game,
        "number": out.number,
        "table": out.table,
        "connections": out.connections,
        "levels": out.levels or [None] * len(out.names),
    }


def _per_seat(out: Outcome, tally: list[int]) -> list[int]:
    """``tally`` with a count for every seat (zeros for seats that won none)."""
    return [*tally, *[0] * (len(out.names) - len(tally))]


def report(out: Outcome, *, as_json: bool = False) -> int:
    """Print the outcome (``as_json``: its summary as one JSON line); the exit code is 0
    only if the audit passed."""
    if as_json:
        print(json.dumps(summary(out)))
    elif out.refused:
        print(printable(refusal_line(out)), file=sys.stderr)
    elif out.stopped:
        said = (_("the game stopped: {why} (transcript: {path})") if out.transcript
                else _("the game stopped: {why}"))  # fmt: skip
        print(printable(said.format(why=stop_said(out.stopped), path=out.transcript)),
              file=sys.stderr)  # fmt: skip
    else:
        print(printable_lines(verdict(summary(out)).removesuffix("\n")))
    return 0 if out.audit_ok and not out.stopped and not out.earlier_failed else 1


def verdict(s: dict[str, Any]) -> str:
    """A table's outcome in a few lines: scores, winner, moves, timings, the audit."""
    scores = ", ".join(f"{n} {p}" for n, p in zip(s["names"], s["scores"], strict=False))
    times = s.get("times_s", {})
    winners = "-"
    for i, name in enumerate(map(str, s["winners"])):
        winners = name if i == 0 else _("{first} and {last}").format(first=winners, last=name)
    moves = ngettext("{n} move", "{n} moves", s["moves"]).format(n=s["moves"])
    rounds = ngettext("in {n} round", "in {n} rounds", s["rounds"]).format(n=s["rounds"])
    lines = [_("scores: {scores}").format(scores=scores),
             _("winner: {winners} · {moves} {rounds}").format(
                 winners=winners, moves=moves, rounds=rounds)]  # fmt: skip
    if {"seated", "first_move", "over", "closed"} <= times.keys():
        lines.append(_("times: shuffle and deal {deal:.1f} s, play {play:.1f} s, audit "
                       "{audit:.1f} s").format(deal=times["first_move"] - times["seated"],
                                               play=times["over"] - times["first_move"],
                                               audit=times["closed"] - times["over"]))  # fmt: skip
    if s["audit_ok"]:
        lines.append(_("audit passed: every signature, shuffle proof, deal and move verified"))
    else:
        lines.append(_("audit FAILED"))
    if s["findings"]:
        lines.append(_("rules broken that nobody challenged: {findings}").format(
            findings="; ".join(s["findings"])))  # fmt: skip
    if s["transcript"]:
        lines.append(_("transcript: {path}").format(path=s["transcript"]))
    if s.get("night"):
        lines.append(s["night"])
    return "\n".join(lines)


def finish(
    party: Host | Peer, out: Outcome, game: str, label: str,
    note: Callable[[str], None] | None = None,
) -> None:
    """Save ``party``'s transcript (its path goes to ``out``, with the game, its number in
    the night and its table) and count the game on the night's board: ``out.night`` is the
    night's board in a line, also told to ``note`` (the player's story), if the night is
    known here."""
    path = save_transcript(party.transcript(), game, label)
    out.transcript = str(path)
    note_table(party, out)
    out.night = _in_the_night(party, out, game, path)
    if out.night and note is not None:
        note(out.night)


def note_table(party: Host | Peer, out: Outcome) -> None:
    """Note ``party``'s game, its number in the night and its table id in ``out``."""
    t = party.table
    out.game = t.game.name if t.game is not None else out.game
    out.table = t.table_id.hex() if t.table_id is not None else out.table
    night = t.opening.night if t.opening is not None else None
    out.number = night.number if night is not None else out.number


def _in_the_night(party: Host | Peer, out: Outcome, game: str, path: Path) -> str:
    """Record ``party``'s game for the night's board, as its own end checked it (the
    audit's checks, made at the table: it counts if the table closed with its audit passed,
    for nothing if it stopped); the night's board in a line, or "" for a table that never
    got its seats."""
    table = party.table
    tid, opening = table.table_id, table.opening
    members = list(table.members)
    if tid is None or opening is None or not members:
        return ""
    first, number, after, digest = night_link(opening.night, tid)
    closing = table.closing
    ended = out.audit_ok and not out.stopped and closing is not None and bool(out.winners)
    points = (placing_points(GameOutcome(out.totals, (), out.winners, True))
              if ended and len(out.totals) == len(members) else None)  # fmt: skip
    record(GameResult(str(path), tid, game, first, number, after, digest, closing or b"",
                      tuple(m.name for m in members), tuple(m.key for m in members),
                      "passed" if ended else "incomplete", points, saved_when(path)),
           path)  # fmt: skip
    night = next((n for n in kept_nights() if n.first == first), None)
    return night_line(night) if night is not None else ""


def leave_on_ctrl_c(out: Outcome, leave: Any) -> None:
    """(trio) At the first Ctrl-C, note it in ``out`` and ``leave()`` the table (the host
    halts it for everyone, naming who left), instead of dropping every connection."""

    def interrupted() -> None:
        out.interrupted = True
        leave()

    trio.lowlevel.spawn_system_task(call_on_ctrl_c, interrupted)

"""A person's seat at a networked table: the ``TableSession`` the terminal UI drives, and the
``Driver`` the trio node feeds.

Both sides run on one thread (trio as a guest of the UI's asyncio loop), so the UI reads the
protocol object directly between trio steps. What the UI asks for crosses over through
``trio_token.run_sync_soon``; what the node learns reaches the UI through ``listen``'s
callback. The log is told from this seat's view only: moves (public) as they are applied,
table results from the change in the view (what this seat may know, nothing more).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress

import trio

from lanparty.games import narrator_for
from lanparty.games.bots import bot_label, forced_move
from lanparty.games.narration import GameNarrator
from lanparty.games.screens import GameScreen
from lanparty.i18n import _
from lanparty.table.hostseat import HostCommands
from lanparty.table.nighttalk import NightTalk
from lanparty.table.outcome import answer_line, seat_levels
from lanparty.table.stopwords import blamed, said
from lanparty.table.talk import Talk
from lanparty.table.waitscreen import WAITING, waiting_for
from lanparty.text import printable
from protocol import (
    Answered,
    Applied,
    Event,
    GameEnded,
    Host,
    JoinAsked,
    Joined,
    JoinWithdrawn,
    LocalProtocolError,
    MoveDropped,
    Peer,
    Phase,
    Refused,
    Rejected,
    Removed,
    Said,
    SeatAsked,
    SeatDenied,
    SeatsFixed,
    SitRefused,
    Stopped,
    TableClosed,
    TalkRefused,
    TooFew,
    Watcher,
    talk_problem,
)
from protocol.contract import Commit, IllegalMove, Move, Outcome, Plain, Seat, Turn

__all__ = ["NetSeat", "waiting_for"]

#: More new log lines than this at once (a resumed seat replaying the game) are cut to the
#: last ``_KEEP``: the story so far is in the transcript; the table is on screen.
_FLOOD, _KEEP = 60, 20


class NetSeat(NightTalk, HostCommands):
    """One person's seat: what they see, what they may do, and what they typed, queued.
    During a night, the same seat goes from one table to the next (:meth:`switch`)."""

    def __init__(self, party: Host | Peer) -> None:
        """A seat at ``party``'s table; its game is the one the table turns out to be (a
        joiner learns it from the table's opening entry)."""
        self._listeners: list[Callable[[], None]] = []
        self._poke: Callable[[], None] = lambda: None
        #: Trio's token, so the UI can hand work to the network side; set when trio starts.
        self.token: trio.lowlevel.TrioToken | None = None
        #: Called (in trio) when the player leaves before the table ends; the default
        #: cancels the network side.
        self.on_leave: Callable[[], None] | None = None
        #: Called (in trio) once the table is reachable; the terminal UI starts then.
        self.on_ready: Callable[[], None] = lambda: None
        self._lines: list[str | Talk] = []
        self._ended_lines: list[str | Talk] = []  # the game before's, not yet taken (a night)
        #: The bots this program plays (a host's it started) by key fingerprint: each
        #: one's level, which the players' list shows (the same over a night).
        self.bot_levels: dict[str, str] = {}
        self._init_night()
        self._sit(party)

    @property
    def table_name(self) -> str:
        """The table's name for the screen's header: the host's own, or as the host's
        challenge said it to a joiner or a spectator (checked there: "" if none, or none
        fit to show), as a peer's string (shown through ``printable``)."""
        return self.party.table_name

    def switch(self, party: Host | Peer, game: str | None = None) -> None:
        """(trio) The night goes on at ``party``'s table (the next game, ``game`` as offered
        until its opening entry comes): the same person, screen and connection, a new
        table."""
        self.number += 1
        self._ended_lines += self._lines
        self._lines = []
        self._sit(party, game)
        self._changed()

    def _sit(self, party: Host | Peer, game: str | None = None) -> None:
        """Take ``party``'s table (of ``game``, if known before its opening entry comes):
        everything this seat knew of a table starts anew."""
        self.party = party
        self._game_hint = game
        self.names: tuple[str, ...] = ()
        #: True for a spectator (:class:`protocol.Watcher`): no seat, no move, no hand.
        self.watching = isinstance(party, Watcher)
        self.seat: Seat | None = None if self.watching else 0
        self.ended = ""  # why the table ended for us, once it did
        self.audit = ""  # the audit's verdict in words, once known
        self._joined: dict[int, str] = {}
        self._narrator: GameNarrator | None = None
        self._queue: deque[Move] = deque()
        self._declined_at = -1
        self._offered: list[Move] = []  # the moves last offered to this seat
        self._view: dict[str, Plain] = {}
        self._view_started = False
        self._screen: GameScreen | None = None
        self._closes: tuple[int, float] | None = None  # a timed phase: (anchor, closes at)
        self._asked = False  # whether the screen was last told this seat may move
        if party.table.phase is not Phase.LOBBY and party.table.members:  # a restored table
            self.names = tuple(m.name for m in party.table.members)
            self.seat = self._my_seat()
            self._narrator = self._narrate()
            self._view_started = True
            self._view = party.view()

    def watch_again(self, party: Peer) -> None:
        """(trio) The seat we asked for as a spectator was refused: we watch the same table
        on (``party``, the spectator we were), the story and the screen as they are."""
        self.party = party
        self.watching = isinstance(party, Watcher)
        self.seat = self._my_seat()
        self._changed()

    # ------------------------------------------------------------------ driver side (trio)

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """The node runs: remember how to ask it for a turn from the UI's side."""
        self._poke = poke
        self._changed()

    def observe(self, event: Event) -> None:  # noqa: C901
        """Tell the log what happened; keep the view in step, entry by entry."""
        after = self.party.view()
        if isinstance(event, Joined):
            self._joined[event.seat] = event.name
            name = bot_label(event.name, self.bot_levels.get(event.fingerprint))
            self._lines.append(_("{name} joined (seat {seat})  key {key}").format(
                name=name, seat=event.seat, key=event.fingerprint))  # fmt: skip
        elif isinstance(event, Removed):
            self._joined = {i: m.name for i, m in enumerate(self.party.table.members)}
            self._lines.append(_(
                "{name} was removed from the table by the host; the seats after seat {seat} "
                "moved up one").format(name=event.name, seat=event.seat))  # fmt: skip
        elif isinstance(event, JoinAsked):
            asked = _("request {n}: {name} (key {key}) asks to join: type approve {n} or deny {n}")
            self._lines.append(asked.format(n=event.request, name=printable(event.name),
                                            key=event.fingerprint))  # fmt: skip
        elif isinstance(event, JoinWithdrawn):
            if event.replaced_by is None:
                line = _("request {n} ({name}, key {key}) is withdrawn: the connection ended")
            else:
                line = _("request {n} ({name}, key {key}) is withdrawn: the same key asks "
                         "again as request {m}")  # fmt: skip
            self._lines.append(line.format(n=event.request, name=printable(event.name),
                                           key=event.fingerprint, m=event.replaced_by))  # fmt: skip
        elif isinstance(event, SeatsFixed):
            self.names = event.names
            self.seat = self._my_seat()
            self._narrator = self._narrate()
            seats = ", ".join(self.listed)
            self._lines.append(_("Seats: {names}. The game is being set up…").format(names=seats))
        elif isinstance(event, Applied) and self._narrator is not None:
            n = self._narrator
            if event.move is not None and event.seat is not None:  # a move, or one opened
                n.narrate(event.seat, event.move, self._view or after, after)
            elif after:
                n.changes(self._view, after)
            self._lines.extend(n.lines)
            n.lines.clear()
        elif isinstance(event, GameEnded):
            self._lines.append(_("The game is over: every seat now opens its secrets "
                                 "for the audit…"))  # fmt: skip
        elif isinstance(event, TableClosed):
            report = event.report
            self.ended = "closed"
            if not report.complete:
                self.audit = _("Audit FAILED: the transcript is not complete")
            else:
                self.audit = _("Audit passed: every signature, shuffle proof, deal and move "
                               "checked")  # fmt: skip
            if report.findings:
                words = self.screen.humanize
                by = _("{rule} by {name}")
                broken = "; ".join(
                    by.format(rule=words(f.rule), name=self._name(f.seat)) for f in report.findings
                )
                self.audit += _(". Rules broken that nobody challenged: {broken}").format(
                    broken=broken
                )
            self._lines.append(self.audit)
        elif isinstance(event, Stopped):
            error = said(blamed(event.error, self._named))
            self.ended = _("The table stopped: {error}").format(error=error)
            self._lines.append(self.ended)
        elif isinstance(event, Refused):
            self._lines.append(_("The host refused: {reason}").format(reason=said(event.reason)))
            if event.fatal:
                self.ended = _("The host refused us: {reason}").format(reason=said(event.reason))
        elif isinstance(event, Rejected):
            error = said(blamed(event.error, self._named))
            self._lines.append(_("Refused an entry: {error}").format(error=error))
        elif isinstance(event, Answered | TooFew | SeatAsked | SeatDenied):  # the host's
            self._lines.append(answer_line(event))  # offer of the night's next game, answered
        elif isinstance(event, SitRefused):
            self._lines.append(_("The host gives you no seat: {reason}. You keep watching."
                                 ).format(reason=said(event.reason)))  # fmt: skip
        elif isinstance(event, Said):
            self._lines.append(Talk(event.name, event.text, event.seat is None,
                                    event.fingerprint == self._fingerprint()))  # fmt: skip
        elif isinstance(event, TalkRefused):
            self._lines.append(_("Not said: {reason}").format(reason=said(event.reason)))
        elif isinstance(event, MoveDropped) and event.outranked:
            self._lines.append(_("Too late: another move won the draw for this turn"))
        elif isinstance(event, MoveDropped):
            self._lines.append(_("Not played: the host took a move that ranks after yours in "
                                 "the draw (it says yours came too late)"))  # fmt: skip
        # The narrator starts from nothing: its first change is the first deal.
        self._view = after if self._narrator is not None and self._view_started else {}
        self._view_started = self._narrator is not None
        self._time_phase()
        self._changed()

    def _time_phase(self) -> None:
        """Start the countdown of a timed sealed phase when we first see it (the closer's
        program closes it by its own clock; ours can only be close to it)."""
        status = self.party.status() if self.names and not self.over() else None
        anchor = self.party.table.anchor
        if not isinstance(status, Commit) or status.timer <= 0 or anchor is None:
            self._closes = None
        elif self._closes is None or self._closes[0] != anchor:
            self._closes = (anchor, time.monotonic() + status.timer)

    def act(self, party: Host | Peer) -> bool:
        """Send the oldest move the person typed, once the protocol can take it; with none
        typed, the seat's forced move (the challenger's verdict), which nobody types. (Called
        after every input, events or none: whether this seat may move can change with no
        event — the proofs of the log checked beside it, a resumed seat back in step — and
        the screen is told then.)"""
        self._asked_now()
        if party.busy:
            return False
        if not self._queue:
            forced = self._forced()
            if forced is None:
                return False
            self._queue.append(forced)
        move = self._queue.popleft()
        try:
            party.play(move)
        except LocalProtocolError as exc:  # the table moved on since it was typed
            self._lines.append(_("Not played: {error}").format(error=exc))
            self._changed()
            return False
        return True

    def _asked_now(self) -> None:
        """Tell the screen if whether this seat may move changed since it was last told."""
        asked = self.may_move()
        if asked != self._asked:
            self._asked = asked
            self._changed()

    def may_talk(self) -> bool:
        """May this seat talk at the table: a seat always; a spectator only where the host
        said (in its challenge) that spectators may talk, and with a key and a name to talk
        with. (The host refuses a spectator's line anyway where they may not.)"""
        if not self.watching:
            return True
        party = self.party
        return isinstance(party, Peer) and party.spectators_talk and bool(self._fingerprint())

    def say(self, text: str) -> str:
        """Say ``text`` to the table (shown once the host relays it back); "" if it went,
        else why not, in the reader's words (a refusal that comes later is told in the
        story)."""
        if not self.may_talk():  # a spectator where spectators do not talk: nothing is sent
            return said("spectators may not talk at this table")
        text = text.strip()
        why = talk_problem(text)
        if why is not None:
            return said(why)
        if self.over():
            return _("the table has ended")
        if self.token is not None:
            self.token.run_sync_soon(self._say, text)
        return ""

    def _say(self, text: str) -> None:
        """(In trio) say ``text`` now, or tell why it cannot go."""
        self.party.tick(trio.current_time())
        try:
            self.party.say(text)
        except LocalProtocolError as exc:
            self._lines.append(_("Not said: {reason}").format(reason=said(exc.reason)))
            self._changed()
        self._poke()

    def _fingerprint(self) -> str:
        """The fingerprint our lines are signed with ("" for a spectator that cannot talk)."""
        if isinstance(self.party, Peer):
            return self.party.talk_fingerprint()
        return self.party.identity.public.fingerprint

    def note(self, line: str) -> None:
        """Add a line to the log (from the node: where the table is, what it waits for)."""
        self._lines.append(line)
        self._changed()

    def lost(self, reason: str) -> None:
        """The connection ended without the table closing (the node calls this)."""
        reason = said(reason)  # the network layer's words (it knows no language)
        if not self.ended:
            self.ended = reason
            self._lines.append(reason)
        self._changed()

    # ------------------------------------------------------------------ TableSession (UI)

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever something changed (from the node's side)."""
        self._listeners.append(callback)

    def advance(self) -> None:
        """Nothing to do: the table advances on its own, over the network."""

    def view(self) -> dict[str, Plain]:
        """This seat's view (``{}`` until the game starts)."""
        return self.party.view() if self.names else {}

    def legal_moves(self) -> list[Move]:
        """Moves this seat may make now; empty while a move of ours is on its way, and while
        the program is about to make a forced move itself."""
        if self._queue or self.party.busy or not self.names or self.over():
            return []
        if not self.party.may_move():
            return []
        legal = self.party.legal_moves()
        if forced_move(self.game_name, self.party.view(), legal) is not None:
            return []
        if legal:
            self._offered = legal
        return legal

    def _forced(self) -> Move | None:
        """The move this seat must make now and decides nothing about, if any."""
        if not self.names or self.over() or not self.party.may_move():
            return None
        status = self.party.status()
        if not isinstance(status, Turn) or status.seat != self.seat:
            return None
        return forced_move(self.game_name, self.party.view(), self.party.legal_moves())

    def can_decline(self) -> bool:
        """True while only out-of-turn moves are offered and not yet declined."""
        status = self.party.status()
        return (
            isinstance(status, Turn)
            and status.seat != self.seat
            and self._declined_at != len(self.party.table.log)
            and bool(self.legal_moves())
        )

    def decline(self) -> None:
        """Let the out-of-turn chance go (the table goes on without us either way)."""
        self._declined_at = len(self.party.table.log)

    def may_move(self) -> bool:
        """True when this seat is asked: its turn, an out-of-turn chance, or a sealed move to
        write (a game of free text may list no move at all)."""
        if self._queue or self.party.busy or not self.names or self.over():
            return False
        if not self.party.may_move() or self._forced() is not None:
            return False
        return not (isinstance(self.party.status(), Commit) and self.party.table.sealed_now())

    def submit(self, move: Move) -> None:
        """Queue ``move`` for the node; raise ``IllegalMove`` with the rules' reason if it is
        not legal now (nothing is sent then). The game's ``check`` judges it: a move need not
        be one the game can list (free text)."""
        if self.over():
            raise IllegalMove(_("the game is over"))
        if self.watching:
            raise IllegalMove(_("you are watching: a spectator makes no move"))
        game, state = self.party.table.game, self.party.table.state
        if not self.may_move() or game is None or state is None or self.seat is None:
            if move in self._offered:  # offered a moment ago (a chance out of turn, say)
                raise IllegalMove(_("too late: play has moved on"))
            raise IllegalMove(_("it is not your move"))
        try:
            move = game.moves.read(move)
            game.check(state, self.seat, move)
        except IllegalMove:
            raise
        except Exception as exc:  # a move the game cannot even decode
            raise IllegalMove(str(exc)) from None
        self._queue.append(move)
        if self.token is not None:
            self.token.run_sync_soon(self._poke)

    def deadline(self) -> float | None:
        """When (``time.monotonic()``) the timed sealed phase now under way closes, as far as
        we can tell (``timer`` seconds after we saw it begin), or once the game is over, when
        the offer of the next one is taken as a no; ``None`` if none is."""
        if self.over():
            return self.offer_deadline()
        return self._closes[1] if self._closes is not None else None

    def close_phase(self) -> str:
        """As the sealed phase's closer, end it now; "" if done, else why not."""
        if not self.party.closer():
            return _("you may not close this now")
        return self._run(self.party.close_phase)

    def take_log(self) -> list[str | Talk]:
        """Log lines since the last call, the game's and table talk (the last lines of the
        night's game before, alone, if some were not taken yet: the next game's story
        begins apart)."""
        if self._ended_lines:
            lines, self._ended_lines = self._ended_lines, []
        else:
            lines, self._lines = self._lines, []
        if len(lines) > _FLOOD:  # catching up on a long log (a resumed seat): the end only
            skipped = len(lines) - _KEEP
            told = _("… {n} earlier lines skipped (catching up)").format(n=skipped)
            lines = [told, *lines[-_KEEP:]]
        return [printable(line) if isinstance(line, str) else line for line in lines]

    def over(self) -> bool:
        """True once the table closed or stopped (or the connection is gone)."""
        return bool(self.ended) or self.party.phase in (Phase.CLOSED, Phase.STOPPED)

    def outcome(self) -> Outcome:
        """Scores so far; winners once the game is over."""
        game, state = self.party.table.game, self.party.table.state
        if game is None or state is None:
            return Outcome((), (), (), False)
        return game.outcome(state)

    def _run(self, action: Callable[[], None]) -> str:
        """Do ``action`` on the node's side (trio), then let it send what it made."""

        def go() -> None:
            with suppress(LocalProtocolError):  # the table moved on meanwhile
                action()
            self._poke()

        if self.token is not None:
            self.token.run_sync_soon(go)
        return ""

    def status_line(self) -> str:
        """What the table is doing now, in a few words (for the bottom bar)."""
        return printable(self._status())

    def _status(self) -> str:
        t = self.party.table
        if self.over():
            night = self.night_status()
            if night:
                return night
            return self.ended if self.ended != "closed" else _("game over")
        if t.phase is Phase.LOBBY:
            capacity = getattr(t, "capacity", 0)
            line = _("waiting for players: {n} of {seats} seated").format(
                n=len(t.members), seats=capacity
            )
            asking = self.party.asking() if isinstance(self.party, Host) else []
            if asking:
                names = ", ".join(f"{n} {who}" for n, who, _fp in asking)  # by number
                line += _("; asking to join: {names}").format(names=names)
            if isinstance(self.party, Host) and t.game and len(t.members) >= t.game.min_seats:
                line += _(" (type start to begin now)")
            return line
        status = self.party.status()
        if isinstance(status, Commit):
            if self.seat in status.seats and not t.sealed_now():
                # A game with an editor asks for words; any other for a move laid face down.
                editor = hasattr(self.screen, "editor")
                return _("your turn to write") if editor else _("your move")
            if t.sealed_now():  # ours may not be logged yet: we wait for the others only
                others = ", ".join(self._name(s) for s in status.seats if s != self.seat)
                if not others:
                    return _("handed in")
                return _("handed in; waiting for {names}").format(names=others)
            names = ", ".join(self._name(s) for s in status.seats)
            # a sealed phase we take no part in
            return _("waiting for {names} to seal a move").format(names=names)
        waiting = t.waiting_on()
        if waiting is None:
            return ""
        seat, kind = waiting
        n = len(t.members)
        if kind == "shuffle":
            return _("seat {seat} of {n} ({name}) shuffling and proving…").format(
                seat=seat + 1, n=n, name=self._name(seat)
            )
        if kind == "move":
            return self._turn_status(seat)
        if kind in ("secrets", "signoff"):
            return _("auditing the game…")
        if kind == "shares":
            return _("dealing…")
        return waiting_for(self.party, seat, kind)

    def _turn_status(self, seat: Seat) -> str:
        """Whose move the table waits for, from this seat's side."""
        if self.legal_moves():
            return _("your move") if seat == self.seat else _("you may move now, out of turn")
        if seat == self.seat:  # ours, sent and not yet on the table
            return _("your move is on its way…")
        return _("{name} to play").format(name=self._name(seat))

    # ------------------------------------------------------------------ helpers

    def _my_seat(self) -> Seat | None:
        """Our seat (``None`` for a spectator; 0 for a peer the table filled without)."""
        return self.party.seat if self.watching else (self.party.seat or 0)

    def _named(self, seat: Seat) -> str | None:
        """The name at ``seat`` as the table holds it (``None`` for an empty seat)."""
        member = self.party.table.member_at(seat)
        return member.name if member is not None else None

    def _name(self, seat: Seat) -> str:
        if seat == self.seat and self.names:
            return _("you")
        return self._joined.get(seat) or (self.names[seat] if seat < len(self.names) else "?")

    @property
    def listed(self) -> tuple[str, ...]:
        """The names as the players' list shows them, in seat order: each bot of
        :attr:`bot_levels` with its level ("Bea (bot, hard)"), anyone else by name."""
        levels = seat_levels(self.party, self.bot_levels, len(self.names))
        return tuple(map(bot_label, self.names, levels))

    def _narrate(self) -> GameNarrator:
        return narrator_for(self.game_name, self.seat, self.names, lambda: self.party.table.state)

    @property
    def game_name(self) -> str:
        """The table's game (``"table"`` until it is known)."""
        game = self.party.table.game
        return game.name if game is not None else (self._game_hint or "table")

    @property
    def screen(self) -> GameScreen:
        """The game's part of the screen, made once the game is known (a placeholder until
        then): one per seat, so it may remember what it showed."""
        if self._screen is not None:
            return self._screen
        from lanparty.games import PLUGINS

        plugin = PLUGINS.get(self.game_name)
        if plugin is None:
            return WAITING
        self._screen = plugin.screen()
        return self._screen

    def _changed(self) -> None:
        for callback in self._listeners:
            callback()

"""The host's side of a night (docs/app.md, "A night at one table"): once a table has ended,
what the host chooses next — ``again``, ``next GAME`` typed at the end screen, or the next
item of ``--then`` — becomes the next table, offered over the same connections
(:class:`~lanparty.net.server.HostServer` does the offering). Each table keeps its own
transcript, outcome and saved state; the players who stay sit in their old order.

A headless host without ``--then`` ends the night with its first game, as a host always did.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import trio

from lanparty.games import GAMES
from lanparty.i18n import _
from lanparty.net.server import HostServer, NextTable
from lanparty.store import forget_seat
from lanparty.table.botseat import bot_driver
from lanparty.table.friendly import record_table
from lanparty.table.keeping import keep_host, keeping_sealed
from lanparty.table.networked import NetSeat
from lanparty.table.nightplan import NightGame, read_choice, read_then, seats_for, then_choice
from lanparty.table.outcome import Outcome, event_sink, finish, report
from lanparty.table.plan import TablePlan
from lanparty.trace import Tracer
from protocol import Event, Host, LocalProtocolError, TooFew, next_link

__all__ = ["HostNight"]


class HostNight:
    """What a host does between the games of a night: keep what the game left, choose the
    next game, open its table linked to the one before."""

    def __init__(
        self,
        plan: TablePlan,
        server: HostServer,
        seat: NetSeat | None,
        out: Outcome,
        *,
        first: NightGame,
        name: str,
        endpoint: str,
        tracer: Tracer,
        tell: Callable[[str], None],
    ) -> None:
        """``first``: the night's first game; ``name``: the table's name (its transcripts'
        label); ``endpoint``: where it listens (kept with each table for ``--resume``).
        Raises ``ValueError`` for a bad ``plan.then``."""
        self.plan, self.server, self.seat, self.out = plan, server, seat, out
        self.last, self.name, self.endpoint = first, name, endpoint
        self.tracer, self.tell = tracer, tell
        self.then = read_then(plan.then or "")
        self._choices, self._chosen = trio.open_memory_channel[NightGame](math.inf)
        self._nursery: trio.Nursery | None = None
        self._done: set[bytes] = set()  # tables whose outcome is kept already
        if seat is not None:
            seat.on_next = self._typed
            seat.night_open = True

    def start(self, nursery: trio.Nursery) -> None:
        """Serve the night: the server asks for each next table; a table too few stay for
        is halted in ``nursery``."""
        self._nursery = nursery
        self.server.night = self.next_table

    def end(self) -> None:
        """The host ends the night (it quits at the end screen): no next table."""
        self._choices.close()
        if self.seat is not None:
            self.seat.night_open = False

    # ------------------------------------------------------------------ choosing

    def _typed(self, text: str) -> str:
        """(The UI) ``again`` or ``next GAME …`` typed at the end screen: "" once handed to
        the night, else why not (in the reader's words)."""
        try:
            choice = read_choice(text, self.last)
            seats_for(choice.game, self._players(), choice.options)
        except ValueError as exc:
            return str(exc)
        token = self.seat.token if self.seat is not None else None
        if token is None:
            return _("the table is not ready")
        token.run_sync_soon(self._hand, choice)
        return ""

    def _hand(self, choice: NightGame) -> None:
        """(trio) Hand the night the game typed (nothing once the night is over)."""
        with suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._choices.send_nowait(choice)

    def _players(self) -> int:
        """The players still at the table, the host included: the next game's seats."""
        return 1 + len(self._roster(self.server.host))

    @staticmethod
    def _roster(host: Host) -> list[tuple[bytes, str]]:
        """The players of ``host``'s table (ours left out) still connected, in seat order."""
        return [(m.key, m.name) for m in host.table.members[1:] if host.connected(m.seat)]

    async def _choose(self) -> NightGame | None:
        """The next game: the next item of ``--then``, else what the person at the host's
        seat types (``None`` once they quit), else none (a headless host)."""
        if self.then:
            return then_choice(self.then.pop(0), self.last)
        if self.seat is None or not self.seat.night_open:
            return None
        try:
            return await self._chosen.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            return None

    # ------------------------------------------------------------------ the next table

    async def next_table(self) -> NextTable | None:
        """(The server, once a table has ended) the next table of the night, or ``None``:
        the night ends."""
        while True:
            choice = await self._choose()
            if choice is None:
                return None
            try:
                nxt = self._open(choice)
            except ValueError as exc:
                self.tell(str(exc))
                continue  # the host chooses again (an item of --then: the next one)
            self.last = choice
            with suppress(trio.WouldBlock, trio.EndOfChannel):  # typed twice: one offer
                while True:
                    self._chosen.receive_nowait()
            return nxt

    def _open(self, choice: NightGame) -> NextTable:
        """The next table for ``choice``, linked to the one that ended and seating its
        players who stay; the game that ended is kept first. Raises ``ValueError`` if it
        cannot be opened (too few players, options that do not fit)."""
        old = self.server.host
        link = next_link(old.table)
        if link is None:
            raise ValueError(_("the table stopped: no next game can follow it"))
        roster = self._roster(old)
        spare = old.watchers if self.plan.spectators_sit else 0  # they may take a free seat
        seats = seats_for(choice.game, 1 + len(roster), choice.options, spare)
        try:
            host = Host(old.identity, self.plan.nick, GAMES, choice.game, choice.options, seats,
                        night=link, roster=roster, spectators=old.spectators)  # fmt: skip
        except LocalProtocolError as exc:
            raise ValueError(str(exc)) from None
        host.spectators_sit = self.plan.spectators_sit
        host.table_name = old.table_name  # the same table: its name, said to whoever comes
        self.keep(old)
        self.out.next_game(counted=old.table.state is not None)
        quiet = self.plan.quiet or self.seat is not None
        sink = self._too_few(event_sink(self.out, quiet, self.tracer, host))
        journal, kept = keep_host(host, self.plan.nick, self.endpoint, self.tell)
        sink = keeping_sealed(sink, lambda: kept, self.tell)
        if self.seat is not None:
            self.seat.switch(host)
        driver = bot_driver(self.plan, choice.game, self.seat, self.tracer)
        names = ", ".join(name for _key, name in roster) or _("nobody")
        self.tell(_("game {n} of the night: {game}, offered to {names}").format(
            n=link.number, game=choice.game, names=names))  # fmt: skip
        return NextTable(host, driver, sink, journal)

    def keep_last(self, first: Host) -> None:
        """Keep what the night's last table left (``first``'s, but for a night), for the
        command to say: its transcript, the connections accepted; its outcome is told once
        the night has ended. A next game too few stayed for leaves nothing to keep."""
        host = self.server.host
        tid = host.table_id
        forget_seat(tid, host.identity.public.raw)  # we end here
        self.out.connections = self.server.accepted
        if tid in self._done:
            return
        self._done.add(tid)
        if host is not first and host.table.state is None:
            self.out.stopped = self.out.stopped or "the night ended before its next game began"
            return
        self._finish(host)

    def keep(self, host: Host) -> None:
        """Keep what ``host``'s table left (once): its transcript, if its game began, and
        its outcome said (a headless host prints it; the terminal's seat tells it)."""
        tid = host.table_id
        if tid in self._done:
            return
        self._done.add(tid)
        forget_seat(tid, host.identity.public.raw)  # nothing to restore: it ended
        if host.table.state is None:
            return  # its seats were never fixed: no game, nothing to keep
        self.out.connections = self.server.accepted
        self._finish(host)
        if self.seat is None:
            report(self.out, as_json=self.plan.json)
        else:
            self.seat.note(_("transcript saved: {path}").format(path=self.out.transcript))

    def _finish(self, host: Host) -> None:
        """What each game of the night leaves, once: its transcript, its place on the
        night's board (told to the seat's story) and, unless ``--no-friends``, its players
        recorded as friends (nothing more said after Ctrl-C: a headless host ends in one
        line)."""
        game = host.table.game.name if host.table.game is not None else "table"
        seat = self.seat
        finish(host, self.out, game, self.name, seat.note if seat is not None else None)
        if not self.plan.no_friends:
            tell = _quiet if self.out.interrupted else self.tell
            record_table(host, tell, news=seat is not None)

    def _too_few(self, sink: Any) -> Any:
        """``sink``, halting the table once too few players stayed for it (the host may
        offer another game in its place)."""

        def watching(event: Event) -> None:
            sink(event)
            if isinstance(event, TooFew) and self._nursery is not None:
                why = f"too few players stayed for {event.game}"  # the wire's words: English
                with suppress(RuntimeError):
                    self._nursery.start_soon(self.server.halt, why)

        return watching


def _quiet(line: str) -> None:
    """Say nothing."""

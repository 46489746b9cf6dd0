"""The host's side of a night (docs/app.md, "A night at one table"): once a table has
ended, :class:`~lanparty.net.server.HostServer` serves the next game over the connections it
has. Every seat's connection but the host's, and every spectator's, is offered the next table
(:meth:`protocol.Host.offer`); any other connection is let go. The players have
:data:`ANSWER_TIME` seconds to answer; a seat that stayed and whose connection is gone by
the time the seats are fixed is waited for like any seat that lost its connection.

Mixed into the server, which owns every attribute used here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import trio

from protocol import Host, Phase

from .node import Driver, EventSink, PhaseTimer, ProofChecks

__all__ = ["ANSWER_TIME", "NextTable", "NightServing"]

#: Seconds the players of a night's game have to answer the offer of the next one (each
#: seat asks its person for as long, less a margin: no answer there is a leave).
ANSWER_TIME = 65.0


@dataclass
class NextTable:
    """The next game of a night, as the host's side serves it: the table (a
    :class:`protocol.Host` linked to the one just closed), what plays its seat 0, where its
    events go, and where its relays are kept (for ``--resume``)."""

    host: Host
    driver: Driver
    sink: EventSink
    journal: Callable[[list[bytes]], None] | None = None


class NightServing:
    """The night's part of the host's server: switching to the next table."""

    host: Host
    done: trio.Event
    seats_fixed: trio.Event
    vanished: list[str]
    journaled: int
    _links: dict[int, Any]
    _nursery: trio.Nursery | None
    _driver: Driver
    _sink: EventSink
    _journal: Callable[[list[bytes]], None] | None
    _progress: trio.Event
    _seen: int
    _timer: PhaseTimer
    _checks: ProofChecks
    _faults: dict[int, int]
    _halting: tuple[str, int] | None
    _inline: bool
    _night_names: dict[bytes, str]
    #: Called once a table has ended: the next table of the night, to offer over the
    #: connections this one has (``None``: the night ends, and so does serving).
    night: Callable[[], Awaitable[NextTable | None]] | None

    if TYPE_CHECKING:  # the server's own (a stub here would take their place)

        def poke(self) -> None: ...

        async def after_input(self) -> None: ...

        async def _gone(self, seat: int, name: str) -> None: ...

    def _switch(self, nxt: NextTable) -> None:
        """Serve the night's next table over the connections this one has: each seat's (but
        the host's) and each spectator's is offered it, the spectators in the order they
        began watching (who may ask for a free seat asks in that order: the one watching
        longest first); any other connection is let go."""
        old, host = self.host, nxt.host
        assert self._nursery is not None
        self.host, self._driver, self._sink = host, nxt.driver, nxt.sink
        host.defer_duties = True
        self._journal, self.journaled = nxt.journal, 0
        self.done, self.seats_fixed, self._progress = trio.Event(), trio.Event(), trio.Event()
        self._seen, self._timer = 0, PhaseTimer()
        self._checks = ProofChecks(host, inline=self._inline)
        self._faults, self._halting, self.vanished = {}, None, []
        self._night_names = {m.key: m.name for m in old.table.members}
        host.carry_talk(old)  # numbers and rates go on (each seat's own peer does the same)
        for link in sorted(self._links.values(), key=lambda link: link.since):
            key = old.key_of(link.cid)
            if key is not None and key in host.seat_order:
                link.cid = host.offer(link.address, key)
            elif old.watching(link.cid):
                link.cid = host.offer(link.address, None)
            else:  # a stranger at the old table's door, or its seat that left
                link.cid = -1
                link.scope.cancel()
        self._driver.attach(self._nursery, self.poke)
        self._nursery.start_soon(self._answer_time, host)

    async def _answer_time(self, host: Host) -> None:
        """The players of the game before have :data:`ANSWER_TIME` seconds to answer the
        offer of ``host``'s table; then whoever has not answered leaves, and the seats are
        fixed (or too few stayed)."""
        await trio.sleep(ANSWER_TIME)
        if self.host is host and host.phase is Phase.LOBBY:
            host.end_answers()
            await self.after_input()

    async def _absent(self) -> None:
        """Once a night's next table has fixed its seats, a seat that stayed and whose
        connection is gone (its join came, then its program died) is waited for as a seat
        that lost its connection (``grace``), or named in a halt."""
        for m in self.host.table.members[1:]:
            if not self.host.connected(m.seat):
                await self._gone(m.seat, m.name)

"""A joiner's way in: from the connection to a seat, or to the host's refusal (and a
spectator's, to the table's log).

A person's table screen opens once they hold a seat (at once when they take a saved seat
back): until then, what happens is said in lines on the terminal, so a join the host refuses
(a name taken, a full table, a "no" from the host, a wrong key) ends in one line with no table
screen, and a name may be asked again in place. A join the host holds for its answer
(``--approve``) is said as such: the protocol does not tell a joiner it is held, but a host
that does not hold it answers at once, so no answer within :data:`HELD_AFTER` seconds of our
join going out means the host is deciding.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from lanparty.i18n import _
from lanparty.net.node import Driver
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import say
from lanparty.table.stopwords import said
from protocol import Applied, Event, Host, Peer, Phase

__all__ = ["HELD_AFTER", "Admission"]

#: Seconds without an answer to our join after which the host is taken to hold it for its
#: yes (``--approve``). A host that does not hold joins answers in milliseconds on a LAN.
HELD_AFTER = 1.0


class Admission:
    """Where a joiner's lines go, and when its table screen opens (``seat``: a person's
    seat; ``None`` for a headless one, whose lines go to stderr unless ``quiet``)."""

    def __init__(
        self, peer: Peer, seat: NetSeat | None, quiet: bool, *, resumed: bool = False,
        spectator: bool = False,
    ) -> None:  # fmt: skip
        """``resumed``: the seat is ours already; ``spectator``: a spectator is in once the
        table's log comes (the host refuses it before any)."""
        self.peer = peer
        self.seat = seat
        self.quiet = quiet
        self.spectator = spectator
        #: True once this joiner held a seat at the table (from the start, when resuming),
        #: or this spectator was sent the table.
        self.seated = resumed
        self._opened = trio.Event()  # the table's opening entry has been read
        self._held_told = False

    def connected(self) -> None:
        """The host took our connection: a seat taken back shows its table now (a table
        that cannot be reached never opens a screen)."""
        if self.seated:
            self._ready()

    def tell(self, text: str) -> None:
        """A line for the player (the network layer's English read in their words): on the
        terminal until the table screen opens, and in the table's story."""
        line = said(text)
        if self.seat is None or not self.seated:
            say(self.quiet, line)
        if self.seat is not None:
            self.seat.note(line)

    def sink(self, inner: Callable[[Event], None]) -> Callable[[Event], None]:
        """``inner``, then: once our seat is taken, the table screen opens."""

        def admitted(event: Event) -> None:
            inner(event)
            if isinstance(event, Applied) and event.pos == 0:
                self._opened.set()
            taken = self.peer.seat is not None or (self.spectator and self._opened.is_set())
            if not self.seated and taken:
                self.seated = True
                self._ready()

        return admitted

    def driver(self, inner: Driver) -> Driver:
        """``inner``, also watching (in the connection's own nursery) for a join the host
        holds: see :meth:`watch_held`."""
        return _Watching(inner, self)

    async def watch_held(self) -> None:
        """Say, once, that the host holds our join for its answer if no answer came
        :data:`HELD_AFTER` seconds after the table was read (our join goes out then)."""
        await self._opened.wait()
        await trio.sleep(HELD_AFTER)
        p = self.peer
        waiting = p.seat is None and p.refused is None and p.stopped is None
        if waiting and p.table.phase is Phase.LOBBY and not self._held_told:
            self._held_told = True
            host = p.table.member_at(0)
            name = host.name if host is not None else _("the host")
            self.tell(_("waiting for {host} to let you in… (Ctrl-C gives up)").format(host=name))

    def _ready(self) -> None:
        if self.seat is not None:
            self.seat.on_ready()



class _Watching:
    """A driver that is ``inner`` and, once the connection runs, starts the admission's
    watch for a held join beside it (it ends with the connection)."""

    def __init__(self, inner: Driver, admission: Admission) -> None:
        self._inner = inner
        self._admission = admission

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        self._inner.attach(nursery, poke)
        if not self._admission.seated and not self._admission.spectator:
            nursery.start_soon(self._admission.watch_held)

    def observe(self, event: Event) -> None:
        self._inner.observe(event)

    def act(self, party: Host | Peer) -> bool:
        return self._inner.act(party)

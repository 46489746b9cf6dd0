"""A spectator takes a free seat at a night's next table (docs/protocol.md, "A spectator
takes a free seat").

Where the host lets spectators sit (:attr:`SpectatorSeats.spectators_sit`) and the next
table has seats beyond the host and the players of the game before (``free``), each
spectator's offer says how many (:attr:`protocol._messages.Offer.free`). The spectator
answers with a ``watch`` (it keeps watching), or with a ``hello`` signing the offer's
challenge and then a ``join`` (a fresh seal key, exactly as a staying seat does): it asks
for a seat, under its own identity key and the name of its join.

**Who sits is not decided by the network.** The host waits for every spectator offered a
seat to answer (or for the time to answer to end: :meth:`Host.end_answers`), and seats
every player of the game before who stays first; then the spectators who asked, in the
order they were offered the table (the network layer offers them in the order they began
watching: the one watching longest first), while seats remain. The seats are fixed after
them. Nothing an answer's arrival time decides.

**Every refusal keeps the spectator watching**: the host lets no spectator sit, no seat is
free (or none is left once the players and the longer watchers sat), the seats are fixed,
the key has a seat here or asks on another connection, the name is taken or looks like a
seated one. Each is a non-fatal ``refuse`` at :data:`SIT_POS` to that spectator alone,
and its connection goes on as a spectator's. What no honest program sends — a second
answer, a hello where no seat was offered or that does not sign the challenge, a join
for another table — is refused as any such frame is (fatally, or counted for the key).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Final

from crypto import fingerprint

from ._bodies import Join
from ._errors import RemoteProtocolError
from ._events import Event, SeatAsked, SeatDenied
from ._frames import frame
from ._lobby import Conn
from ._messages import Hello, Refuse, SignedEntry, encode_message, verify_hello
from ._roles import Phase
from ._table import Table

__all__ = ["ASKED", "DENIED", "OFFERED", "SIT_POS", "SpectatorSeats"]

#: The position of a ``refuse`` that answers a spectator's request for a seat (non-fatal:
#: it keeps watching).
SIT_POS: Final = -3
#: A spectator offered a seat that has not answered yet; one whose hello asked for it; one
#: refused (a join it sent before it learnt so is dropped, unanswered).
OFFERED: Final = "offered"
ASKED: Final = "asked"
DENIED: Final = "denied"
_WAITED: Final = (OFFERED, ASKED)


class SpectatorSeats:
    """The host's side of spectators taking free seats (mixed into
    :class:`~protocol._host.Host`, which owns every attribute used here)."""

    table: Table
    seat_order: tuple[bytes, ...]
    _conns: dict[int, Conn]
    _relays: list[bytes]
    _banned: set[bytes]
    _events: deque[Event]

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        raise NotImplementedError

    if TYPE_CHECKING:  # protocol._night's, beside this one in the host

        def _seat_next(self) -> None: ...

    def _init_sit(self) -> None:
        """No spectator may sit until the host says so."""
        #: Spectators may take the free seats of a night's next table (set it before the
        #: offers go out: each spectator's offer says how many seats are free).
        self.spectators_sit = False
        self._sit_rank = 0
        self._sit_closed = False  # the time to answer is over: no sitter is waited for

    def free_for_spectators(self) -> int:
        """The seats a spectator offered this table may ask for: its seats, less the host
        and the players of the game before (0 unless :attr:`spectators_sit`, and at a table
        that is no night's next game)."""
        if not self.spectators_sit or not self.seat_order:
            return 0
        return max(0, self.table.capacity - 1 - len(self.seat_order))

    def _sit_offered(self, c: Conn, free: int) -> None:
        """A spectator's connection is offered this table with ``free`` seats: it is
        waited for (and ranked) if any is."""
        if free > 0:
            self._sit_rank += 1
            c.sit, c.rank = OFFERED, self._sit_rank

    def _sit_watches(self, c: Conn) -> None:
        """A spectator answered the offer with a watch: it keeps watching."""
        if c.sit == OFFERED:
            c.sit = None
            self._seat_next()

    def _sit_gone(self, c: Conn) -> None:
        """A spectator's connection offered a seat, or asking for one, ended."""
        if c.sit in _WAITED:
            c.sit, c.sit_join = None, None
            self._seat_next()

    def _sit_hello(self, c: Conn, msg: Hello) -> None:
        """A hello on a spectator's connection: it asks for a seat. Refused to it alone (it
        keeps watching) where no seat may be given; raises :class:`RemoteProtocolError`
        (fatal) for a hello no honest spectator sends: a second answer, one where no seat
        was offered, one that does not sign this connection's challenge."""
        if c.key is not None:
            raise RemoteProtocolError("a spectator asked for a seat twice")
        if c.expect != b"":
            raise RemoteProtocolError("a spectator sent a hello frame (no seat was offered to "
                                      "it, or it answered the offer already)")  # fmt: skip
        c.expect = None  # answered: whatever comes of it, a second answer is refused
        t = self.table
        if not self.spectators_sit:
            return self._deny(c, "the host lets no spectator take a seat at this table")
        if c.sit != OFFERED:
            return self._deny(c, "no seat is free for spectators at this table")
        if t.phase is not Phase.LOBBY or self._sit_closed:
            return self._deny(c, "too late: the seats are fixed")
        verify_hello(msg, c.nonce)
        if msg.pos > len(self._relays):
            raise RemoteProtocolError(f"said hello holding {msg.pos} entries of {len(t.log)}")
        others = (o for o in self._conns.values() if o is not c and not o.closed)
        if (t.member(msg.key) is not None or msg.key in self.seat_order
                or msg.key in self._banned or any(o.key == msg.key for o in others)):  # fmt: skip
            return self._deny(c, "your key has a seat at this table, or asks for one on "
                                 "another connection", fingerprint(msg.key))  # fmt: skip
        c.key, c.sit = msg.key, ASKED  # it was sent the relays already, as a spectator
        self._seat_next()

    def _sit_join(self, c: Conn, se: SignedEntry) -> None:
        """The join of a spectator that asked for a seat: held until its turn."""
        body = se.entry.body
        assert isinstance(body, Join) and c.key is not None
        if c.sit_join is None:
            self._events.append(SeatAsked(body.name, fingerprint(c.key)))
        c.sit_join = se
        self._seat_next()

    def _seat_sitters(self) -> bool:
        """(Every player of the game before answered) seat the spectators who asked, in
        their rank, while seats remain; True once none is waited for any more (each seated
        or refused), False while one is (its answer, or its join, to come)."""
        t = self.table
        waiting = sorted((c for c in self._conns.values() if c.sit in _WAITED and not c.closed),
                         key=lambda c: c.rank)  # fmt: skip
        if not self._sit_closed and any(c.sit == OFFERED for c in waiting):
            return False  # every answer first: the first to answer gains nothing
        for c in waiting:
            if c.sit != ASKED:
                c.sit = None  # the time is over: it keeps watching
                continue
            if t.phase is not Phase.LOBBY or len(t.members) >= t.capacity:
                self._deny(c, "no seat is left: the players who stayed, and the spectators "
                              "watching longer, took them")  # fmt: skip
                continue
            se = c.sit_join
            if se is None or se.entry.pos != len(t.log):
                if not self._sit_closed:
                    return False  # its join comes (again: it proposes anew as the log grows)
                self._deny(c, "too late: the time to answer is over")
                continue
            try:
                self._sequence(se, own=False, sig_checked=True)
            except RemoteProtocolError as exc:  # its name taken, or like one seated
                self._deny(c, exc.reason)
                continue
            c.sit, c.sit_join, c.watching = None, None, False  # a seat from now on
        return True

    def _no_seat_left(self) -> None:
        """The seats are fixed: every spectator still asking is refused, every one offered
        a seat that has not answered keeps watching."""
        for c in list(self._conns.values()):
            if c.sit == ASKED and not c.closed:
                self._deny(c, "too late: the seats are fixed")
            elif c.sit == OFFERED:
                c.sit = None

    def _end_sit(self) -> None:
        """The time to answer is over: no spectator is waited for any more."""
        self._sit_closed = True

    def _deny(self, c: Conn, reason: str, fp: str | None = None) -> None:
        """Refuse ``c``'s request for a seat, saying ``reason`` to it alone: it keeps
        watching (no key of its own here: its talk is a spectator's)."""
        join = c.sit_join.entry.body if c.sit_join is not None else None
        name = join.name if isinstance(join, Join) else ""
        key = fp or (fingerprint(c.key) if c.key else "")
        c.out.append(frame(encode_message(Refuse(SIT_POS, reason, False))))
        c.key, c.sit, c.sit_join = None, DENIED, None
        self._events.append(SeatDenied(name, key, reason))

"""A night: the next game at the same table, over the same connections (docs/protocol.md,
"A night").

Once a table has closed, its host may *offer* the next game: the next table's signed ``open``
entry, whose ``night`` links it to the table just closed, and a fresh challenge, on every
connection it still has (:class:`~protocol._messages.Offer`). Each seat checks the link
against the table it closed itself (:func:`check_offer`) and answers: a hello signing the
challenge, then its join (it stays), or a leave signing it (it goes). A spectator answers
with a watch and follows the next table. The next table is a table like any other: its own
id, key shares, seal keys, log, transcript and audit.

At the host (:class:`NightSeating`, mixed into :class:`~protocol._host.Host`) the next table
seats only the players of the game before, in their seat order there whatever order their
answers arrive in: a join is sequenced only once every player before it in that order has
answered, so no seat — the host's included — gains anything from the network here. Where
the host lets them (:mod:`protocol._sit`), spectators then take the seats left, in the
order they began watching.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from crypto import fingerprint

from ._bodies import NightLink, OpenTable, Start
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Answered, Event, Offered, TooFew
from ._frames import frame
from ._lobby import Conn
from ._messages import (
    ENTRY_VERSION,
    GENESIS_PREV,
    NONCE_BYTES,
    Leave,
    Offer,
    SignedEntry,
    encode_message,
    leave_signature,
    read_head,
    verify_entry_signature,
)
from ._roles import Phase
from ._sit import ASKED
from ._table import Table
from .contract import Game

__all__ = ["NightOffers", "NightSeating", "check_offer", "next_link"]


def next_link(table: Table) -> NightLink | None:
    """The link the next game must carry after ``table``: for a closed table, itself as the
    table just finished (its id, its closing digest, the next number); for a night table
    that never started and was halted (too few stayed), the very link it carried (another
    game is offered in its place). ``None`` for a table that no game may follow now."""
    opening, tid = table.opening, table.table_id
    if opening is None or tid is None:
        return None
    night = opening.night
    if table.phase is Phase.CLOSED:
        closing = table.closing
        assert closing is not None
        first = night.first if night is not None else tid
        number = night.number + 1 if night is not None else 2
        return NightLink(first, tid, closing, number)
    if table.phase is Phase.STOPPED and table.state is None and night is not None:
        return night  # its seats were never fixed: another game may take its place
    return None


def _fault(what: str) -> RemoteProtocolError:
    """The host's fault ``what`` (seat 0; the caller names its key)."""
    return RemoteProtocolError(f"the host {what}", seat=0)


def check_offer(
    table: Table, host: bytes, offer: Offer, games: Mapping[str, Game[Any]]
) -> SignedEntry:
    """The next table's opening entry, once ``offer`` is checked against the table this
    peer holds (``table``, whose host is ``host``): signed by that host, an ``open`` at
    position 0 of a new table, of the entry version this program writes, whose ``night``
    is :func:`next_link` of ``table``, and which every copy would apply. Raises
    :class:`RemoteProtocolError` naming the host (seat 0) otherwise."""
    want = next_link(table)
    if want is None:
        raise _fault(f"offered the next game while this table is {table.phase.value}")
    try:
        verify_entry_signature(host, offer.raw, offer.sig)
        head = read_head(offer.raw)
        entry = SignedEntry(offer.raw, offer.sig, head.entry())
    except RemoteProtocolError as exc:
        raise _fault(f"offered a next game that cannot be read: {exc.reason}") from None
    e = entry.entry
    body = e.body
    if not isinstance(body, OpenTable) or e.pos != 0 or e.prev != GENESIS_PREV:
        raise _fault("offered a next game that is not a table's opening entry")
    if e.author != host or e.v != ENTRY_VERSION:
        raise _fault("offered a next game opened by another key, or of another version")
    night = body.night
    if night is None or night.after != want.after:
        raise _fault("offered a next game that does not follow the table just finished")
    if night.digest != want.digest:
        raise _fault("offered a next game whose link names another closing digest than the "
                     "one this seat signed")  # fmt: skip
    if night.first != want.first or night.number != want.number:
        raise _fault(f"offered a next game numbered {night.number} of another night (this "
                     f"seat expects game {want.number})")  # fmt: skip
    if e.table == table.table_id:
        raise _fault("offered the table just finished as the next game")
    try:
        Table(games, host_key=host).apply(entry, sig_checked=True)
    except RemoteProtocolError as exc:
        raise _fault(f"offered a next game no copy can open: {exc.reason}") from None
    return entry


class NightSeating:
    """The host's side of a night's next table: the offer on each connection, the answers,
    and the joins of the players who stay, sequenced in their seat order of the game before
    (mixed into :class:`~protocol._host.Host`, which owns every attribute used here)."""

    table: Table
    _conns: dict[int, Conn]
    _next_cid: int
    _relays: list[bytes]
    _events: deque[Event]
    #: The players of the game before, in their seat order there (the host's own seat
    #: left out): only they may sit here, in this order. Empty for a table that starts a
    #: night.
    seat_order: tuple[bytes, ...]

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        raise NotImplementedError

    def _reject(self, c: Conn, err: RemoteProtocolError, pos: int, fatal: bool = False) -> None:
        raise NotImplementedError

    if TYPE_CHECKING:  # protocol._sit's, beside this one in the host (a stub would hide it)

        def free_for_spectators(self) -> int: ...

        def _sit_offered(self, c: Conn, free: int) -> None: ...

        def _sit_watches(self, c: Conn) -> None: ...

        def _sit_join(self, c: Conn, se: SignedEntry) -> None: ...

        def _seat_sitters(self) -> bool: ...

        def _no_seat_left(self) -> None: ...

        def _end_sit(self) -> None: ...

    def _init_night(self, roster: Sequence[tuple[bytes, str]]) -> None:
        """No night yet, or the roster of the game before (key, name), in seat order."""
        self.seat_order = tuple(key for key, _name in roster)
        self._names = dict(roster)
        self._answers: dict[bytes, bool] = {}  # key -> stays (its join came) / leaves
        self._stays: dict[bytes, tuple[Conn, SignedEntry]] = {}  # joins held, by key
        self._short = False  # TooFew told

    # ------------------------------------------------------------------ the offer

    def offer(self, origin: str | None, key: bytes | None) -> int:
        """Register a connection of the table before (it goes on here): its first frame is
        an :class:`Offer` of this table, with a fresh challenge. ``key``: the seat it proved
        there (its answer must be that key's), ``None`` for a spectator's: its offer says
        how many seats it may ask for (:meth:`free_for_spectators`), and spectators asking
        for one sit in the order they were offered the table (offer the one watching longest
        first). Returns its id. Raises :class:`LocalProtocolError` for a table that is no
        night's next game."""
        if self.table.opening is None or self.table.opening.night is None:
            raise LocalProtocolError("only a night's next table is offered")
        if key is not None and key not in self.seat_order:
            raise LocalProtocolError("only the players of the game before are offered it")
        opened = self.table.log.entries[0]
        cid = self._next_cid
        self._next_cid += 1
        nonce = os.urandom(NONCE_BYTES)
        c = Conn(nonce, origin)
        free = self.free_for_spectators() if key is None else 0
        c.out = [frame(encode_message(Offer(opened.raw, opened.sig, nonce, free)))]
        c.expect = key if key is not None else b""
        self._sit_offered(c, free)
        if key is None:  # a spectator follows at once: nothing it is sent waits on its answer
            c.watching = True
            c.out.extend(self._relays)
        self._conns[cid] = c
        return cid

    def _watch_on(self, c: Conn, pos: int) -> None:
        """A spectator's answer to the offer of this table: a watch holding no entry (it is
        sent the table's relays already). Raises :class:`RemoteProtocolError` for another
        answer, or a second one."""
        if c.expect != b"" or pos != 0:
            raise RemoteProtocolError("a spectator answered the offer of a table out of place")
        c.expect = None  # answered: a second watch is a spectator's frame like any
        self._sit_watches(c)

    def offered_here(self, cid: int) -> bool:
        """True if connection ``cid`` came from the table before and was offered this one,
        and is not yet seated here (it answers, or waits for its turn to sit)."""
        c = self._conns.get(cid)
        if c is None or c.expect is None or c.closed:
            return False
        return c.key is None or self.table.member(c.key) is None

    def expected_of(self, cid: int) -> bytes | None:
        """The key connection ``cid`` sat with at the table before, if it was offered this
        one as a seat's connection."""
        c = self._conns.get(cid)
        return c.expect if c is not None and c.expect else None

    def waiting_answers(self) -> list[str]:
        """The names of the players of the game before who have not answered yet."""
        return [self._names[k] for k in self.seat_order if k not in self._answers]

    def _answer(self, key: bytes, stays: bool) -> None:
        """``key``'s answer, once: the first one counts (a later join of one that stays is
        its join proposed again)."""
        if key in self._answers or key not in self.seat_order:
            return
        self._answers[key] = stays
        self._events.append(Answered(self._names[key], fingerprint(key), stays))
        self._seat_next()

    def _check_answer_key(self, c: Conn, key: bytes) -> None:
        """A hello on an offered connection must be the key that sat there; one that left
        (or was given up on) is too late. Raises :class:`RemoteProtocolError`."""
        if c.expect and key != c.expect:
            raise RemoteProtocolError("answered the offer with another key than its own")
        if self.seat_order and self._answers.get(key) is False and self.table.member(key) is None:
            raise RemoteProtocolError("answered too late: it left, or the next game went on "
                                      "without its answer")  # fmt: skip

    def _night_left(self, c: Conn) -> None:
        """An offered connection ended, or said leave, before its join: its player leaves
        (a player whose join came stays: its signed join is sequenced in its turn)."""
        key = c.expect or c.key
        if key and key not in self._answers and key not in self._stays:
            self._answer(key, False)

    # ------------------------------------------------------------------ the joins, in order

    def _night_join(self, c: Conn, key: bytes, se: SignedEntry) -> None:
        """A join at a night's next table: only a player of the game before, who has not
        left; held until every player before it in the seat order has answered. A
        spectator's who asked for a seat: held until every player's turn is over."""
        if c.sit == ASKED:
            self._sit_join(c, se)
            return
        if key not in self.seat_order:
            self._reject(c, RemoteProtocolError(
                "this table seats only the players of the game before", culprit=fingerprint(key),
                pos=se.entry.pos), se.entry.pos, fatal=True)  # fmt: skip
            c.closed = True
            return
        if self._answers.get(key) is False:
            self._reject(c, RemoteProtocolError(
                "too late: the next game went on without you", culprit=fingerprint(key),
                pos=se.entry.pos), se.entry.pos, fatal=True)  # fmt: skip
            c.closed = True
            return
        self._stays[key] = (c, se)
        if key not in self._answers:
            self._answer(key, True)  # seats what it can
        else:
            self._seat_next()

    def _seat_next(self) -> None:
        """Sequence the held joins in seat order, as far as the answers allow; once every
        player answered, fix the seats (or tell the host that too few stayed)."""
        t = self.table
        while t.phase is Phase.LOBBY:
            left = [k for k in self.seat_order
                    if t.member(k) is None and self._answers.get(k) is not False]  # fmt: skip
            nxt = left[0] if left else None
            if nxt is None or nxt not in self._answers:
                break  # everyone seated, or waiting for this one's answer
            held = self._stays.pop(nxt, None)
            if held is None or held[1].entry.pos != len(t.log):
                return  # its join comes (again: it proposes anew once it sees the log)
            c, se = held
            try:
                self._sequence(se, own=False, sig_checked=True)
            except RemoteProtocolError as exc:  # its name (say): it cannot sit
                self._answers[nxt] = False
                if not c.closed:
                    self._reject(c, exc, se.entry.pos, fatal=True)
                    c.closed = True
        self._settle()

    def _settle(self) -> None:
        """Every player answered: seat the spectators who asked for a seat, in their turn,
        then fix the seats now (a table that is not full), or tell the host that too few
        stayed."""
        t = self.table
        if t.phase is not Phase.LOBBY:
            self._no_seat_left()
            return
        if any(k not in self._answers for k in self.seat_order) or not self._seat_sitters():
            return
        if t.phase is not Phase.LOBBY:  # the last spectator to sit filled the table
            self._no_seat_left()
            return
        game = t.game
        assert game is not None
        if len(t.members) >= game.min_seats:
            self._sequence(t.entry(Start()), own=True)
        elif not self._short:
            self._short = True
            self._events.append(TooFew(game.name, len(t.members), game.min_seats))

    def end_answers(self) -> None:
        """The time to answer is over: every player who has not answered leaves, and so does
        one who stayed but whose join is not here and who has no connection (it may not come
        back in time), and no spectator is waited for any more (one whose join is not here
        keeps watching); then the seats are fixed, or too few stayed (:class:`TooFew`)."""
        self._end_sit()
        connected = {c.key for c in self._conns.values() if not c.closed and c.key}
        for key in self.seat_order:
            if self.table.member(key) is not None:
                continue
            if key not in self._answers or (
                self._answers[key] and key not in self._stays and key not in connected
            ):
                self._answers[key] = False
                self._events.append(Answered(self._names[key], fingerprint(key), False))
        self._seat_next()


class NightOffers:
    """A peer's side of a night: the host's offer of the next game, checked and kept, and
    the answer (mixed into :class:`~protocol._peer.Peer`, which owns every attribute used
    here)."""

    table: Table
    name: str
    offer: Offer | None
    _next_open: SignedEntry | None
    _opening: SignedEntry | None
    _host: bytes | None
    _nonce: bytes | None
    _out: bytearray
    _leaving: bool
    _events: deque[Event]

    def _offered(self, msg: Offer) -> None:
        """The host offers the next game of the night: check it against this table (see
        :func:`protocol._night.check_offer`; raises :class:`RemoteProtocolError` naming the
        host), keep it and say so (:class:`Offered`). The same offer again is ignored; a
        different one while this one stands is refused."""
        if self.offer is not None:
            if msg == self.offer:
                return
            raise RemoteProtocolError("the host offered two different next games", seat=0)
        if self._host is None:
            raise RemoteProtocolError("the host offered a next game before any table", seat=0)
        opened = check_offer(self.table, self._host, msg, self.table.games)
        self.offer, self._next_open = msg, opened
        body = opened.entry.body
        assert isinstance(body, OpenTable)
        self._events.append(Offered(opened.entry.table, body, msg.free))

    def offered(self) -> Offered | None:
        """The next game the host offers (its table, opening, and the seats it lets a
        spectator ask for), once checked; else ``None``."""
        opened, offer = self._next_open, self.offer
        if opened is None or offer is None:
            return None
        body = opened.entry.body
        assert isinstance(body, OpenTable)
        return Offered(opened.entry.table, body, offer.free)

    def decline(self) -> None:
        """We leave instead of playing the game offered: a leave signing the offer's
        challenge is queued (then hang up). Raises :class:`LocalProtocolError` with no
        offer."""
        me = self.table.me
        if self.offer is None or me is None:
            raise LocalProtocolError("no next game is offered")
        self._leaving = True
        self._out += frame(encode_message(Leave(leave_signature(me.identity, self.offer.nonce))))

"""A joiner's and a spectator's side of a night (docs/app.md, "A night at one table"): once
a table has ended, the connection stays open for the host's offer of the next game. A bot
stays; a person is asked (:meth:`~lanparty.table.nighttalk.NightTalk.ask_offer`: no answer
within a minute is a no); a spectator follows — or, where the offer has a seat free for
spectators and the person says yes (``watch --sit``: always), asks for it under its own
identity key, and plays from there on as any seat (refused, it watches on). Staying (or
asking) keeps the next table's seat first (so ``join --resume`` finds it), then answers on
the same stream; each table keeps its own transcript and outcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crypto import Identity, KeyShare, SealKey
from lanparty.i18n import _
from lanparty.net.node import Driver, EventSink, PeerClient
from lanparty.store import SavedSeat, forget_seat, save_seat
from lanparty.table.botseat import bot_driver
from lanparty.table.friendly import record_table
from lanparty.table.keeping import keeping_seat
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import Outcome, event_sink, finish, report
from lanparty.table.plan import TablePlan
from lanparty.table.stopwords import blamed, said
from lanparty.trace import Tracer
from protocol import Offered, Peer, RemoteProtocolError, Watcher

__all__ = ["JoinNight", "abandoned", "spectator_driver"]


class JoinNight:
    """What a seat (or, ``spectator``, someone watching) does between the games of a night:
    keep what each game left, answer the host's offer of the next one."""

    def __init__(
        self,
        plan: TablePlan,
        seat: NetSeat | None,
        out: Outcome,
        *,
        tracer: Tracer,
        tell: Callable[[str], None],
        label: str,
        spectator: bool = False,
        driver: Callable[[Peer], Driver] | None = None,
        identity: Callable[[Callable[[str], None]], Identity] | None = None,
    ) -> None:
        """``label``: what each transcript is saved under; ``driver``: what watches a next
        table with no person at it (a seat there: the plan's bot); ``identity``: (a
        spectator) the key it sits down with where it takes a free seat (told how to say
        that it is a one-off one)."""
        self.plan, self.seat, self.out = plan, seat, out
        self.tracer, self.tell, self.label = tracer, tell, label
        self.spectator = spectator
        self.client: PeerClient | None = None
        self._driver = driver
        self._identity = identity
        self._kept_seat: SavedSeat | None = None  # the seat a spectator asks for, kept
        self._kept: set[bytes] = set()
        if seat is not None:
            seat.night_open = True

    # ------------------------------------------------------------------ NightSeat

    def ended(self, party: Peer) -> None:
        """The table of ``party`` ended: keep what it left (once)."""
        self.keep(party)

    async def answer(self, party: Peer) -> tuple[Peer, Driver, EventSink] | None:
        """Stay for the game offered (a bot, a spectator, or a person who says yes)."""
        offered = party.offered()
        if offered is None:
            return None
        watching = isinstance(party, Watcher)
        if self.plan.games and self.out.number >= self.plan.games and not watching:
            self.tell(_("You leave the table after {n} games.").format(n=self.out.number))
            return None
        host = party.table.member_at(0)
        name = host.name if host is not None else _("the host")
        asked = self.seat is not None and not watching
        if asked and self.seat is not None and not await self.seat.ask_offer(offered, name):
            return None
        kept = None
        if isinstance(party, Watcher):
            sitter = await self._sitter(party, offered, name)
            nxt: Peer = sitter if sitter is not None else party.next_watcher()
            kept = self._kept_seat if sitter is not None else None
        else:
            me = party.table.me
            assert me is not None
            key, seal = KeyShare(), SealKey()
            kept = self._keep_seat(offered, party.name, (me.identity, key, seal))
            nxt = party.next_peer(key=key, seal=seal)
        self._said(party)
        self.out.next_game(counted=not abandoned(party))
        quiet = self.plan.quiet or self.seat is not None or (self.spectator and self.plan.json)
        sink: EventSink = event_sink(self.out, quiet, self.tracer, nxt)
        if not isinstance(nxt, Watcher):
            sink = keeping_seat(sink, nxt, self.out.where, self.tell, kept)
        if self.seat is not None:
            self.seat.switch(nxt, offered.opening.game)
            driver: Driver = self.seat
        elif self._driver is not None and isinstance(nxt, Watcher):
            driver = self._driver(nxt)
        else:  # a headless seat (a spectator too, once it asked for a free seat)
            driver = bot_driver(self.plan, None, None, self.tracer)
        self.tell(_("game {n} of the night: {game}").format(n=self.out.number,
                                                          game=offered.opening.game))  # fmt: skip
        return nxt, driver, sink

    def _keep_seat(
        self, offered: Offered, name: str, secrets: tuple[Identity, KeyShare, SealKey]
    ) -> SavedSeat | None:
        """The next table's seat, kept before our answer leaves (a restarted program finds
        it: ``join --resume``); ``None`` if it cannot be (said)."""
        kept = SavedSeat.of(offered.table, name, self.out.where, secrets)
        try:
            save_seat(kept)
        except OSError as exc:
            self.tell(_("cannot keep this seat for --resume: {error}").format(
                error=exc.strerror or exc))  # fmt: skip
            return None
        return kept

    async def _sitter(self, party: Watcher, offered: Offered, host: str) -> Peer | None:
        """(A spectator offered a seat free for it) the peer that asks for it, if we take
        it: ``watch --sit`` always, a person who says yes; ``None`` to watch on."""
        self._kept_seat = None
        if offered.free <= 0 or self._identity is None:
            return None
        if self.seat is not None and not self.plan.sit:
            if not await self.seat.ask_offer(offered, host, sit=True):
                return None
        elif self.seat is None and not self.plan.sit:
            return None
        identity = self._identity(self.tell)
        key, seal = KeyShare(), SealKey()
        self._kept_seat = self._keep_seat(offered, party.name, (identity, key, seal))
        return party.next_sitter(identity, party.name, key=key, seal=seal)

    def watch_again(self, party: Peer) -> tuple[Peer, Driver, EventSink]:
        """The host refused the seat ``party`` asked for: the spectator we were, watching
        the same table on (its seat kept for ``--resume`` forgotten), what shows it and
        where its events go."""
        watcher = Watcher.after_refusal(party)
        tid, me = party.table.table_id, party.table.me
        if tid is not None and me is not None:
            forget_seat(tid, me.identity.public.raw)
        quiet = self.plan.quiet or self.seat is not None or self.plan.json
        sink: EventSink = event_sink(self.out, quiet, self.tracer, watcher)
        if self.seat is not None:
            self.seat.watch_again(watcher)
            return watcher, self.seat, sink
        driver = self._driver(watcher) if self._driver is not None else None
        return watcher, driver or bot_driver(self.plan, None, None, self.tracer), sink

    def refused(self, error: RemoteProtocolError) -> None:
        """The host's offer broke the rules: the night ends here, saying who did it."""
        party = self.client.peer if self.client is not None else None

        def name(seat: int) -> str | None:
            member = party.table.member_at(seat) if party is not None else None
            return member.name if member is not None else None

        why = said(blamed(error, name))
        self.tell(_("The night ends: {error}").format(error=why))
        if self.seat is not None:
            self.seat.night_ended(_("The night ends: {error}").format(error=why))

    # ------------------------------------------------------------------ what a table left

    def keep(self, party: Peer) -> None:
        """Keep what ``party``'s table left, once: its seat is forgotten (nothing to take
        back); if its game began (and unless ``--no-transcript``) its transcript saved, the
        game counted on the night's board (told to the seat's story) and, unless
        ``--no-friends``, its players recorded as friends (nothing more said after Ctrl-C:
        a headless peer ends in one line; the bots a command starts keep neither)."""
        tid, me = party.table.table_id, party.table.me
        if tid is None or tid in self._kept:
            return
        self._kept.add(tid)
        if me is not None:
            forget_seat(tid, me.identity.public.raw)
        if self.client is not None:
            self.out.connections = self.client.connects
        if len(party.table.log) and not abandoned(party) and not self.plan.no_transcript:
            game = party.table.game.name if party.table.game is not None else "table"
            seat = self.seat
            watched = isinstance(party, Watcher)  # (a spectator that took a seat plays)
            note = seat.note if seat is not None and not watched else None
            label = self.label if watched or not self.spectator else f"joined-{party.name}"
            finish(party, self.out, game, label, note)
            if not self.plan.no_friends and not watched:
                quiet = self.out.interrupted
                record_table(party, _quiet if quiet else self.tell, news=seat is not None)

    def _said(self, party: Peer) -> None:
        """Say how the game that ended went, as the next begins: a headless seat prints its
        outcome (its JSON line); a person's seat tells where its transcript is."""
        if abandoned(party):
            return  # a next game too few stayed for: no game to tell
        if self.seat is None and self.spectator:
            return  # its states went out one by one; the night's end says the rest
        if self.seat is None:
            report(self.out, as_json=self.plan.json)
        elif self.out.transcript:
            self.seat.note(_("transcript saved: {path}").format(path=self.out.transcript))


def abandoned(party: Peer) -> bool:
    """Is ``party``'s table a night's next game that never began (too few stayed)?"""
    opening = party.table.opening
    return party.table.state is None and opening is not None and opening.night is not None


def spectator_driver(make: Callable[[Watcher], Any]) -> Callable[[Peer], Driver]:
    """What watches a next table with no person at it: ``make(watcher)``."""

    def build(party: Peer) -> Driver:
        assert isinstance(party, Watcher)
        driver: Driver = make(party)
        return driver

    return build


def _quiet(line: str) -> None:
    """Say nothing."""

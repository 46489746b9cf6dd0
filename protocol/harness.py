"""An in-process table: a host and N-1 peers run the real protocol and real crypto, with bytes
delivered between them in a fixed order; bots choose the moves from their own seat's view.

The harness is the basis of the protocol tests and of ``python -m protocol.bench``. It records
every byte each party received (``received``), and lets a test tamper with what the host sends
(``host_out``) or inject bytes anywhere. Bots are injected (any object with
``choose(view, legal, rng)``, see ``lanparty.games.bots``), so this module imports no game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from crypto import Identity, SeededRng

from ._checks import run_check
from ._errors import LocalProtocolError
from ._events import Event
from ._frames import FrameReader, frame
from ._host import Host
from ._messages import Entry, Propose, SignedEntry, decode_message, encode_message
from ._peer import Peer
from ._roles import Phase
from ._watcher import Watcher
from .contract import Commit, Game, Move, Plain, Turn


class Chooser(Protocol):
    """A bot: picks one of ``legal`` (``None`` among them means "do nothing")."""

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """One element of ``legal``."""
        ...


class Harness:
    """A host (seat 0) and ``seats - 1`` peers wired together in one process."""

    def __init__(
        self,
        games: Mapping[str, Game[Any]],
        game: str,
        seats: int,
        options: Mapping[str, Plain],
        bots: Sequence[Chooser],
        *,
        seed: int = 0,
        names: Sequence[str] | None = None,
        defer_checks: bool = False,
        hold_checks: bool = False,
        watchers: int = 0,
    ) -> None:
        """Open the table and connect every peer, and ``watchers`` spectators (connected
        first, so they follow the table from its first entry); nothing is delivered yet.

        ``seed`` fixes the bots' choices and the shuffles' permutations (a seeded prover RNG,
        for reproducible tests only); keys, commitments and proofs still use fresh randomness.
        """
        if len(bots) != seats:
            raise ValueError("one bot per seat")
        names = list(names) if names is not None else [f"p{i}" for i in range(seats)]
        self.rng = random.Random(seed)
        self.bots = list(bots)
        self.host = Host(
            Identity(), names[0], games, game, options, seats,
            rng=SeededRng(f"{seed}/0".encode()),
        )  # fmt: skip
        self.peers = [
            Peer(Identity(), names[i], games, rng=SeededRng(f"{seed}/{i}".encode()))
            for i in range(1, seats)
        ]
        #: Spectators (:class:`Watcher`), fed after the peers; ``watched[i]`` is every byte
        #: spectator ``i`` received, ``watch_events[i]`` every event it gave.
        self.watchers: list[Watcher] = []
        self.watched: list[list[bytes]] = []
        self.watch_events: list[list[Event]] = []
        self.watch_conns: list[int] = []
        self._games = games
        for _ in range(watchers):
            self.add_watcher()
        for party in [*self.parties, *self.watchers]:
            party.defer_checks = defer_checks
        #: With ``defer_checks``: run the checks each party queued once nobody has anything
        #: to send (as worker threads would, a little later), unless ``hold_checks``.
        self.hold_checks = hold_checks
        self.conns = [self.host.connect() for _ in self.peers]
        self.received: list[list[bytes]] = [[] for _ in range(seats)]
        self.events: list[list[Event]] = [[] for _ in range(seats)]
        self.host_out: Callable[[int, bytes], bytes] | None = None
        self._tamper: dict[int, Callable[[Entry], Entry | None]] = {}
        self.moves = 0
        self.bytes = 0

    def add_watcher(self, identity: Identity | None = None, name: str = "") -> Watcher:
        """Connect one more spectator (at any moment: it catches up from the log); with
        ``identity`` and ``name`` it may talk where the host allows it."""
        w = Watcher(self._games, identity=identity, name=name)
        w.defer_checks = self.peers[0].defer_checks if self.peers else False
        self.watchers.append(w)
        self.watched.append([])
        self.watch_events.append([])
        self.watch_conns.append(self.host.connect())
        return w

    @property
    def parties(self) -> list[Host | Peer]:
        """The host, then the peers (party ``i`` is not necessarily seat ``i`` until seated)."""
        return [self.host, *self.peers]

    def by_seat(self, seat: int) -> Host | Peer:
        """The party sitting at ``seat``."""
        for p in self.parties:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def _drain_events(self) -> None:
        for i, p in enumerate(self.parties):
            while (ev := p.next_event()) is not None:
                self.events[i].append(ev)
        for w, seen in zip(self.watchers, self.watch_events, strict=True):
            while (ev := w.next_event()) is not None:
                seen.append(ev)

    def tick(self, now: float) -> None:
        """Tell every party the time (talk's rates are counted on it)."""
        for party in [*self.parties, *self.watchers]:
            party.tick(now)

    def tamper(self, party: int, make: Callable[[Entry], Entry | None]) -> None:
        """Make peer ``party`` (>= 1) misbehave once: the first of its proposed entries for
        which ``make(entry)`` returns an entry goes out as that entry instead, signed with the
        peer's own key (``None``: send this one unchanged and keep waiting)."""
        self._tamper[party] = make

    def _apply_tamper(self, i: int, data: bytes) -> bytes:
        make = self._tamper[i + 1]
        reader = FrameReader()
        reader.feed(data)
        out = bytearray()
        while (payload := reader.next_frame()) is not None:
            msg = decode_message(payload)
            if isinstance(msg, Propose) and i + 1 in self._tamper:
                se = SignedEntry.parse(msg.raw, msg.sig)
                changed = make(se.entry)
                if changed is not None:
                    del self._tamper[i + 1]
                    me = self.peers[i].table.me
                    assert me is not None
                    bad = SignedEntry.create(me.identity, changed)
                    payload = encode_message(Propose(bad.raw, bad.sig))
            out += frame(payload)
        return bytes(out)

    def deliver_to_host(self, i: int, data: bytes) -> None:
        """Bytes from peer ``i`` (party ``i + 1``) to the host."""
        if i + 1 in self._tamper:
            data = self._apply_tamper(i, data)
        self.received[0].append(data)
        self.bytes += len(data)
        self.host.receive_data(self.conns[i], data)

    def deliver_to_peer(self, i: int, data: bytes) -> None:
        """Bytes from the host to peer ``i`` (party ``i + 1``)."""
        self.received[i + 1].append(data)
        self.bytes += len(data)
        self.peers[i].receive_data(data)

    def exchange(self) -> bool:
        """One round of deliveries between the host and its seated peers (each peer's bytes
        to the host, then the host's to each peer): a step slower than :meth:`pump`, for
        stopping at an exact moment. True if anything moved."""
        moved = False
        for i, p in enumerate(self.peers):
            if data := p.data_to_send():
                self.deliver_to_host(i, data)
                moved = True
        for i in range(len(self.peers)):
            if data := self.host.data_to_send(self.conns[i]):
                self.deliver_to_peer(i, data)
                moved = True
        return moved

    def _back_to_watching(self) -> None:
        """Every peer whose request for a seat the host refused watches again."""
        for i in reversed(range(len(self.peers))):
            p = self.peers[i]
            if p.sit_refused is None:
                continue
            w = Watcher.after_refusal(p)
            self.watchers.append(w)
            self.watch_conns.append(self.conns.pop(i))
            self.watched.append(self.received.pop(i + 1))
            self.watch_events.append(self.events.pop(i + 1))
            del self.peers[i]

    def pump(self) -> None:
        """Deliver bytes both ways until nobody has anything to send (a spectator whose
        request for a seat was refused watches again)."""
        moved = True
        while moved:
            moved = False
            self._drain_events()
            self._back_to_watching()
            for i, p in enumerate(self.peers):
                data = p.data_to_send()
                if data:
                    moved = True
                    self.deliver_to_host(i, data)
            for i in range(len(self.peers)):
                data = self.host.data_to_send(self.conns[i])
                if self.host_out is not None and data:
                    data = self.host_out(i, data)
                if data:
                    moved = True
                    self.deliver_to_peer(i, data)
            for w, cid, got in zip(self.watchers, self.watch_conns, self.watched, strict=True):
                if (data := w.data_to_send()) and not self.host.finished(cid):
                    moved = True
                    self.host.receive_data(cid, data)
                if data := self.host.data_to_send(cid):
                    moved = True
                    got.append(data)
                    w.receive_data(data)
            if not moved and self.host.racing() is not None:
                self.host.close_race()  # the race window passes once everyone is quiet
                moved = True
            if not moved and not self.hold_checks:
                moved = self.run_checks() > 0
        self._drain_events()

    def run_checks(self) -> int:
        """Run every proof check the parties queued (``defer_checks``) and report each; how
        many ran."""
        ran = 0
        for party in [*self.parties, *self.watchers]:
            for check in party.take_checks():
                party.checked(check, run_check(check))
                ran += 1
        return ran

    def step(self) -> bool:
        """Let one seat move (out-of-turn seats are asked first, in a seeded order); returns
        ``False`` if no seat moved."""
        seated = [p for p in self.parties if p.seat is not None]
        if not seated:
            return False
        status = seated[0].status()
        if isinstance(status, Commit):  # sealed moves: every seat commits at once (they race)
            moved = False
            for seat in status.seats:
                party = self.by_seat(seat)
                choice = self.bots[seat].choose(party.view(), list(party.legal_moves()), self.rng)
                if choice is not None:
                    party.play(choice)
                    self.moves += 1
                    moved = True
            return moved
        if not isinstance(status, Turn):
            return False
        order = list(status.also)
        self.rng.shuffle(order)
        for seat in [*order, status.seat]:
            party = self.by_seat(seat)
            legal: list[Move | None] = list(party.legal_moves())
            if not legal:
                continue
            if seat != status.seat:
                legal.append(None)
            move = self.bots[seat].choose(party.view(), legal, self.rng)
            if move is None:
                continue
            party.play(move)
            self.moves += 1
            return True
        return False

    def run(self, max_moves: int = 100_000) -> None:
        """Play until the table closes (or stops, or nobody can move)."""
        self.pump()
        while self.moves < max_moves:
            if self.done:
                return
            if not self.step():
                return
            self.pump()

    def next_game(
        self,
        game: str,
        options: Mapping[str, Plain],
        bots: Sequence[Chooser],
        *,
        stays: Sequence[bool] | None = None,
        order: Sequence[int] | None = None,
        seats: int | None = None,
        sit: Sequence[tuple[Identity, str] | None] = (),
    ) -> Host:
        """Once the table has closed, the host offers the next game of the night over the
        same connections (a new :class:`Host`, linked to this table); each seated peer, in
        seat order, stays (``stays[i]``, by default every one) or leaves, and each
        spectator follows. ``order`` is the order in which the peers' answers reach the
        host (by default the seat order). ``bots`` play the seats of the next table, the
        host's first. ``seats``: the next table's (by default as many as are seated now,
        up to the game's most); with ``sit`` the host lets spectators take the seats left,
        and spectator ``i`` asks for one as ``sit[i]`` (its key and name; ``None``: it
        keeps watching): each is a peer from here on (the last of :attr:`peers`, in order),
        and becomes a spectator again if the host refuses it (:meth:`pump`). Returns the
        new host; :meth:`run` plays the next game. Raises :class:`LocalProtocolError` if
        the host cannot offer it."""
        from ._night import next_link  # the night's machinery, for tests and the bench

        old = self.host
        link = next_link(old.table)
        me = old.table.member_at(0)
        if link is None or me is None:
            raise LocalProtocolError("no game may follow this table now")
        seated = sorted((p for p in self.peers if p.seat is not None), key=lambda p: p.seat or 0)
        roster = [(p.table.member_at(p.seat or 0).key, p.name) for p in seated]  # type: ignore[union-attr]
        stays = list(stays) if stays is not None else [True] * len(seated)
        g = self._games[game]
        seats = seats if seats is not None else min(g.max_seats, 1 + len(seated))
        host = Host(old.identity, me.name, self._games, game, options, seats, night=link,
                    roster=roster, rng=SeededRng(f"{link.number}/0".encode()))  # fmt: skip
        host.carry_talk(old)  # as a server does: talk goes on at the next table
        host.spectators_sit = bool(sit)
        offered = [host.offer(None, key) for key, _name in roster]
        for p, cid in zip(seated, offered, strict=True):
            p.receive_data(host.data_to_send(cid))
        peers: list[Peer] = []
        conns: list[int] = []
        answers: list[tuple[Peer, int, bool]] = []
        for p, cid, stay in zip(seated, offered, stays, strict=True):
            if stay:
                nxt = p.next_peer()
                nxt.defer_checks = p.defer_checks
                peers.append(nxt)
                conns.append(cid)
                answers.append((nxt, cid, True))
            else:
                p.decline()
                answers.append((p, cid, False))
        for i in order if order is not None else range(len(answers)):
            party, cid, stay = answers[i]
            host.receive_data(cid, party.data_to_send())
            if not stay:
                host.close(cid)
        watchers = []
        asks = list(sit) + [None] * (len(self.watchers) - len(sit))
        for w, asked in zip(self.watchers, asks, strict=True):
            cid = host.offer(None, None)
            reader = FrameReader()  # the offer, then the relays a spectator is sent at once
            reader.feed(host.data_to_send(cid))
            offer = reader.next_frame()
            assert offer is not None
            w.receive_data(frame(offer))
            nw: Peer = w.next_watcher() if asked is None else w.next_sitter(*asked)
            while (payload := reader.next_frame()) is not None:
                nw.receive_data(frame(payload))
            nw.defer_checks = w.defer_checks
            if asked is None:
                watchers.append((nw, cid))
            else:  # a seat, once the host seats it
                peers.append(nw)
                conns.append(cid)
        self.host, self.peers, self.conns = host, peers, conns
        self.watchers = [w for w, _cid in watchers if isinstance(w, Watcher)]
        self.watch_conns = [cid for _w, cid in watchers]
        self.watched = [[] for _ in watchers]
        self.watch_events = [[] for _ in watchers]
        self.bots = list(bots)
        self.received = [[] for _ in range(len(peers) + 1)]
        self.events = [[] for _ in range(len(peers) + 1)]
        host.defer_checks = old.defer_checks
        return host

    @property
    def done(self) -> bool:
        """True once every party's table is closed or stopped."""
        return all(p.phase in (Phase.CLOSED, Phase.STOPPED) for p in self.parties)

"""A spectator takes a free seat at a night's next table, sans-IO (docs/protocol.md, "A
spectator takes a free seat"): seated after the players who stay, in the order the
spectators were offered the table (longest watching first) whatever order their answers
arrive in; refused — and still watching — where the host lets none sit, no seat is free or
left, or its name is taken; let go for what no honest spectator sends (a second answer, a
hello for another table's challenge). The seat it takes is a seat like any: it plays, its
game audits, and it is offered the game after as a player."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from protocol import (
    SIT_POS,
    Host,
    Peer,
    Phase,
    RemoteProtocolError,
    SeatAsked,
    SeatDenied,
    SitRefused,
    Watcher,
    audit_transcript,
    decode_message,
    encode_message,
    frame,
)
from protocol._frames import FrameReader
from protocol._messages import Hello, Offer, Refuse, hello_signature
from protocol._night import next_link
from protocol.harness import Harness


def _bots(n: int) -> list:
    return [bots_for("unanimo")["heuristic"]() for _ in range(n)]


def _played(watchers: int) -> Harness:
    """A closed one-card Unanimo table: ann hosts bo and cy, ``watchers`` watching."""
    h = Harness(GAMES, "unanimo", 3, {"cards": 1}, _bots(3), seed=5, names=["ann", "bo", "cy"],
                watchers=watchers)  # fmt: skip
    h.run()
    assert h.done and all(p.phase is Phase.CLOSED for p in h.parties)
    return h


def _frames(data: bytes) -> list[bytes]:
    reader, out = FrameReader(), []
    reader.feed(data)
    while (payload := reader.next_frame()) is not None:
        out.append(payload)
    return out


class Night:
    """The next table of ``h``'s night, opened by hand: ``seats`` seats, spectators allowed
    to sit or not; the players all stay. Each spectator is offered it (in ``h.watchers``'
    order: their rank) and holds the offer; :meth:`ask` and :meth:`watch` answer for it."""

    def __init__(self, h: Harness, seats: int, *, sit: bool = True) -> None:
        old = h.host
        link = next_link(old.table)
        assert link is not None
        roster = [(p.table.member_at(p.seat).key, p.name) for p in h.peers]  # type: ignore[union-attr]
        self.host = Host(old.identity, "ann", GAMES, "unanimo", {"cards": 1}, seats, night=link,
                         roster=roster)  # fmt: skip
        self.host.spectators_sit = sit
        self.seat_conns = [self.host.offer(None, key) for key, _name in roster]
        self.seats: list[Peer] = []
        for p, cid in zip(h.peers, self.seat_conns, strict=True):
            p.receive_data(self.host.data_to_send(cid))
            self.seats.append(p.next_peer())
        self.old = list(h.watchers)
        self.conns = [self.host.offer(None, None) for _ in h.watchers]
        self.pending: list[list[bytes]] = []  # what each spectator was sent after the offer
        self.offers: list[Offer] = []
        for w, cid in zip(h.watchers, self.conns, strict=True):
            offer, *rest = _frames(self.host.data_to_send(cid))
            msg = decode_message(offer)
            assert isinstance(msg, Offer)
            self.offers.append(msg)
            w.receive_data(frame(offer))
            self.pending.append([frame(f) for f in rest])
        self.spectators: list[Peer | None] = [None] * len(h.watchers)

    def _take(self, i: int, party: Peer) -> None:
        self.spectators[i] = party
        for data in self.pending[i]:
            party.receive_data(data)

    def ask(self, i: int, name: str, identity: Identity | None = None) -> Peer:
        """Spectator ``i`` asks for a seat as ``name``."""
        sitter = self.old[i].next_sitter(identity or Identity(), name)  # type: ignore[attr-defined]
        self._take(i, sitter)
        return sitter

    def watch(self, i: int) -> None:
        """Spectator ``i`` keeps watching."""
        self._take(i, self.old[i].next_watcher())  # type: ignore[attr-defined]

    def deliver(self, order: Sequence[int] | None = None) -> None:
        """The seats' answers, then the spectators' (in ``order``), to the host."""
        for p, cid in zip(self.seats, self.seat_conns, strict=True):
            self.host.receive_data(cid, p.data_to_send())
        for i in order if order is not None else range(len(self.conns)):
            party = self.spectators[i]
            if party is not None and (data := party.data_to_send()):
                self.host.receive_data(self.conns[i], data)

    def pump(self) -> None:
        """Bytes both ways until nobody has anything to send (a refused sitter watches
        again)."""
        moved = True
        while moved:
            moved = False
            everyone = [*zip(self.seats, self.seat_conns, strict=True),
                        *zip(self.spectators, self.conns, strict=True)]  # fmt: skip
            for party, cid in everyone:
                if party is None or self.host.finished(cid):
                    continue
                if data := party.data_to_send():
                    self.host.receive_data(cid, data)
                    moved = True
                if data := self.host.data_to_send(cid):
                    party.receive_data(data)
                    moved = True
            for i, party in enumerate(self.spectators):
                if party is not None and party.sit_refused is not None:
                    self.spectators[i] = Watcher.after_refusal(party)

    def events(self, kind: type) -> list:
        out = []
        while (ev := self.host.next_event()) is not None:
            if isinstance(ev, kind):
                out.append(ev)
        return out


def _refusals(party: Peer) -> list[str]:
    out = []
    while (ev := party.next_event()) is not None:
        if isinstance(ev, SitRefused):
            out.append(ev.reason)
    return out


def test_a_spectator_sits_plays_and_is_offered_the_game_after_as_a_player() -> None:
    h = _played(watchers=2)
    zed = Identity()
    host = h.next_game("unanimo", {"cards": 1}, _bots(4), seats=4, sit=[(zed, "zed"), None])
    h.run()
    assert host.phase is Phase.CLOSED
    assert [m.name for m in host.table.members] == ["ann", "bo", "cy", "zed"]
    assert host.table.member(zed.public.raw) is not None  # under its own key
    assert len(h.watchers) == 1 and h.watchers[0].transcript() == host.transcript()
    for party in [*h.peers, *h.watchers]:
        assert party.transcript() == host.transcript()
    assert audit_transcript(host.transcript(), GAMES).ok
    # game 3: zed is a player of the game before, offered it as a seat, and stays
    third = h.next_game("unanimo", {"cards": 1}, _bots(4))
    h.run()
    assert third.phase is Phase.CLOSED
    assert [m.name for m in third.table.members] == ["ann", "bo", "cy", "zed"]
    assert audit_transcript(third.transcript(), GAMES).ok


def test_more_ask_than_seats_free_the_longest_watching_sits_whoever_answers_first() -> None:
    h = _played(watchers=3)
    night = Night(h, seats=4)  # one seat free: 4 - the host - bo and cy
    assert [o.free for o in night.offers] == [1, 1, 1]
    asked = [night.ask(i, name) for i, name in enumerate(["zed", "yan", "xia"])]
    night.deliver(order=[2, 1, 0])  # the last offered answers first
    night.pump()
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy", "zed"]
    assert night.host.table.phase is not Phase.LOBBY  # full: the seats are fixed
    assert asked[0].seat == 3
    for sitter in asked[1:]:
        assert _refusals(sitter) == ["no seat is left: the players who stayed, and the "
                                     "spectators watching longer, took them"]  # fmt: skip
    denied = night.events(SeatDenied)
    assert {d.name for d in denied} == {"yan", "xia"}
    # the refused ones watch on, on the same connections
    assert all(isinstance(night.spectators[i], Watcher) for i in (1, 2))
    assert all(night.host.watching(night.conns[i]) for i in (1, 2))
    assert not night.host.watching(night.conns[0]) and night.host.seated(night.conns[0])


def test_no_spectator_sits_before_every_one_offered_a_seat_answered() -> None:
    h = _played(watchers=2)
    night = Night(h, seats=4)
    yan = night.ask(1, "yan")  # the later one asks at once
    night.deliver()
    night.pump()
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy"]  # zed's turn
    assert night.host.table.phase is Phase.LOBBY
    night.ask(0, "zed")  # the first one offered asks last: it sits
    night.pump()
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy", "zed"]
    assert yan.seat is None and _refusals(yan)
    # had it kept watching, yan would have sat
    h2 = _played(watchers=2)
    night2 = Night(h2, seats=4)
    night2.ask(1, "yan")
    night2.deliver()
    night2.pump()
    night2.watch(0)
    night2.pump()
    assert [m.name for m in night2.host.table.members] == ["ann", "bo", "cy", "yan"]
    asked = night2.events(SeatAsked)
    assert [a.name for a in asked] == ["yan"]


def test_the_time_to_answer_ends_and_whoever_asked_in_time_sits() -> None:
    h = _played(watchers=2)
    night = Night(h, seats=4)
    night.ask(1, "yan")
    night.deliver()
    night.pump()
    assert night.host.table.phase is Phase.LOBBY  # zed has not answered
    night.host.end_answers()
    night.pump()
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy", "yan"]
    night.watch(0)  # too late to matter: it watches, as it does with no answer
    night.pump()
    assert night.host.watching(night.conns[0])


def _hello(night: Night, i: int, nonce: bytes | None = None) -> bytes:
    """A hand-made hello on spectator ``i``'s connection (its offer's challenge, unless
    ``nonce``)."""
    me = Identity()
    sig = hello_signature(me, nonce if nonce is not None else night.offers[i].nonce, 0)
    return frame(encode_message(Hello(me.public.raw, 0, sig)))


def _refused_at_sit(data: bytes) -> list[Refuse]:
    msgs = [decode_message(f) for f in _frames(data)]
    return [m for m in msgs if isinstance(m, Refuse) and m.pos == SIT_POS]


@pytest.mark.parametrize(("sit", "seats", "why"), [
    (False, 4, "the host lets no spectator take a seat at this table"),
    (True, 3, "no seat is free for spectators at this table"),
])  # fmt: skip
def test_asking_where_no_seat_is_given_is_refused_and_it_watches_on(
    sit: bool, seats: int, why: str
) -> None:
    h = _played(watchers=1)
    night = Night(h, seats=seats, sit=sit)
    assert night.offers[0].free == 0
    with pytest.raises(Exception, match="no seat free"):  # our own side will not ask
        night.old[0].next_sitter(Identity(), "zed")  # type: ignore[attr-defined]
    cid = night.conns[0]
    night.host.receive_data(cid, _hello(night, 0))
    [refuse] = _refused_at_sit(night.host.data_to_send(cid))
    assert refuse.reason == why and not refuse.fatal
    assert night.host.watching(cid) and not night.host.finished(cid)
    night.deliver()
    night.pump()  # the table goes on; the spectator is still sent it
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy"]
    assert night.host.table.phase is not Phase.LOBBY


def test_a_name_taken_is_refused_and_the_spectator_watches_the_game_to_its_end() -> None:
    h = _played(watchers=1)
    night = Night(h, seats=4)
    bob = night.ask(0, "BO")  # bo sits there already (names are compared without case)
    night.deliver()
    night.pump()
    assert _refusals(bob) == ["the name 'BO' is already taken at this table"]
    assert [m.name for m in night.host.table.members] == ["ann", "bo", "cy"]
    assert night.host.table.phase is not Phase.LOBBY  # started with those who stayed
    watcher = night.spectators[0]
    assert isinstance(watcher, Watcher)
    assert watcher.table.log.head == night.host.table.log.head


def test_asking_twice_or_for_another_table_lets_the_spectator_go() -> None:
    h = _played(watchers=2)
    night = Night(h, seats=4)
    sitter = night.ask(0, "zed")
    cid = night.conns[0]
    night.host.receive_data(cid, sitter.data_to_send())
    with pytest.raises(RemoteProtocolError, match="asked for a seat twice"):
        night.host.receive_data(cid, _hello(night, 0))
    assert night.host.finished(cid)
    # a hello signing another challenge (another table's offer) does not verify
    other = night.conns[1]
    with pytest.raises(RemoteProtocolError):
        night.host.receive_data(other, _hello(night, 1, nonce=night.offers[0].nonce))
    assert night.host.finished(other)
    # a spectator of a table that offered it no seat may not say hello at all
    h2 = _played(watchers=1)
    night2 = Night(h2, seats=3)
    night2.watch(0)
    night2.deliver()
    night2.pump()
    with pytest.raises(RemoteProtocolError, match="hello"):
        night2.host.receive_data(night2.conns[0], _hello(night2, 0))

"""A night at one table, sans-IO: once a table closes, its host offers the next game over the
same connections; each seat checks the offer against the table it closed and stays or leaves;
the next table seats the players who stay in their old seat order, whatever order their
answers arrive in, and is a table of its own (id, keys, log, audit). Every byte of the offer
and the answers is hostile until checked: what a host or a peer does wrong is refused naming
who did it, and ends nothing but that connection (or the night)."""

from __future__ import annotations

import pytest

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from protocol import (
    TALK_BURST,
    TALK_EVERY,
    Answered,
    Applied,
    Entry,
    Host,
    LocalProtocolError,
    NightLink,
    Offered,
    OpenTable,
    Peer,
    Phase,
    RemoteProtocolError,
    Said,
    SignedEntry,
    Stopped,
    TooFew,
    audit_transcript,
    decode_message,
    encode_message,
    frame,
)
from protocol._bodies import Join
from protocol._messages import Hello, Offer, SaidLine, hello_signature
from protocol._night import next_link
from protocol._talk import sign_talk
from protocol.harness import Harness

from .conftest import Honest


def _bots(game: str, n: int) -> list:
    return [bots_for(game)["heuristic"]() for _ in range(n)]


def _played(seats: int = 3, watchers: int = 0, game: str = "unanimo") -> Harness:
    """A closed table of ``game`` (one Unanimo card: no deck to shuffle, so quick) at which
    ann hosts bo, cy (and di)."""
    options, bots = ({"cards": 1}, _bots(game, seats)) if game == "unanimo" else (
        {"rounds": 1}, [Honest() for _ in range(seats)])  # fmt: skip
    h = Harness(GAMES, game, seats, options, bots, seed=5,
                names=["ann", "bo", "cy", "di"][:seats], watchers=watchers)  # fmt: skip
    h.run()
    assert h.done and all(p.phase is Phase.CLOSED for p in h.parties)
    return h


def _events(party, kind):  # type: ignore[no-untyped-def]
    out = []
    while (ev := party.next_event()) is not None:
        if isinstance(ev, kind):
            out.append(ev)
    return out


def test_a_night_of_three_games_over_the_same_connections() -> None:
    h = _played(3, watchers=1, game="kato")
    first = h.host
    tables = [first]
    links = []
    for game, options in (("unanimo", {"cards": 1}), ("unanimo", {"cards": 1})):
        before = h.host
        link = next_link(before.table)
        host = h.next_game(game, options, _bots(game, 3))
        h.run()
        assert h.done and all(p.phase is Phase.CLOSED for p in h.parties), h.host.phase
        assert host.table_id not in [t.table_id for t in tables]
        assert [m.name for m in host.table.members] == ["ann", "bo", "cy"]  # the old order
        assert host.table.key_shares != before.table.key_shares  # fresh keys
        links.append(link)
        tables.append(host)
    # each transcript audits on its own, and the links chain them
    for number, t in enumerate(tables, 1):
        report = audit_transcript(t.transcript(), GAMES)
        assert report.ok and report.table_open is not None
        night = report.table_open.night
        if number == 1:
            assert night is None
            continue
        before = tables[number - 2]
        assert night == NightLink(first.table_id, before.table_id, before.table.closing, number)
    # every peer holds the same log as its host; the spectator followed all three
    assert all(p.transcript() == h.host.transcript() for p in h.peers)
    assert h.watchers[0].transcript() == h.host.transcript()


def test_seats_follow_the_old_order_whatever_order_the_answers_come_in() -> None:
    h = _played(4)
    host = h.next_game("unanimo", {"cards": 1}, _bots("unanimo", 4), order=[2, 1, 0])
    h.run()
    assert [m.name for m in host.table.members] == ["ann", "bo", "cy", "di"]
    answered = [e for e in h.events[0] if isinstance(e, Answered)] or _events(host, Answered)
    assert h.done and host.phase is Phase.CLOSED, answered


def test_a_player_who_leaves_leaves_one_seat_fewer() -> None:
    h = _played(4)
    host = h.next_game("unanimo", {"cards": 1}, _bots("unanimo", 3), stays=[True, False, True])
    h.run()
    assert host.phase is Phase.CLOSED
    assert [m.name for m in host.table.members] == ["ann", "bo", "di"]
    assert host.table.capacity == 4 and len(host.table.key_shares) == 3  # started at 3


def test_too_few_stay_then_another_game_is_offered_in_its_place() -> None:
    h = _played(3)
    closed = h.host
    keep = h.peers[0]  # bo stays, cy leaves: unanimo needs 3
    host = h.next_game("unanimo", {"cards": 1}, _bots("unanimo", 2), stays=[True, False])
    h.pump()
    assert [e for e in h.events[0] if isinstance(e, TooFew)] == [TooFew("unanimo", 2, 3)]
    assert host.phase is Phase.LOBBY
    host.halt("too few players stayed for unanimo (2 of 3)")
    h.pump()
    bo = h.peers[0]
    assert bo.phase is Phase.STOPPED and bo.table.opening.night == next_link(closed.table)
    # the same link, another game: taken in the place of the one that never started
    again = Host(
        closed.identity,
        "ann",
        GAMES,
        "kato",
        {"rounds": 1},
        2,
        night=next_link(bo.table),
        roster=[(keep.table.me.identity.public.raw, "bo")],
    )
    cid = again.offer(None, keep.table.me.identity.public.raw)
    bo.receive_data(again.data_to_send(cid))
    [offered] = _events(bo, Offered)
    assert offered.opening.game == "kato" and offered.table == again.table_id
    nxt = bo.next_peer()
    again.receive_data(cid, nxt.data_to_send())
    h.host, h.peers, h.conns, h.bots = again, [nxt], [cid], [Honest(), Honest()]
    h.received, h.events = [[], []], [[], []]
    h.run()
    assert again.phase is Phase.CLOSED and nxt.phase is Phase.CLOSED


# --------------------------------------------------------------------------- the host's faults


def _offer_of(host: Host, peer: Peer) -> Offer:
    cid = host.offer(None, peer.table.me.identity.public.raw)
    msg = decode_message(host.data_to_send(cid)[4:])
    assert isinstance(msg, Offer)
    return msg


def _next_host(h: Harness, **change) -> Host:  # type: ignore[no-untyped-def]
    link = next_link(h.host.table)
    link = NightLink(**{**link.to_plain(), **change}) if change else link
    roster = [(p.table.me.identity.public.raw, p.name) for p in h.peers]
    return Host(h.host.identity, "ann", GAMES, "kato", {"rounds": 1}, 3, night=link, roster=roster)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"after": bytes(16), "first": bytes(16)}, "does not follow the table just finished"),
        ({"digest": bytes(32)}, "another closing digest"),
        ({"number": 3, "first": bytes(16)}, "numbered 3 of another night"),
    ],
)
def test_an_offer_that_does_not_follow_this_table_is_refused_naming_the_host(change, why) -> None:  # type: ignore[no-untyped-def]
    h = _played(3)
    bo = h.peers[0]
    offer = _offer_of(_next_host(h, **change), bo)
    with pytest.raises(RemoteProtocolError, match=why) as info:
        bo.receive_data(frame(encode_message(offer)))
    assert info.value.seat == 0 and info.value.culprit == h.host.identity.public.fingerprint
    assert bo.offer is None


def test_an_offer_by_another_key_or_during_a_game_is_refused() -> None:
    h = _played(3)
    bo = h.peers[0]
    link = next_link(h.host.table)
    stranger = Host(Identity(), "eve", GAMES, "kato", {"rounds": 1}, 3, night=link)
    forged = _offer_of_any(stranger)
    with pytest.raises(RemoteProtocolError, match="cannot be read"):
        bo.receive_data(frame(encode_message(forged)))  # not signed by bo's host
    playing = Harness(GAMES, "kato", 2, {"rounds": 1}, [Honest(), Honest()], seed=1)
    playing.pump()
    peer = playing.peers[0]
    with pytest.raises(RemoteProtocolError, match="while this table is game"):
        peer.receive_data(frame(encode_message(_offer_of(_next_host(h), bo))))


def _offer_of_any(host: Host) -> Offer:
    opened = host.table.log.entries[0]
    return Offer(opened.raw, opened.sig, bytes(32))


def test_two_different_offers_are_refused_one_offer_twice_is_not() -> None:
    h = _played(3)
    bo = h.peers[0]
    one = _offer_of(_next_host(h), bo)
    bo.receive_data(frame(encode_message(one)))
    bo.receive_data(frame(encode_message(one)))  # the same again: nothing
    assert len(_events(bo, Offered)) == 1
    other = _offer_of(_next_host(h), bo)
    with pytest.raises(RemoteProtocolError, match="two different next games") as info:
        bo.receive_data(frame(encode_message(other)))
    assert info.value.culprit == h.host.identity.public.fingerprint


def test_a_relay_of_another_table_than_offered_stops_the_seat_naming_the_host() -> None:
    h = _played(3)
    bo = h.peers[0]
    host = _next_host(h)
    other = _next_host(h)
    bo.receive_data(frame(encode_message(_offer_of(host, bo))))
    nxt = bo.next_peer()
    cid = other.connect()
    other.data_to_send(cid)  # its challenge: not sent
    other.receive_data(cid, frame(encode_message(Hello(
        nxt.table.me.identity.public.raw, 0,
        hello_signature(nxt.table.me.identity, other._conns[cid].nonce, 0)))))  # fmt: skip
    nxt.data_to_send()
    nxt.receive_data(other.data_to_send(cid))
    [stop] = _events(nxt, Stopped)
    assert "relayed another table than the one it offered" in stop.error.reason
    assert stop.error.culprit == h.host.identity.public.fingerprint


# --------------------------------------------------------------------------- the seats' faults


def _offered(h: Harness) -> tuple[Host, list[int]]:
    host = _next_host(h)
    cids = [host.offer(None, p.table.me.identity.public.raw) for p in h.peers]
    for p, cid in zip(h.peers, cids, strict=True):
        p.receive_data(host.data_to_send(cid))
    return host, cids


def test_answering_twice_or_with_another_key_or_for_another_table_is_refused() -> None:
    h = _played(3)
    host, (bo_cid, cy_cid) = _offered(h)
    bo, cy = h.peers
    hello = bo.next_peer().data_to_send()
    host.receive_data(bo_cid, hello)
    with pytest.raises(RemoteProtocolError, match="a second hello") as info:
        host.receive_data(bo_cid, hello)  # bo answers twice
    assert info.value.culprit == bo.table.me.identity.public.fingerprint
    # cy answers on its connection with bo's key (signed properly: bo's key is in hand here)
    nonce = host._conns[cy_cid].nonce
    me = bo.table.me.identity
    with pytest.raises(RemoteProtocolError, match="another key than its own"):
        host.receive_data(
            cy_cid, frame(encode_message(Hello(me.public.raw, 0, hello_signature(me, nonce, 0))))
        )
    # an answer signed for another offer (another table's challenge) does not verify
    other = _next_host(h)
    cid = other.offer(None, cy.table.me.identity.public.raw)
    stale = cy.next_peer().data_to_send()  # signed for the first offer's challenge
    with pytest.raises(RemoteProtocolError, match="bad hello signature"):
        other.receive_data(cid, stale)


def test_a_join_of_another_table_or_by_a_stranger_is_refused() -> None:
    h = _played(3)
    host, (bo_cid, _cy) = _offered(h)
    bo = h.peers[0]
    nxt = bo.next_peer()
    host.receive_data(bo_cid, nxt.data_to_send())
    nxt.receive_data(host.data_to_send(bo_cid))
    nxt.data_to_send()  # its join, dropped: bo answers with a join of the closed table
    me = nxt.table.me
    old = Entry(h.host.table_id, 1, host.table.log.head, me.identity.public.raw,
                Join("bo", me.seal.public))  # fmt: skip
    se = SignedEntry.create(me.identity, old)
    from protocol._messages import Propose

    host.receive_data(bo_cid, frame(encode_message(Propose(se.raw, se.sig))))
    said = host.data_to_send(bo_cid).decode(errors="replace")
    assert "replayed an entry of another table" in said
    # a stranger says hello and proposes a join: refused for good
    eve = Peer(Identity(), "eve", GAMES)
    cid = host.connect()
    eve.receive_data(host.data_to_send(cid))
    host.receive_data(cid, eve.data_to_send())
    eve.receive_data(host.data_to_send(cid))
    host.receive_data(cid, eve.data_to_send())
    eve.receive_data(host.data_to_send(cid))
    assert eve.refused == "this table seats only the players of the game before"
    assert all(m.name != "eve" for m in host.table.members)


def test_a_seat_lost_after_it_stayed_takes_its_place_when_it_resumes() -> None:
    h = _played(3)
    host, (bo_cid, cy_cid) = _offered(h)
    bo, cy = h.peers
    from crypto import KeyShare, SealKey

    key, seal = KeyShare(), SealKey()
    nxt = bo.next_peer(key=key, seal=seal)  # kept first: a restarted bo holds the same
    host.receive_data(bo_cid, nxt.data_to_send())
    host.close(bo_cid)  # bo's program dies right after it said hello: it had stayed?
    assert not [e for e in _events(host, Answered) if e.stays]  # no join yet: it left
    # cy stays; bo comes back with its kept secrets and proposes its join as any seat would
    cy_next = cy.next_peer()
    host.receive_data(cy_cid, cy_next.data_to_send())
    back = Peer(bo.table.me.identity, "bo", GAMES, key=key, seal=seal)
    back.resume(host.table_id)
    cid = host.connect()
    back.receive_data(host.data_to_send(cid))
    with pytest.raises(RemoteProtocolError, match="answered too late"):
        host.receive_data(cid, back.data_to_send())  # it left: its answer never came
    assert host.finished(cid)


def test_a_seat_that_stayed_then_died_resumes_at_the_next_table() -> None:
    h = _played(3)
    host, (bo_cid, cy_cid) = _offered(h)
    bo, cy = h.peers
    from crypto import KeyShare, SealKey

    key, seal = KeyShare(), SealKey()
    nxt = bo.next_peer(key=key, seal=seal)
    host.receive_data(bo_cid, nxt.data_to_send())
    nxt.receive_data(host.data_to_send(bo_cid))  # the open: its join goes out
    host.receive_data(bo_cid, nxt.data_to_send())
    host.close(bo_cid)  # it stayed (its join came), then its program died
    assert [e.name for e in _events(host, Answered) if e.stays] == ["bo"]
    back = Peer(bo.table.me.identity, "bo", GAMES, key=key, seal=seal)
    back.resume(host.table_id)
    cid = host.connect()
    cy_next = cy.next_peer()
    host.receive_data(cy_cid, cy_next.data_to_send())
    back.receive_data(host.data_to_send(cid))
    host.receive_data(cid, back.data_to_send())
    h.host, h.peers, h.conns = host, [back, cy_next], [cid, cy_cid]
    h.bots = [Honest(), Honest(), Honest()]
    h.received, h.events = [[], [], []], [[], [], []]
    h.run()
    assert host.phase is Phase.CLOSED and back.phase is Phase.CLOSED
    assert [m.name for m in host.table.members] == ["ann", "bo", "cy"]


def test_only_a_night_table_is_offered_and_only_to_its_players() -> None:
    h = _played(3)
    with pytest.raises(LocalProtocolError):
        h.host.offer(None, None)  # a table that starts a night
    host = _next_host(h)
    with pytest.raises(LocalProtocolError):
        host.offer(None, Identity().public.raw)
    with pytest.raises(LocalProtocolError):
        Host(Identity(), "ann", GAMES, "kato", {"rounds": 1}, 3, roster=[(bytes(32), "x")])
    assert isinstance(host.table.opening, OpenTable)
    assert [e for e in h.events[0] if isinstance(e, Applied)]


def test_the_time_to_answer_gives_up_on_a_seat_gone_before_its_turn_to_sit() -> None:
    h = _played(3)
    host, (bo_cid, cy_cid) = _offered(h)
    bo, cy = h.peers
    cy_next = cy.next_peer()
    host.receive_data(cy_cid, cy_next.data_to_send())
    cy_next.receive_data(host.data_to_send(cy_cid))
    host.receive_data(cy_cid, cy_next.data_to_send())  # cy's join: held until bo answers
    bo_next = bo.next_peer()
    host.receive_data(bo_cid, bo_next.data_to_send())
    bo_next.receive_data(host.data_to_send(bo_cid))
    host.receive_data(bo_cid, bo_next.data_to_send())  # bo sits; cy's join is now stale
    host.close(cy_cid)  # and cy's program dies before it proposes it again
    assert [m.name for m in host.table.members] == ["ann", "bo"]
    assert host.phase is Phase.LOBBY  # cy stayed: its seat is waited for
    host.end_answers()  # the time to answer is over
    assert host.phase is Phase.KEYS and [m.name for m in host.table.members] == ["ann", "bo"]
    assert [(e.name, e.stays) for e in _events(host, Answered)] == [
        ("cy", True),
        ("bo", True),
        ("cy", False),
    ]


def test_talk_goes_on_at_the_next_table_numbered_and_rated_on() -> None:
    """A line said at game 2 reaches every seat and the spectator; its author's numbers go
    on from game 1 (a new table resets no rate), and a line of game 1 replayed at game 2 is
    shown by nobody (it is signed over game 1's table)."""
    h = Harness(GAMES, "unanimo", 3, {"cards": 1}, _bots("unanimo", 3), seed=5,
                names=["ann", "bo", "cy"], watchers=1)  # fmt: skip
    h.pump()
    bo = h.by_seat(1)
    assert isinstance(bo, Peer)
    for i in range(TALK_BURST):
        bo.say(f"line {i}")
    h.pump()
    last = bo._talker.last if bo._talker is not None else None
    old_said = [e for e in h.events[0] if isinstance(e, Said)]
    assert [e.text for e in old_said] == [f"line {i}" for i in range(TALK_BURST)]
    h.run()
    assert h.done
    h.next_game("unanimo", {"cards": 1}, _bots("unanimo", 3))
    h.pump()
    nbo = h.by_seat(1)
    assert isinstance(nbo, Peer) and nbo is not bo and nbo.table.table_id != bo.table.table_id
    with pytest.raises(LocalProtocolError, match="too fast"):
        nbo.say("still here")  # the burst was spent at game 1, on the same clock
    h.tick(TALK_EVERY)
    nbo.say("game 2, everyone")
    h.pump()
    assert nbo._talker is not None and last is not None and nbo._talker.last == last + 1
    for events in [*h.events, h.watch_events[0]]:
        said = [(e.seat, e.name, e.text) for e in events if isinstance(e, Said)]
        assert (1, "bo", "game 2, everyone") in said
    # game 1's line, signed over game 1's table, relayed again at game 2: nobody shows it
    me = bo.table.me
    assert me is not None and bo.table.table_id is not None
    sig = sign_talk(me.identity, bo.table.table_id, last + 1000, "old line", "")
    bent = frame(encode_message(SaidLine(me.identity.public.raw, "", "old line", last + 1000,
                                         sig)))  # fmt: skip
    cy = h.by_seat(2)
    assert isinstance(cy, Peer)
    dropped = cy.hearing.dropped
    cy.receive_data(bent)
    assert cy.hearing.dropped == dropped + 1

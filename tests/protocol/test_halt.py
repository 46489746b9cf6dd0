"""The host halting a table: a peer vanished or stalled. Every peer stops, names the seat
blamed, and takes no entry after; the halt frame is decoded strictly."""

from __future__ import annotations

import pytest

from crypto import Identity
from protocol import (
    Halt,
    Host,
    Phase,
    RemoteProtocolError,
    Stopped,
    audit_transcript,
    decode_message,
    encode_message,
)
from protocol._codec import pack
from protocol._frames import frame
from protocol.harness import Harness

from .conftest import Honest


def _stops(party: Host) -> list[Stopped]:
    return [e for e in iter(party.next_event, None) if isinstance(e, Stopped)]


def test_halt_stops_every_peer_naming_the_seat(games):
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=4)
    h.pump()
    h.step()
    h.pump()
    assert h.host.phase is Phase.GAME
    carl = h.host.table.member_at(2)
    assert carl is not None
    h.host.halt("seat 2 (p2) vanished", seat=2)
    h.pump()
    assert all(p.phase is Phase.STOPPED for p in h.parties)
    for events in h.events:
        [stop] = [e for e in events if isinstance(e, Stopped)]
        assert "seat 2 (p2) vanished" in str(stop.error)
        assert stop.error.seat == 2 and stop.error.culprit == carl.fingerprint
    # Nothing moves after a halt: the host takes no move of its own, a second halt is a no-op.
    before = len(h.host.table.log)
    h.host.halt("again")
    assert not h.step() and len(h.host.table.log) == before


def test_halt_after_the_table_closed_changes_nothing(games):
    h = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=5)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    h.host.halt("too late", seat=1)
    h.pump()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert not _stops(h.host)


def test_halt_frame_round_trips_and_is_strict():
    msg = Halt(2, "seat 2 vanished")
    assert decode_message(encode_message(msg)) == msg
    for bad in (
        {"v": 1, "type": "halt", "seat": -2, "reason": "x"},
        {"v": 1, "type": "halt", "seat": 1, "reason": "x" * 2000},
        {"v": 1, "type": "halt", "seat": "1", "reason": "x"},
        {"v": 1, "type": "halt", "seat": 1},
        {"v": 1, "type": "halt", "seat": 1, "reason": "x", "extra": 0},
    ):
        with pytest.raises(RemoteProtocolError):
            decode_message(pack(bad))


def test_a_peer_may_not_send_a_halt(games):
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 2)
    cid = host.connect()
    with pytest.raises(RemoteProtocolError, match="a peer sent a halt frame"):
        host.receive_data(cid, frame(encode_message(Halt(-1, "bye"))))


def test_waiting_on_names_the_author_of_every_next_entry(games):
    """Before each entry is sequenced, ``waiting_on`` named its author and kind (a move may
    come from an out-of-turn seat instead of the turn-holder named)."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=6)
    predicted: dict[int, tuple[int, str] | None] = {}
    sequence = h.host._relay_one

    def spy(se, **kw):
        predicted[se.entry.pos] = h.host.table.waiting_on()
        return sequence(se, **kw)

    h.host._relay_one = spy
    h.run()
    assert h.host.phase is Phase.CLOSED and h.host.table.waiting_on() is None
    kinds = set()
    for entry in h.host.table.log.entries:
        pos, kind = entry.entry.pos, entry.entry.body.KIND
        if kind in ("open", "join", "start"):  # the lobby: nobody is waited on
            assert predicted.get(pos) is None
            continue
        member = h.host.table.member(entry.entry.author)
        assert member is not None
        seat, owed = predicted[pos]
        assert owed == kind, (pos, kind, predicted[pos])
        if kind != "move":
            assert seat == member.seat, (pos, kind, predicted[pos])
        kinds.add(kind)
    assert {"key", "shuffle", "shares", "move", "secrets", "signoff"} <= kinds


def test_an_offline_audit_of_a_halted_table_says_whose_entry_was_due(games):
    """A halt is not in the log: the transcript just ends. Its audit is incomplete and names
    the seat the table was waiting on there, and what it owed; a whole game names none."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=4)
    h.pump()
    h.step()
    h.pump()
    due = h.host.table.waiting_on()
    assert due is not None
    h.host.halt("p2 (seat 2) left the table", seat=2)
    h.pump()
    for party in h.parties:
        report = audit_transcript(party.transcript(), games)
        assert not report.complete and report.waiting == due
    whole = Harness(games, "kato", 2, {"rounds": 1}, [Honest()] * 2, seed=5)
    whole.run()
    report = audit_transcript(whole.host.transcript(), games)
    assert report.complete and report.waiting is None


def test_a_halt_for_a_withheld_coin_opening_blames_the_seat_or_the_host(games):
    """The host says seat 2 withholds its coin opening. Seat 2 may be holding it back (it
    has seen the others' openings: an abort steers the coin), but so may the host, which
    relays every entry and has seen them first: the peers name both, and blame neither."""
    h = Harness(games, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=6)
    while h.host.table.waiting_on() != (2, "coin_open"):  # one exchange at a time
        assert h.exchange(), h.host.table.waiting_on()
    h.host.halt("p2 (seat 2)'s coin opening is more than 60 s late", seat=2)
    peer = h.peers[0]
    peer.receive_data(h.host.data_to_send(h.conns[0]))
    [stop] = [e for e in iter(peer.next_event, None) if isinstance(e, Stopped)]
    err = stop.error
    assert err.culprit is None and err.seat is None and peer.phase is Phase.STOPPED
    assert str(err) == ("the host stopped the table: p2 (seat 2)'s coin opening is more than "
                        "60 s late; either p2 (seat 2) or the host withheld it")  # fmt: skip

"""Table talk through the sans-IO core (issue 24): a line said at a table reaches every seat
and spectator as a ``Said`` event, signed by its author and checked again by every receiver;
the host refuses — to its author alone, ending nothing — a forged signature, a replayed
number, a text too long or with control characters, a flood, a spectator's line without its
permission; a host that forges, replays or bends a line gets it shown by nobody; and talk
never changes the log."""

from __future__ import annotations

import pytest

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from protocol import (
    MAX_TALK,
    TALK_BURST,
    TALK_EVERY,
    LocalProtocolError,
    Peer,
    Phase,
    Said,
    SaidLine,
    Say,
    TalkRefused,
    encode_message,
    frame,
)
from protocol._talk import TALK_QUEUE, sign_talk
from protocol.harness import Harness

from .conftest import Lobby


def _harness(watchers: int = 1) -> Harness:
    factories = list(bots_for("kato").values())
    bots = [factories[s % len(factories)]() for s in range(3)]
    h = Harness(GAMES, "kato", 3, {"rounds": 1}, bots, seed=3, names=["Ann", "Bea", "Carl"],
                watchers=watchers)  # fmt: skip
    h.pump()  # seated, keys, shuffled, dealt: the first move is due
    return h


def _said(events: list[object]) -> list[tuple[int | None, str, str]]:
    return [(e.seat, e.name, e.text) for e in events if isinstance(e, Said)]


def _refused(events: list[object]) -> list[str]:
    return [e.reason for e in events if isinstance(e, TalkRefused)]


def _everyone(h: Harness) -> list[list[object]]:
    """What every seat's and every spectator's events hold."""
    return [*h.events, *h.watch_events]  # type: ignore[list-item]


def _say_frame(peer: Peer, text: str, n: int, *, sig: bytes | None = None,
               name: str = "") -> bytes:  # fmt: skip
    """A ``say`` frame from ``peer``'s key as any program could build it (bypassing
    :meth:`Peer.say`'s own checks)."""
    me = peer.table.me
    assert me is not None and peer.table.table_id is not None
    if sig is None:
        sig = sign_talk(me.identity, peer.table.table_id, n, text, name)
    return frame(encode_message(Say(me.identity.public.raw, name, text, n, sig)))


def test_a_line_reaches_every_seat_and_spectator() -> None:
    h = _harness()
    bea = h.by_seat(1)
    assert isinstance(bea, Peer)
    bea.say("good luck")
    h.pump()
    h.host.say("thanks, you too")
    h.pump()
    for events in _everyone(h):
        assert _said(events) == [(1, "Bea", "good luck"), (0, "Ann", "thanks, you too")]
    said = next(e for e in h.events[0] if isinstance(e, Said))
    assert said.fingerprint == bea.table.member_at(1).fingerprint  # type: ignore[union-attr]
    assert all(p.phase is Phase.GAME for p in h.parties)


def test_talk_in_the_waiting_room_before_the_game() -> None:
    lobby = Lobby(GAMES, seats=4)
    bo, cy = lobby.add("Bo"), lobby.add("Cy")
    lobby.host.tick(0.0)
    bo.say("anyone else coming?")
    lobby.pump()
    for party in (lobby.host, bo, cy):
        events = []
        while (e := party.next_event()) is not None:
            events.append(e)
        assert _said(events) == [(1, "Bo", "anyone else coming?")]
    assert lobby.host.phase is Phase.LOBBY


def test_what_the_host_refuses_ends_nothing() -> None:
    h = _harness()
    bea = h.by_seat(1)
    assert isinstance(bea, Peer)
    i = h.peers.index(bea)
    ok = _say_frame(bea, "hello", 11)
    lines = [
        _say_frame(bea, "I am Ann", 10, sig=bytes(64)),  # a forged signature
        ok,
        ok,  # the same line again: its number is not new
        _say_frame(bea, "x" * (MAX_TALK + 1), 12),  # too long
        _say_frame(bea, " padded", 13),  # a space at one end
        _say_frame(bea, "\x1b]0;pwned\x07 red", 14),  # control characters
        _say_frame(bea, "", 15),  # empty
    ]
    for n, line in enumerate(lines):  # at the pace the host allows
        h.tick(n * TALK_EVERY)
        h.deliver_to_host(i, line)
    h.pump()
    refusals = _refused(h.events[i + 1])
    assert len(refusals) == 6, refusals
    assert "bad signature" in refusals[0]
    assert "said again" in refusals[1]
    assert (
        refusals[2]
        == refusals[3]
        == refusals[5]
        == (f"a line of talk is 1 to {MAX_TALK} characters, with no space at either end")
    )
    assert refusals[4] == "a line of talk has no control characters"
    for events in _everyone(h):
        assert _said(events) == [(1, "Bea", "hello")]  # the one good line, once
    assert not h.host.finished(h.conns[i]) and bea.refused is None and bea.stopped is None
    assert all(p.phase is Phase.GAME for p in h.parties)
    h.run()  # the game goes on to its end
    assert all(p.phase is Phase.CLOSED for p in h.parties)


def test_a_program_checks_its_own_lines_before_they_go() -> None:
    h = _harness()
    bea = h.by_seat(1)
    for text in ("", " x", "x" * (MAX_TALK + 1), "a\nb", "\x1b[2J"):
        with pytest.raises(LocalProtocolError):
            bea.say(text)  # type: ignore[union-attr]
    for _ in range(TALK_BURST):
        bea.say("chatty")  # type: ignore[union-attr]
    h.pump()
    with pytest.raises(LocalProtocolError, match=r"you are talking too fast; wait 2 s"):
        bea.say("one more")  # type: ignore[union-attr]
    h.tick(TALK_EVERY)
    bea.say("one more")  # type: ignore[union-attr]
    h.pump()
    assert len(_said(h.events[0])) == TALK_BURST + 1 and not _refused(h.events[1])


def test_a_flood_is_refused_then_talk_goes_on_and_the_game_first() -> None:
    h = _harness()
    bea = h.by_seat(1)
    assert isinstance(bea, Peer)
    i = h.peers.index(bea)
    for n in range(1, 41):  # forty lines at once, from a program that ignores the rate
        h.deliver_to_host(i, _say_frame(bea, f"spam {n}", n))
    h.pump()
    assert [s[2] for s in _said(h.events[0])] == [f"spam {n}" for n in range(1, TALK_BURST + 1)]
    refusals = _refused(h.events[i + 1])
    # Refusals are talk too: a flood's are bounded like lines (the oldest dropped).
    assert 0 < len(refusals) <= TALK_QUEUE
    assert set(refusals) == {"you are talking too fast; wait 2 s"}
    assert not h.host.finished(h.conns[i]) and bea.stopped is None
    h.tick(TALK_EVERY)  # one more line may go now
    h.deliver_to_host(i, _say_frame(bea, "sorry", 100))
    h.pump()
    assert _said(h.events[2])[-1] == (1, "Bea", "sorry")
    # Talk waits behind the game: a line said, then a move sequenced, go out move first.
    carl = h.peers.index(h.by_seat(2))  # type: ignore[arg-type]
    h.host.say("look")
    status = h.host.status()
    mover = h.by_seat(status.seat)  # type: ignore[union-attr]
    mover.play(mover.legal_moves()[0])
    if mover is not h.host:
        h.deliver_to_host(h.peers.index(mover), mover.data_to_send())  # type: ignore[arg-type]
    chunks = h.host.chunks_to_send(h.conns[carl])
    kinds = [c[4:] for c in chunks]
    talk_at = next(k for k, c in enumerate(kinds) if b"said" in c)
    assert any(b"relay" in c for c in kinds[:talk_at])
    assert all(b"said" in c for c in kinds[talk_at:])


def test_spectators_talk_only_where_the_host_allows_it() -> None:
    h = _harness(watchers=0)
    zed = h.add_watcher(Identity(), "Zed")
    h.pump()
    zed.say("go Bea!")
    h.pump()
    assert _refused(h.watch_events[0]) == ["spectators may not talk at this table"]
    assert not any(_said(events) for events in _everyone(h))
    assert not h.host.finished(h.watch_conns[0])
    h.host.spectators_talk = True
    h.tick(TALK_EVERY)
    zed.say("go Bea!")
    h.pump()
    for events in _everyone(h):
        assert _said(events) == [(None, "Zed", "go Bea!")]
    assert zed.table.log.head == h.host.table.log.head  # it follows the table as before
    mute = h.add_watcher()  # no key, no name: it reads talk, and cannot talk
    h.pump()
    with pytest.raises(LocalProtocolError):
        mute.say("hi")
    h.host.say("welcome, watchers")
    h.pump()
    assert _said(h.watch_events[1]) == [(0, "Ann", "welcome, watchers")]


def test_a_spectator_talks_under_one_key_and_name_not_a_seats() -> None:
    h = _harness(watchers=0)
    h.host.spectators_talk = True
    zed = h.add_watcher(Identity(), "Zed")
    h.pump()
    zed.say("hi")
    h.pump()
    zed.name = "Ann"  # the same connection, another name
    zed.say("it is me, Ann")
    h.pump()
    assert _refused(h.watch_events[0]) == ["a spectator talks under one key and one name"]
    assert [s[2] for s in _said(h.events[0])] == ["hi"]


def test_receivers_show_no_line_a_host_forged_replayed_or_bent() -> None:
    h = _harness()
    host = h.host
    bea, carl = h.by_seat(1), h.by_seat(2)
    assert isinstance(carl, Peer) and isinstance(bea, Peer)
    tid = host.table_id
    bea_key = bea.table.me.identity.public.raw  # type: ignore[union-attr]
    # The host signs a line in Bea's name with its own key.
    forged = SaidLine(bea_key, "", "I fold", 1, sign_talk(host.identity, tid, 1, "I fold", ""))
    # Bea's real line, then the host relays it again; and bent: with a name, or other text.
    bea.say("nice move")
    h.pump()
    real = next(m for m in _frames_to(h, carl) if isinstance(m, SaidLine))
    bent_name = SaidLine(real.author, "Ann", real.text, real.n + 1, real.sig)
    bent_text = SaidLine(real.author, "", "I give up", real.n + 1, real.sig)
    escape = SaidLine(host.identity.public.raw, "", "\x1b[2Jgone", 99,
                      sign_talk(host.identity, tid, 99, "\x1b[2Jgone", ""))  # fmt: skip
    stranger = Identity()  # a "spectator" whose name would steer the terminal
    bad_name = SaidLine(stranger.public.raw, "\x1b[31mZed", "hi", 1,
                        sign_talk(stranger, tid, 1, "hi", "\x1b[31mZed"))  # fmt: skip
    before = carl.hearing.dropped
    for line in (forged, real, bent_name, bent_text, escape, bad_name):
        carl.receive_data(frame(encode_message(line)))
    h.pump()
    assert _said(h.events[h.parties.index(carl)]) == [(1, "Bea", "nice move")]
    assert carl.hearing.dropped == before + 6
    assert carl.stopped is None and carl.phase is Phase.GAME


def _frames_to(h: Harness, party: Peer) -> list[object]:
    from protocol import FrameReader, decode_message

    reader = FrameReader()
    reader.feed(b"".join(h.received[h.parties.index(party)]))
    out = []
    while (payload := reader.next_frame()) is not None:
        out.append(decode_message(payload))
    return out


def test_talk_never_changes_the_log() -> None:
    h = _harness()
    h.host.spectators_talk = True
    zed = h.add_watcher(Identity(), "Zed")
    h.pump()
    clock, steps, said = 0.0, 0, 0
    while not h.done:
        before = [p.transcript() for p in (*h.parties, *h.watchers)]
        clock += TALK_EVERY
        h.tick(clock)
        for party in (*h.parties, zed):
            party.say(f"step {steps}")
        h.pump()
        said += len(h.parties) + 1
        after = [p.transcript() for p in (*h.parties, *h.watchers)]
        assert after == before  # byte for byte: no entry, no change
        if not h.step():
            break
        h.pump()
        steps += 1
    assert h.done and steps > 3
    transcripts = {p.transcript() for p in (*h.parties, *h.watchers)}
    assert len(transcripts) == 1
    assert b"step 0" not in transcripts.pop()
    assert len(_said(h.events[1])) == said

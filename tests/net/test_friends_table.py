"""Friends at a table, with the real protocol in one process: a friend's key is marked in the
story, a friend's name under another key is flagged the moment it sits down (and, with
``--approve``, as it asks), before the game starts; a table that began records the other
seats, never the bots its host started, and a table that never began records nobody."""

from __future__ import annotations

from pathlib import Path

import pytest

from crypto import Identity
from lanparty import friends as store
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.store import load_identity
from lanparty.table.friendly import marking, record_table
from lanparty.table.networked import NetSeat
from lanparty.table.whoami import bot_identity
from protocol import Host, Peer, Phase
from protocol.harness import Harness

OPTIONS = {"rounds": 1, "hand_size": 3}


def _pump(host: Host, peers: list[tuple[Peer, int]], seat: NetSeat, sinks: dict) -> None:
    """Deliver bytes both ways until nobody has any; every event to the seat (the host's
    person) and to each party's marking sink."""
    moved = True
    while moved:
        moved = False
        for peer, cid in peers:
            if data := peer.data_to_send():
                host.receive_data(cid, data)
                moved = True
            if data := host.data_to_send(cid):
                peer.receive_data(data)
                moved = True
        while (event := host.next_event()) is not None:
            seat.observe(event)
            sinks[host](event)
        for peer, _cid in peers:
            while (event := peer.next_event()) is not None:
                if peer in sinks:
                    sinks[peer](event)


def test_a_friend_is_marked_and_a_friends_name_with_another_key_is_flagged(
    tmp_path: Path,
) -> None:
    ana, carl, bea = Identity(), Identity(), Identity()
    store.record([(carl.public.raw, "Carl"), (bea.public.raw, "Bea")], today="2026-12-01",
                 base=tmp_path / "ana")  # fmt: skip
    store.record([(ana.public.raw, "Ana")], today="2026-11-02", base=tmp_path / "carl")
    host = Host(ana, "Ana", GAMES, "kato", OPTIONS, 4)
    host.approve_joins = True
    carl_peer, stranger = Peer(carl, "Carl", GAMES), Peer(Identity(), "Bea", GAMES)
    peers = [(carl_peer, host.connect()), (stranger, host.connect())]
    seat = NetSeat(host)
    heard: list[str] = []
    sinks = {host: marking(lambda e: None, host, seat.note, store.load(tmp_path / "ana")),
             carl_peer: marking(lambda e: None, carl_peer, heard.append,
                                store.load(tmp_path / "carl"))}  # fmt: skip
    _pump(host, peers, seat, sinks)
    fake = stranger.table.me
    assert fake is not None
    fp = fake.identity.public.fingerprint
    lines = seat.take_log()
    # The approval prompt says it, beside each request.
    assert lines[-4].startswith("request 1: Carl (key ")
    assert lines[-3] == "★ request 1: Carl is your friend Carl (1 game together)"
    assert lines[-2].startswith("request 2: Bea (key ")
    assert lines[-1] == (f"⚠ request 2: Bea is not the Bea you played with on 1 December 2026: "
                         f"another key ({fp})")  # fmt: skip
    host.let_in(1)
    host.let_in(2)
    _pump(host, peers, seat, sinks)
    lines = seat.take_log()
    assert host.phase is Phase.LOBBY  # said before the game starts: the host may kick
    assert lines == [
        f"Carl joined (seat 1)  key {carl.public.fingerprint}",
        "★ Carl (seat 1) is your friend Carl: 1 game together, the last on 1 December 2026",
        f"Bea joined (seat 2)  key {fp}",
        f"⚠ Bea (seat 2) is not the Bea you played with on 1 December 2026: another key ({fp})",
    ]
    # Carl knows Ana's key: she is marked at his seat too (from the table's first entry);
    # nobody is marked for being Carl himself.
    assert heard == ["★ Ana (seat 0) is your friend Ana: 1 game together, the last on "
                     "2 November 2026"]  # fmt: skip


def test_a_played_table_records_the_other_seats_for_each_program(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = bots_for("kato")["heuristic"]
    h = Harness(GAMES, "kato", 2, OPTIONS, [bot(), bot()], names=["Ana", "Bea"], seed=3)
    h.run()
    assert h.host.phase is Phase.CLOSED
    told: list[str] = []
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path / "ana"))
    record_table(h.host, told.append)
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path / "bea"))
    record_table(h.peers[0], told.append)
    assert told == ["New among your friends: Bea (lanparty friends lists them)",
                    "New among your friends: Ana (lanparty friends lists them)"]  # fmt: skip
    (bea,) = store.load(tmp_path / "ana")
    (ana,) = store.load(tmp_path / "bea")
    assert bea.key == h.peers[0].table.members[1].key and bea.games == 1
    assert ana.key == h.host.identity.public.raw and ana.name == "Ana"


def test_the_hosts_own_bots_its_own_key_and_a_table_that_never_began_record_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))
    ana = Identity()
    told: list[str] = []
    # Ana's table of 2 with a bot of hers (its key hers to derive): the seats are fixed. She
    # knows another Bea, a friend's bot: her own bot Bea is not flagged for it.
    other = store.Friend(Identity().public.raw, "Bea", (), "", "2026-12-01", "2026-12-01", 1)
    host = Host(ana, "Ana", GAMES, "kato", OPTIONS, 2)
    bot = Peer(bot_identity(ana, "Bea"), "Bea", GAMES)
    marked = marking(lambda e: None, host, told.append, store.Friends([other]))
    _pump(host, [(bot, host.connect())], NetSeat(host), {host: marked})
    assert host.table.state is not None
    record_table(host, told.append)
    # A table of 3 that one stranger joined: it never began.
    lobby = Host(ana, "Ana", GAMES, "kato", OPTIONS, 3)
    stranger = Peer(Identity(), "Carl", GAMES)
    _pump(lobby, [(stranger, lobby.connect())], NetSeat(lobby), {lobby: lambda e: None})
    assert len(lobby.table.members) == 2 and lobby.table.state is None
    record_table(lobby, told.append)
    record_table(stranger, told.append)
    # A second terminal of the same data directory (a one-off key) plays the first: the
    # data directory's own key is no friend of its own.
    first = load_identity(tmp_path)
    second = Host(Identity(), "ana 2", GAMES, "kato", OPTIONS, 2)
    me = Peer(first, "ana", GAMES)
    _pump(second, [(me, second.connect())], NetSeat(second), {second: lambda e: None})
    assert second.table.state is not None
    record_table(second, told.append)
    assert told == [] and not (tmp_path / "friends.json").exists()
    # The same bot at Ana's next table has the same key: a friend of a friend's bot meets
    # the one it knows.
    assert bot_identity(ana, "Bea").public == bot.table.me.identity.public  # type: ignore[union-attr]

"""Spectators (:class:`protocol.Watcher`): they follow a table through its host, see at every
step the public state every seat sees, catch up from the log whenever they come, never count
as a seat, and are capped by the host (none at all if it takes none). What a spectator can
learn is checked byte by byte in ``test_privacy_games.py``."""

from __future__ import annotations

import pytest

from crypto import Identity
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from protocol import (
    Host,
    LocalProtocolError,
    Phase,
    Propose,
    RemoteProtocolError,
    Watcher,
    encode_message,
    frame,
)
from protocol.harness import Harness


def _harness(name: str, seats: int = 3, watchers: int = 1, seed: int = 5) -> Harness:
    factories = list(bots_for(name).values())
    bots = [factories[s % len(factories)]() for s in range(seats)]
    return Harness(GAMES, name, seats, dict(PLUGINS[name].short), bots, seed=seed,
                   watchers=watchers)  # fmt: skip


def _public_views(h: Harness) -> list[dict[str, object]]:
    return [p.table.game.view(p.table.state, None) for p in h.parties if p.table.game]


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_spectator_sees_every_seats_public_state_at_every_step(name: str) -> None:
    h = _harness(name)
    h.pump()
    steps = 0
    while not h.done and h.step():
        h.pump()
        steps += 1
        seen = h.watchers[0].view()
        assert seen and all(v == seen for v in _public_views(h)), f"{name}: step {steps}"
        if steps == 2:  # one comes in mid-game and catches up from the log
            h.add_watcher()
            h.pump()
            assert h.watchers[1].view() == seen
    assert h.done and steps > 3
    for w in h.watchers:
        assert w.phase is Phase.CLOSED and w.seat is None and w.stopped is None
        assert w.legal_moves() == [] and not w.may_move()
        assert w.table.log.head == h.host.table.log.head
    assert len(h.host.table.members) == 3 and h.host.watchers == 2


def test_a_spectator_is_not_a_seat_and_the_host_caps_them(games) -> None:
    host = Host(Identity(), "ann", games, "kato", {"rounds": 1}, 2, spectators=1)
    first, second = Watcher(games), Watcher(games)
    cids = [host.connect(), host.connect()]
    for w, cid in zip((first, second), cids, strict=True):
        w.receive_data(host.data_to_send(cid))
        host.receive_data(cid, w.data_to_send())
        w.receive_data(host.data_to_send(cid))
    assert first.refused is None and len(first.table.log) == 1  # the table's opening
    assert host.finished(cids[1]) and second.refused is not None
    assert "1 spectators are watching already" in second.refused
    assert host.watchers == 1 and host.table.members[0].name == "ann"
    assert len(host.table.members) == 1  # nobody took a seat
    host.close(cids[0])
    assert host.watchers == 0
    with pytest.raises(LocalProtocolError):
        first.play(("draw",))


def test_a_table_may_take_no_spectators(games) -> None:
    host = Host(Identity(), "ann", games, "kato", {"rounds": 1}, 2, spectators=0)
    w = Watcher(games)
    cid = host.connect()
    w.receive_data(host.data_to_send(cid))
    host.receive_data(cid, w.data_to_send())
    w.receive_data(host.data_to_send(cid))
    assert host.finished(cid) and w.refused == "this table takes no spectators"
    assert len(w.table.log) == 0


def test_a_spectator_that_proposes_anything_is_refused_for_good(games) -> None:
    host = Host(Identity(), "ann", games, "kato", {"rounds": 1}, 2)
    w = Watcher(games)
    cid = host.connect()
    w.receive_data(host.data_to_send(cid))
    host.receive_data(cid, w.data_to_send())
    assert host.watching(cid)
    raw = encode_message(Propose(b"\x00" * 40, bytes(64)))
    with pytest.raises(RemoteProtocolError, match="a spectator sent a propose frame"):
        host.receive_data(cid, frame(raw))
    assert host.finished(cid) and host.watchers == 0

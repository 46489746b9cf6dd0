"""The host's screen with ``--approve`` (issue 20): each join request is shown with a number
and its key's fingerprint, and ``approve N`` / ``deny N`` answer exactly that request. A name
answers nothing: the friend's "Bob" and a stranger's "bob" are two requests, two keys."""

from __future__ import annotations

import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.table.networked import NetSeat
from protocol import Peer

from ..protocol.conftest import Lobby


class Door(Lobby):
    """A host with ``--approve`` seen through its person's ``NetSeat``, and peers asking."""

    def __init__(self) -> None:
        super().__init__(GAMES, name="Ann")
        self.host.approve_joins = True
        self.seat = NetSeat(self.host)
        self.seat.token = trio.lowlevel.current_trio_token()
        self.lines: list[str] = []

    def ask(self, name: str, who: Identity) -> Peer:
        return self.add(name, who)

    def pump(self) -> None:
        super().pump()
        while (event := self.host.next_event()) is not None:
            self.seat.observe(event)
        self.lines.extend(self.seat.take_log())

    async def type(self, command: str, arg: str) -> str:
        said = self.seat.host_command(command, arg)
        await trio.testing.wait_all_tasks_blocked()  # the node's side runs what was asked
        self.pump()
        return said


async def test_approve_takes_the_number_of_one_request_and_shows_its_key() -> None:
    door = Door()
    friend, stranger = Identity(), Identity()
    bob = door.ask("Bob", friend)
    eve = door.ask("bob", stranger)
    assert door.lines[1:] == [
        f"request 1: Bob (key {friend.public.fingerprint}) asks to join: type approve 1 or "
        "deny 1",
        f"request 2: bob (key {stranger.public.fingerprint}) asks to join: type approve 2 or "
        "deny 2",
    ]
    # A name is no answer: it once let in whoever asked last under that name, case folded.
    said = await door.type("approve", "Bob")
    assert said.startswith("approve N: N is the number of a join request (waiting: 1 Bob (")
    assert friend.public.fingerprint in said and stranger.public.fingerprint in said
    assert bob.seat is None and eve.seat is None
    assert await door.type("approve", "1") == ""
    assert bob.seat == 1 and eve.seat is None
    assert door.host.table.member_at(1).key == friend.public.raw  # type: ignore[union-attr]
    assert any(line.startswith("Bob joined (seat 1)") for line in door.lines)
    assert await door.type("deny", "2") == ""
    assert eve.refused == "the host did not let you in"
    said = await door.type("approve", "2")
    assert said == "approve N: N is the number of a join request (waiting: nobody)"


async def test_a_request_withdrawn_is_said_so_on_the_hosts_screen() -> None:
    door = Door()
    who = Identity()
    peer = door.ask("Bob", who)
    door.host.close(door.conns.pop())  # its connection ended: approving it would do nothing
    door.peers.clear()
    door.pump()
    assert door.lines[-1] == (f"request 1 (Bob, key {who.public.fingerprint}) is withdrawn: "
                              "the connection ended")  # fmt: skip
    assert door.host.asking() == [] and peer.seat is None

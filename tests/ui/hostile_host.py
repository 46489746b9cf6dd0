"""A hostile host for the terminal tests: a real :class:`protocol.Host` served over loopback
(``python -m tests.ui.hostile_host``; it prints its port), whose program sends what an
honest one never would to the person who joins, to see it shown harmlessly.

Once the joiner sits down it says, as table talk: a line with a bidi override and a
zero-width space (an honest line: shown escaped), lines with escape sequences signed by its
own key (receivers refuse them: control characters), a "spectator" whose name is an escape
sequence (refused: no such name), and "good luck" last. Each line of stdin then makes it
halt the table with a reason full of escape sequences (shown as text)."""

from __future__ import annotations

import sys
from collections.abc import Callable

import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.net.server import HostServer
from protocol import Event, Host, Joined, Peer, SaidLine, encode_message, frame
from protocol._talk import sign_talk

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred"
HONEST = "bidi \u202eevil\u202c zero\u200bwidth"


class Quiet:
    """A driver that never moves (the joiner's screen is what the test reads)."""

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Nothing to start."""

    def observe(self, event: Event) -> None:
        """Nothing to do."""

    def act(self, party: Host | Peer) -> bool:
        """Never a move."""
        return False


def hostile_lines(host: Host) -> list[bytes]:
    """``said`` frames no honest host relays, each properly signed by its author."""
    tid, me = host.table_id, host.identity
    stranger = Identity()
    lines = [
        SaidLine(me.public.raw, "", ESCAPES, 10**15, sign_talk(me, tid, 10**15, ESCAPES, "")),
        SaidLine(stranger.public.raw, "\x1b[2JZed", "hi", 1,
                 sign_talk(stranger, tid, 1, "hi", "\x1b[2JZed")),
    ]  # fmt: skip
    return [frame(encode_message(line)) for line in lines]


async def main() -> None:
    host = Host(Identity(), "Eve", GAMES, "kato", {"rounds": 1}, 2)
    seated = trio.Event()

    def sink(event: Event) -> None:
        if isinstance(event, Joined) and event.seat == 1:
            seated.set()

    server = HostServer(host, Quiet(), sink)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    print(listeners[0].socket.getsockname()[1], flush=True)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(server.serve, listeners)
        await seated.wait()
        host.say(HONEST)
        for line in hostile_lines(host):
            for conn in host._conns.values():  # to the joiner, past the host's own checks
                conn.talk.append(line)
        host.say("good luck")
        server.poke()
        stdin = trio.lowlevel.FdStream(sys.stdin.fileno())
        await stdin.receive_some()
        await server.halt(ESCAPES)


if __name__ == "__main__":
    trio.run(main)

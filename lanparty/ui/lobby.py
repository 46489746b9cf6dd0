"""The lobby: ``lanparty`` with no arguments. Tables on the network appear and disappear live;
the player hosts, joins or plays against bots from there.

The mDNS browser runs on trio as a guest of the screen's asyncio loop (as at a table), and
tells the lobby's model (``lobbymodel.py``) each change. On a terminal the lobby is one
full-screen application (``lobbyscreen.py``); with no terminal, or ``--plain``, it is a line
at a time. The lobby only chooses: it returns what the player picked (:class:`Choice`), and
the command line runs it, so a table started from the lobby is the very same as one started
with ``lanparty host`` or ``lanparty join``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

import trio

from lanparty.net.discovery import TableGone, TableSeen, browse
from lanparty.table.keeping import forget_saved, seat_gone
from lanparty.table.terminal import start_guest
from lanparty.text import printable

from .lobbymodel import Choice, _choose, _Lobby
from .plain import LineReader

__all__ = ["Choice", "run_lobby"]


def run_lobby(
    ip: str, where: str, *, nick: str = "", again: bool = False, plain: bool | None = None,
    notes: Iterable[str] = (),
) -> Choice:
    """Show the lobby on interface address ``ip`` (``where`` names it) until the player
    chooses; Ctrl-D and ``quit`` choose ``quit``, Ctrl-C ``interrupt``. ``nick``: the name
    the player goes by (the choice says it again, changed if they typed ``name NEW``).
    ``again``: the player is back from a table (a shorter greeting, and the events of the
    visits before kept). ``notes``: lines to show first, as errors (a table that could not
    be joined). Full screen on a terminal; a line at a time when ``plain``, or, by default,
    when the input or the output is not a terminal."""
    if plain is None:
        plain = not (sys.stdin.isatty() and sys.stdout.isatty())
    return asyncio.run(_run(ip, where, nick, again, plain, list(notes)))


#: Seconds the lobby listens before it judges a kept seat's table over: a table still
#: announced at the seat's address is not (see :func:`lanparty.table.keeping.seat_gone`).
LISTEN_FIRST = 2.0


async def _forget_dead_seats(lobby: _Lobby, changed: asyncio.Event) -> None:
    """(trio) Forget each kept seat whose table is over, on evidence (``seat_gone``)."""
    await trio.sleep(LISTEN_FIRST)
    for seat in list(lobby.resumable):
        if await seat_gone(seat, lobby.announced):
            forget_saved(seat)
            lobby.forgot(seat)
            changed.set()


@asynccontextmanager
async def _browsing(ip: str, lobby: _Lobby) -> AsyncIterator[asyncio.Event]:
    """Browse for tables on ``ip`` (trio, as a guest of the running asyncio loop) while
    the block runs, telling ``lobby``; the event is set at each change."""
    changed = asyncio.Event()
    scope = trio.CancelScope()
    tokens: list[trio.lowlevel.TrioToken] = []

    async def watch() -> None:
        tokens.append(trio.lowlevel.current_trio_token())
        with scope:
            async with browse(ip) as found, trio.open_nursery() as nursery:
                nursery.start_soon(_forget_dead_seats, lobby, changed)
                while True:
                    event = await found.next_event()
                    if isinstance(event, TableSeen):
                        lobby.seen(event.ad)
                    elif isinstance(event, TableGone):
                        lobby.gone(event.instance)
                    changed.set()

    finished = start_guest(watch)
    try:
        yield changed
    finally:
        if not finished.done() and tokens:
            tokens[0].run_sync_soon(scope.cancel)
        await finished


async def _run(
    ip: str, where: str, nick: str, again: bool, plain: bool, notes: list[str]
) -> Choice:
    lobby = _Lobby(nick)
    async with _browsing(ip, lobby) as changed:
        if plain:
            choice = await _run_plain(lobby, where, again, changed, notes)
        else:
            from .lobbyscreen import LobbyApp

            choice = await LobbyApp(lobby, where, again, changed, notes).run()
    choice.nick = lobby.nick
    return choice


async def _run_plain(
    lobby: _Lobby, where: str, again: bool, changed: asyncio.Event, notes: list[str]
) -> Choice:
    """The lobby a line at a time: each event a line on stdout as it happens, commands
    read a line at a time from stdin (the end of input is ``quit``)."""
    loop = asyncio.get_running_loop()

    def show(text: str, cls: str = "") -> None:
        sys.stdout.write(printable(text).rstrip() + "\n")
        sys.stdout.flush()

    async def follow() -> None:
        while True:
            await changed.wait()
            changed.clear()
            for line in lobby.lines:
                show("· " + line)
            lobby.lines.clear()

    for line, _cls in lobby.greeting(where, again):
        show(line)
    for note in notes:
        show(note)
    reader = LineReader(sys.stdin.fileno())
    follower = loop.create_task(follow())
    try:
        while True:
            text = await reader.lines.get()
            if text is None:
                return Choice("quit")
            choice = _choose(text, lobby, show)
            if choice is not None:
                return choice
    finally:
        follower.cancel()
        reader.close()



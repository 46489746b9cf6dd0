"""``lanparty watch``: follow a table that is running, as a spectator.

A spectator holds no seat and no secret (:class:`protocol.Watcher`): the host sends it the
log from the start and every entry after (exactly what every seat reads), and it checks each
one as a seat does, so what it shows is the table's public state, verified. It catches up
from the log whenever it comes, is never waited for, and keeps the transcript like a seat
(``lanparty audit``/``replay`` it afterwards).

On screen: the board, the narration, whose turn and the scores, as a seated player sees them
minus any hand (``quit`` leaves). ``--json``: no screen, one JSON line per entry applied,
``{"pos", "kind", "seat", "view"}`` (the game's view for no seat), then a summary line.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

import trio

from lanparty.commands.locate import dial, first_dial, locate
from lanparty.commands.netplay import finish, leave_on_ctrl_c, pinned, run_client, terminal_screen
from lanparty.errors import NetError
from lanparty.games import GAMES
from lanparty.i18n import _
from lanparty.interrupt import on_interrupt
from lanparty.net.interfaces import InterfaceError
from lanparty.net.node import PeerClient
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import Outcome, event_sink, teller
from lanparty.table.stopwords import said
from lanparty.table.terminal import LeftTable, play_in_terminal
from lanparty.text import printable
from lanparty.trace import Tracer
from protocol import Applied, Event, Host, Peer, Phase, Watcher

__all__ = ["run_watch"]

#: Seconds a spectator keeps trying to reconnect after its connection broke.
GRACE = 30.0


class _JsonLines:
    """A spectator's driver without a screen: one JSON line per entry applied."""

    def __init__(self, watcher: Watcher, write: Callable[[str], None] = print) -> None:
        self.watcher = watcher
        self.write = write

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Nothing to start."""

    def observe(self, event: Event) -> None:
        """Print the public view after each entry applied."""
        if isinstance(event, Applied):
            line = {"pos": event.pos, "kind": event.kind, "seat": event.seat,
                    "view": self.watcher.view()}  # fmt: skip
            self.write(json.dumps(line, default=_plain))

    def act(self, party: Host | Peer) -> bool:
        """A spectator never moves."""
        return False


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, set | frozenset):
        return sorted(value)
    raise TypeError(type(value).__name__)


async def _watch(
    args: argparse.Namespace, watcher: Watcher, seat: NetSeat | None, out: Outcome
) -> Outcome:
    """Follow the table until it closes or stops; with ``seat``, on screen."""
    tell = teller(seat.note if seat is not None else None, args.quiet)
    addr, port, announced = await locate(args, tell, watch=True)

    async def connect() -> trio.abc.Stream:
        return await dial(addr, port)

    stream = await first_dial(addr, port)
    if seat is not None:
        seat.note(_("Connected to {endpoint}; catching up with the table…").format(
            endpoint=f"{addr}:{port}"))  # fmt: skip
        seat.on_ready()
    tracer = Tracer.from_env("spectator")
    driver: Any = seat if seat is not None else _JsonLines(watcher)
    sink = event_sink(out, args.quiet or seat is not None or args.json, tracer)
    if announced is not None:
        sink = pinned(sink, watcher, announced, f"{addr}:{port}")
    client = PeerClient(watcher, stream, driver, sink, connect=connect, grace=GRACE, notice=tell)
    if seat is not None:
        seat.on_leave = client.leave
    else:
        leave_on_ctrl_c(out, client.leave)
    try:
        await run_client(client, out)
    finally:
        tracer.close()
        if watcher.refused and not out.stopped:
            out.stopped = f"the host refused: {watcher.refused}"
        elif watcher.phase is not Phase.CLOSED and not out.stopped:
            out.stopped = "you stopped watching before the end"
        game = watcher.table.game.name if watcher.table.game is not None else "table"
        if len(watcher.table.log):
            finish(watcher, out, game, "watched")
        if seat is not None and out.stopped:
            seat.lost(_("The table stopped: {error}").format(error=said(out.stopped)))
    return out


def run_watch(args: argparse.Namespace) -> int:
    """``lanparty watch``: 0 once the table closed with its audit passed and we saw it to
    the end, 1 otherwise (it stopped, we were refused, we left)."""
    watcher = Watcher(GAMES)
    out = Outcome()
    try:
        with on_interrupt(lambda: _left(out)):
            if args.json:
                trio.run(_watch, args, watcher, None, out)
                if out.interrupted:
                    raise KeyboardInterrupt
                end = {"end": True, "audit_ok": out.audit_ok, "stopped": out.stopped,
                       "transcript": out.transcript, "names": list(out.names)}  # fmt: skip
                print(json.dumps(end))
                return 0 if out.audit_ok and not out.stopped else 1
            seat = NetSeat(watcher)
            play_in_terminal(lambda: _watch(args, watcher, seat, out), seat, terminal_screen())
    except LeftTable:
        pass
    except (InterfaceError, OSError) as exc:
        raise NetError(str(exc)) from None
    if out.transcript:
        print(printable(_("transcript saved: {path}  (replay it: lanparty replay FILE)").format(
            path=out.transcript)))  # fmt: skip
    return 0


def _left(out: Outcome) -> str:
    """The one line for Ctrl-C while watching."""
    if not out.transcript:
        return _("interrupted")
    return _("interrupted: {what}; transcript saved: {path}").format(
        what=_("you stopped watching"), path=out.transcript)  # fmt: skip

"""Watching a table as a spectator: find it, follow its log whenever it comes (a spectator
is never waited for), on screen or as one JSON line per entry, and keep the transcript like
a seat does. Nothing hidden is ever sent to a spectator.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import trio

from lanparty.friends import load as load_friends
from lanparty.i18n import _
from lanparty.net.node import PeerClient
from lanparty.table.admitting import Admission
from lanparty.table.friendly import marking
from lanparty.table.joining import pinned, run_client
from lanparty.table.locate import dial, first_dial, locate
from lanparty.table.networked import NetSeat
from lanparty.table.nightjoin import JoinNight, spectator_driver
from lanparty.table.outcome import Outcome, event_sink, leave_on_ctrl_c
from lanparty.table.plan import TablePlan
from lanparty.table.stopwords import said
from lanparty.table.whoami import seat_identity
from lanparty.trace import Tracer
from protocol import Applied, Event, Host, Peer, Phase, Watcher

__all__ = ["GRACE", "play_watch"]

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


async def play_watch(
    plan: TablePlan, watcher: Watcher, seat: NetSeat | None, out: Outcome
) -> Outcome:
    """Follow the table until it closes or stops; with ``seat``, on screen (it opens once
    the table's log comes: a watch the host refuses, or a table opened by another key than
    the one asked for, ends in one line and keeps no transcript: ``out.refused``)."""
    out.spectator = True
    admission = Admission(watcher, seat, plan.quiet, spectator=True)
    tell = admission.tell
    addr, port, announced = await locate(plan, tell, watch=True)
    out.where = f"{addr}:{port}"

    async def connect() -> trio.abc.Stream:
        return await dial(addr, port)

    stream = await first_dial(addr, port)
    tell(_("Connected to {endpoint}; catching up with the table…").format(endpoint=out.where))
    tracer = Tracer.from_env("spectator")
    driver: Any = seat if seat is not None else _JsonLines(watcher)
    sink = event_sink(out, plan.quiet or seat is not None or plan.json, tracer, watcher)
    if announced is not None:
        sink = pinned(sink, watcher, announced, out.where, given=plan.host_key is not None)
    if seat is not None:  # on screen: a friend at the table is marked (the JSON lines are not)
        sink = marking(sink, watcher, tell, load_friends())
    sink = admission.sink(sink)
    # A night's next game is followed on the same connection (a seat free for spectators:
    # the person is asked whether they take it; ``--sit`` takes it).
    night = JoinNight(plan, seat, out, tracer=tracer, tell=tell, label="watched", spectator=True,
                      driver=spectator_driver(_JsonLines) if seat is None else None,
                      identity=seat_identity)  # fmt: skip
    client = PeerClient(watcher, stream, driver, sink, connect=connect, grace=GRACE, notice=tell,
                        night=night)  # fmt: skip
    night.client = client
    if seat is not None:
        seat.on_leave = client.leave
    else:
        leave_on_ctrl_c(out, client.leave)
    try:
        await run_client(client, out)
    finally:
        tracer.close()
        now = client.peer  # the night's last table (the first, but for a night)
        if watcher.refused and not out.stopped:
            out.stopped = f"the host refused: {watcher.refused}"
        elif now.phase is not Phase.CLOSED and not out.stopped:
            out.stopped = "you stopped watching before the end"
        if not admission.seated or watcher.refused:  # refused: nothing of ours to keep
            out.refused = out.refused or watcher.refused or out.stopped
        elif len(now.table.log):
            night.keep(now)
        if seat is not None:
            seat.night_ended()
        if seat is not None and out.stopped and not out.refused:
            seat.lost(_("The table stopped: {error}").format(error=said(out.stopped)))
    return out

"""Playing a seat at a networked table from a command: headless (``--bot``) with its outcome
printed, or in the terminal UI, with Ctrl-C said in one line and the transcript's path
printed at the end. Shared by ``host``, ``join`` and ``play``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import trio

from lanparty.errors import NetError
from lanparty.i18n import _
from lanparty.interrupt import on_interrupt
from lanparty.net.interfaces import InterfaceError
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import NotSeated, Outcome, report
from lanparty.table.plan import TablePlan
from lanparty.table.terminal import LeftTable, play_in_terminal
from lanparty.text import printable
from protocol import Host, Peer

__all__ = ["seated", "terminal_screen"]

P = TypeVar("P", bound=Host | Peer)

#: How a table is played: ``play(plan, party, seat, out)``, the seat ``None`` when headless.
Play = Callable[[TablePlan, P, NetSeat | None, Outcome], Awaitable[Outcome]]


def seated(
    plan: TablePlan,
    party: P,
    play: Play[P],
    out: Outcome,
    leaving: str,
    *,
    headless: bool | None = None,
    ended: Callable[[Outcome], int] | None = None,
    saved: str | None = None,
) -> int:
    """Play ``party``'s seat with ``play``: headless (``headless``, by default
    ``plan.bot``), then ``ended(out)`` says the outcome and gives the exit status (by
    default the outcome printed, 0 only if the audit passed); or in the terminal UI, then
    ``saved`` (by default: check it with ``lanparty audit``) says where the transcript is,
    and the status is 0. Ctrl-C ends it saying ``leaving``.

    Raises :class:`NetError` for an interface or socket that cannot be used,
    :class:`NotSeated` (a ``NetError``) for a person's join that got no seat (nothing was
    shown of the table; headless, the outcome says it), and ``KeyboardInterrupt`` if a
    headless seat left on Ctrl-C."""
    try:
        with on_interrupt(lambda: _left(out, leaving)):
            if plan.bot if headless is None else headless:
                trio.run(play, plan, party, None, out)
                if out.interrupted:
                    raise KeyboardInterrupt
                return ended(out) if ended is not None else report(out, as_json=plan.json)
            seat = NetSeat(party)
            screen = terminal_screen(plan.plain)
            play_in_terminal(lambda: play(plan, party, seat, out), seat, screen)
            if out.refused:  # no table screen was shown: the one line says why
                raise NotSeated(out)
    except LeftTable:
        pass
    except (InterfaceError, OSError) as exc:
        raise NetError(str(exc)) from None
    if out.transcript:
        line = saved or _("transcript saved: {path}  (check it: lanparty audit FILE)")
        print(printable(line.format(path=out.transcript)))
    return 0


def terminal_screen(plain: bool = False) -> Any:
    """The terminal UI for a seat at a networked table: full screen, or one line per event
    when ``plain`` (or when not on a terminal)."""
    from functools import partial

    from lanparty.ui.app import run_async

    return partial(run_async, plain=True if plain else None)


def _left(out: Outcome, what: str) -> str:
    """The one line for Ctrl-C at a table: what happened, and where the transcript is."""
    if not out.transcript:  # not at a table yet (looking for it, connecting)
        return _("interrupted")
    return _("interrupted: {what}; transcript saved: {path}").format(what=what, path=out.transcript)

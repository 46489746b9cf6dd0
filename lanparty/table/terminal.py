"""Run the trio network side as a guest of the terminal UI's asyncio loop: one thread.

prompt-toolkit lives on asyncio; our networking lives on trio. Trio's guest mode lets trio run
its tasks inside another event loop's callbacks, so both share one thread and the UI reads the
protocol object between trio steps without locks. (A second thread would need a lock around
every read of the table; ARCHITECTURE.md allows no threads but the zeroconf adapter.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from contextlib import suppress
from typing import Any, Protocol, TypeVar

import trio

from lanparty.interrupt import EXIT_INTERRUPTED

__all__ = ["play_in_terminal", "start_guest"]

T = TypeVar("T")


class Seat(Protocol):
    """What the terminal's seat offers the network side (``lanparty.table.networked.Seat``)."""

    token: trio.lowlevel.TrioToken | None
    on_ready: Callable[[], None]
    on_leave: Callable[[], None] | None

    def over(self) -> bool:
        """True once the table closed or stopped."""
        ...

    def lost(self, reason: str) -> None:
        """The connection ended without the table closing."""
        ...


#: The terminal UI: runs (on asyncio) until the table ends or the player leaves.
Screen = Callable[[Seat], Coroutine[Any, Any, int]]


def start_guest(fn: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
    """Start trio running ``fn()`` as a guest of the running asyncio loop (call from a
    coroutine on that loop). The returned future gets trio's ``outcome.Outcome`` of
    ``fn()`` once the trio run ends; asyncio keeps its own signal handling."""
    loop = asyncio.get_running_loop()
    finished: asyncio.Future[Any] = loop.create_future()
    trio.lowlevel.start_guest_run(
        fn,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        run_sync_soon_not_threadsafe=loop.call_soon,
        done_callback=finished.set_result,
        host_uses_signal_set_wakeup_fd=False,
    )
    return finished


def play_in_terminal(network: Callable[[], Awaitable[T]], seat: Seat, screen: Screen) -> T:
    """Run ``network()`` (trio) and the terminal UI ``screen(seat)`` (asyncio) together
    (the network layer knows no screen: the caller brings it).

    The UI ends when the table ends (the node tells ``seat``) or when the player leaves; in
    the second case ``network()`` is told (``seat.on_leave``, else it is cancelled) and must
    leave cleanly (its ``finally`` blocks run, shielded if they need to send a last frame).
    Returns what ``network()`` returned; re-raises what it raised. Raises
    ``KeyboardInterrupt`` once the network side has ended if the player left with Ctrl-C
    (twice at the prompt, or once as a signal before the prompt took the terminal).
    """
    return asyncio.run(_both(network, seat, screen))


async def _both(network: Callable[[], Awaitable[T]], seat: Seat, screen: Screen) -> T:
    loop = asyncio.get_running_loop()
    scope = trio.CancelScope()

    async def root() -> T:
        seat.token = trio.lowlevel.current_trio_token()
        with scope:
            return await network()
        raise LeftTable

    finished = start_guest(root)  # gets a trio ``outcome.Outcome``
    # The terminal UI starts once the network side is ready (listening, or connected): a
    # table that cannot be found or reached ends in one line, with no UI shown at all.
    ready: asyncio.Future[None] = loop.create_future()
    seat.on_ready = lambda: None if ready.done() else ready.set_result(None)
    ui: asyncio.Task[int] | None = None
    interrupted = False
    try:
        await asyncio.wait({ready, finished}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            return finished.result().unwrap()  # type: ignore[no-any-return]
        ui = loop.create_task(screen(seat))
        await asyncio.wait({ui, finished}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        # SIGINT (asyncio's handler cancels us): Ctrl-C while the terminal was not in the
        # prompt's hands, or a signal sent to us. Leave as with Ctrl-C at the prompt.
        interrupted = True
        if ui is not None:
            ui.cancel()
    if not finished.done():
        # The player left: the network side says goodbye (a host halts the table for
        # everyone; a peer hangs up and its host does that) and ends. (At the end of a game
        # it may be waiting for the night's next one: leaving ends the night for us.)
        if seat.token is None:  # trio has not started yet: nothing to say goodbye to
            scope.cancel()
        else:
            seat.token.run_sync_soon(seat.on_leave or scope.cancel)
    result = await finished
    if interrupted and ui is not None:
        with suppress(asyncio.CancelledError):
            await ui
    if ui is not None and not ui.done():
        if not seat.over():  # the network side ended without a word (an error)
            error = getattr(result, "error", None)
            seat.lost(f"The connection ended: {error}" if error else "The connection ended")
        await ui  # the UI shows the end and returns by itself
    if interrupted or (ui is not None and not ui.cancelled() and ui.result() == EXIT_INTERRUPTED):
        raise KeyboardInterrupt
    return result.unwrap()  # type: ignore[no-any-return]


class LeftTable(Exception):  # noqa: N818
    """The player left before the table ended (the network side was cancelled)."""

"""Bots that think long, off the screen's loop: a hard bot's search runs in a worker thread
of its own while the table's screen (full or plain) goes on answering keys, resizes, the
clock and Ctrl-C; its move comes back on the loop (``LocalTable.think_with``).

One thread a thought, a daemon: a person who leaves while a bot thinks is not kept waiting
for its search to end (the process ends; the thought is dropped).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any

from protocol.contract import Move

__all__ = ["offload_to_threads", "think_off_the_loop"]


def offload_to_threads(
    loop: asyncio.AbstractEventLoop,
) -> Callable[[Callable[[], Move | None], Callable[[tuple[bool, Any]], None]], None]:
    """An ``Offload`` for ``loop``: each job in a daemon thread of its own, its result
    (``(True, value)``, or ``(False, exception)``) handed to ``done`` on ``loop``; nothing
    once the loop is closed (the table's screen is gone)."""

    def offload(job: Callable[[], Move | None], done: Callable[[tuple[bool, Any]], None]) -> None:
        """Start ``job`` in a thread of its own; ``done`` follows on ``loop``."""

        def work() -> None:
            """Run the job; hand its result (or exception) back to the loop."""
            result: tuple[bool, Any]
            try:
                result = (True, job())
            except Exception as exc:
                result = (False, exc)
            with suppress(RuntimeError):  # the loop is closed: nobody waits for it
                loop.call_soon_threadsafe(done, result)

        threading.Thread(target=work, name="bot-thinking", daemon=True).start()

    return offload


def think_off_the_loop(session: object) -> None:
    """Let ``session``'s slow bots think in worker threads (its optional ``think_with``: an
    offline table's), handing their moves back to the running loop."""
    think_with: Callable[[Any], None] | None = getattr(session, "think_with", None)
    if think_with is not None:
        think_with(offload_to_threads(asyncio.get_running_loop()))

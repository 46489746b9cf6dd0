"""Ctrl-C and the processes we start.

Ctrl-C anywhere ends the command with one line on stderr and exit status 130 (128 + SIGINT,
what a shell reports for a program ended by Ctrl-C), after every child process has ended.

The peer processes a command starts (bots, a demo's table) run in sessions of their own:
the terminal's Ctrl-C goes to its foreground process group only, so it reaches this process
and not them, and this process ends them in order (a host halts its table first, so its bots
stop by themselves) instead of every process printing its own interruption.

They never import from the folder they were started in (:func:`lanparty_command`,
:func:`child_env`): ``python -m`` puts the current folder first on ``sys.path``, so a
``_sodium.py``, ``trio.py`` or ``crypto.py`` lying in the folder where someone runs
``lanparty host --bots 1`` would run inside every bot.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import IO, Any

__all__ = [
    "EXIT_INTERRUPTED",
    "Interrupted",
    "call_on_ctrl_c",
    "child_env",
    "end_all",
    "interrupted",
    "lanparty_command",
    "on_interrupt",
    "spawn",
]

#: The exit status after Ctrl-C.
EXIT_INTERRUPTED = 128 + signal.SIGINT


class Interrupted(Exception):  # noqa: N818 - names what happened, like KeyboardInterrupt
    """The user pressed Ctrl-C; the message is the one line to show (exit status 130)."""


def interrupted(exc: BaseException) -> bool:
    """True if ``exc`` is Ctrl-C: a ``KeyboardInterrupt``, or a group of exceptions (from a
    trio nursery) holding one, with nothing but cancellations beside it."""
    if isinstance(exc, KeyboardInterrupt | Interrupted):
        return True
    if isinstance(exc, BaseExceptionGroup):
        found, rest = exc.split((KeyboardInterrupt, Interrupted))
        if found is None:
            return False
        if rest is None:
            return True
        import trio

        _, other = rest.split(trio.Cancelled)
        return other is None
    return False


@contextmanager
def on_interrupt(message: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C inside the block (however it arrives: alone, or in a group from a nursery)
    leaves it as :class:`Interrupted` with the line ``message()``; any other exception
    passes through unchanged."""
    try:
        yield
    except BaseException as exc:
        if not interrupted(exc):
            raise
        raise Interrupted(message()) from None


async def call_on_ctrl_c(then: Callable[[], None]) -> None:
    """(trio) At the first Ctrl-C (SIGINT) call ``then()`` instead of interrupting whatever
    runs; Ctrl-C interrupts as usual after that (a second one is not refused)."""
    import trio

    with trio.open_signal_receiver(signal.SIGINT) as signals:
        async for _ in signals:
            then()
            return


def lanparty_command(*args: str) -> list[str]:
    """The command that runs ``lanparty ARGS`` in a new process of this Python. ``-P`` (Python
    3.11) keeps the current folder off its ``sys.path``, where ``-m`` would put it first;
    ``PYTHONPATH`` still counts (see :func:`child_env`)."""
    return [sys.executable, "-P", "-m", "lanparty", *args]


def child_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a process of ours: this one's and ``extra``, with
    ``PYTHONSAFEPATH=1`` (the rule of ``-P`` for any Python it starts in turn) and
    ``PYTHONPATH`` kept but made safe: an empty entry, which Python reads as the current
    folder (a ``PYTHONPATH=$PYTHONPATH:/x`` with nothing before), is dropped, and a relative
    one is made absolute from this process's folder, which is what it meant here."""
    env = {**os.environ, **(extra or {}), "PYTHONSAFEPATH": "1"}
    if "PYTHONPATH" in env:
        entries = [os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep) if p]
        env["PYTHONPATH"] = os.pathsep.join(entries)
    return env


def spawn(
    cmd: Sequence[str],
    *,
    stdout: IO[Any] | int | None = None,
    stderr: IO[Any] | int | None = None,
    env: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] = (),
) -> subprocess.Popen[bytes]:
    """Start ``cmd`` in a session of its own (out of reach of the terminal's Ctrl-C), with
    no standard input, in :func:`child_env` (``env``: variables to add), inheriting no open
    file but ``pass_fds``. Raises :class:`OSError` if it cannot be started."""
    return subprocess.Popen(list(cmd), stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                            env=child_env(env), pass_fds=tuple(pass_fds),
                            start_new_session=True)  # fmt: skip


def end_all(procs: Iterable[subprocess.Popen[Any]], wait: float = 0.0) -> None:
    """Give the processes ``wait`` seconds to end by themselves, then terminate those still
    running (and kill any that still do not end within 5 s); every one is reaped."""
    procs = list(procs)
    deadline = time.monotonic() + wait
    for proc in procs:
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    for proc in procs:
        if proc.poll() is None:
            with suppress(ProcessLookupError):
                proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

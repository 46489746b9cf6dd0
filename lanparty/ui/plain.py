"""The table as plain lines, for pipes and screen readers: every event of the story one line
on stdout as it happens, commands read a line at a time from stdin, no screen drawn and no
terminal taken over (``lanparty ... --plain``, or whenever the input or the output is not a
terminal).

The same :class:`~lanparty.ui.control.Conduct` as the full-screen table reads each line; the
prompt is said (a line of its own) each time the table asks something new, after the board
and the hand when it asks for a move, and again after each line typed (help, the rules, a
refusal: what was printed pushed the question away). A game's
multi-line editor is not opened: its one-line command says the same (``help`` names it).
Help, the rules and the score sheet are printed. At the end of input a spectator goes on
watching until the table ends; a player leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from lanparty.games.screens import Fragments
from lanparty.i18n import _
from lanparty.table.local import TableSession
from lanparty.text import printable

from .control import Conduct, Reply, deadline, night_rule, offers_next
from .handing import current_editor
from .layout import draw_board, game_title

__all__ = ["LineReader", "run_plain"]

PLAIN_COLUMNS, PLAIN_ROWS = 80, 200
"""The board printed before each question is drawn as for a terminal this big."""


class LineReader:
    """The lines of file descriptor ``fd`` as they come, on the running asyncio loop
    (``None`` once it ends); a regular file is read whole at once."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._partial = b""
        self._loop = asyncio.get_running_loop()
        try:
            self._loop.add_reader(fd, self._ready)
        except (PermissionError, ValueError, OSError):  # a file: every line is there now
            while self._read():
                pass

    def _read(self) -> bool:
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return True
        except OSError:
            data = b""
        if not data:
            if self._partial:
                self.lines.put_nowait(self._partial.decode(errors="replace"))
            self.lines.put_nowait(None)
            self._partial = b""
            return False
        *whole, self._partial = (self._partial + data).split(b"\n")
        for line in whole:
            self.lines.put_nowait(line.decode(errors="replace").rstrip("\r"))
        return True

    def _ready(self) -> None:
        if not self._read():
            self.close()

    def close(self) -> None:
        """Stop reading."""
        with contextlib.suppress(Exception):
            self._loop.remove_reader(self.fd)


def _writer(out: TextIO) -> Callable[[Fragments], None]:
    """Lines to ``out``, plain (no style), each one safe for the terminal."""

    def say(fragments: Fragments) -> None:
        text = "".join(t for _s, t in fragments)
        # Lines end at "\n" only: a peer's U+2028 or \r starts no line of its own.
        for line in text.removesuffix("\n").split("\n") if text else []:
            out.write(printable(line).rstrip() + "\n")
        out.flush()

    return say


async def run_plain(
    session: TableSession, stdin: int | None = None, out: TextIO | None = None
) -> int:
    """Play ``session`` a line at a time from ``stdin`` (a file descriptor; standard input
    by default) to ``out`` (standard output): 0 when the game is over or the player left,
    130 after Ctrl-C twice (as the full-screen table)."""
    say = _writer(out if out is not None else sys.stdout)
    conduct = Conduct(session, say)
    changed = asyncio.Event()
    session.listen(changed.set)
    reader = LineReader(stdin if stdin is not None else sys.stdin.fileno())
    said_prompt, said_editor, reading, ended = "", False, True, False
    again = False  # a line was answered: the question is asked again, even if unchanged
    said_view: object = None  # the game as it stood when the question was asked
    title = game_title(session.game_name)
    say([("", f"lanparty · {title}  " + _("(type help: the commands)") + "\n")])
    try:
        while True:
            if ended and not session.over():  # the night goes on: the next game
                conduct.pull()  # the last lines of the game before, above the rule
                ended, said_prompt = False, ""
                conduct = Conduct(session, say)
                say([("", night_rule(session, game_title(session.game_name)) + "\n")])
            over = conduct.step()
            if over and not ended:  # the game is over: said once
                ended, said_prompt = True, ""
                say(conduct.ending())
            if ended and not _night_goes_on(session):
                return 0
            prompt = conduct.prompt()[0].strip()
            view = session.view()
            if prompt != said_prompt or (again and view != said_view):  # asked anew
                said_prompt, said_view = prompt, view
                if session.may_move() and not conduct.asking:  # what it is asked about
                    say(draw_board(session, PLAIN_COLUMNS, PLAIN_ROWS, "", None))
                say([("", prompt + "\n")])
            elif again:  # help, the rules, a refusal: the same question, without the board
                say([("", prompt + "\n")])
            again = False
            editor = current_editor(conduct.session)
            if editor is not None and not said_editor:
                say([("", editor.title + "  " + _("(help: how to hand it in on one line)")
                      + "\n")])  # fmt: skip
            said_editor = editor is not None
            line = await _next(reader, changed, conduct, reading)
            if line is _CHANGED:
                continue
            if line is None:
                reading = False
                if conduct.watching and not ended:
                    continue
                reply = Reply(leave=0)
                say([("", _("Bye.") + "\n")])
            else:
                reply = conduct.typed(str(line))
            if reply.leave is not None:
                return reply.leave
            if reply.page:
                say(_page(conduct, reply.page))
            again = True
    except BrokenPipeError:  # the reader went away (``| head``): nobody to tell anything
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        reader.close()


_CHANGED = object()


def _night_goes_on(session: TableSession) -> bool:
    """Once a game is over: may the night go on at this seat (its next game chosen here,
    offered, or awaited from the host)?"""
    return offers_next(session) or bool(getattr(session, "night_open", False))


async def _next(reader: LineReader, changed: asyncio.Event, conduct: Conduct,
                reading: bool) -> object:  # fmt: skip
    """The next line typed (``None`` at the end of the input), or :data:`_CHANGED` once
    the table changed (or a timed phase's clock ran out); no line while a bot thinks."""
    closes = deadline(conduct.session)
    timeout = max(closes - time.monotonic(), 0.05) if closes is not None else None
    waits: set[asyncio.Future[object]] = {asyncio.ensure_future(changed.wait())}
    thinking: Callable[[], object] | None = getattr(conduct.session, "thinking", None)
    # A line typed while a bot thinks waits for its move, as it would if the bot chose in
    # place (lines piped in stay in turn); the bot's move wakes us (``changed``).
    if reading and (thinking is None or thinking() is None):
        waits.add(asyncio.ensure_future(reader.lines.get()))
    done, pending = await asyncio.wait(waits, timeout=timeout,
                                       return_when=asyncio.FIRST_COMPLETED)  # fmt: skip
    for task in pending:
        task.cancel()
    changed.clear()
    for task in done:
        if task.result() is not True:  # a line (the event's wait gives True)
            return task.result()
    return _CHANGED


def _page(conduct: Conduct, page: str) -> Fragments:
    if page == "help":
        return [("", conduct.help() + "\n")]
    if page == "rules":
        return [("", conduct.rules() + "\n")]
    return conduct.scores()

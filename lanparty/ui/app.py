"""The prompt-toolkit part: a prompt under a printed table, completed from the legal moves.

Small factories (style, completer, key bindings, prompt message, toolbar) and one loop,
``run``, that drives any ``TableSession`` of any game: the game's table, hand, prompt and
commands are its screen's (``session.screen``), the common commands are in ``commands``.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.renderer import print_formatted_text as print_to
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import Style

from lanparty.games import rules_text
from lanparty.interrupt import EXIT_INTERRUPTED
from lanparty.session import LocalTable, TableSession
from protocol.contract import IllegalMove, Plain

from .base import Fragments, GameScreen, log_line
from .commands import HOST_COMMANDS, ParseError, completions, help_text, parse

__all__ = ["make_completer", "make_key_bindings", "make_style", "run", "run_async"]


def make_style(screen: GameScreen | None = None) -> Style:
    """The table's colours (16-colour names: any terminal), and the game's own."""
    return Style.from_dict(
        {
            "index": "ansicyan",
            "title": "bold",
            "turn": "bold ansicyan",
            "warn": "bold ansired",
            "dim": "ansigray",
            "log": "",
            "log.you": "ansicyan",
            "log.round": "bold ansiyellow",
            "error": "bold ansired",
            "prompt": "bold",
            "bottom-toolbar": "noreverse ansigray",
            **(screen.styles if screen is not None else {}),
        }
    )


class MoveCompleter(Completer):
    """Completes the whole line from ``commands.completions`` over the session's legal moves."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """Every command starting with the text before the cursor."""
        text = document.text_before_cursor
        s = self.session
        legal = s.legal_moves()
        for command, meta in completions(text, s.screen, s.view(), legal, s.can_decline()):
            yield Completion(command, start_position=-len(text), display_meta=meta or None)


def make_completer(session: TableSession) -> Completer:
    """The legal-move completer for ``session``."""
    return MoveCompleter(session)


def make_key_bindings() -> KeyBindings:
    """Ctrl-D ends the prompt with ``EOFError`` even with text typed (as Ctrl-C does with
    ``KeyboardInterrupt``); what that means is the caller's to decide."""
    kb = KeyBindings()

    @kb.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError)

    return kb


def prompt_message(
    screen: GameScreen, view: Mapping[str, Plain], can_decline: bool, asked: bool = True
) -> FormattedText:
    """The prompt says what is asked of the player now (``asked``: anything at all)."""
    text = screen.prompt(view, can_decline) if asked else "waiting> "
    return FormattedText([("class:prompt", text)])


def make_toolbar(session: TableSession) -> Callable[[], FormattedText]:
    """The bottom line: what the table is doing, and how to get help."""

    def toolbar() -> FormattedText:
        status = session.status_line()
        lead = f" {status} · " if status else " "
        return FormattedText([("class:bottom-toolbar", lead + "Tab: moves · help · rules · quit")])

    return toolbar


class _TableEndedError(Exception):
    """Raised inside the prompt when the table ended while the player was typing."""


class _Screen:
    """What is printed above the prompt (log lines as they come), and the live board under
    them: the table and the hand, drawn again inside the prompt on every change."""

    def __init__(self, session: TableSession, style: Style) -> None:
        self.session = session
        self.style = style

    def show(self, fragments: Fragments) -> None:
        # Above the prompt while one is running (prompt-toolkit prints in the terminal).
        print_formatted_text(FormattedText(fragments), style=self.style, end="")

    def refresh(self) -> None:
        """Print the new log lines."""
        self.show(self.pending())

    def pending(self) -> Fragments:
        """The log lines not printed yet."""
        out: Fragments = []
        for line in self.session.take_log():
            out += log_line(line)
        return out

    def board(self, columns: int, rows: int) -> Fragments:
        """The table and the hand as they are now, for a terminal of ``columns`` × ``rows``
        (its first lines give way if it is too short: the hand and the players matter most).
        Empty before the deal and after the game."""
        s = self.session
        view = s.view()
        if not view or s.over():
            return []
        width = max(columns - 1, 20)
        legal = s.legal_moves() if s.may_move() else []
        out: Fragments = [("", "\n"), *s.screen.table(view, s.names, width)]
        out += s.screen.hand(view, width, legal)
        return _last_lines(out, max(rows, 1))

    def final(self) -> None:
        view = self.session.view()
        if view and view.get("scores") is not None:
            self.show([("", "\n")])
            self.show(self.session.screen.final(view, self.session.names))


def _last_lines(fragments: Fragments, rows: int) -> Fragments:
    """The last ``rows`` lines of ``fragments`` (each line ends with a newline)."""
    breaks = 0
    for i in range(len(fragments) - 1, -1, -1):
        style, text = fragments[i]
        breaks += text.count("\n")
        if breaks > rows:
            # Cut inside this fragment: keep what follows its (rows+1)-th newline from the end.
            cut = text
            for _ in range(breaks - rows):
                cut = cut[cut.index("\n") + 1 :]
            return [(style, cut), *fragments[i + 1 :]]
    return fragments


def menu_rows(rows: int) -> int:
    """The rows kept free under the prompt for the completion menu on a terminal of
    ``rows`` rows (the menu also opens upwards over the board when there is more room)."""
    return max(4, min(8, rows // 4))


def leave_question(session: TableSession) -> FormattedText:
    """The prompt that asks a player who typed ``quit`` (or pressed Ctrl-D or Ctrl-C)
    whether they mean it: at a networked table, leaving stops the game for everyone."""
    if isinstance(session, LocalTable):
        text = "leave the game? (y/N)> "
    else:
        text = "leave the table? the game stops for everyone (y/N)> "
    return FormattedText([("class:warn", text)])


def run(session: TableSession) -> int:
    """Play ``session`` at the terminal (see :func:`run_async`)."""
    return asyncio.run(run_async(session))


async def run_async(session: TableSession) -> int:
    """Play ``session`` at the terminal until the game ends or the player leaves: 0, or
    :data:`EXIT_INTERRUPTED` (130) if they left with Ctrl-C. ``IllegalMove`` and typing
    mistakes are shown, never raised.

    ``quit``, Ctrl-D and Ctrl-C ask first (y/N): leaving a networked table stops the game for
    everyone. ``y`` or a second Ctrl-D leaves; a second Ctrl-C leaves at once (130); anything
    else plays on.

    Changes that happen on their own (moves arriving from the network) are printed above the
    prompt as they come, and the prompt, its completions and the bottom bar follow them.
    """
    style = make_style(session.screen)
    screen = _Screen(session, style)
    prompt: PromptSession[str] = PromptSession(
        completer=make_completer(session),
        complete_while_typing=True,
        key_bindings=make_key_bindings(),
        bottom_toolbar=make_toolbar(session),
        style=style,
        reserve_space_for_menu=menu_rows(shutil.get_terminal_size((80, 24)).lines),
    )
    changed = asyncio.Event()
    session.listen(changed.set)

    def end_prompt_if_over() -> None:
        app = prompt.app
        if session.over() and app.is_running and app.future is not None and not app.future.done():
            prompt.app.exit(exception=_TableEndedError())

    async def follow() -> None:
        while True:
            await changed.wait()
            changed.clear()
            fragments = screen.pending()
            if fragments and prompt.app.is_running:
                # Printed above the prompt, now; the prompt asks only once this is on screen.
                output = prompt.app.output

                def print_above(f: Fragments = fragments, out: Any = output) -> None:
                    print_to(out, FormattedText(f), style)
                    out.flush()

                await run_in_terminal(print_above)
            elif fragments:
                screen.show(fragments)
            end_prompt_if_over()
            if prompt.app.is_running:
                prompt.app.invalidate()

    asking = False  # whether the player really means to leave

    def message() -> FormattedText:
        if asking:
            return leave_question(session)
        asked = session.may_move()
        line = prompt_message(session.screen, session.view(), session.can_decline(), asked)
        app = prompt.app
        if app.is_done:
            return line  # what stays in the scrollback: the prompt and what was typed
        size = app.output.get_size()
        prompt.reserve_space_for_menu = menu_rows(size.rows)  # the terminal may have changed
        # Under the board: the prompt, the menu's rows and the bottom bar; over it, at least
        # the last few log lines stay in sight.
        board = screen.board(size.columns, size.rows - menu_rows(size.rows) - 2 - size.rows // 6)
        return FormattedText([*board, *line])

    screen.show(
        [("class:title", f"lanparty · {session.game_name}"), ("", "  (type help; Tab completes)\n")]
    )
    follower = asyncio.get_running_loop().create_task(follow())
    try:
        while True:
            session.advance()
            screen.refresh()
            if session.over():
                screen.final()
                return 0
            try:
                text = await prompt.prompt_async(message, pre_run=end_prompt_if_over)
            except _TableEndedError:
                continue
            except KeyboardInterrupt:
                if asking:
                    return EXIT_INTERRUPTED  # the second Ctrl-C: the caller says the one line
                asking = True
                screen.show([("class:dim", "(Ctrl-C again leaves at once)\n")])
                continue
            except EOFError:
                if asking:
                    screen.show([("class:dim", "Bye.\n")])
                    return 0
                asking = True
                continue
            if asking:
                asking = False
                if text.strip().lower() in ("y", "yes"):
                    screen.show([("class:dim", "Bye.\n")])
                    return 0
                screen.show([("class:dim", "Playing on.\n")])
                continue
            asking = not _handle(text, session, screen)
    finally:
        follower.cancel()


def _handle(text: str, session: TableSession, screen: _Screen) -> bool:
    """Carry out one typed line; False if the player asked to leave (``quit``)."""
    view = session.view()
    try:
        action = parse(text, session.screen, view, session.can_decline())
    except ParseError as exc:
        screen.show([("class:error", f"{exc}\n")])
        return True
    if action.kind == "quit":
        return False
    if action.kind in ("start", "close", *HOST_COMMANDS):
        why = (
            session.start_now() if action.kind == "start"
            else session.close_phase() if action.kind == "close"
            else session.host_command(action.kind, action.arg)
        )  # fmt: skip
        if why:
            screen.show([("class:error", f"{why[0].upper()}{why[1:]}.\n")])
    elif action.kind == "help":
        screen.show([("", help_text(session.screen) + "\n")])
    elif action.kind == "rules":
        screen.show([("", rules_text(session.game_name) + "\n")])
    elif action.kind == "go":
        session.decline()
    elif action.kind == "move" and action.move is not None:
        if not view:
            screen.show([("class:error", "The game has not started yet.\n")])
            return True
        try:
            session.submit(action.move)
        except IllegalMove as exc:
            why = session.screen.humanize(exc.reason)
            screen.show([("class:error", f"Not allowed: {why}\n")])
    return True

"""The prompt-toolkit part: a prompt under a printed table, completed from the legal moves.

Small factories (style, completer, key bindings, prompt message, toolbar) and one loop,
``run``, that drives any ``TableSession`` of any game: the game's table, hand, prompt and
commands are its screen's (``session.screen``), the common commands are in ``commands``.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, DummyCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
from prompt_toolkit.renderer import print_formatted_text as print_to
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import Style
from prompt_toolkit.validation import DummyValidator

from lanparty.games import rules_for_reader
from lanparty.games.screens import Editor, Fragments, GameScreen, log_line
from lanparty.i18n import _
from lanparty.interrupt import EXIT_INTERRUPTED
from lanparty.table.local import LocalTable, TableSession
from protocol.contract import Move, Plain

from .commands import HOST_COMMANDS, Action, completions, help_text
from .editor import (
    KEYS,
    LeaveEditorError,
    editor_key_bindings,
    editor_marks,
    editor_validator,
    line_prompts,
    reopens,
)
from .handing import YES, Desk, current_editor

__all__ = [
    "countdown",
    "current_editor",
    "make_completer",
    "make_key_bindings",
    "make_style",
    "run",
    "run_async",
]

TICK = 0.2
"""Seconds between redraws while a countdown runs or the board is animating."""
HAND_IN_EARLY = 1.5
"""A timed phase's draft is handed in this many seconds before the phase closes (the
closer's clock may run a little ahead of ours)."""


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
            "clock": "noreverse bold ansiyellow",
            "clock.low": "noreverse bold ansired",
            "remark": "noreverse ansiyellow",
            "editor.mark": "ansiyellow",
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
        editor = current_editor(s)
        if editor is not None and editor.command.startswith(text.strip().lower()):
            yield Completion(editor.command, -len(text), display_meta=_("back to the editor"))
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
    screen: GameScreen,
    view: Mapping[str, Plain],
    can_decline: bool,
    asked: bool = True,
    watching: bool = False,
) -> FormattedText:
    """The prompt says what is asked of the player now (``asked``: anything at all;
    ``watching``: a spectator, asked nothing ever)."""
    if watching:
        text = _("watching> ")
    else:
        text = screen.prompt(view, can_decline) if asked else _("waiting> ")
    return FormattedText([("class:prompt", text)])


def deadline(session: TableSession) -> float | None:
    """When (``time.monotonic()``) the timed phase now closes by itself, if the session
    knows (its optional ``deadline`` method)."""
    when: Callable[[], float | None] | None = getattr(session, "deadline", None)
    return when() if when is not None else None


def countdown(left: float) -> str:
    """A countdown in whole seconds, rounded up and never below zero: ``"1:05 left"``."""
    s = max(0, math.ceil(left))
    return _("{time} left").format(time=f"{s // 60}:{s % 60:02d}")


def make_toolbar(
    session: TableSession, keys: Callable[[], Fragments] | None = None
) -> Callable[[], FormattedText]:
    """The bottom line: the countdown of a timed phase, what the table is doing, and the
    keys (``keys()``: those of the editor while it is open) or how to get help."""

    def toolbar() -> FormattedText:
        out: Fragments = []
        closes = deadline(session)
        if closes is not None:
            left = closes - time.monotonic()
            clock = "class:clock.low" if left < 10.5 else "class:clock"
            out.append((clock, f" {countdown(left)} ·"))
        status = session.status_line()
        if status:
            out.append(("class:bottom-toolbar", f" {status} ·"))
        help_keys = keys() if keys is not None else []
        out += help_keys or [("class:bottom-toolbar", " " + _("Tab: moves · help · rules · quit"))]
        return FormattedText(out)

    return toolbar


class _TableEndedError(Exception):
    """Raised inside the prompt when the table ended while the player was typing."""


class _Screen:
    """What is printed above the prompt (log lines as they come), and the live board under
    them: the table and the hand, drawn again inside the prompt on every change."""

    def __init__(self, session: TableSession, style: Style) -> None:
        self.session = session
        self.style = style
        self.notes: Fragments = []  # the app's own lines, printed with the log's next ones

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
        out += self.notes
        self.notes = []
        return out

    def board(self, columns: int, rows: int, typed: str = "") -> Fragments:
        """The table and the hand as they are now, for a terminal of ``columns`` × ``rows``
        (its first lines give way if it is too short: the hand and the players matter most).
        A screen with a ``board`` method (``base.BoardScreen``) draws it whole, knowing the
        rows and the text ``typed`` on the prompt. Empty before the deal and after the game."""
        s = self.session
        view = s.view()
        if not view or s.over():
            return []
        width = max(columns - 1, 20)
        legal = s.legal_moves() if s.may_move() else []
        whole = getattr(s.screen, "board", None)
        out: Fragments = [("", "\n")]
        if callable(whole):
            out += whole(view, s.names, width, max(rows - 1, 1), legal, typed)
        else:
            out += s.screen.table(view, s.names, width)
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
        text = _("leave the game? (y/N)> ")
    else:
        text = _("leave the table? the game stops for everyone (y/N)> ")
    return FormattedText([("class:warn", text)])


def run(session: TableSession) -> int:
    """Play ``session`` at the terminal (see :func:`run_async`)."""
    return asyncio.run(run_async(session))


class _ModeChangedError(Exception):
    """Raised inside the prompt when it must become the editor or the command line."""


async def run_async(session: TableSession) -> int:  # noqa: C901
    """Play ``session`` at the terminal until the game ends or the player leaves: 0, or
    :data:`EXIT_INTERRUPTED` (130) if they left with Ctrl-C. ``IllegalMove`` and typing
    mistakes are shown, never raised.

    ``quit``, Ctrl-D and Ctrl-C ask first (y/N): leaving a networked table stops the game for
    everyone. ``y`` or a second Ctrl-D leaves; a second Ctrl-C leaves at once (130); anything
    else plays on.

    Changes that happen on their own (moves arriving from the network) are printed above the
    prompt as they come, and the prompt, its completions and the bottom bar follow them.

    When the game's screen offers an editor for the move asked (``current_editor``), the
    prompt is that editor until the move is handed in; Esc leaves it for the command line
    and its ``command`` opens it again, with nothing typed lost; whatever hands it in hands
    in what it holds (``handing.Desk``). A timed phase shows its countdown in the bottom bar;
    shortly before it closes, what the editor holds is handed in, and at zero a local table
    closes the phase (a networked one is closed by its closer).
    """
    style = make_style(session.screen)
    screen = _Screen(session, style)
    changed = asyncio.Event()

    def tell(fragments: Fragments) -> None:
        screen.notes += fragments  # printed with the log's next lines
        changed.set()

    desk = Desk(session, tell)
    draft = desk.draft
    editing: Editor | None = None  # the editor the running prompt is (None: the command line)
    asking = False  # whether the player really means to leave

    def keys() -> Fragments:
        if editing is not None:
            doc = prompt.default_buffer.document
            remark = editing.remark(doc.text.split("\n"), doc.cursor_position_row)
            out: Fragments = [("class:remark", f" {remark} ·")] if remark else []
            return [*out, ("class:bottom-toolbar", f" {_(KEYS)}")]
        offered = current_editor(session)
        if offered is not None and draft.closed and not asking and desk.confirming is None:
            back = _("{command}: back to the editor · Tab: moves · help · rules · quit")
            return [("class:bottom-toolbar", " " + back.format(command=offered.command))]
        return []

    prompt: PromptSession[str] = PromptSession(
        completer=make_completer(session),
        complete_while_typing=True,
        key_bindings=make_key_bindings(),
        bottom_toolbar=make_toolbar(session, keys),
        style=style,
        reserve_space_for_menu=menu_rows(shutil.get_terminal_size((80, 24)).lines),
    )
    session.listen(changed.set)

    def stop_prompt(exc: Exception) -> None:
        app = prompt.app
        if app.is_running and app.future is not None and not app.future.done():
            # A prompt that gives way to the editor (or back) with nothing typed leaves no
            # empty prompt line behind in the scrollback.
            app.erase_when_done = isinstance(exc, _ModeChangedError) and not (
                prompt.default_buffer.text.strip()
            )
            app.exit(exception=exc)

    def end_prompt_if_over() -> None:
        if session.over():
            stop_prompt(_TableEndedError())

    def wanted() -> Editor | None:
        offered = current_editor(session)
        return None if offered is None or draft.closed or asking else offered

    def switch_if_needed() -> None:
        if (wanted() is None) != (editing is None):
            stop_prompt(_ModeChangedError())

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
            desk.try_close()
            if editing is None:  # the editor's text is its draft only once it gives way
                desk.settle()
            switch_if_needed()
            if prompt.app.is_running:
                prompt.app.invalidate()

    def hand_in_draft() -> None:
        shown = editing is not None
        desk.timed(prompt.default_buffer.text if shown else draft.text, shown)

    async def tick() -> None:
        animating = getattr(session.screen, "animating", None)
        moved = False
        while True:
            await asyncio.sleep(TICK)
            closes = deadline(session)
            view = session.view()
            moving = animating is not None and bool(view) and animating(view)
            if closes is None and not moving and not moved:
                continue
            moved = moving  # once more after the animation ends: its last frame
            if closes is not None and closes - time.monotonic() <= HAND_IN_EARLY:
                hand_in_draft()
            if closes is not None and closes <= time.monotonic():
                session.advance()  # a local table closes the phase; a networked one waits
                changed.set()
            if prompt.app.is_running:
                prompt.app.invalidate()

    def message() -> FormattedText:
        if asking:
            return leave_question(session)
        if desk.confirming is not None:
            return FormattedText([("class:warn", _("hand it in all the same? (y/N)> "))])
        if editing is not None:
            line = FormattedText([("class:title", f"{editing.title}\n"),
                                  ("class:prompt", editing.line_prompt(0))])  # fmt: skip
            lines = prompt.default_buffer.document.line_count  # a line too many, say
            below = max(editing.max_lines, lines) + 1
        else:
            asked = session.may_move()
            watching = bool(getattr(session, "watching", False))
            line = prompt_message(session.screen, session.view(), session.can_decline(), asked,
                                  watching)  # fmt: skip
            below = 0
        app = prompt.app
        if app.is_done:
            return line  # what stays in the scrollback: the prompt and what was typed
        size = app.output.get_size()
        menu = menu_rows(size.rows) if editing is None else 0
        prompt.reserve_space_for_menu = menu  # the terminal may have changed
        # Under the board: the prompt (or the editor), the menu's rows and the bottom bar;
        # over it, at least the last few log lines stay in sight.
        rows = size.rows - menu - below - 2 - size.rows // 6
        typed = prompt.default_buffer.text if editing is None else ""
        board = screen.board(size.columns, rows, typed)
        return FormattedText([*board, *line])

    def prompt_args() -> dict[str, Any]:
        """The prompt's settings for the mode it is in (each call sets all of them)."""
        if editing is not None:
            return {
                "multiline": True,
                "key_bindings": merge_key_bindings(
                    [make_key_bindings(), editor_key_bindings(editing)]
                ),
                "completer": DummyCompleter(),
                "complete_while_typing": False,
                "validator": editor_validator(editing),
                "validate_while_typing": True,
                "prompt_continuation": line_prompts(editing),
                "input_processors": [editor_marks(editing)],
                "default": draft.text,
            }
        # Never None: prompt-toolkit keeps the last prompt's setting for an argument given
        # None (the editor's one-word check would judge the command line).
        return {
            "multiline": False,
            "key_bindings": make_key_bindings(),
            "completer": make_completer(session),
            "complete_while_typing": True,
            "validator": DummyValidator(),
            "validate_while_typing": False,
            "input_processors": [],
            "default": "",
        }

    screen.show(
        [
            ("class:title", f"lanparty · {session.game_name}"),
            ("", "  " + _("(type help; Tab completes)") + "\n"),
        ]
    )
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(follow()), loop.create_task(tick())]
    try:
        while True:
            session.advance()
            desk.settle()
            screen.refresh()
            if session.over():
                screen.final()
                return 0
            editing = wanted()
            prompt.app.erase_when_done = False
            try:
                try:
                    text = await prompt.prompt_async(
                        message, pre_run=end_prompt_if_over, **prompt_args()
                    )
                finally:
                    if editing is not None and not draft.sent:
                        draft.text = prompt.default_buffer.text
                    draft.sent = False
            except (_TableEndedError, _ModeChangedError):
                continue
            except LeaveEditorError:
                draft.closed = True
                command = editing.command if editing is not None else "write"
                kept = _("(what you wrote is kept: {command} goes back to it)")
                screen.show([("class:dim", kept.format(command=command) + "\n")])
                continue
            except KeyboardInterrupt:
                desk.confirming = None
                if asking:
                    return EXIT_INTERRUPTED  # the second Ctrl-C: the caller says the one line
                asking = True
                screen.show([("class:dim", _("(Ctrl-C again leaves at once)") + "\n")])
                continue
            except EOFError:
                desk.confirming = None
                if asking:
                    screen.show([("class:dim", _("Bye.") + "\n")])
                    return 0
                asking = True
                continue
            if asking:
                asking = False
                if text.strip().lower() in YES:
                    screen.show([("class:dim", _("Bye.") + "\n")])
                    return 0
                screen.show([("class:dim", _("Playing on.") + "\n")])
                continue
            if desk.confirming is not None:
                desk.answer(text)
                continue
            if editing is not None:
                desk.hand_in(editing, text)
                continue
            offered = current_editor(session)
            if offered is not None and reopens(text, offered, session.screen.aliases):
                draft.closed = False
                continue
            action = desk.read(text)
            asking = action is not None and not _handle(action, session, screen, desk.submit)
    finally:
        for task in tasks:
            task.cancel()


def _handle(
    action: Action, session: TableSession, screen: _Screen, submit: Callable[[Move], bool]
) -> bool:
    """Carry out one typed line's ``action`` (a move goes in by ``submit``); False if the
    player asked to leave (``quit``)."""
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
        screen.show([("", rules_for_reader(session.game_name) + "\n")])
    elif action.kind == "go":
        session.decline()
    elif action.kind == "move" and action.move is not None:
        if not session.view():
            screen.show([("class:error", _("The game has not started yet.") + "\n")])
            return True
        submit(action.move)
    return True

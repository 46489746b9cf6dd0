"""The table in the terminal: one full-screen prompt-toolkit application with fixed regions
(``layout.py``): the header, the game's board and the player's hand, the story
(``story.py``), the input line completed from the legal moves (or the game's editor), the
status line; help, the rules and the score sheet open over them (``overlay.py``).

``run``/``run_async`` drive any ``TableSession`` of any game; what each typed line does is
``control.Conduct``'s, shared with the plain line-per-event mode (``plain.py``), which they
choose when the input or the output is not a terminal (or when asked).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import (
    CompleteEvent,
    Completer,
    Completion,
    DynamicCompleter,
)
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    DynamicContainer,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.processors import DynamicProcessor, Processor
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import BaseStyle, DynamicStyle, Style
from prompt_toolkit.validation import DynamicValidator, Validator

from lanparty.games.screens import STORY_COLUMNS, Editor, Fragments, GameScreen
from lanparty.i18n import _
from lanparty.table.local import TableSession
from lanparty.text import printable_lines, safe_fragments

from .commands import completions
from .control import (
    Conduct,
    Reply,
    countdown,
    deadline,
    host_offers,
    night_rule,
    offer_question,
    offer_sits,
    offers_next,
    talks,
)
from .editor import KEYS, editor_key_bindings, editor_marks, editor_validator
from .handing import current_editor
from .layout import draw_board, editor_rows, fit, game_title, header, line_count, wide
from .menu import completion_menu
from .overlay import Overlay, reflow
from .story import Story, StoryControl, paging_keys
from .thinking import think_off_the_loop

__all__ = ["TableApp", "countdown", "current_editor", "make_completer", "make_key_bindings",
           "make_style", "run", "run_async"]  # fmt: skip

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
            "talk.name": "bold ansigreen",
            "talk": "ansigreen",
            "talk.mine.name": "bold ansicyan",
            "talk.mine": "ansicyan",
            "error": "bold ansired",
            "prompt": "bold",
            "bottom-toolbar": "noreverse ansigray",
            "clock": "noreverse bold ansiyellow",
            "clock.low": "noreverse bold ansired",
            "remark": "noreverse ansiyellow",
            "editor.mark": "ansiyellow",
            "header": "reverse",
            "header.title": "reverse bold",
            "rule": "ansigray",
            "rule.hint": "ansigray",
            "status": "ansigray",
            "status.table": "",
            "overlay": "",
            "overlay.keys": "reverse",
            **(screen.styles if screen is not None else {}),
        }
    )


class MoveCompleter(Completer):
    """Completes the whole line from ``commands.completions`` over the session's legal moves
    (and the host's commands while the table fills)."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """Every command starting with the text before the cursor; on an empty line only
        when asked (Tab): a completion started by the last key of a line sent (Enter) must
        not open the menu over the next one."""
        text = document.text_before_cursor
        if not text.strip() and not complete_event.completion_requested:
            return
        s = self.session
        editor = current_editor(s)
        if editor is not None and editor.command.startswith(text.strip().lower()):
            yield Completion(editor.command, -len(text), display_meta=_("back to the editor"))
        legal = s.legal_moves()
        found = completions(text, s.screen, s.view(), legal, s.can_decline(), host_offers(s),
                            talks(s))  # fmt: skip
        for command, meta in found:
            yield Completion(command, start_position=-len(text), display_meta=meta or None)


def make_completer(session: TableSession) -> Completer:
    """The legal-move completer for ``session``."""
    return MoveCompleter(session)


def make_key_bindings() -> KeyBindings:
    """(For a prompt of its own, the lobby's) Ctrl-D ends the prompt with ``EOFError`` even
    with text typed (as Ctrl-C does with ``KeyboardInterrupt``)."""
    kb = KeyBindings()

    @kb.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError)

    return kb


def color_depth() -> ColorDepth | None:
    """No colours when ``$NO_COLOR`` is set to anything (https://no-color.org); else the
    terminal's own."""
    return ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None


class TableApp:
    """One seat's full-screen table. ``run()`` plays until the player leaves, or until the
    game is over and the player has seen its end (Enter or q)."""

    def __init__(
        self, session: TableSession, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        self.session = session
        self.story = Story()
        self.conduct = Conduct(session, self.tell)
        self.draft = self.conduct.desk.draft
        self.editing: Editor | None = None  # the editor the input is (None: the command line)
        self.over = False  # the game is over and its end is shown
        self.changed = asyncio.Event()  # the session changed on its own
        self.wake = asyncio.Event()  # something may need the clock's ticks
        self._styles: dict[int, BaseStyle] = {}
        self._validator: Validator | None = None
        self._marks: Processor | None = None
        self._board: tuple[tuple[Any, ...], Fragments] | None = None
        self._version = 0
        self.story_control = StoryControl(self.story)
        self.overlay = Overlay(self._focus_input)
        self.buffer = Buffer(
            multiline=Condition(lambda: self.editing is not None),
            completer=DynamicCompleter(lambda: None if self.editing else self._completer),
            complete_while_typing=Condition(lambda: self.editing is None),
            validator=DynamicValidator(lambda: self._validator),
            validate_while_typing=Condition(lambda: self.editing is not None),
            accept_handler=self._accept,
        )
        self._aside = ""  # the command line's text while the leave question is asked
        self._completer = make_completer(session)
        self.input_window = Window(
            BufferControl(self.buffer, input_processors=[DynamicProcessor(lambda: self._marks)]),
            height=lambda: Dimension.exact(max(editor_rows(self.editing) - 1, 1)),
            get_line_prefix=self._prefix,
            wrap_lines=False,
        )
        self.app: Application[int] = Application(
            layout=Layout(self._container(), focused_element=self.input_window),
            key_bindings=merge_key_bindings([
                self._keys(), editor_key_bindings(lambda: self.editing, self._leave_editor)]),
            style=DynamicStyle(self._style),
            full_screen=True,
            mouse_support=True,
            color_depth=color_depth(),
            input=input,
            output=output,
        )  # fmt: skip
        self.app.after_render += lambda _app: self.story.flush()

    def _style(self) -> BaseStyle:
        """The colours of the game now at the table (a night changes games)."""
        screen = self.session.screen
        style = self._styles.get(id(screen))
        if style is None:
            style = self._styles[id(screen)] = make_style(screen)
        return style

    # ------------------------------------------------------------------ regions

    def _size(self) -> tuple[int, int]:
        app: Application[int] | None = getattr(self, "app", None)
        if app is None:  # the layout is walked once as the application is made
            return 80, 24
        size = app.output.get_size()
        return size.columns, size.rows

    def board(self) -> Fragments:
        """The board region now (drawn once per change, key or size)."""
        columns, rows = self._size()
        typed = self.buffer.text if self.editing is None else ""
        key = (columns, rows, typed, self._version, self.editing is None)
        if self._board is None or self._board[0] != key:
            if self.over:
                drawn = self.conduct.ending()
            else:
                drawn = draw_board(self.session, columns, rows, typed, self.editing)
            self._board = (key, safe_fragments(drawn))  # a peer's word steers nothing
        return self._board[1]

    def _board_height(self) -> Dimension:
        return Dimension.exact(line_count(self.board()))

    def _container(self) -> FloatContainer:
        board_control = FormattedTextControl(self.board)
        narrow = HSplit([
            Window(board_control, height=self._board_height, wrap_lines=False),
            Window(self.story_control, height=Dimension(min=1, weight=1), wrap_lines=False),
        ])  # fmt: skip
        beside = VSplit([
            Window(board_control, wrap_lines=False),
            Window(width=1, char="│", style="class:rule"),
            Window(self.story_control, width=STORY_COLUMNS, wrap_lines=False),
        ])  # fmt: skip
        body = DynamicContainer(lambda: beside if wide(self._size()[0]) else narrow)
        title = ConditionalContainer(
            Window(FormattedTextControl(lambda: [("class:title", self._editor_title())]),
                   height=1),
            filter=Condition(lambda: self.editing is not None),
        )  # fmt: skip
        root = HSplit([
            Window(FormattedTextControl(self._header), height=1),
            body,
            title,
            self.input_window,
            Window(FormattedTextControl(self._status), height=1),
        ])  # fmt: skip
        menu = completion_menu(self.buffer, lambda: self._size()[1])  # over the story
        return FloatContainer(root, floats=[menu, self.overlay.float])

    def _editor_title(self) -> str:
        return self.editing.title if self.editing is not None else ""

    def _header(self) -> Fragments:
        return header(self.session, None if self.over else self.conduct.clock(), self._size()[0])

    def _prefix(self, line: int, wrap_count: int) -> StyleAndTextTuples:
        if self.editing is not None:
            said = self.editing.line_prompt(line)
            return [("class:prompt", " " * len(said) if wrap_count else said)]
        text, style = self.conduct.prompt()
        return [(f"class:{style}", text)]

    def _status(self) -> Fragments:
        left: Fragments
        if self.editing is not None:
            error = self.buffer.validation_error
            doc = self.buffer.document
            remark = self.editing.remark(doc.text.split("\n"), doc.cursor_position_row)
            left = [("class:error", f" {error.message} ·")] if error is not None else []
            left += [("class:remark", f" {remark} ·")] if remark and error is None else []
            left.append(("class:status", " " + _(KEYS)))
        elif self.over:
            left = [("class:status", " " + self._end_keys())]
        else:
            offered = current_editor(self.session)
            keys = _("Tab: moves · ? help · PgUp: story · Ctrl-C: quit")
            if offered is not None and self.draft.closed and not self.conduct.asking:
                keys = (
                    _("{command}: back to the editor").format(command=offered.command)
                    + " · "
                    + keys
                )
            left = [("class:status", " " + keys)]
        said = self.session.status_line()
        right: Fragments = [("class:status.table", said + " ")] if said else []
        return fit(left, right, self._size()[0])

    def _end_keys(self) -> str:
        """The keys that matter once the game is over (a night's offer, its next game)."""
        s = self.session
        if offer_sits(s):
            return _("y: take the seat · Enter or n: keep watching · Ctrl-C: keep watching")
        if offer_question(s):
            return _("Enter or y: stay · n: leave · Ctrl-C: leave")
        if offers_next(s):
            return _("again · next GAME · Enter or q: end the night")
        return _("Enter or q: leave · PgUp: the story")

    # ------------------------------------------------------------------ what happens

    def tell(self, fragments: Fragments) -> None:
        """Add the app's own lines to the story."""
        self.story.add(fragments)
        self.redraw()

    def redraw(self) -> None:
        """Draw again (the board too) once the loop is free."""
        self._version += 1
        self.app.invalidate()

    def refresh(self) -> None:
        """After anything happened: let the table move on, tell it, follow the editor the
        game offers, show the end once the game is over."""
        if self.over:
            if self.session.over():  # the night's offer, its next game: said, asked
                self.conduct.pull()
                self.wake.set()
                self.redraw()
                return
            self.conduct.pull()  # the last lines of the game before, above the rule
            self._next_game()
        if self.conduct.step():
            self._end()
            return
        self._follow_editor()
        self.wake.set()
        self.redraw()

    def _end(self) -> None:
        if self.editing is not None:
            self.editing = None
            self.buffer.document = Document("")
        self.over = True
        self.story.add(self.conduct.ending())
        self.redraw()

    def _next_game(self) -> None:
        """The night goes on at the same seat: the next game's table, its story under a
        rule."""
        self.over = False
        self.conduct = Conduct(self.session, self.tell)
        self.draft = self.conduct.desk.draft
        self._board = None
        title = game_title(self.session.game_name)
        self.story.add([("class:log.round", night_rule(self.session, title) + "\n")])

    def _wanted(self) -> Editor | None:
        offered = current_editor(self.session)
        return None if offered is None or self.draft.closed or self.conduct.asking else offered

    def _follow_editor(self) -> None:
        """Open the game's editor when it is offered (with the draft), close it when it is
        no longer (keeping what it held as the draft, unless it went in)."""
        wanted = self._wanted()
        if self.editing is not None and wanted is None:
            if not self.draft.sent:
                self.draft.text = self.buffer.text
            self.draft.sent = False
            self._set_editor(None, "")
        if self.editing is None:
            self.conduct.desk.settle()
        if self.editing is None and wanted is not None:
            self._set_editor(wanted, self.draft.text)

    def _set_editor(self, editor: Editor | None, text: str) -> None:
        self.editing = editor
        self._validator = editor_validator(editor) if editor is not None else None
        self._marks = editor_marks(editor) if editor is not None else None
        self.buffer.validation_error = None
        self.buffer.document = Document(text, len(text))

    def _leave_editor(self) -> None:
        """Esc in the editor: back to the command line; what it holds is the draft."""
        editing = self.editing
        if editing is None:
            return
        self.draft.text, self.draft.closed = self.buffer.text, True
        self._set_editor(None, "")
        kept = _("(what you wrote is kept: {command} goes back to it)")
        self.tell([("class:dim", kept.format(command=editing.command) + "\n")])
        self.refresh()

    def _accept(self, buffer: Buffer) -> bool:
        """Enter on the command line, or Ctrl-S in the editor; True keeps the text."""
        text = buffer.text
        if self.editing is not None:
            self.draft.text = text
            self.conduct.desk.hand_in(self.editing, text)
            handed = not self.draft.text
            if handed:
                self._set_editor(None, "")
            self.refresh()
            return not handed and self.editing is not None
        asked = self.conduct.asking
        self._reply(self.conduct.typed(text))
        self.refresh()
        if asked and not self.conduct.asking and self._aside:  # playing on: given back
            buffer.document = Document(self._aside)
            self._aside = ""
            return True
        return self.editing is not None  # the editor it opened holds the draft: kept

    def _set_aside(self) -> None:
        """The leave question is answered on a line of its own: what the command line held
        is set aside (and its menu closed), and given back if the player plays on."""
        if self.conduct.asking and self.editing is None and self.buffer.text:
            self._aside = self.buffer.text
            self.buffer.reset()

    def _reply(self, reply: Reply) -> None:
        if reply.leave is not None:
            self._exit(reply.leave)
        elif reply.page:
            self.open_page(reply.page)

    def open_page(self, page: str) -> None:
        """Open help, the rules or the score sheet over the table."""
        c = self.conduct
        title = {"help": _("help"), "rules": _("rules"), "scores": _("scores")}[page]
        draw: Callable[[int], Fragments]
        if page == "help":
            draw = lambda width: [("", c.help(width) + "\n")]  # noqa: E731
        elif page == "rules":
            draw = lambda width: [("", reflow(c.rules(), width) + "\n")]  # noqa: E731
        else:
            draw = lambda width: c.scores()  # noqa: E731
        self.overlay.open(f"{game_title(self.session.game_name)} · {title}", draw)
        self.app.layout.focus(self.overlay.window)
        self.redraw()

    def _focus_input(self) -> None:
        self.app.layout.focus(self.input_window)
        self.redraw()

    def _exit(self, status: int) -> None:
        if self.app.is_running and self.app.future is not None and not self.app.future.done():
            self.app.exit(result=status)

    def _menu_open(self) -> bool:
        """The completion menu shows over the story (the command line's, not the editor's)."""
        return self.editing is None and self.buffer.complete_state is not None

    def _keys(self) -> KeyBindingsBase:
        kb = KeyBindings()
        paging = ~Condition(lambda: self.overlay.is_open)
        empty = Condition(lambda: not self.buffer.text and self.editing is None) & paging

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            self.overlay.close()
            self._reply(self.conduct.interrupt())
            self._set_aside()
            self.refresh()

        @kb.add("c-d")
        def _eof(event: KeyPressEvent) -> None:
            self.overlay.close()
            self._reply(self.conduct.eof())
            self._set_aside()
            self.refresh()

        @kb.add("escape", filter=paging & Condition(self._menu_open), eager=True)
        def _close_menu(event: KeyPressEvent) -> None:
            self.buffer.cancel_completion()  # the line as typed, the menu closed

        @kb.add("q", filter=empty & Condition(lambda: self.over))
        def _leave(event: KeyPressEvent) -> None:
            self._exit(0)

        return merge_key_bindings(
            [kb, paging_keys(self.story_control, paging, empty, lambda: self.open_page("help"))]
        )

    # ------------------------------------------------------------------ running

    async def _follow(self) -> None:
        """Changes that happen on their own (moves arriving from the network)."""
        while True:
            await self.changed.wait()
            self.changed.clear()
            self.refresh()

    def _ticking(self) -> bool:
        """Whether the clock must tick now: a countdown runs or the board animates."""
        if self.over:
            return deadline(self.session) is not None  # the offer's countdown
        animating = getattr(self.session.screen, "animating", None)
        view = self.session.view() if animating is not None else {}
        return deadline(self.session) is not None or bool(view and animating and animating(view))

    async def _tick(self) -> None:
        """A few redraws a second while a countdown runs or the board animates (once more
        after it stops: its last frame); none otherwise (a seat the protocol held back is
        told when it may move: ``NetSeat`` calls the listeners then)."""
        while True:
            if not self._ticking():
                self.wake.clear()
                await self.wake.wait()
                continue
            await asyncio.sleep(TICK)
            closes = deadline(self.session)
            if closes is not None and closes - time.monotonic() <= HAND_IN_EARLY:
                shown = self.editing is not None
                self.conduct.desk.timed(self.buffer.text if shown else self.draft.text, shown)
            if closes is not None and closes <= time.monotonic():
                self.session.advance()  # a local table closes the phase; a networked one waits
            self.refresh()

    async def run(self) -> int:
        """Play until the player leaves: 0, or :data:`EXIT_INTERRUPTED` (130) after a second
        Ctrl-C."""
        title = game_title(self.session.game_name)
        self.story.add([("class:title", f"lanparty · {title}"),
                        ("", "  " + _("(type help; Tab completes)") + "\n")])  # fmt: skip
        self.session.listen(self.changed.set)
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(self._follow()), loop.create_task(self._tick())]
        try:
            self.refresh()
            result = await self.app.run_async()
        finally:
            for task in tasks:
                task.cancel()
            self.story.close()
        if self.over:
            _print_plain(self.conduct.ending())
        return result if isinstance(result, int) else 0


def _print_plain(fragments: Fragments) -> None:
    """The end of the game left on the terminal once the table's screen is gone."""
    text = "".join(t for _s, t in fragments)
    sys.stdout.write(printable_lines(text.removesuffix("\n")) + "\n")
    sys.stdout.flush()


def run(session: TableSession, plain: bool | None = None) -> int:
    """Play ``session`` at the terminal (see :func:`run_async`)."""
    return asyncio.run(run_async(session, plain))


async def run_async(session: TableSession, plain: bool | None = None) -> int:
    """Play ``session`` until the game ends or the player leaves: 0, or
    :data:`~lanparty.interrupt.EXIT_INTERRUPTED` (130) if they left with Ctrl-C twice.
    Full screen on a terminal; one line per event (``plain.py``) when ``plain``, or, by
    default, when the input or the output is not a terminal."""
    if plain is None:
        plain = not (sys.stdin.isatty() and sys.stdout.isatty())
    think_off_the_loop(session)  # a hard bot's search never freezes the screen
    if plain:
        from .plain import run_plain

        return await run_plain(session)
    return await TableApp(session).run()

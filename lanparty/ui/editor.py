"""The multi-line editor a game's screen may offer for a free-text move (``GameScreen.editor``):
one item a line, Enter or Tab to the next line, Ctrl-S to hand in, Esc to go back to the
command line with nothing lost (what is typed is kept as the draft).

The line arithmetic is pure (``next_line``, ``previous_line``, ``usable_lines``,
``timed_move``); the prompt-toolkit part is small factories: the key bindings, the validator
that shows what is wrong as the player types, the marks after the lines, the continuation
prompt. What the lines mean is the game's (:class:`lanparty.games.screens.Editor`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout.processors import Processor, Transformation, TransformationInput
from prompt_toolkit.validation import ValidationError, Validator

from lanparty.games.screens import Editor, ParseError
from lanparty.i18n import N_, _
from protocol.contract import Move

__all__ = [
    "KEYS",
    "Draft",
    "draft_move",
    "editor_key_bindings",
    "editor_marks",
    "editor_validator",
    "line_prompts",
    "next_line",
    "previous_line",
    "reopens",
    "timed_move",
    "usable_lines",
    "written",
]

KEYS = N_("Enter/Tab: next line · Ctrl-S: hand in · Esc: commands")
"""The editor's keys, for the bottom bar."""


@dataclass(slots=True)
class Draft:
    """What the player has typed in the editor of the phase now (kept when the editor closes
    for a while), whether they left it for the command line, and whether it was just handed
    in while the editor still showed it (``sent``: what the editor shows is no draft)."""

    text: str = ""
    closed: bool = False
    sent: bool = False

    def clear(self) -> None:
        """Forget it: the phase it was for is over."""
        self.text, self.closed = "", False


# --------------------------------------------------------------------------- pure line arithmetic


def _row(text: str, cursor: int) -> int:
    return text.count("\n", 0, cursor)


def _end_of(text: str, row: int) -> int:
    """The cursor position at the end of line ``row``."""
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:row]) + len(lines[row])


def next_line(text: str, cursor: int) -> tuple[str, int, str]:
    """Enter or Tab at ``cursor``: the text, the new cursor (the end of the next line, which
    is added if this line is not empty), and a hint for the player when the cursor cannot go
    on ("" otherwise). Nothing typed is ever removed, and a line is added past the editor's
    last (the game marks it as one too many) rather than the next word glued to the last."""
    lines = text.split("\n")
    row = _row(text, cursor)
    if row + 1 < len(lines):
        return text, _end_of(text, row + 1), ""
    if not lines[row].strip():
        return text, cursor, _("nothing on this line yet: Ctrl-S hands in what you wrote")
    return text + "\n", len(text) + 1, ""


def previous_line(text: str, cursor: int) -> int:
    """Shift-Tab at ``cursor``: the end of the line above (or the cursor, on the first)."""
    row = _row(text, cursor)
    return _end_of(text, row - 1) if row > 0 else cursor


def usable_lines(editor: Editor, lines: Sequence[str]) -> list[str]:
    """``lines`` without the ones that cannot be handed in (what a draft can still give when
    time is up)."""
    kept = list(lines)
    for _attempt in range(len(lines) + 1):
        found = editor.problem(kept)
        if found is None:
            return kept
        del kept[found[0]]
    return []


def written(text: str) -> list[str]:
    """The lines of ``text`` with something on them, trimmed."""
    return [line.strip() for line in text.split("\n") if line.strip()]


def draft_move(editor: Editor, text: str) -> Move:
    """The move ``editor`` makes of ``text`` (its lines); ``ParseError`` saying which line
    cannot be handed in and why, or why there is no move."""
    lines = text.split("\n")
    found = editor.problem(lines)
    if found is not None:
        raise ParseError(found[1])
    return editor.move(lines)


def timed_move(editor: Editor, text: str) -> tuple[Move | None, list[str]]:
    """What ``text`` can still give when time is up: the move of its usable lines (``None``
    if none), and the written lines left out because they cannot be handed in."""
    kept = usable_lines(editor, text.split("\n"))
    dropped = written(text)
    for line in written("\n".join(kept)):
        dropped.remove(line)
    if len(dropped) == len(written(text)):
        return None, dropped
    try:
        return editor.move(kept), dropped
    except ParseError:
        return None, written(text)


def reopens(text: str, editor: Editor, aliases: Mapping[str, str]) -> bool:
    """Does the command line ``text`` ask for ``editor`` again: its command alone, or a
    short form of it (``aliases``, the game's)?"""
    words = text.lower().split()
    return len(words) == 1 and aliases.get(words[0], words[0]) == editor.command


# --------------------------------------------------------------------------- prompt-toolkit


def _refuse(buffer: Buffer, message: str, row: int | None = None) -> None:
    text = buffer.text
    at = _end_of(text, min(row, text.count("\n"))) if row is not None else buffer.cursor_position
    buffer.validation_error = ValidationError(cursor_position=at, message=message)


def editor_key_bindings(
    editor: Callable[[], Editor | None], leave: Callable[[], None]
) -> KeyBindings:
    """The keys of the editor ``editor()`` while it is open (not ``None``): Enter/Tab: the
    next line (a new one at the end); Shift-Tab: the line above; Up and Down stay inside the
    editor (no history); Ctrl-S: hand in (the buffer's accept handler), unless a line cannot
    be (then the editor says which and why); Esc: ``leave()``, back to the command line at
    once."""
    kb = KeyBindings()
    is_open = Condition(lambda: editor() is not None)

    @kb.add("enter", filter=is_open)
    @kb.add("tab", filter=is_open)
    def _next(event: KeyPressEvent) -> None:
        b = event.current_buffer
        text, cursor, hint = next_line(b.text, b.cursor_position)
        if text != b.text:
            b.document = Document(text, cursor)
        else:
            b.cursor_position = cursor
        if hint and b.validation_error is None:
            _refuse(b, hint)

    @kb.add("s-tab", filter=is_open)
    def _back(event: KeyPressEvent) -> None:
        b = event.current_buffer
        b.cursor_position = previous_line(b.text, b.cursor_position)

    @kb.add("up", filter=is_open)
    def _up(event: KeyPressEvent) -> None:
        b = event.current_buffer
        if b.document.cursor_position_row > 0:
            b.cursor_up()

    @kb.add("down", filter=is_open)
    def _down(event: KeyPressEvent) -> None:
        b = event.current_buffer
        if b.document.cursor_position_row < b.document.line_count - 1:
            b.cursor_down()

    @kb.add("c-s", filter=is_open)
    def _hand_in(event: KeyPressEvent) -> None:
        b, open_now = event.current_buffer, editor()
        if open_now is None:
            return
        lines = b.text.split("\n")
        found = open_now.problem(lines)
        if found is not None:
            _refuse(b, found[1], found[0])
            return
        try:
            open_now.move(lines)
        except ParseError as exc:
            _refuse(b, str(exc))
            return
        b.validate_and_handle()

    @kb.add("escape", filter=is_open, eager=True)
    def _leave(event: KeyPressEvent) -> None:
        leave()

    return kb


class _EditorValidator(Validator):
    def __init__(self, editor: Editor) -> None:
        self.editor = editor

    def validate(self, document: Document) -> None:
        found = self.editor.problem(document.text.split("\n"))
        if found is not None:
            row, why = found
            at = _end_of(document.text, min(row, document.line_count - 1))
            raise ValidationError(cursor_position=at, message=why)


def editor_validator(editor: Editor) -> Validator:
    """Shows the first line that cannot be handed in, and why, as the player types."""
    return _EditorValidator(editor)


class _Marks(Processor):
    """Puts the editor's mark for each line after it (see :meth:`Editor.marks`)."""

    def __init__(self, editor: Editor) -> None:
        self.editor = editor
        self._seen: tuple[str, list[str]] | None = None  # the text last marked, its marks

    def apply_transformation(self, transformation_input: TransformationInput) -> Transformation:
        ti = transformation_input
        text = ti.document.text
        if self._seen is None or self._seen[0] != text:  # once a text, not once a line
            self._seen = (text, self.editor.marks(text.split("\n")))
        marks = self._seen[1]
        mark = marks[ti.lineno] if ti.lineno < len(marks) else ""
        if not mark:
            return Transformation(ti.fragments)
        return Transformation([*ti.fragments, ("class:editor.mark", f"  {mark}")])


def editor_marks(editor: Editor) -> Processor:
    """Shows each line's mark after it, for as long as the line holds what it is about."""
    return _Marks(editor)


def line_prompts(editor: Editor) -> Callable[[int, int, int], StyleAndTextTuples]:
    """The prompt before each line after the first (the first is the message's end)."""

    def continuation(width: int, line_number: int, wrap_count: int) -> StyleAndTextTuples:
        if wrap_count:
            return [("", " " * len(editor.line_prompt(0)))]
        return [("class:prompt", editor.line_prompt(line_number))]

    return continuation

"""The story pane: every line of the game kept, newest at the bottom, scrolled back by the
player (PgUp/PgDn, the mouse wheel, Home/End) and following the bottom otherwise.

:class:`Story` holds the lines (styled fragments, one list a line) and wraps them to a
width only as they are shown, the visible ones only, so a story of thousands of lines is as
quick to draw as one of ten. :class:`StoryControl` is its prompt-toolkit control.

``$LANPARTY_STORY``, when set, names a file each line is also appended to as plain text (to
follow the story from another terminal or a screen reader, and for the end-to-end tests),
once it has been drawn on the screen (:meth:`Story.flush`, after each redraw): a line in the
file is a line the player has seen, with the board as it was then.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, cast

from prompt_toolkit.filters import Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.utils import get_cwidth

from lanparty.games.screens import Fragments
from lanparty.i18n import N_, _
from lanparty.text import printable

__all__ = ["STORY_FILE", "Story", "StoryControl", "content", "lines_of", "wrap"]

STORY_FILE = "LANPARTY_STORY"
"""The environment variable naming a file the story is appended to, line by line."""
INDENT = 2
"""A wrapped line goes on under its text, after the log's ``"· "``."""


def lines_of(fragments: Fragments) -> list[Fragments]:
    """``fragments`` cut into lines at their newlines (a last newline ends the last line;
    no empty line after it), every piece :func:`~lanparty.text.printable`: a story or a page
    shows nothing that can steer the terminal, whoever chose its words."""
    lines: list[Fragments] = [[]]
    for style, text in fragments:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, printable(part)))
    if not lines[-1] and len(lines) > 1:
        lines.pop()
    return lines


def wrap(line: Fragments, width: int, indent: int = INDENT) -> list[Fragments]:
    """``line`` on rows of at most ``width`` cells, broken after a space where it can be
    (a word longer than a row is cut); the rows after the first start with ``indent``
    spaces. An empty line is one empty row."""
    cells = [(style, ch, get_cwidth(ch)) for style, text in line for ch in text]
    rows: list[Fragments] = []
    i, width = 0, max(width, 1)
    while i < len(cells) or not rows:
        lead = indent if rows and width > indent + 8 else 0
        room, used, j, space = width - lead, 0, i, -1
        while j < len(cells) and used + cells[j][2] <= room:
            if cells[j][1] == " ":
                space = j
            used += cells[j][2]
            j += 1
        end = nxt = j
        if j < len(cells) and space > i:
            end, nxt = space, space + 1  # the space itself goes
        if end == i and i < len(cells):
            end = nxt = i + 1  # one cell wider than a row: shown all the same
        row: Fragments = [("", " " * lead)] if lead else []
        for style, ch, _w in cells[i:end]:
            if row and row[-1][0] == style:
                row[-1] = (style, row[-1][1] + ch)
            else:
                row.append((style, ch))
        rows.append(row)
        i = nxt
    return rows


def content(rows: list[Fragments]) -> UIContent:
    """A control's content showing ``rows``, with no cursor."""
    return UIContent(get_line=lambda i: cast("StyleAndTextTuples", rows[i]),
                     line_count=len(rows), show_cursor=False)  # fmt: skip


def _plain(line: Fragments) -> str:
    return "".join(text for _style, text in line)


class Story:
    """Every line told at this table, in order; nothing is ever dropped."""

    def __init__(self, tee: str | None = None) -> None:
        self.lines: list[Fragments] = []
        self._wrapped: dict[int, list[Fragments]] = {}
        self._width = 0
        self._tee: IO[str] | None = None
        self._unwritten: list[str] = []
        path = tee if tee is not None else os.environ.get(STORY_FILE)
        if path:
            self._tee = open(path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115
        #: Called with the first and the end index of the lines just added (a pane
        #: scrolled back keeps its place).
        self.on_add: list[Callable[[int, int], None]] = []

    def add(self, fragments: Fragments) -> None:
        """Add the lines of ``fragments`` (each ends at a newline)."""
        if not fragments:
            return
        new = lines_of(fragments)
        start = len(self.lines)
        self.lines.extend(new)
        if self._tee is not None:
            self._unwritten += [_plain(line) + "\n" for line in new]
        for callback in self.on_add:
            callback(start, len(self.lines))

    def text(self) -> str:
        """The whole story as plain text, a line each."""
        return "".join(_plain(line) + "\n" for line in self.lines)

    def rows_of(self, index: int, width: int) -> list[Fragments]:
        """Line ``index`` wrapped to ``width`` (kept until the width changes)."""
        if width != self._width:
            self._wrapped.clear()
            self._width = width
        rows = self._wrapped.get(index)
        if rows is None:
            rows = self._wrapped[index] = wrap(self.lines[index], max(width, 1))
        return rows

    def window(self, width: int, height: int, back: int) -> tuple[list[Fragments], int, int]:
        """The rows to show in ``height`` rows of ``width`` cells, ``back`` rows up from the
        newest: the rows, ``back`` as far as it can go (never past the first line), and
        how many lines are wholly below the rows shown (newer ones, scrolled away)."""
        want = back + height
        chunks: list[list[tuple[int, Fragments]]] = []
        count, index = 0, len(self.lines) - 1
        while index >= 0 and count < want:
            chunk = [(index, row) for row in self.rows_of(index, width)]
            chunks.append(chunk)
            count += len(chunk)
            index -= 1
        rows = [row for chunk in reversed(chunks) for row in chunk]
        back = max(0, min(back, len(rows) - height))
        shown = rows[max(0, len(rows) - back - height) : len(rows) - back]
        newer = len(self.lines) - 1 - shown[-1][0] if shown and back else 0
        return [row for _i, row in shown], back, newer

    def flush(self) -> None:
        """Write the lines added since the last call to the story file (the app calls this
        once they are on the screen)."""
        if self._tee is not None and self._unwritten:
            self._tee.write("".join(self._unwritten))
            self._unwritten = []

    def close(self) -> None:
        """Write what is left and stop writing to the story file."""
        self.flush()
        if self._tee is not None:
            self._tee.close()
            self._tee = None


class StoryControl(UIControl):
    """The story pane: its rule, then the rows that fit, ``back`` rows up from the newest
    (0: it follows the newest). ``title``: the rule's title, untranslated (marked with
    ``N_``; translated as it is drawn)."""

    def __init__(self, story: Story, title: str = N_("story")) -> None:
        self.story = story
        self.title = title
        self.back = 0
        self.height = 4
        self.width = 0
        self.newer = 0
        story.on_add.append(self._added)

    def _added(self, start: int, end: int) -> None:
        if self.back and self.width:  # scrolled back: the rows shown stay where they are
            self.back += sum(len(self.story.rows_of(i, self.width)) for i in range(start, end))

    def is_focusable(self) -> bool:
        return False

    def create_content(self, width: int, height: int) -> UIContent:
        """The rule over the story (its title, where it is scrolled to), then its rows,
        the newest on the pane's last row (a short story leaves the rows over it empty)."""
        if height < 1:
            return content([])
        rows, self.back, self.newer = self.story.window(width, height - 1, self.back)
        self.height, self.width = height - 1, width
        empty: list[Fragments] = [[]] * (height - 1 - len(rows))
        return content([self.rule(width), *empty, *rows])

    def scroll(self, rows: int) -> None:
        """Up (``rows`` > 0) or down the story; clamped when next drawn."""
        self.back = max(0, self.back + rows)

    def page_up(self) -> None:
        """One page back (a row of the last page stays in sight)."""
        self.scroll(max(self.height - 1, 1))

    def page_down(self) -> None:
        """One page on, towards the newest."""
        self.scroll(-max(self.height - 1, 1))

    def home(self) -> None:
        """The first line of the game."""
        self.back = 1 << 30

    def end(self) -> None:
        """The newest line; the pane follows the story again."""
        self.back = 0

    def mouse_handler(self, mouse_event: MouseEvent) -> object:
        if mouse_event.event_type == MouseEventType.SCROLL_UP:
            self.scroll(3)
        elif mouse_event.event_type == MouseEventType.SCROLL_DOWN:
            self.scroll(-3)
        else:
            return NotImplemented
        return None

    def rule(self, width: int) -> Fragments:
        """The line over the story: its title, and where it is scrolled to."""
        title = "─ " + _(self.title) + " "
        if self.back:
            hint = " " + _("{n} newer ↓ · End").format(n=self.newer) + " ─"
        else:
            hint = " " + _("PgUp ↑") + " ─"
        fill = max(width - get_cwidth(title) - get_cwidth(hint), 0)
        return [("class:rule", title + "─" * fill), ("class:rule.hint", hint)]


def paging_keys(
    control: StoryControl, paging: Filter, empty: Filter, help: Callable[[], None]
) -> KeyBindings:
    """The keys of a pane of events, the same at a table and in the lobby: PgUp/PgDn page it
    while ``paging`` (no overlay open), Home/End go to its first and newest line and ``?``
    opens help while ``empty`` (nothing typed), F1 opens help while ``paging``."""
    kb = KeyBindings()
    kb.add("pageup", filter=paging)(lambda event: control.page_up())
    kb.add("pagedown", filter=paging)(lambda event: control.page_down())
    kb.add("home", filter=empty)(lambda event: control.home())
    kb.add("end", filter=empty)(lambda event: control.end())
    kb.add("?", filter=empty)(lambda event: help())
    kb.add("f1", filter=paging)(lambda event: help())
    return kb


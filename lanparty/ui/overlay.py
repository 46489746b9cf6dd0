"""Help, the rules and the score sheet: a framed page over the table, scrolled with the
arrows, PgUp/PgDn, Home/End and the mouse wheel, closed with Esc or q. The story and the
board stay where they are under it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, Float, HSplit, Window
from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.widgets import Frame

from lanparty.games.screens import Fragments
from lanparty.i18n import _

from .story import content, lines_of, wrap

__all__ = ["Overlay", "reflow"]


_ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s+")
"""The start of a Markdown list item: its indent, its mark and the spaces after it."""


def reflow(text: str, width: int) -> str:
    """Markdown ``text`` (a game's rules, written wrapped at about 95 columns) wrapped again
    to ``width`` columns: each paragraph and each list item joined into one and cut at
    spaces, an item's later rows under its text; blank lines, headings and table rows as
    they are. Raises nothing."""
    out: list[str] = []
    words: list[str] = []
    first = hang = ""

    def flush() -> None:
        if words:
            out.extend(textwrap.wrap(" ".join(words), max(width, 10), initial_indent=first,
                                     subsequent_indent=hang, break_on_hyphens=False))  # fmt: skip
            words.clear()

    for line in text.splitlines():
        item = _ITEM.match(line)
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "|")):
            flush()
            out.append(line)
        elif item is not None:
            flush()
            first, hang = item.group(0), " " * len(item.group(0))
            words.append(line[item.end() :])
        elif words:
            words.append(stripped)
        else:
            first = hang = line[: len(line) - len(line.lstrip())]
            words.append(stripped)
    flush()
    return "\n".join(out)


class _Page(UIControl):
    """The page's rows that fit, from ``top``."""

    def __init__(self, overlay: Overlay) -> None:
        self.overlay = overlay

    def is_focusable(self) -> bool:
        return True

    def create_content(self, width: int, height: int) -> UIContent:
        o = self.overlay
        rows = [row for line in o.lines(width) for row in wrap(line, width, 0)]
        o.top = max(0, min(o.top, len(rows) - height))
        o.height, o.below = height, max(0, len(rows) - o.top - height)
        shown = rows[o.top : o.top + height]
        return content(shown)

    def mouse_handler(self, mouse_event: MouseEvent) -> object:
        if mouse_event.event_type == MouseEventType.SCROLL_UP:
            self.overlay.scroll(-3)
        elif mouse_event.event_type == MouseEventType.SCROLL_DOWN:
            self.overlay.scroll(3)
        else:
            return NotImplemented
        return None

    def get_key_bindings(self) -> KeyBindings:
        return self.overlay.bindings


class Overlay:
    """One framed page at a time over the table (``open``), or none; ``closed()`` is
    called when the player closes it (the app gives the input line its focus back)."""

    def __init__(self, closed: Callable[[], None]) -> None:
        self.title = ""
        self._draw: Callable[[int], Fragments] = lambda width: []
        self._drawn: tuple[int, list[Fragments]] | None = None
        self.top = 0
        self.height = 1
        self.below = 0
        self.is_open = False
        self._closed = closed
        self.bindings = self._keys()
        self.window = Window(_Page(self), wrap_lines=False)
        frame = Frame(self.window, title=lambda: self.title)
        footer = Window(height=1, content=_Footer(self), style="class:overlay.keys")

        body = HSplit([frame, footer], style="class:overlay")
        self.float = Float(
            ConditionalContainer(body, filter=Condition(lambda: self.is_open)),
            top=1, bottom=1, left=0, right=0,
        )  # fmt: skip

    def open(self, title: str, draw: Callable[[int], Fragments]) -> None:
        """Show the page ``draw(width)`` gives for the width it has (lines longer than that
        are wrapped) under ``title``, from its first line."""
        self.title, self._draw, self._drawn = title, draw, None
        self.top, self.is_open = 0, True

    def lines(self, width: int) -> list[Fragments]:
        """The page's lines for ``width`` columns (drawn once a width)."""
        if self._drawn is None or self._drawn[0] != width:
            self._drawn = (width, lines_of(self._draw(width)))
        return self._drawn[1]

    def close(self) -> None:
        """Close the page."""
        if self.is_open:
            self.is_open = False
            self._closed()

    def scroll(self, rows: int) -> None:
        """Down (``rows`` > 0) or up the page."""
        self.top = max(0, self.top + rows)

    def _keys(self) -> KeyBindings:
        kb = KeyBindings()
        moves = {
            "up": lambda: -1, "down": lambda: 1, "pageup": lambda: -max(self.height - 1, 1),
            "pagedown": lambda: max(self.height - 1, 1), "space": lambda: max(self.height - 1, 1),
            "home": lambda: -(1 << 30), "end": lambda: 1 << 30,
        }  # fmt: skip

        def bind(key: str, rows: Callable[[], int]) -> None:
            @kb.add(key)
            def _scroll(event: KeyPressEvent) -> None:
                self.scroll(rows())

        for key, rows in moves.items():
            bind(" " if key == "space" else key, rows)

        @kb.add("escape", eager=True)
        @kb.add("q")
        @kb.add("enter")
        def _close(event: KeyPressEvent) -> None:
            self.close()

        return kb


class _Footer(UIControl):
    def __init__(self, overlay: Overlay) -> None:
        self.overlay = overlay

    def create_content(self, width: int, height: int) -> UIContent:
        more = _("↓ more") + " · " if self.overlay.below else ""
        line = [("class:overlay.keys", " " + more + _("↑↓ PgUp PgDn: scroll · Esc or q: close"))]
        return content([line])

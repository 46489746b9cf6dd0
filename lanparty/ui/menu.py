"""The completion menu of a full-screen prompt (the table's, the lobby's): it floats over
the story, its last row just above the input line, whatever its number of entries.

prompt-toolkit places a menu that follows the cursor below the cursor when it fits there: a
menu of one entry went over the status line, under the input line, and one of more entries
over the story. Here it is always above, from the bottom of the window up.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.layout import Float
from prompt_toolkit.layout.menus import CompletionsMenu

__all__ = ["MENU_ROWS", "completion_menu"]

MENU_ROWS = 8
"""The most rows the menu takes (it scrolls through more entries)."""


def completion_menu(buffer: Buffer, rows: Callable[[], int], below: int = 2) -> Float:
    """The float of ``buffer``'s completion menu for a window of ``rows()`` rows whose
    input line is the ``below``-th row from the bottom (the status line under it): as many
    rows as entries (at most :data:`MENU_ROWS`, and never over the header), ending on the
    row above the input line, at the cursor's column."""

    def height() -> int:
        """The menu's rows now: one an entry, within the bounds above."""
        state = buffer.complete_state
        entries = len(state.completions) if state is not None else 0
        return max(1, min(entries, MENU_ROWS, rows() - below - 1))

    content = CompletionsMenu(max_height=MENU_ROWS, scroll_offset=1)
    return Float(xcursor=True, bottom=below, height=height, content=content)

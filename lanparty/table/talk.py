"""Table talk as a seat's story tells it: a line said at the table, by whom (their name as
they chose it; a spectator's marked as watching), and the English reasons the protocol gives
for a line that cannot go, in the reader's words.

A :class:`Talk` is one of the story's lines (``TableSession.take_log`` gives them among the
game's lines, in order); the screen draws it in its own style, and every string in it is a
peer's: shown only through :func:`lanparty.text.printable`. Talk is never kept in the
transcript: the story is where it is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from lanparty.i18n import _
from lanparty.text import printable

__all__ = ["Talk"]


@dataclass(frozen=True, slots=True)
class Talk:
    """A line of talk to show: ``text`` said by ``name`` (``watching``: a spectator),
    ``mine``: said by this seat."""

    name: str
    text: str
    watching: bool = False
    mine: bool = False

    def who(self) -> str:
        """Who said it, safe for a terminal: ``Bea``, or ``Zed (watching)``."""
        name = printable(self.name)
        return _("{name} (watching)").format(name=name) if self.watching else name

    def said(self) -> str:
        """What was said, safe for a terminal (a bidi override or a zero-width space shown
        escaped)."""
        return printable(self.text)

    def __str__(self) -> str:
        """The whole line as the story's plain text has it: ``Bea: good luck``."""
        return f"{self.who()}: {self.said()}"

"""A replayed game told in lines, for a pipe, a file or a screen reader (``lanparty replay
FILE | cat``, ``--plain``): what the viewer says of each move (the game's narration for no
seat, in the reader's language), one move after another, then the final scores as the
viewer shows them. No terminal control: plain text, one line each."""

from __future__ import annotations

from collections.abc import Iterator

from lanparty.games.screens import Fragments
from lanparty.replay.course import Course
from lanparty.replay.view import replay_screen
from lanparty.text import printable

__all__ = ["plain_text", "told_lines"]

#: The width of the move number's column (``  12  Bea plays Yellow 5``).
_NUMBER = 4


def told_lines(course: Course) -> Iterator[str]:
    """Every frame's narration, the first line of a move after its number (what happened
    before the first move, the deal, has none), then the game's final scores. Names and
    words come from the file: each line is made printable."""
    indent = " " * (_NUMBER + 2)
    for frame in course.frames:
        for i, line in enumerate(frame.said):
            number = f"{frame.move:>{_NUMBER}}  " if i == 0 and frame.move > 0 else indent
            yield number + printable(line)
    last = course.frames[-1].view
    final = replay_screen(course.game).final(last, course.names)
    yield from plain_text(final)


def plain_text(fragments: Fragments) -> list[str]:
    """Styled fragments as plain lines (their styles dropped, trailing blanks trimmed), each
    made printable."""
    text = "".join(part for _style, part in fragments)
    return [printable(line.rstrip()) for line in text.split("\n") if line.strip()]

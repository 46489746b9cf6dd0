"""The reading, step by step: which of a card's announcements one screen shows now.

The reading is known at once when the words open; a table reads it aloud word by word. Each
screen does the same on its own clock: from the moment it first shows a card's reading, one
more word every ``step_seconds`` (quicker for a long reading, so none takes much more than
``TOTAL`` seconds). An objection or a vote shows the whole reading at once: the table has
moved on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from protocol.contract import Plain

__all__ = ["STEP_MAX", "STEP_MIN", "TOTAL", "ReadingPace", "WholeReading", "step_seconds"]

STEP_MAX = 0.8
"""Seconds between two words of a short reading."""
STEP_MIN = 0.25
"""Seconds between two words of a very long reading."""
TOTAL = 10.0
"""About how long a reading lasts when the steps are between the two."""


def step_seconds(words: int) -> float:
    """Seconds between two words of a reading of ``words`` words."""
    return min(STEP_MAX, max(STEP_MIN, TOTAL / max(words, 1)))


def _reading(view: Mapping[str, Plain]) -> list[object]:
    value = view.get("reading")
    return list(value) if isinstance(value, list | tuple) else []


class ReadingPace:
    """Remembers when this screen first showed each card's reading (``clock()`` seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._began: dict[tuple[object, object], float] = {}

    def steps(self, view: Mapping[str, Plain]) -> int:
        """How far the reading of the view has gone on this screen: 0 when its first word
        is shown, ``k`` when its (k+1)-th is, the number of words once every word has had
        its step (always, but while the objections to the current card have not begun).
        The clock starts the first time this is asked about a card."""
        words = len(_reading(view))
        if view.get("phase") != "objections" or view.get("verdicts"):
            return words
        subject = view.get("subject")
        key = (view.get("card"), subject.get("card") if isinstance(subject, dict) else None)
        now = self.clock()
        began = self._began.setdefault(key, now)
        return min(words, int((now - began) / step_seconds(words)))

    def shown(self, view: Mapping[str, Plain]) -> int:
        """How many words of the view's reading are on screen now."""
        return min(len(_reading(view)), self.steps(view) + 1)

    def animating(self, view: Mapping[str, Plain]) -> bool:
        """True while a word is being read: its step is not over."""
        return self.steps(view) < len(_reading(view))


class WholeReading(ReadingPace):
    """A pace that shows every reading whole at once (a replay: no clock)."""

    def steps(self, view: Mapping[str, Plain]) -> int:
        """Every word of the view's reading, always."""
        return len(_reading(view))

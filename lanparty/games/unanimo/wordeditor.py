"""Unanimo's word editor (:class:`lanparty.ui.base.Editor`): up to 8 words, one a line, judged
as they are typed by the engine's own rules (what can be handed in at all), with advice on
what the reading will reject (a sign in the word, the subject's root) or count once (a word
written twice). Pure: the keys are the app's (``lanparty/ui/editor.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lanparty.i18n import _, ngettext
from lanparty.ui.base import ParseError
from protocol.contract import IllegalMove, Move

from .fold import normalise, problem
from .reading import subject_parts
from .refusals import humanize
from .roots import same_root
from .rules import MAX_WORDS, check_words

__all__ = ["WordEditor"]


def _short(word: str, most: int = 20) -> str:
    word = " ".join(word.split())
    return word if len(word) <= most else word[: most - 1] + "…"


@dataclass(frozen=True, slots=True)
class WordEditor:
    """The editor of one seat's words for subject card ``card`` (named ``subject``);
    ``record`` is told the words of every move it makes."""

    subject: str
    card: int | None = None
    fold_accents: bool = True
    record: Callable[[tuple[str, ...]], None] | None = field(default=None, compare=False)

    @property
    def command(self) -> str:
        """``write`` opens the editor again from the command line."""
        return "write"

    @property
    def title(self) -> str:
        """What to write, over the editor."""
        return _("Your words for “{subject}” (up to {n}, one a line):").format(
            subject=self.subject, n=MAX_WORDS
        )

    @property
    def max_lines(self) -> int:
        """One line a word."""
        return MAX_WORDS

    def line_prompt(self, index: int) -> str:
        """`` 1│ `` before the first line, and so on."""
        return f"{index + 1:>2}│ "

    def problem(self, lines: Sequence[str]) -> tuple[int, str] | None:
        """The first line that cannot be handed in (a character no peer can compare, too
        long) or the first word past the eighth, and why; blank lines are skipped."""
        words = [(i, line) for i, line in enumerate(lines) if line.strip()]
        for i, line in words:
            why = problem(line)
            if why is not None:
                return i, _("line {n}: the word {why}").format(n=i + 1, why=humanize(why))
        if len(words) > MAX_WORDS:
            extra = len(words) - MAX_WORDS
            return words[MAX_WORDS][0], ngettext(
                "{count} words: at most {n}, remove {extra}",
                "{count} words: at most {n}, remove {extra}",
                extra,
            ).format(count=len(words), n=MAX_WORDS, extra=extra)
        return None

    def remark(self, lines: Sequence[str], index: int) -> str:
        """What the reading will make of the word on line ``index``, when it is not what
        the player may expect: rejected (a sign or digit, the subject's root), or a repeat
        of an earlier line (it counts once)."""
        if not 0 <= index < len(lines) or not lines[index].strip() or problem(lines[index]):
            return ""
        word = normalise(lines[index], self.fold_accents)
        shown = _short(word.clean)
        if not word.letters_only:
            return _("“{word}” will be rejected: a word is letters, spaces, hyphens and "
                     "apostrophes (one word a line)").format(word=shown)  # fmt: skip
        if self.card is not None and same_root(word.bare, subject_parts(self.card)) is not None:
            return _("“{word}” will be rejected: it shares a root with “{subject}”").format(
                word=shown, subject=self.subject
            )
        for earlier in lines[:index]:
            if (
                earlier.strip() and not problem(earlier)
                and normalise(earlier, self.fold_accents).key == word.key
            ):  # fmt: skip
                return _("“{word}” is already on your list: it counts once").format(word=shown)
        return ""

    def move(self, lines: Sequence[str]) -> Move:
        """``("words", (...))`` with every non-blank line, trimmed; ``ParseError`` if there
        is none or a line cannot be handed in."""
        words = tuple(line.strip() for line in lines if line.strip())
        if not words:
            raise ParseError(_("no word yet: write one a line (to hand in none, Esc then words)"))
        try:
            check_words(words)
        except IllegalMove as exc:
            raise ParseError(humanize(exc.reason)) from None
        if self.record is not None:
            self.record(words)
        return ("words", words)

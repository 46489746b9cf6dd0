"""Unanimo's word editor (:class:`lanparty.games.screens.Editor`): up to 8 words, one a line, judged
as they are typed by the engine's own rules (what can be handed in at all), with a mark after
every word the reading will reject (a sign in the word, the subject's root: the engine's own
rule) or count once (a word written twice), for as long as it is there. What the editor holds
is what every way of handing in hands in (:meth:`WordEditor.settle`). Pure: the keys are the
app's (``lanparty/ui/editor.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from lanparty.games.screens import DraftLeftOutError, ParseError
from lanparty.i18n import _, ngettext
from protocol.contract import IllegalMove, Move

from .fold import normalise, problem
from .reading import root_of
from .refusals import humanize
from .rules import MAX_WORDS, check_words

__all__ = ["WordEditor"]


def _short(word: str, most: int = 20) -> str:
    word = " ".join(word.split())
    return word if len(word) <= most else word[: most - 1] + "…"


@dataclass(frozen=True, slots=True)
class WordEditor:
    """The editor of one seat's words for subject card ``card`` (named ``subject``) at a
    table writing in ``lang`` (whose same-root rule it applies); ``record`` is told the
    words of every move it makes."""

    subject: str
    card: int | None = None
    fold_accents: bool = True
    record: Callable[[tuple[str, ...]], None] | None = field(default=None, compare=False)
    lang: str = "en"

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
        """One line a word (a ninth may be typed: it is marked as one too many)."""
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

    def _judged(self, lines: Sequence[str], index: int) -> tuple[str, int]:
        """What the reading will make of the word on line ``index``: ``("signs", 0)``,
        ``("root", 0)``, ``("repeat", n)`` (the same word as line ``n``, from 1) or
        ``("", 0)``; a line that cannot be handed in, or a blank one, is ``("", 0)``."""
        if not 0 <= index < len(lines) or not lines[index].strip() or problem(lines[index]):
            return "", 0
        word = normalise(lines[index], self.fold_accents)
        if not word.letters_only:
            return "signs", 0
        if self.card is not None and root_of(word.bare, self.card, self.lang) is not None:
            return "root", 0
        for n, earlier in enumerate(lines[:index], 1):
            if (
                earlier.strip() and not problem(earlier)
                and normalise(earlier, self.fold_accents).key == word.key
            ):  # fmt: skip
                return "repeat", n
        return "", 0

    def remark(self, lines: Sequence[str], index: int) -> str:
        """What the reading will make of the word on line ``index``, when it is not what
        the player may expect: rejected (a sign or digit, the subject's root), or a repeat
        of an earlier line (it counts once)."""
        kind, _n = self._judged(lines, index)
        if not kind:
            return ""
        shown = _short(normalise(lines[index], self.fold_accents).clean)
        if kind == "signs":
            return _("“{word}” will be rejected: a word is letters, spaces, hyphens and "
                     "apostrophes (one word a line)").format(word=shown)  # fmt: skip
        if kind == "root":
            return _("“{word}” will be rejected: it shares a root with “{subject}”").format(
                word=shown, subject=self.subject
            )
        return _("“{word}” is already on your list: it counts once").format(word=shown)

    def marks(self, lines: Sequence[str]) -> list[str]:
        """After each line, for as long as it is there: ✗ for a word the reading rejects (a
        sign or digit, the subject's root), one that cannot be handed in, or one past the
        eighth; a note for a repeat (it counts once); "" for a good word or a blank line."""
        out: list[str] = []
        written = 0
        for i, line in enumerate(lines):
            written += bool(line.strip())
            kind, n = self._judged(lines, i) if written <= MAX_WORDS else ("", 0)
            if not line.strip():
                out.append("")
            elif written > MAX_WORDS:
                out.append(_("✗ one word too many (at most {n})").format(n=MAX_WORDS))
            elif problem(line) is not None:
                out.append(_("✗ cannot be handed in"))
            elif kind == "signs":
                out.append(_("✗ rejected: not only letters"))
            elif kind == "root":
                out.append(_("✗ rejected: the subject's root"))
            elif kind == "repeat":
                out.append(_("counts once: as line {n}").format(n=n))
            else:
                out.append("")
        return out

    def settle(self, move: Move, lines: Sequence[str]) -> Move:
        """A command typed while the editor holds ``lines``: ``words`` alone (``w``) and
        ``done`` hand in what the editor holds (``words`` alone with nothing there: no word;
        ``done`` with nothing there is refused); ``words A, B`` is itself when it holds every
        word the editor holds, else :class:`DraftLeftOutError` (the player is asked). Raise
        ``ParseError`` when what the editor holds cannot be handed in."""
        typed = [line.strip() for line in lines if line.strip()]
        if move in (("words", ()), ("done",)):
            if typed:
                found = self.problem(lines)
                if found is not None:
                    raise ParseError(
                        _("{why} ({command} goes back to your words)").format(
                            why=found[1], command=self.command
                        )
                    )
                return self.move(lines)
            if move == ("done",):
                said = _("no word in the editor yet: write yours there ({command}), or hand "
                         "in none with words")  # fmt: skip
                raise ParseError(said.format(command=self.command))
            return move
        if move[0] != "words" or not typed or not isinstance(move[1], tuple):
            return move
        given = {self._key(str(w)) for w in move[1]}
        left = [w for w in typed if self._key(w) not in given]
        if left:
            raise DraftLeftOutError(
                ngettext(
                    "Your editor holds {words}, which this line leaves out.",
                    "Your editor holds {words}, which this line leaves out.",
                    len(left),
                ).format(words=", ".join(_("“{word}”").format(word=_short(w)) for w in left)),
                move,
            )
        return move

    def _key(self, word: str) -> str:
        """How the reading compares ``word`` (as typed, lower-cased, when it cannot be)."""
        if problem(word) is not None:
            return " ".join(word.split()).lower()
        return normalise(word, self.fold_accents).key

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

"""Unanimo on the screen (:class:`lanparty.games.screens.GameScreen`; no prompt-toolkit here): the
subject card, who is writing and who has handed in, the word editor, the reading step by
step with the hands raised and the points, the objections and votes, and the score sheet.

Words are written in the editor, one a line (it opens by itself when the writing starts:
Enter or Tab goes to the next line, Ctrl-S hands in, Esc goes back to the command line and
``write`` back to the words), or on one line: ``words ladybug, spots, red``. What the editor
holds is what is handed in: by Ctrl-S, by ``words`` alone (``w``) or ``done`` on the command
line, by the leader's ``close`` and when time is up (a line leaving some of it out is asked
about first). During the objections, ``object N`` objects to the N-th word read, ``appeal N``
appeals against the same-root rule's rejection of the N-th word, ``done`` says you have no
(more) objections or appeals, and ``keep``/``reject`` vote. The table's writing language is
at the top.

A screen belongs to one seat's terminal: it remembers when it began showing each reading
(the reading is shown step by step on the screen's own clock) and the words it handed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from lanparty.games.layout import join
from lanparty.games.screens import Fragments, ParseError
from lanparty.i18n import N_, _
from lanparty.text import printable
from protocol.contract import Move, Plain

from . import whole
from .board import (
    card_subject,
    language,
    listed,
    score_sheet,
    subject_name,
    subject_words,
    table_language,
)
from .pace import ReadingPace, WholeReading
from .refusals import humanize
from .rules import MAX_WORDS
from .whole import Moment, hint_lines, table_lines
from .wordeditor import WordEditor

__all__ = ["ALIASES", "HELP", "STYLES", "UnanimoScreen", "card_subject", "subject_name"]

STYLES = {
    "subject": "bold #000000 bg:ansiyellow",
    "word": "",
    "word.mine": "bold ansicyan",
    "word.now": "bold #000000 bg:ansicyan",
    "hand": "bold ansigreen",
    "points": "bold ansigreen",
    "rejected": "ansired",
}
ALIASES = {"w": "words", "e": "write", "ok": "done", "o": "object", "a": "appeal", "k": "keep",
           "r": "reject"}  # fmt: skip
"""Short forms of Unanimo's commands."""
HELP = (
    ("write", N_("open the word editor (it opens by itself when the writing starts)")),
    ("  Enter / Tab", N_("in the editor: the next line (one word a line, up to 8)")),
    ("  Shift-Tab, Up", N_("in the editor: back to the line above")),
    ("  Ctrl-S", N_("in the editor: hand your words in")),
    ("  Esc", N_("in the editor: back to the command line; your words are kept")),
    ("words A, B, C", N_("hand in up to {n} words on one line (commas between them)")),
    ("words", N_("hand in the words in the editor (none if it is empty)")),
    ("object N", N_("object to word N of the reading (a majority of the others decides)")),
    (
        "appeal N",
        N_(
            "appeal against the same-root rejection of word N (a majority of the "
            "others may reinstate it)"
        ),
    ),
    (
        "done",
        N_("no (more) objections or appeals from you; while writing: hand in the editor's words"),
    ),
    ("keep / reject", N_("your vote on the word objected to or appealed for")),
)
"""Unanimo's commands (typed in English) and what each does (translated where shown)."""
def _seat(view: Mapping[str, Plain]) -> int:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else -1


class UnanimoScreen:
    """Unanimo's :class:`~lanparty.games.screens.GameScreen` for one seat's terminal, showing
    subjects in ``lang`` (the player's, from the environment, by default) and stepping
    through readings on ``clock``."""

    styles = STYLES
    aliases = ALIASES

    def __init__(
        self, lang: str | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._lang = lang
        self.pace = ReadingPace(clock)
        self._handed: tuple[object, tuple[str, ...]] | None = None  # (card, words) we sent

    @property
    def lang(self) -> str:
        """The language the subject is shown in: the one given, else the program's now."""
        return self._lang if self._lang is not None else language()

    # ------------------------------------------------------------------ the board

    def _moment(self, view: Mapping[str, Plain]) -> Moment:
        """What this screen shows of the view now beyond the view itself."""
        reading_now = view.get("phase") in ("objections", "vote")
        handed = self._handed[1] if self._handed and self._handed[0] == self._card(view) else ()
        return Moment(self.lang, self.pace.shown(view) if reading_now else 0,
                      reading_now and self.pace.animating(view), handed)  # fmt: skip

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """Card N of M with its leader, the bonus threshold and the timer; the subject card;
        a line per player (writing or handed in, or, during the reading, a raised hand for
        the word read and the points on this card); then the reading and any vote."""
        return join(table_lines(view, names, width, self._moment(view)))

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """What the seat may do now, in a line (the editor shows the words being written)."""
        return join(hint_lines(view, width, legal, self._moment(view).animating))

    def board(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
        legal: Sequence[Move] = (), typed: str = "",
    ) -> Fragments:  # fmt: skip
        """The whole live board for the full-screen table (:func:`.whole.board`); raises
        :class:`~lanparty.games.screens.TooSmall` when it does not fit."""
        return whole.board(view, names, width, rows, legal, self._moment(view))

    def header(self, view: Mapping[str, Plain], names: Sequence[str]) -> str:
        """The card, what the table does and whom it waits for (:func:`.whole.header`)."""
        return whole.header(view, names)

    def scores(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """The score sheet so far: each card's points per player, the totals."""
        return score_sheet(view, names, self.lang)

    @staticmethod
    def _card(view: Mapping[str, Plain]) -> object:
        subject = view.get("subject")
        return (view.get("card"), subject.get("card") if isinstance(subject, dict) else None)

    # ------------------------------------------------------------------ optional hooks

    def editor(self, view: Mapping[str, Plain]) -> WordEditor | None:
        """The word editor while this seat writes (``None`` otherwise)."""
        if view.get("phase") != "writing" or _seat(view) not in listed(view, "writing"):
            return None
        subject = view.get("subject")
        card = subject.get("card") if isinstance(subject, dict) else None
        key = self._card(view)
        return WordEditor(
            subject_words(view, self.lang), card if isinstance(card, int) else None,
            view.get("fold_accents") is not False, lambda words: self.handed(key, words),
            table_language(view),
        )  # fmt: skip

    def may_close(self, view: Mapping[str, Plain]) -> bool:
        """True while the writing goes on and this seat leads the card: it may close the
        writing now, or once its own words make half the table."""
        return view.get("phase") == "writing" and view.get("leader") == _seat(view)

    def still(self) -> UnanimoScreen:
        """This screen with every reading shown whole at once (a replay's)."""
        screen = UnanimoScreen(self.lang)
        screen.pace = WholeReading()
        return screen

    def animating(self, view: Mapping[str, Plain]) -> bool:
        """True while the reading is still being shown word by word."""
        return view.get("phase") == "objections" and self.pace.animating(view)

    # ------------------------------------------------------------------ the command line

    def prompt(self, view: Mapping[str, Plain], can_decline: bool) -> str:
        """What is asked now: words, objections, or a vote."""
        phase = view.get("phase")
        if phase == "writing":
            return _("your words> ")
        if phase == "vote":
            return _("keep or reject> ")
        if phase == "objections":
            return _("object N, appeal N, or done> ")
        return _("your move> ")

    def parse(self, head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
        """The move a Unanimo command asks for (``head`` after aliases); raise ``ParseError``."""
        if head == "words":
            rest = text.strip().split(None, 1)[1] if len(text.split()) > 1 else ""
            words = tuple(w.strip() for w in rest.split(",") if w.strip())
            if len(words) > MAX_WORDS:
                raise ParseError(humanize(f"at most {MAX_WORDS} words, not {len(words)}"))
            if view.get("phase") == "writing" and _seat(view) in listed(view, "writing"):
                self.handed(self._card(view), words)
            return ("words", words)
        if head == "write":  # the app opens the editor itself while this seat writes
            if view.get("phase") == "writing":
                raise ParseError(_("you have handed in your words for this card"))
            raise ParseError(_("there is nothing to write now: the editor opens by itself "
                               "when the next card is drawn"))  # fmt: skip
        if head == "done":
            return ("done",)
        if head in ("keep", "reject"):
            return ("vote", head)
        if head in ("object", "appeal"):
            said = listed(view, "reading")[: self.pace.shown(view)]
            if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= len(said):
                raise ParseError(_("{command} N: N is a word of the reading, 1 to {n}").format(
                    command=head, n=len(said)))  # fmt: skip
            a = said[int(args[0]) - 1]
            assert isinstance(a, dict)
            return (head, str(a.get("key")))
        raise ParseError(
            _("unknown command '{command}' (type help, or press Tab)").format(
                command=text.split()[0]
            )
        )

    def handed(self, card: object, words: tuple[str, ...]) -> None:
        """Remember the words this screen hands in for ``card`` (shown while waiting)."""
        self._handed = (card, words)

    def command_for(self, move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
        """The text :meth:`parse` turns into ``move``, and what it does; ``("", "")`` for an
        objection to a word the reading has not come to on this screen."""
        name = str(move[0])
        if name == "words":
            words = move[1]
            assert isinstance(words, tuple)
            text = ("words " + ", ".join(map(str, words))).strip()
            return text, _("hand in these words") if words else _("hand in no word at all")
        if name in ("object", "appeal"):
            keys = [a.get("key") for a in listed(view, "reading") if isinstance(a, dict)]
            n = keys.index(move[1]) + 1 if move[1] in keys else 0
            if not 0 < n <= self.pace.shown(view):
                return "", ""  # not read out on this screen yet: nothing to give away
            word = printable(str(move[1]))
            if name == "appeal":
                return f"appeal {n}", _("appeal for “{word}”").format(word=word)
            return f"object {n}", _("object to “{word}”").format(word=word)
        if name == "vote":
            said = (
                _("vote to reject the word") if move[1] == "reject" else _("vote to keep the word")
            )
            return str(move[1]), said
        return name, _("no more objections or appeals") if name == "done" else ""

    def help(self) -> Sequence[tuple[str, str]]:
        """Unanimo's commands and the editor's keys (what they do in the reader's language)."""
        return [(command, _(what).format(n=MAX_WORDS)) for command, what in HELP]

    def humanize(self, reason: str) -> str:
        """See :func:`humanize`."""
        return humanize(reason)

    def final(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """The score sheet: each card's points per player, the totals, who won; nothing for
        a game that did not end (its table stopped: there is no result)."""
        return score_sheet(view, names, self.lang) if view.get("phase") == "over" else []

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

from lanparty.games.screens import Fragments, ParseError, player_name
from lanparty.i18n import N_, _, ngettext, pgettext
from lanparty.text import printable
from protocol.contract import Move, Plain

from .board import (
    HAND,
    announcement,
    card_points,
    card_subject,
    language,
    language_name,
    listed,
    reading_grid,
    score_sheet,
    subject_line,
    subject_name,
    subject_words,
    table_language,
    wrapped,
)
from .pace import ReadingPace, WholeReading
from .refusals import humanize
from .rules import MAX_WORDS
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
_PHASE_LINE = {
    "subject": N_("the subject card is being drawn…"),
    "opening": N_("the words are being opened…"),
}


def _ballot(ballot: object) -> str:
    """A vote cast, as the board shows it beside the voter."""
    if ballot == "keep":
        return pgettext("ballot", "keep")
    if ballot == "reject":
        return pgettext("ballot", "reject")
    return ""


def _seat(view: Mapping[str, Plain]) -> int:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else -1


def _names(seats: Sequence[object], names: Sequence[str], me: int) -> str:
    who = [_("you") if s == me else names[s] for s in seats if isinstance(s, int)]
    return ", ".join(who)


def _bonus_at(threshold: Plain) -> str:
    """``"bonus at 15 pts"``, in the reader's language and plural."""
    n = threshold if isinstance(threshold, int) else 0
    return ngettext("bonus at {n} pt", "bonus at {n} pts", n).format(n=n)


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

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """Card N of M with its leader, the bonus threshold and the timer; the subject card;
        a line per player (writing or handed in, or, during the reading, a raised hand for
        the word read and the points on this card); then the reading and any vote."""
        me, phase = _seat(view), view.get("phase")
        leader = view.get("leader")
        lead = player_name(names, leader, me) if isinstance(leader, int) else "-"
        timer = view.get("timer")
        head = (
            "  ·  "
            + _("leader {name}").format(name=lead)
            + "  ·  "
            + _bonus_at(view.get("threshold"))
        )
        if isinstance(timer, int) and timer > 0:
            head += "  ·  " + _("{n} s to write").format(n=timer)
        head += "  ·  " + _("writing language: {language}").format(
            language=language_name(table_language(view))
        )
        title = _("Card {card} of {cards}").format(card=view.get("card"), cards=view.get("cards"))
        out: Fragments = [
            ("class:title", title),
            ("", head[: max(0, width - max(12, len(title)))] + "\n"),
            *subject_line(view, self.lang, width),
        ]
        reading = listed(view, "reading")
        reading_now = phase in ("objections", "vote")
        shown = self.pace.shown(view) if reading_now else 0
        now = reading[shown - 1] if reading_now and self.pace.animating(view) else None
        out += self._players(view, names, width, reading[:shown] if reading_now else None, now)
        if phase in _PHASE_LINE:
            out += [("class:dim", _(_PHASE_LINE[str(phase)])), ("", "\n")]
        if phase == "writing":
            out += self._waiting(view, names, width)
        if reading_now:
            out += self._reading(view, names, width, reading, shown)
        return out

    def _players(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int,
        read: list[object] | None, now: object = None,
    ) -> Fragments:  # fmt: skip
        """A line per player; ``read``: the reading's words shown so far (None: no
        reading now), ``now`` the one being read (its writers raise a hand)."""
        me, phase = _seat(view), view.get("phase")
        scores, handed = listed(view, "scores"), listed(view, "handed_in")
        writing, absent = listed(view, "writing"), listed(view, "absent")
        done = listed(view, "done")
        n = len(scores)
        longest = max((len(player_name(names, s, me)) for s in range(n)), default=4)
        name_width = min(longest, max(width - 51, 4))  # the totals fit (the state may not)
        points = card_points(read, n) if read is not None else []
        threshold = view.get("threshold")
        vote = view.get("vote")
        out: Fragments = []
        for s in range(n):
            line = f"  {player_name(names, s, me)[:name_width]:<{name_width}}  "
            style = "class:turn" if s in writing else ""
            if read is None:
                state = ""
                if phase == "writing":
                    state = _("writing…") if s in writing else _("handed in") if handed[s] else ""
                if s < len(absent) and absent[s] is True:
                    state = _("wrote nothing")
                pts = _("{n:>4} pts").format(n=scores[s])
                out += [(style, f"{line}{pts}  {state}"[:width]), ("", "\n")]
                continue
            raised = isinstance(now, dict) and s in (now.get("writers") or [])
            gain = now.get("points") if isinstance(now, dict) and raised else None
            hand = f"{HAND} +{gain!s}" if raised else ""
            out += [(style, line), ("class:hand", f"{hand:<7}")]
            card = _("{n:>3} pts this card").format(n=points[s])
            bonus = isinstance(threshold, int) and points[s] >= threshold
            state = ""
            if isinstance(vote, dict):
                ballots = vote.get("ballots")
                ballot = ballots[s] if isinstance(ballots, list) and s < len(ballots) else None
                state = _("objects") if vote.get("by") == s else _ballot(ballot)
            elif s < len(done) and done[s] is True:
                state = pgettext("objections", "done")
            if s < len(absent) and absent[s] is True:
                state = _("wrote nothing")
            plus = " " + _("+5 bonus") if bonus else ""
            total = _("total {n:>3}").format(n=scores[s])
            rest = f"{card}{plus:<10}  {total}  {state}"
            out += [("class:points" if bonus else "", rest[: max(0, width - len(line) - 7)]),
                    ("", "\n")]  # fmt: skip
        return out

    def _waiting(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """While writing: who we wait for, once this seat has handed in (and its words)."""
        me, writing, handed = _seat(view), listed(view, "writing"), listed(view, "handed_in")
        if me in writing or not writing or not (0 <= me < len(handed) and handed[me] is True):
            return []
        line: Fragments = [("class:title", _("Handed in")), ("", "; " + _("waiting for") + " "),
                           ("class:turn", _names(writing, names, me))]  # fmt: skip
        if view.get("closer") == me:
            line.append(("class:dim", "  " + _("(close ends the writing: they write nothing)")))
        out = wrapped(line, width)
        words = self._handed[1] if self._handed and self._handed[0] == self._card(view) else ()
        if words:
            out += wrapped([("class:dim", _("Your words:") + " "),
                            ("class:word.mine", ", ".join(printable(w) for w in words))],
                           width)  # fmt: skip
        return out

    def _reading(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int,
        reading: list[object], shown: int,
    ) -> Fragments:  # fmt: skip
        """The word being read (while stepping), then every word read so far; then the vote,
        or what the seat may do."""
        me = _seat(view)
        out: Fragments = []
        if not reading:
            return [("class:dim", _("Nobody wrote a word.")), ("", "\n")]
        if self.pace.animating(view) and isinstance(reading[shown - 1], dict):
            out += announcement(reading[shown - 1], shown, len(reading), names, me, width)  # type: ignore[arg-type]
        else:
            n = len(reading)
            heard = ngettext("The reading: {n} word", "The reading: {n} words", n).format(n=n)
            key = _("(points each writer gets; ✗ rejected, and why)")
            out += wrapped([("class:title", heard), ("class:dim", f"  {key}")], width)
        out += reading_grid(reading[:shown], me, width)
        vote = view.get("vote")
        if isinstance(vote, dict):
            by = vote.get("by")
            who = player_name(names, by, me) if isinstance(by, int) else _("someone")
            word = printable(str(vote.get("key")))
            voters = _names(listed(vote, "waiting"), names, me)
            needed = vote.get("needed")
            n = needed if isinstance(needed, int) else 0
            if vote.get("appeal") is True:
                asked = _("{who} appeals for “{word}” (rejected for the subject's root):")
                rule = ngettext("keep it or reject it? {n} keep reinstates it",
                                "keep it or reject it? {n} keeps reinstate it", n)  # fmt: skip
            else:
                asked = _("{who} objects to “{word}”:")
                rule = ngettext("keep it or reject it? {n} reject rejects it",
                                "keep it or reject it? {n} rejects reject it", n)  # fmt: skip
            out += wrapped([("class:warn", asked.format(who=who, word=word) + " "),
                            ("", rule.format(n=n)),
                            ("class:dim", "  " + _("(waiting for {names})").format(names=voters)
                             if voters else "")],
                           width)  # fmt: skip
        for v in listed(view, "verdicts"):
            if isinstance(v, dict):
                word = printable(str(v.get("key")))
                if v.get("appeal") is True:
                    said = (_("“{word}” was appealed for: it stays rejected") if v.get("rejected")
                            else _("“{word}” was appealed for: reinstated"))  # fmt: skip
                else:
                    said = (_("“{word}” was objected to: rejected") if v.get("rejected")
                            else _("“{word}” was objected to: kept"))  # fmt: skip
                out += wrapped([("class:dim", said.format(word=word))], width)
        done = listed(view, "done")
        if view.get("phase") == "objections" and 0 <= me < len(done) and done[me] is True:
            waiting = [s for s, d in enumerate(done) if d is False]
            out += wrapped([("", _("No more objections from you; waiting for") + " "),
                            ("class:turn", _names(waiting, names, me))], width)  # fmt: skip
        return out

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """What the seat may do now, in a line (the editor shows the words being written)."""
        phase = view.get("phase")
        if phase == "objections" and ("done",) in legal and not self.pace.animating(view):
            if any(m[0] == "appeal" for m in legal):
                return wrapped([("class:dim", _(
                    "Object to a word with object N, appeal against a rejection for the root "
                    "with appeal N (the others vote on it), or say done"))], width)  # fmt: skip
            return wrapped([("class:dim", _("Object to a word with object N (the others vote on "
                                            "it), or say done"))], width)  # fmt: skip
        if phase == "vote" and legal:
            return [("class:warn", _("Your vote: keep or reject")), ("", "\n")]
        return []

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
        """The score sheet: each card's points per player, the totals, who won."""
        return score_sheet(view, names, self.lang)

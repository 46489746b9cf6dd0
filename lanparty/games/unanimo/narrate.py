"""Unanimo in words: one seat's log of the game (see :mod:`lanparty.games.narration`). Everything in
Unanimo is public once it is shown, so the log is told from the change in the seat's view: a
new card and its subject (in the table's writing language, and the reader's beside it), who
handed in, the writing closed, objections, appeals and votes, and once a card is scored its
whole reading (each word, who wrote it, its points or why it was rejected, and what a vote on
it decided) and the card's scores; then the end. While the card is read the board shows the
reading step by step: the log tells it once the table is done with it, so it gives nothing
away before the board."""

from __future__ import annotations

from collections.abc import Sequence

from lanparty.games.narration import BaseNarrator, heading, yours
from lanparty.games.wording import game_over
from lanparty.i18n import _, ngettext, pgettext
from lanparty.text import printable
from protocol.contract import Move, Plain, Result, Seat

from .board import card_subject, language, rejected_why, subject_words, table_language

__all__ = ["UnanimoNarrator"]


def _list(view: dict[str, Plain], key: str) -> list[object]:
    value = view.get(key)
    return list(value) if isinstance(value, list | tuple) else []


class UnanimoNarrator(BaseNarrator):
    """The log of seat ``seat`` (called "you")."""

    translated = True

    def __init__(self, seat: Seat | None, names: Sequence[str], lang: str | None = None) -> None:
        super().__init__(seat, names)
        self._lang = lang

    @property
    def lang(self) -> str:
        """The language subjects are named in: the one given, else the program's now."""
        return self._lang if self._lang is not None else language()

    def _who(self, seat: Seat) -> str:
        return _("you") if seat == self.seat else self.names[seat]

    def narrate(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:  # fmt: skip
        """A move by ``seat`` (its words shown, an objection, a vote), or a result: told
        from the change it made."""
        if seat is not None and isinstance(item, tuple) and item[0] == "object":
            word = printable(str(item[1]))
            self._act(seat, (pgettext("you", "object to “{word}”").format(word=word),
                             _("objects to “{word}”").format(word=word)))  # fmt: skip
        elif seat is not None and isinstance(item, tuple) and item[0] == "appeal":
            word = printable(str(item[1]))
            self._act(seat, (pgettext("you", "appeal for “{word}”").format(word=word),
                             _("appeals for “{word}”").format(word=word)))  # fmt: skip
        elif seat is not None and isinstance(item, tuple) and item[0] == "vote":
            if item[1] == "reject":
                self._act(seat, (pgettext("you", "vote reject"), _("votes reject")))
            else:
                self._act(seat, (pgettext("you", "vote keep"), _("votes keep")))
        self.changes(before, after)

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Everything the change from ``before`` to ``after`` tells."""
        if not after:
            return
        if after.get("subject") and after.get("subject") != before.get("subject"):
            leader = after.get("leader")
            lead = self._who(int(leader)) if isinstance(leader, int) else "?"
            timer = after.get("timer")
            timed = "; " + _("{n} s to write").format(n=timer) if isinstance(
                timer, int) and timer > 0 else ""  # fmt: skip
            self.lines.append(yours(_("Card {card} of {cards}: the subject is {subject} (leader: "
                                      "{leader}{timed})").format(
                card=after.get("card"), cards=after.get("cards"),
                subject=subject_words(after, self.lang), leader=lead, timed=timed,
            ), leader == self.seat))  # fmt: skip
        handed_before, handed = _list(before, "handed_in"), _list(after, "handed_in")
        for s, now in enumerate(handed):
            if now and not (s < len(handed_before) and handed_before[s]):
                self._act(s, (pgettext("you", "hand in your words"), _("hands in")))
        was = _list(before, "absent")
        new_absent = [
            s for s, now in enumerate(_list(after, "absent"))
            if now is True and not (s < len(was) and was[s] is True)
        ]  # fmt: skip
        if new_absent:
            who = ", ".join(self._who(s) for s in new_absent)
            self.lines.append(yours(_("The writing is closed: {names} handed nothing in").format(
                names=who), self.seat in new_absent))  # fmt: skip
        self._verdicts(before, after)
        self._scores(before, after)

    def _announce(self, a: dict[str, object]) -> None:
        writers = a.get("writers")
        who = ", ".join(self._who(int(w)) for w in writers) if isinstance(writers, list) else ""
        word = printable(str(a.get("word")))
        voted = a.get("voted")
        if a.get("rejected"):
            why = rejected_why(a.get("rejected"))
            line = _("“{word}” ({names}): rejected, {why}").format(word=word, names=who, why=why)
            if voted == "upheld":
                line += " " + _("(appeal lost)")
        elif isinstance(writers, list) and len(writers) < 2:
            line = _("“{word}” ({names}): 0 points, nobody else wrote it").format(
                word=word, names=who)  # fmt: skip
        else:
            points = a.get("points")
            n = points if isinstance(points, int) else 0
            line = ngettext("“{word}” ({names}): {n} point each",
                            "“{word}” ({names}): {n} points each", n).format(
                word=word, names=who, n=n)  # fmt: skip
        if not a.get("rejected") and voted == "reinstated":
            line += " " + _("(reinstated on appeal)")
        elif not a.get("rejected") and voted == "kept":
            line += " " + _("(objection voted down)")
        mine = isinstance(writers, list) and self.seat in writers
        self.lines.append(yours(line, mine))

    def _verdicts(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for v in _list(after, "verdicts")[len(_list(before, "verdicts")) :]:
            if isinstance(v, dict):
                word = printable(str(v.get("key")))
                if v.get("appeal") is True:
                    said = (_("“{word}” stays rejected: the appeal is lost") if v.get("rejected")
                            else _("“{word}” is reinstated on appeal"))  # fmt: skip
                else:
                    said = (_("“{word}” is rejected") if v.get("rejected")
                            else _("“{word}” is kept"))  # fmt: skip
                self.lines.append(said.format(word=word))

    def _scores(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for card in _list(after, "sheet")[len(_list(before, "sheet")) :]:
            if not isinstance(card, dict):
                continue
            name = card_subject(card.get("subject"), table_language(after))
            said = [a for a in _list(after, "reading") if isinstance(a, dict)]
            n = len(said)
            heard = ngettext("The reading of {subject}: {n} word",
                             "The reading of {subject}: {n} words", n) if said else _(
                "The reading of {subject}: no word at all")  # fmt: skip
            self.lines.append(heard.format(subject=name, n=n))
            for a in said:
                self._announce(a)
            total, bonus = card.get("total"), card.get("bonus")
            assert isinstance(total, list) and isinstance(bonus, list)
            parts = [
                f"{self._who(s)} {total[s]}"
                + (" " + _("(+{n} bonus)").format(n=bonus[s]) if bonus[s] else "")
                for s in range(len(total))
            ]
            line = f"{name}: " + ", ".join(parts)
            self.lines.append(yours(line, self.seat in range(len(total))))
        winners = [int(s) for s in _list(after, "winners") if isinstance(s, int)]
        if winners and not _list(before, "winners"):
            me = self.seat if isinstance(self.seat, int) else -1
            self.lines.append(heading(game_over(winners, me, self.names)))

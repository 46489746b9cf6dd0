"""Unanimo in words: one seat's log of the game (see :mod:`lanparty.narrate`). Everything in
Unanimo is public once it is shown, so the log is told from the change in the seat's view: a
new card and its subject, who handed in, the writing closed, objections and votes, and once
a card is scored its whole reading (each word, who wrote it, its points) and the card's
scores; then the end. While the card is read the board shows the reading step by step: the
log tells it once the table is done with it, so it gives nothing away before the board."""

from __future__ import annotations

from collections.abc import Sequence

from lanparty.narrate import BaseNarrator
from lanparty.text import printable
from protocol.contract import Move, Plain, Result, Seat

from .board import REJECTED, card_subject, language, subject_name

__all__ = ["UnanimoNarrator"]


def _list(view: dict[str, Plain], key: str) -> list[object]:
    value = view.get(key)
    return list(value) if isinstance(value, list | tuple) else []


class UnanimoNarrator(BaseNarrator):
    """The log of seat ``seat`` (called "you")."""

    def __init__(self, seat: Seat | None, names: Sequence[str], lang: str | None = None) -> None:
        super().__init__(seat, names)
        self.lang = lang if lang is not None else language()

    def narrate(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:  # fmt: skip
        """A move by ``seat`` (its words shown, an objection, a vote), or a result: told
        from the change it made."""
        if seat is not None and isinstance(item, tuple) and item[0] == "object":
            self._act(seat, (f"object to “{printable(str(item[1]))}”",
                             f"objects to “{printable(str(item[1]))}”"))  # fmt: skip
        elif seat is not None and isinstance(item, tuple) and item[0] == "vote":
            self._act(seat, (f"vote {item[1]!s}", f"votes {item[1]!s}"))
        self.changes(before, after)

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Everything the change from ``before`` to ``after`` tells."""
        if not after:
            return
        if after.get("subject") and after.get("subject") != before.get("subject"):
            leader = after.get("leader")
            lead = self._who(int(leader)) if isinstance(leader, int) else "?"
            timer = after.get("timer")
            timed = f"; {timer} s to write" if isinstance(timer, int) and timer > 0 else ""
            self.lines.append(f"Card {after.get('card')!s} of {after.get('cards')!s}: the "
                              f"subject is {subject_name(after, self.lang)} (leader: {lead}"
                              f"{timed})")  # fmt: skip
        handed_before, handed = _list(before, "handed_in"), _list(after, "handed_in")
        for s, now in enumerate(handed):
            if now and not (s < len(handed_before) and handed_before[s]):
                self._act(s, ("hand in your words", "hands in"))
        was = _list(before, "absent")
        new_absent = [
            s for s, now in enumerate(_list(after, "absent"))
            if now is True and not (s < len(was) and was[s] is True)
        ]  # fmt: skip
        if new_absent:
            who = ", ".join(self._who(s) for s in new_absent)
            self.lines.append(f"The writing is closed: {who} handed nothing in")
        self._verdicts(before, after)
        self._scores(before, after)

    def _announce(self, a: dict[str, object]) -> None:
        writers = a.get("writers")
        who = ", ".join(self._who(int(w)) for w in writers) if isinstance(writers, list) else ""
        word = printable(str(a.get("word")))
        if a.get("rejected"):
            why = REJECTED.get(str(a.get("rejected")), str(a.get("rejected")))
            self.lines.append(f"“{word}” ({who}): rejected, {why}")
        elif isinstance(writers, list) and len(writers) < 2:
            self.lines.append(f"“{word}” ({who}): 0 points, nobody else wrote it")
        else:
            self.lines.append(f"“{word}” ({who}): {a.get('points')!s} points each")

    def _verdicts(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for v in _list(after, "verdicts")[len(_list(before, "verdicts")) :]:
            if isinstance(v, dict):
                word = printable(str(v.get("key")))
                self.lines.append(f"“{word}” is {'rejected' if v.get('rejected') else 'kept'}")

    def _scores(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for card in _list(after, "sheet")[len(_list(before, "sheet")) :]:
            if not isinstance(card, dict):
                continue
            name = card_subject(card.get("subject"), self.lang)
            said = [a for a in _list(after, "reading") if isinstance(a, dict)]
            self.lines.append(f"The reading of {name}: " + (
                f"{len(said)} word{'s' * (len(said) != 1)}" if said else "no word at all"))
            for a in said:
                self._announce(a)
            total, bonus = card.get("total"), card.get("bonus")
            assert isinstance(total, list) and isinstance(bonus, list)
            parts = [
                f"{self._who(s)} {total[s]}" + (f" (+{bonus[s]} bonus)" if bonus[s] else "")
                for s in range(len(total))
            ]
            self.lines.append(f"{name}: " + ", ".join(parts))
        winners = _list(after, "winners")
        if winners and not _list(before, "winners"):
            names = " and ".join(self._who(int(s)) for s in winners)  # type: ignore[call-overload]
            verb = "wins" if len(winners) == 1 and winners[0] != self.seat else "win"
            self.lines.append(f"Game over: {names} {verb}!")

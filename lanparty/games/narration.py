"""Narration: one seat's log of a game in words, told only from what that seat may know.

Each game brings its narrator through its plugin (``lanparty.games.narrator_for``): it turns
each input its seat's copy received (a move, which is public, or a table result as that copy
got it) plus the seat's view before and after into log lines. Local tables and networked
seats share it, so a game reads the same whichever way it is played. :class:`BaseNarrator`
holds what every game's narrator shares: who is "you", and verbs that agree with their
subject.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from lanparty.i18n import _
from protocol.contract import Move, Plain, Result, Seat

__all__ = ["HEADING", "YOURS", "BaseNarrator", "GameNarrator", "Line", "capital", "heading",
           "kind_of", "starts_with_name", "yours"]  # fmt: skip

YOURS = "yours"
"""A line about the reader: what they do, or what is done to them or goes their way."""
HEADING = "heading"
"""A line that opens or closes a part of the game: a round, a day, the game's end."""


class Line(str):
    """A log line that says what kind of line it is (:data:`YOURS`, :data:`HEADING`), so the
    screen styles it the same in every language. Its text is the line; a plain ``str`` is a
    line of no particular kind."""

    kind = ""

    def __new__(cls, text: str, kind: str) -> Line:
        line = super().__new__(cls, text)
        line.kind = kind
        return line

    def __add__(self, more: str) -> Line:
        """The line with ``more`` after it, of the same kind (``line += ", touching 2"``)."""
        return Line(str(self) + more, self.kind)


def yours(text: str, mine: bool = True) -> str:
    """``text`` as a line about the reader (styled as theirs) if ``mine``, else as it is."""
    return Line(text, YOURS) if mine else text


def heading(text: str) -> Line:
    """``text`` as a line that opens or closes a round (a day, the game)."""
    return Line(text, HEADING)


def kind_of(line: str) -> str:
    """The kind :func:`yours` or :func:`heading` gave ``line``; ``""`` for any other."""
    return line.kind if isinstance(line, Line) else ""


def starts_with_name(text: str, names: Iterable[str]) -> bool:
    """Whether ``text`` begins with one of ``names`` as a whole word (``"root plays"`` with
    ``"root"``; not ``"rooted"``), after any opening ``¡``/``¿`` or quote."""
    body = text.lstrip("¡¿\"'„« ")
    for name in names:
        if name and body.startswith(name):
            rest = body[len(name) :]
            if not rest or not (rest[0].isalnum() and name[-1].isalnum()):
                return True
    return False


def capital(text: str, names: Iterable[str] = ()) -> str:
    """``text`` as a sentence: its first letter in capitals, after any opening ``¡``/``¿``
    (Spanish): ``"¡gana Bea!"`` → ``"¡Gana Bea!"``; unless it begins with one of ``names``,
    the players' names, which stay as each player typed theirs (``"root challenges Bea"``
    stays so). The rest is left as it is (a :class:`Line` keeps its kind). Every sentence a
    game tells about its players goes through here with their names (a narrator:
    :meth:`BaseNarrator.sentence`)."""
    if starts_with_name(text, names):
        return text
    for i, ch in enumerate(text):
        if ch.isalpha():
            said = text[:i] + ch.upper() + text[i + 1 :]
            return Line(said, text.kind) if isinstance(text, Line) else said
        if ch not in "¡¿\"'„«":
            break
    return text


class GameNarrator(Protocol):
    """What a networked seat and a local table ask of a game's narrator."""

    lines: list[str]

    def narrate(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:  # fmt: skip
        """Log one input: a move by ``seat``, or a result (``seat`` None) as this copy got it;
        ``before``/``after``: the listener's view around it."""
        ...

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Log table results from the change in the listener's own view alone (what a
        networked seat knows, entry by entry)."""
        ...


class BaseNarrator:
    """Log lines for seat ``seat`` (called "you"), told to it in the second person and of
    the others in the third; for no seat (``None``: a spectator, a replay) every player in
    the third."""

    translated = False
    """Whether this game's clauses are marked for translation: only then are the sentence
    frames (``"You {actions}"``, ``"{first} and {last}"``) translated too."""

    def __init__(self, seat: Seat | None, names: Sequence[str]) -> None:
        self.seat = seat
        self.names = tuple(names)
        self.lines: list[str] = []

    def _who(self, seat: Seat) -> str:
        return "you" if seat == self.seat else self.names[seat]

    def sentence(self, text: str) -> str:
        """``text`` as a sentence (:func:`capital`): capitalised unless it begins with a
        player's name, which is never re-capitalised."""
        return capital(text, self.names)

    def _whose(self, seat: Seat) -> str:
        return "your" if seat == self.seat else f"{self.names[seat]}'s"

    def _say(self, seat: Seat, you: str, other: str) -> None:
        """Log ``"You <you>"`` for the listener, ``"<Name> <other>"`` for anyone else."""
        if seat == self.seat:
            self.lines.append(yours(f"You {you}"))
        else:
            self.lines.append(f"{self.names[seat]} {other}")

    def _act(self, seat: Seat, *clauses: tuple[str, str], mine: bool = False) -> None:
        """Log what ``seat`` does, one ``(base form, third person)`` pair per verb phrase:
        ``"You play X and name red"`` for the listener, ``"Bea plays X and names red"``. The
        line is the listener's (:func:`yours`) if they act, or if ``mine`` (done to them)."""
        mine = mine or seat == self.seat
        forms = [you if seat == self.seat else other for you, other in clauses]
        if not self.translated:
            text = forms[0] if len(forms) == 1 else f"{', '.join(forms[:-1])} and {forms[-1]}"
            line = f"{'You' if seat == self.seat else self.names[seat]} {text}"
            self.lines.append(yours(line, mine))
            return
        text = forms[0]
        if len(forms) > 1:
            text = _("{first} and {last}").format(first=", ".join(forms[:-1]), last=forms[-1])
        if seat == self.seat:
            line = _("You {actions}").format(actions=text)
        else:
            line = _("{name} {actions}").format(name=self.names[seat], actions=text)
        self.lines.append(yours(self.sentence(line), mine))

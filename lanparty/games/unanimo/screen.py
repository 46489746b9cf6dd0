"""Unanimo on the screen: the subject card, who has handed in, the reading with its points,
the objections and votes, and the score sheet, as pure functions of one seat's view
(:class:`lanparty.ui.base.GameScreen`; no prompt-toolkit here).

Words are written on one line, ``words ladybug, spots, red`` (up to 8, commas between them);
``words`` alone hands in nothing. During the reading, ``object N`` objects to the N-th word
announced, ``done`` says you have no more objections, and ``keep``/``reject`` vote.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanparty.text import printable
from lanparty.ui.base import Fragments, ParseError, player_name
from protocol.contract import Move, Plain

from .rules import MAX_WORDS
from .subjects import SUBJECTS

__all__ = ["SCREEN", "UnanimoScreen"]

STYLES = {
    "subject": "bold #000000 bg:ansiyellow",
    "word": "ansicyan",
    "points": "bold ansigreen",
    "rejected": "ansired",
}
ALIASES = {"w": "words", "ok": "done"}
HELP = (
    ("words A, B, C", f"hand in up to {MAX_WORDS} words (commas between them)"),
    ("words", "hand in no word at all"),
    ("object N", "object to word N of the reading (a majority of the others decides)"),
    ("done", "no (more) objections from you"),
    ("keep / reject", "your vote on the word objected to"),
)
_REJECTED = {"symbols": "not a word", "root": "same root as the subject", "vote": "voted out"}


def _list(view: Mapping[str, Plain], key: str) -> list[object]:
    value = view.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def subject_name(view: Mapping[str, Plain]) -> str:
    """The subject card in the table's language (English for now), or ``""``."""
    subject = view.get("subject")
    return str(subject.get("en", "")) if isinstance(subject, dict) else ""


def card_subject(card: object) -> str:
    """The subject of card number ``card`` (as the score sheet names it)."""
    if type(card) is int and 0 <= card < len(SUBJECTS):
        return SUBJECTS[card][0]
    return printable(str(card))


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """Card N of M, the subject, the leader and the timer; a line per player: handed in or
    writing, and the score; then the reading so far and any vote."""
    me = int(view["seat"])  # type: ignore[arg-type]
    out: Fragments = [("class:title", f"Card {view.get('card')!s} of {view.get('cards')!s}")]
    leader = view.get("leader")
    lead = player_name(names, int(leader), me) if isinstance(leader, int) else "-"
    timer = view.get("timer")
    clock = f"  ·  {timer} s to write" if isinstance(timer, int) and timer > 0 else ""
    out.append(("", f"  ·  leader {lead}{clock}\n"))
    subject = subject_name(view)
    out += [("", "Subject: "), ("class:subject", f" {subject or '…'} "), ("", "\n")]
    scores, handed = _list(view, "scores"), _list(view, "handed_in")
    writing, absent = _list(view, "writing"), _list(view, "absent")
    phase = view.get("phase")
    for s in range(len(scores)):
        state = ""
        if phase == "writing":
            state = "writing…" if s in writing else "handed in" if handed[s] else ""
        elif s < len(absent) and absent[s] is True:
            state = "handed nothing in"
        line = f"  {player_name(names, s, me):<18} {scores[s]!s:>4} pts  {state}"
        out += [("class:turn" if s in writing else "", line[:width]), ("", "\n")]
    out += reading(view, names, width)
    vote = view.get("vote")
    if isinstance(vote, dict):
        by = vote.get("by")
        who = player_name(names, int(by), me) if isinstance(by, int) else "someone"
        word, needed = printable(str(vote.get("key"))), str(vote.get("needed"))
        out += [("class:warn", f"{who} objects to “{word}”: "),
                ("", f"keep or reject? ({needed} rejects needed)\n")]  # fmt: skip
    return out


def reading(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The reading: each word announced, numbered, with who wrote it and what it scores."""
    words = _list(view, "reading")
    if not words or view.get("phase") == "writing":
        return []
    me = int(view["seat"])  # type: ignore[arg-type]
    out: Fragments = [("class:title", "Reading:"), ("", "\n")]
    for i, a in enumerate(words, 1):
        if not isinstance(a, dict):
            continue
        by = a.get("writers")
        writers = ", ".join(
            "you" if w == me else names[int(w)] for w in (by if isinstance(by, list) else [])
        )
        out += [("class:index", f"{i:>2}: "), ("class:word", printable(str(a.get("word"))))]
        rejected = a.get("rejected")
        if rejected:
            out.append(("class:rejected", f"  ({_REJECTED.get(str(rejected), str(rejected))})"))
        else:
            out.append(("class:points", f"  {a.get('points')!s} pts"))
        out += [("class:dim", f"  {writers}"[: max(0, width - 30)]), ("", "\n")]
    return out


def hand(view: Mapping[str, Plain], width: int = 80) -> Fragments:
    """While writing: how to hand in (the words stay sealed until everyone has)."""
    if view.get("phase") == "writing" and view.get("seat") in _list(view, "writing"):
        return [("class:dim", f"Your words (up to {MAX_WORDS}): words ladybug, spots, red"),
                ("", "\n")]  # fmt: skip
    return []


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What is asked now: words, objections, or a vote."""
    phase = view.get("phase")
    if phase == "writing":
        return "your words> "
    if phase == "vote":
        return "keep or reject> "
    if phase == "objections":
        return "object N, or done> "
    return "your move> "


def parse(head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
    """The move a Unanimo command asks for (``head`` after aliases); raise ``ParseError``."""
    if head == "words":
        rest = text.strip().split(None, 1)[1] if len(text.split()) > 1 else ""
        words = tuple(w.strip() for w in rest.split(",") if w.strip())
        if len(words) > MAX_WORDS:
            raise ParseError(f"at most {MAX_WORDS} words, not {len(words)}")
        return ("words", words)
    if head == "done":
        return ("done",)
    if head in ("keep", "reject"):
        return ("vote", head)
    if head == "object":
        said = _list(view, "reading")
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= len(said):
            raise ParseError(f"object N: N is a word of the reading, 1 to {len(said)}")
        a = said[int(args[0]) - 1]
        assert isinstance(a, dict)
        return ("object", str(a.get("key")))
    raise ParseError(f"unknown command '{text.split()[0]}' (type help, or press Tab)")


def command_for(move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
    """The text :func:`parse` turns into ``move``, and what it does."""
    name = str(move[0])
    if name == "words":
        words = move[1]
        assert isinstance(words, tuple)
        return ("words " + ", ".join(map(str, words))).strip(), "hand in these words"
    if name == "object":
        keys = [a.get("key") for a in _list(view, "reading") if isinstance(a, dict)]
        n = keys.index(move[1]) + 1 if move[1] in keys else 0
        return f"object {n}", f"object to “{printable(str(move[1]))}”"
    if name == "vote":
        return str(move[1]), f"vote to {move[1]!s} the word"
    return name, "no more objections" if name == "done" else ""


def final(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The score sheet: each card's subject and points per player, the totals, who won."""
    me = int(view["seat"])  # type: ignore[arg-type]
    out: Fragments = [("class:title", "Score sheet"), ("", "\n")]
    for c in _list(view, "sheet"):
        assert isinstance(c, dict)
        total = c.get("total", [])
        assert isinstance(total, list)
        cells = "  ".join(f"{names[s]} {total[s]}" for s in range(len(total)))
        out.append(("", f"  {card_subject(c.get('subject')):<16} {cells}\n"))
    scores, winners = _list(view, "scores"), _list(view, "winners")
    for s in sorted(range(len(scores)), key=lambda s: (-int(scores[s]), s)):  # type: ignore[call-overload]
        mark = "★ " if s in winners else "  "
        out += [("class:turn" if s in winners else "", f"{mark}{player_name(names, s, me):<16} "),
                ("", f"{scores[s]!s:>5}\n")]  # fmt: skip
    if winners:
        won = " and ".join("you" if s == me else names[int(s)] for s in winners)  # type: ignore[call-overload]
        verb = "win" if me in winners or len(winners) > 1 else "wins"
        out.append(("class:title", f"{won[0].upper()}{won[1:]} {verb} the game!\n"))
    return out


class UnanimoScreen:
    """Unanimo's :class:`~lanparty.ui.base.GameScreen`."""

    styles = STYLES
    aliases = ALIASES

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """See :func:`table`."""
        return table(view, names, width)

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """See :func:`hand` (a word may be anything: nothing to mark)."""
        return hand(view, width)

    def prompt(self, view: Mapping[str, Plain], can_decline: bool) -> str:
        """See :func:`prompt`."""
        return prompt(view, can_decline)

    def parse(self, head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
        """See :func:`parse`."""
        return parse(head, args, text, view)

    def command_for(self, move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
        """See :func:`command_for`."""
        return command_for(move, view)

    def help(self) -> Sequence[tuple[str, str]]:
        """Unanimo's commands."""
        return HELP

    def humanize(self, reason: str) -> str:
        """The engine's reasons are already in words."""
        return reason

    def final(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """See :func:`final`."""
        return final(view, names)


SCREEN = UnanimoScreen()

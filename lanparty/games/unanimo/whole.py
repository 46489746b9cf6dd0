"""Unanimo's table drawn in lines that are never cut: the card with its leader and bonus, the
subject, a line per player in aligned columns (writing or handed in; during the reading the
hand raised for the word read, the points on this card, the bonus and the total), who is
still writing, the reading and its vote, and what the seat may do; the header's part.

:func:`board` is the full-screen table's: from the roomiest layout to the most compact (the
card and the subject on one line, the verdicts left to the reading's marks, the players in
two columns) and :class:`~lanparty.games.screens.TooSmall` when none fits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanparty.games.cells import cut
from lanparty.games.layout import (
    Lines,
    fit_first,
    flow,
    in_columns,
    join,
    lines,
    table_rows,
    wrap,
)
from lanparty.games.screens import Fragments, listed_name, player_name
from lanparty.i18n import N_, _, ngettext, pgettext
from lanparty.text import printable
from protocol.contract import Move, Plain

from .board import (
    HAND,
    announcement,
    card_points,
    language_name,
    listed,
    reading_grid,
    subject_line,
    table_language,
)

__all__ = ["LEAST", "Moment", "board", "header", "hint_lines", "table_lines", "vote_rule"]

LEAST = 40
"""The fewest columns Unanimo's board is drawn in."""

_PHASE_LINE = {
    "subject": N_("the subject card is being drawn…"),
    "opening": N_("the words are being opened…"),
}


@dataclass(frozen=True)
class Moment:
    """What one seat's screen knows beyond the view: the reader's language, how much of
    the reading it shows now (and whether a word is being read), and the words it handed
    in for this card."""

    lang: str
    shown: int
    animating: bool
    handed: tuple[str, ...] = ()


def _seat(view: Mapping[str, Plain]) -> int:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else -1


def _names(seats: Sequence[object], names: Sequence[str], me: int) -> str:
    """The players the table waits for (``"you, Bea"``): "you" as the object of "waiting
    for" (Polish "czekamy na: ciebie", not "ty")."""
    who = [pgettext("waiting for", "you") if s == me else names[s] for s in seats
           if isinstance(s, int)]  # fmt: skip
    return ", ".join(who)


def _ballot(ballot: object) -> str:
    if ballot == "keep":
        return pgettext("ballot", "keep")
    if ballot == "reject":
        return pgettext("ballot", "reject")
    return ""


def bonus_at(threshold: Plain) -> str:
    """``"bonus at 15 pts"``, in the reader's language and plural."""
    n = threshold if isinstance(threshold, int) else 0
    return ngettext("bonus at {n} pt", "bonus at {n} pts", n).format(n=n)


def title_items(view: Mapping[str, Plain], names: Sequence[str]) -> list[Fragments]:
    """Card N of M, its leader, the bonus threshold, the timer and the writing language."""
    me = _seat(view)
    leader = view.get("leader")
    lead = player_name(names, leader, me) if isinstance(leader, int) else "-"
    title = _("Card {card} of {cards}").format(card=view.get("card"), cards=view.get("cards"))
    items: list[Fragments] = [[("class:title", title)],
                              [("", _("leader {name}").format(name=lead))],
                              [("", bonus_at(view.get("threshold")))]]  # fmt: skip
    timer = view.get("timer")
    if isinstance(timer, int) and timer > 0:
        items.append([("", _("{n} s to write").format(n=timer))])
    items.append([("", _("writing language: {language}").format(
        language=language_name(table_language(view))))])  # fmt: skip
    return items


def player_rows(
    view: Mapping[str, Plain], names: Sequence[str], read: list[object] | None,
    now: object = None, name_cap: int = 99, short: bool = False,
) -> Lines:  # fmt: skip
    """A line per player in aligned columns; ``read``: the reading's words shown so far
    (None: no reading now), ``now`` the one being read (its writers raise a hand).
    ``short``: during the reading, no total (the score sheet has it) and the points on this
    card as a count alone, for two columns side by side."""
    me, phase = _seat(view), view.get("phase")
    scores, handed = listed(view, "scores"), listed(view, "handed_in")
    writing, absent, done = listed(view, "writing"), listed(view, "absent"), listed(view, "done")
    n = len(scores)
    points = card_points(read, n) if read is not None else []
    threshold, vote = view.get("threshold"), view.get("vote")
    wide = max((len(str(p)) for p in [*scores, *points]), default=1)
    rows: list[list[Fragments]] = []
    for s in range(n):
        style = "class:turn" if s in writing else ""
        name = [(style, "  " + cut(listed_name(names, s, me), name_cap))]
        value = scores[s]
        total = value if isinstance(value, int) else 0
        if s < len(absent) and absent[s] is True:
            state = _("wrote nothing")
        elif read is None:
            state = ""
            if phase == "writing":
                state = _("writing…") if s in writing else _("handed in") if handed[s] else ""
        elif isinstance(vote, dict):
            ballots = vote.get("ballots")
            ballot = ballots[s] if isinstance(ballots, list) and s < len(ballots) else None
            state = _("objects") if vote.get("by") == s else _ballot(ballot)
        else:
            state = pgettext("objections", "done") if s < len(done) and done[s] is True else ""
        if read is None:
            pts = ngettext("{n} pt", "{n} pts", total).format(n=f"{total:>{wide}}")
            rows.append([name, [("", pts)], [("", state)]])
            continue
        raised = isinstance(now, dict) and s in (now.get("writers") or [])
        gain = now.get("points") if isinstance(now, dict) and raised else None
        bonus = isinstance(threshold, int) and points[s] >= threshold
        said = ngettext("{n} pt", "{n} pts", points[s]) if short else ngettext(
            "{n} pt this card", "{n} pts this card", points[s])  # fmt: skip
        row = [name, [("class:hand", f"{HAND} +{gain!s}" if raised else "")],
               [("class:points" if bonus else "", said.format(n=f"{points[s]:>{wide}}"))],
               [("class:points", _("+5 bonus") if bonus and not short else "+5" if bonus
                 else "")]]  # fmt: skip
        if not short:
            row.append([("", _("total {n}").format(n=f"{total:>{wide}}"))])
        rows.append([*row, [("", state)]])
    aligns = "<><" if read is None else "<<<<" + ("<<" if not short else "<")
    return table_rows(rows, aligns, gap=2)


def waiting_lines(view: Mapping[str, Plain], names: Sequence[str], width: int,
                  handed: tuple[str, ...]) -> Lines:  # fmt: skip
    """While writing: who we wait for, once this seat has handed in (and its words)."""
    me, writing, given = _seat(view), listed(view, "writing"), listed(view, "handed_in")
    if me in writing or not writing or not (0 <= me < len(given) and given[me] is True):
        return []
    line: Fragments = [("class:title", _("Handed in")), ("", "; " + _("waiting for") + " "),
                       ("class:turn", _names(writing, names, me))]  # fmt: skip
    if view.get("closer") == me:
        line.append(("class:dim", "  " + _("(close ends the writing: they write nothing)")))
    out = wrap(line, width, 2)
    if handed:
        out += wrap([("class:dim", _("Your words:") + " "),
                     ("class:word.mine", ", ".join(printable(w) for w in handed))], width, 2)
    return out


def vote_rule(appeal: bool, n: int) -> str:
    """What decides a vote: ``"keep it or reject it? 2 votes to reject are enough to reject
    it"`` (an appeal: so many votes to keep reinstate the word)."""
    if appeal:
        return ngettext("keep it or reject it? {n} vote to keep is enough to reinstate it",
                        "keep it or reject it? {n} votes to keep are enough to reinstate it",
                        n).format(n=n)  # fmt: skip
    return ngettext("keep it or reject it? {n} vote to reject is enough to reject it",
                    "keep it or reject it? {n} votes to reject are enough to reject it",
                    n).format(n=n)  # fmt: skip


def reading_lines(
    view: Mapping[str, Plain], names: Sequence[str], width: int, moment: Moment,
    compact: bool = False,
) -> Lines:  # fmt: skip
    """The word being read (while stepping), then every word read so far; then the vote,
    the verdicts (not when ``compact``: the reading's marks say them), or what the seat
    waits for."""
    me = _seat(view)
    reading = listed(view, "reading")
    if not reading:
        return [[("class:dim", _("Nobody wrote a word."))]]
    shown = moment.shown
    out: Lines = []
    if moment.animating and isinstance(reading[shown - 1], dict):
        out += wrap(announcement(reading[shown - 1], shown, len(reading), names, me,  # type: ignore[arg-type]
                                 width)[:-1], width, 2)  # fmt: skip
    elif not compact:
        n = len(reading)
        heard = ngettext("The reading: {n} word", "The reading: {n} words", n).format(n=n)
        key = _("(points each writer gets; ✗ rejected, and why)")
        out += wrap([("class:title", heard), ("class:dim", f"  {key}")], width, 2)
    out += lines(reading_grid(reading[:shown], me, width, compact))
    vote = view.get("vote")
    if isinstance(vote, dict):
        by = vote.get("by")
        who = player_name(names, by, me) if isinstance(by, int) else _("someone")
        word = printable(str(vote.get("key")))
        voters = _names(listed(vote, "waiting"), names, me)
        needed = vote.get("needed")
        appeal = vote.get("appeal") is True
        asked = (_("{who} appeals for “{word}” (rejected for the subject's root):") if appeal
                 else _("{who} objects to “{word}”:"))  # fmt: skip
        out += wrap([("class:warn", asked.format(who=who, word=word) + " "),
                     ("", vote_rule(appeal, needed if isinstance(needed, int) else 0)),
                     ("class:dim", "  " + _("(waiting for {names})").format(names=voters)
                      if voters else "")], width, 2)  # fmt: skip
    if not compact:
        for v in listed(view, "verdicts"):
            if isinstance(v, dict):
                out += wrap([("class:dim", _verdict(v))], width, 2)
    done = listed(view, "done")
    if view.get("phase") == "objections" and 0 <= me < len(done) and done[me] is True:
        waiting = [s for s, d in enumerate(done) if d is False]
        out += wrap([("", _("No more objections from you; waiting for") + " "),
                     ("class:turn", _names(waiting, names, me))], width, 2)  # fmt: skip
    return out


def _verdict(v: Mapping[str, object]) -> str:
    word = printable(str(v.get("key")))
    if v.get("appeal") is True:
        said = (_("“{word}” was appealed for: it stays rejected") if v.get("rejected")
                else _("“{word}” was appealed for: reinstated"))  # fmt: skip
    else:
        said = (_("“{word}” was objected to: rejected") if v.get("rejected")
                else _("“{word}” was objected to: kept"))  # fmt: skip
    return said.format(word=word)


def hint_lines(view: Mapping[str, Plain], width: int, legal: Sequence[Move],
               animating: bool) -> Lines:  # fmt: skip
    """What the seat may do now, wrapped (the editor shows the words being written)."""
    phase = view.get("phase")
    if phase == "objections" and ("done",) in legal and not animating:
        if any(m[0] == "appeal" for m in legal):
            return wrap([("class:dim", _(
                "Object to a word with object N, appeal against a rejection for the root "
                "with appeal N (the others vote on it), or say done"))], width, 2)  # fmt: skip
        return wrap([("class:dim", _("Object to a word with object N (the others vote on "
                                     "it), or say done"))], width, 2)  # fmt: skip
    if phase == "vote" and legal:
        return [[("class:warn", _("Your vote: keep or reject"))]]
    return []


def table_lines(view: Mapping[str, Plain], names: Sequence[str], width: int, moment: Moment,
                level: int = 0) -> Lines:  # fmt: skip
    """The table at ``width`` as roomy (``level`` 0: every line the line-based screen shows,
    names giving way to the columns) or as compact (1: the card and the subject on one
    line, no verdict lines; 2: the players in two columns) as asked."""
    phase = view.get("phase")
    reading_now = phase in ("objections", "vote")
    reading = listed(view, "reading")
    read = reading[: moment.shown] if reading_now else None
    now = reading[moment.shown - 1] if reading_now and moment.animating and reading else None
    subject = subject_line(view, moment.lang, width)[:-1]
    if level == 0:
        out = flow(title_items(view, names), width, "  ·  ") + wrap(subject, width, 2)
        cap = max(width - (52 if read is not None else 24), 6)
        out += player_rows(view, names, read, now, cap)
    else:
        out = flow([*title_items(view, names)[:3], subject], width, " · ")
        if level == 1:
            out += player_rows(view, names, read, now, max(width - 48, 6))
        else:
            cap = max(width // 2 - (24 if read is not None else 18), 6)
            out += in_columns(player_rows(view, names, read, now, cap, True), 2, 3)
    if phase in _PHASE_LINE:
        out += wrap([("class:dim", _(_PHASE_LINE[str(phase)]))], width, 2)
    if phase == "writing":
        out += waiting_lines(view, names, width, moment.handed)
    if reading_now:
        out += reading_lines(view, names, width, moment, level > 0)
    return out


def board(
    view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
    legal: Sequence[Move], moment: Moment,
) -> Fragments:  # fmt: skip
    """The whole live board in at most ``rows`` lines of ``width`` columns (the layouts of
    :func:`table_lines`, then what the seat may do). Raises
    :class:`~lanparty.games.screens.TooSmall` when even the most compact does not fit."""

    def drawn(w: int, level: int) -> Fragments:
        hint = hint_lines(view, w, legal, moment.animating)
        return join(table_lines(view, names, w, moment, level) + hint)

    return fit_first(width, rows, [lambda w: drawn(w, 0), lambda w: drawn(w, 1),
                                   lambda w: drawn(w, 2)], LEAST)  # fmt: skip


def _waiting_for(seats: Sequence[object], names: Sequence[str], me: int) -> str:
    """`` · waiting for Bea, you`` for two players at most; for more, how many (the players'
    lines say who): `` · waiting for you and 4 more``, `` · waiting for 5 players``."""
    if not seats:
        return ""
    if len(seats) <= 2:
        return " · " + _("waiting for {names}").format(names=_names(seats, names, me))
    if me in seats:
        n = len(seats) - 1
        return " · " + ngettext("waiting for you and {n} more", "waiting for you and {n} more",
                                n).format(n=n)  # fmt: skip
    return " · " + ngettext("waiting for {n} player", "waiting for {n} players",
                            len(seats)).format(n=len(seats))  # fmt: skip


def header(view: Mapping[str, Plain], names: Sequence[str]) -> str:
    """``"card 2 of 3 · writing · waiting for Bea, Carl"``: the card, what the table does
    (writing, the reading, a vote), and whom it waits for; the game's end."""
    me = _seat(view)
    phase = view.get("phase")
    said = _("card {card} of {cards}").format(card=view.get("card"), cards=view.get("cards"))
    if phase == "over":
        return said + " · " + _("game over")
    if phase == "writing":
        return said + " · " + _("writing") + _waiting_for(listed(view, "writing"), names, me)
    if phase == "objections":
        return said + " · " + _("the reading: objections")
    if phase == "vote":
        vote = view.get("vote")
        waiting = listed(vote, "waiting") if isinstance(vote, dict) else []
        return said + " · " + _("a vote") + _waiting_for(waiting, names, me)
    if phase in _PHASE_LINE:
        return said + " · " + _(_PHASE_LINE[str(phase)])
    return said

"""The parts of Unanimo's board that show words and points, as pure functions of one seat's
view: the subject card in the table's writing language (and the player's, beside it), the
reading (the word being read with the hands raised, and every word read so far, numbered for
``object N`` and ``appeal N``, each rejected word with why, each word a vote decided with
what it decided), and the score sheet.

Every word came from another player's keyboard: it is shown only through
:func:`lanparty.text.printable`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from lanparty import i18n
from lanparty.games.cells import cells, cut
from lanparty.games.layout import join, line_width, table_rows
from lanparty.games.narration import capital
from lanparty.games.screens import Fragments, player_name, view_seat
from lanparty.games.wording import and_list
from lanparty.i18n import N_, _, ngettext
from lanparty.text import printable
from protocol.contract import Plain

from .subjects import LANGUAGES, SUBJECTS

__all__ = [
    "LANGUAGE_NAMES",
    "REJECTED",
    "announcement",
    "card_points",
    "card_subject",
    "language",
    "language_name",
    "listed",
    "reading_grid",
    "score_sheet",
    "subject_line",
    "subject_name",
    "subject_words",
    "table_language",
    "verdict_mark",
    "wrapped",
]

REJECTED = {
    "symbols": N_("not a word"),
    "root": N_("same root as the subject"),
    "vote": N_("voted out"),
}
"""Why a word scores nothing, in words (the view's ``rejected``; translated where shown)."""
SHORT_REJECTED = {
    "symbols": N_("sign or digit"),
    "root": N_("root"),
    "vote": N_("objected"),
}
"""Why a word scores nothing, in a word or two (a cell of the reading's grid)."""
LANGUAGE_NAMES = {"en": N_("English"), "pl": N_("Polish"), "es": N_("Spanish")}
"""The writing languages by name (translated where shown)."""
HAND = "o/"
"""A raised hand."""


def listed(view: Mapping[str, Plain], key: str) -> list[object]:
    """The view's list ``key`` (``[]`` if it has none)."""
    value = view.get(key)
    return list(value) if isinstance(value, list | tuple) else []


def language() -> str:
    """The player's language among the cards' (``en``, ``pl``, ``es``): the one the program
    is read in now (:func:`lanparty.i18n.language`), English if the cards have no names in
    it. Only what is shown depends on it, never how words are matched."""
    lang = i18n.language()
    return lang if lang in LANGUAGES else "en"


def table_language(view: Mapping[str, Plain]) -> str:
    """The table's writing language (the view's ``words``; English if it names none)."""
    lang = view.get("words")
    return lang if isinstance(lang, str) and lang in LANGUAGES else "en"


def language_name(lang: str) -> str:
    """``lang`` (``en``, ``pl``, ``es``) by name, in the reader's language."""
    said = LANGUAGE_NAMES.get(lang)
    return _(said) if said is not None else printable(lang)


def rejected_why(code: object) -> str:
    """Why a word was rejected (the view's ``rejected`` code), in the reader's language."""
    said = REJECTED.get(str(code))
    return _(said) if said is not None else printable(str(code))


def subject_name(view: Mapping[str, Plain], lang: str = "en") -> str:
    """The subject card's name in ``lang`` (English if it has none), or ``""``."""
    subject = view.get("subject")
    if not isinstance(subject, dict):
        return ""
    return str(subject.get(lang) or subject.get("en", ""))


def card_subject(card: object, lang: str = "en") -> str:
    """The name of subject card number ``card`` in ``lang`` (as the score sheet names it)."""
    if type(card) is int and 0 <= card < len(SUBJECTS):
        names = dict(zip(LANGUAGES, SUBJECTS[card], strict=True))
        return names.get(lang, names["en"])
    return printable(str(card))


def subject_line(view: Mapping[str, Plain], lang: str, width: int) -> Fragments:
    """The subject card in the table's writing language, large and in colour, then its name
    in the reader's language ``lang`` if that is another, dimmed."""
    subject = view.get("subject")
    if not isinstance(subject, dict):
        return [("class:dim", _("The subject card is being drawn…")), ("", "\n")]
    name = subject_name(view, table_language(view))
    own = subject_name(view, lang)
    label = _("Subject: ")
    out: Fragments = [("", label), ("class:subject", f"  {name.upper()}  ")]
    room = width - cells(name) - 5 - cells(label)
    if own != name and room > 8:
        out.append(("class:dim", cut(f"  ({own})", room)))
    return [*out, ("", "\n")]


def subject_words(view: Mapping[str, Plain], lang: str) -> str:
    """The subject in the table's writing language, with its name in ``lang`` in brackets
    if that is another: ``"Plaża (Beach)"``."""
    name = subject_name(view, table_language(view))
    own = subject_name(view, lang)
    return name if own == name else f"{name} ({own})"


def wrapped(fragments: Fragments, width: int, indent: str = "  ") -> Fragments:
    """One line of styled text (no newline in it) broken at spaces into lines of at most
    ``width`` columns, the later ones indented; a longer word is cut. Ends with a newline."""
    out: Fragments = []
    col, space = 0, ("", "")
    for style, text in fragments:
        for token in re.findall(r"\s+|\S+", text):
            if token.isspace():
                space = (style, space[1] + token)
                continue
            if col > len(indent) and col + len(space[1]) + len(token) > width:
                out.append(("", "\n" + indent))
                col, space = len(indent), ("", "")
            if space[1]:
                out.append(space)
                col += len(space[1])
                space = ("", "")
            token = token[: max(1, width - col)]
            out.append((style, token))
            col += len(token)
    return [*out, ("", "\n")]


def _writers(a: Mapping[str, object]) -> list[int]:
    value = a.get("writers")
    return [w for w in value if isinstance(w, int)] if isinstance(value, list) else []


def card_points(reading: Sequence[object], players: int) -> list[int]:
    """Each seat's word points from the announcements ``reading`` (before any bonus)."""
    points = [0] * players
    for a in reading:
        if isinstance(a, dict) and isinstance(a.get("points"), int):
            for w in _writers(a):
                if 0 <= w < players:
                    points[w] += int(a["points"])
    return points


def announcement(
    a: Mapping[str, object], index: int, total: int, names: Sequence[str], me: int, width: int
) -> Fragments:
    """The word being read: who read it, the word, the hands raised and what it gives."""
    by, writers = a.get("by"), _writers(a)
    reader = player_name(names, by, me) if isinstance(by, int) else "?"
    word = printable(str(a.get("word")))
    out: Fragments = [
        ("class:title", _("Reading {index} of {total}").format(index=index, total=total)),
        ("class:dim", " · " + _("{reader} reads").format(reader=reader) + " "),
        ("class:word.now", f" {word} "),
        ("", "  "),
    ]
    others = len(writers) - 1
    rejected = a.get("rejected")
    if rejected:
        verdict = [("class:rejected", _("rejected: {why}").format(why=rejected_why(rejected)))]
        if rejected == "root":
            verdict.append(("class:dim", " " + _("(appeal N: the others may reinstate it)")))
    elif others <= 0:
        verdict = [("class:dim", _("nobody else wrote it: 0 points"))]
    else:
        verdict = [("class:points", hands_and_points(len(writers), a.get("points")))]
    out += verdict
    line_length = sum(len(t) for _style, t in out)
    if line_length > width:  # a narrow terminal: the word and what it gives, nothing else
        out = [("class:word.now", f" {word[: max(1, width - 24)]} "), ("", " "), *verdict[:1]]
    return [*out, ("", "\n")]


def hands_and_points(hands: int, points: object) -> str:
    """``"3 hands: 3 points each"``, in the reader's language and its plurals."""
    each = points if isinstance(points, int) else 0
    return _("{hands}: {points}").format(
        hands=ngettext("{n} hand", "{n} hands", hands).format(n=hands),
        points=ngettext("{n} point each", "{n} points each", each).format(n=each),
    )


def verdict_mark(a: Mapping[str, object], short: bool = False) -> tuple[str, str]:
    """What a cell of the grid says after the word, and its style: the points each writer
    gets, or ✗ and why the word was rejected; and what a vote on it decided (an objection
    voted down, an appeal won or lost; ``short``: in a word)."""
    rejected, voted = a.get("rejected"), a.get("voted")
    if rejected:
        said = SHORT_REJECTED.get(str(rejected))
        mark = "✗ " + (_(said) if said is not None else printable(str(rejected)))
        if voted == "upheld":
            mark += " " + (_("(appeal lost)") if not short else "")
        return mark.rstrip(), "class:rejected"
    mark = str(a.get("points"))
    if voted == "reinstated":
        mark += " " + (_("(reinstated on appeal)") if not short else _("(reinstated)"))
    elif voted == "kept":
        mark += " " + (_("(objection voted down)") if not short else _("(kept)"))
    return mark, "class:points" if a.get("points") else "class:dim"


def _cell(i: int, a: Mapping[str, object], me: int, most: int, short: bool) -> Fragments:
    word = cut(printable(str(a.get("word"))), most)
    mine = me in _writers(a)
    mark, mark_style = verdict_mark(a, short)
    return [
        ("class:index", f"{i:>2} "),
        ("class:word.mine" if mine else "class:word", word),
        ("", " "),
        (mark_style, mark),
    ]


def reading_grid(reading: Sequence[object], me: int, width: int, short: bool = False) -> Fragments:
    """The words read so far, numbered from 1 in the order read, as many a row as fit in
    ``width`` (each column as wide as its widest word): each with its points (what each
    writer gets) or ✗ and why it was rejected, and what a vote on it decided
    (:func:`verdict_mark`; ``short``: in a word); the seat's own words stand out."""
    words = [a for a in reading if isinstance(a, dict)]
    if not words:
        return []
    most = max(6, min(20, width - 8))
    cells_ = [_cell(i, a, me, most, short) for i, a in enumerate(words, 1)]
    for per_row in range(len(cells_), 0, -1):
        rows = [cells_[k : k + per_row] for k in range(0, len(cells_), per_row)]
        drawn = table_rows(rows, "<" * per_row, gap=3)
        if per_row == 1 or max(line_width(line) for line in drawn) <= width:
            return join(drawn)
    return []


def score_sheet(view: Mapping[str, Plain], names: Sequence[str], lang: str = "en") -> Fragments:
    """The score sheet: a row per card played (its subject in the table's writing language,
    each player's points with the bonus marked), the totals, and who won (every player with
    the highest total). ``lang`` is the reader's language (the subject's name is shown in
    the table's)."""
    me = view_seat(view)
    lang = table_language(view) if "words" in view else lang
    scores = [int(s) for s in listed(view, "scores") if isinstance(s, int)]
    winners = [s for s in listed(view, "winners") if isinstance(s, int)]
    n = len(scores)
    col = max(6, min(10, max((len(names[s]) for s in range(n)), default=4) + 2))
    head = "".join(f"{names[s][: col - 1]:>{col}}" for s in range(n))
    title = _("Score sheet")
    out: Fragments = [("class:title", f"{title:<17}{head}"), ("", "\n")]
    for c in listed(view, "sheet"):
        if not isinstance(c, dict):
            continue
        total, bonus = c.get("total"), c.get("bonus")
        assert isinstance(total, list) and isinstance(bonus, list)
        out.append(("", f"  {card_subject(c.get('subject'), lang)[:14]:<15}"))
        for s in range(n):
            cell = f"{total[s]!s}{'*' if bonus[s] else ''}"
            out.append(("class:points" if bonus[s] else "", f"{cell:>{col}}"))
        out.append(("", "\n"))
    total_word = _("Total")
    out.append(("class:title", f"  {total_word:<15}" + "".join(f"{t:>{col}}" for t in scores)))
    out.append(("", "\n"))
    rows = [c for c in listed(view, "sheet") if isinstance(c, dict)]
    if any(isinstance(c.get("bonus"), list) and any(c["bonus"]) for c in rows):
        out.append(("class:dim", "  " + _("* with the bonus of 5 points") + "\n"))
    if winners:
        out.append(("class:turn", f"★ {winners_line(winners, me, names, scores)}\n"))
    return out


def winners_line(
    winners: Sequence[int], me: int | None, names: Sequence[str], scores: Sequence[int]
) -> str:
    """``"You win the game with 21 points!"``, ``"Bea wins the game with 21 points!"`` or
    ``"You and Bea win the game with 21 points!"``, in the reader's language."""
    n = scores[winners[0]]
    if len(winners) == 1 and winners[0] == me:
        return ngettext("You win the game with {n} point!", "You win the game with {n} points!",
                        n).format(n=n)  # fmt: skip
    if len(winners) == 1:
        return ngettext("{name} wins the game with {n} point!",
                        "{name} wins the game with {n} points!", n).format(
            name=names[winners[0]], n=n
        )  # fmt: skip
    who = and_list([_("you") if s == me else names[s] for s in winners])
    line = ngettext("{names} win the game with {n} point!",
                    "{names} win the game with {n} points!", n).format(names=who, n=n)  # fmt: skip
    return capital(line, names)  # a name stays as its player typed it

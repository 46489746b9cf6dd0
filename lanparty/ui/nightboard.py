"""A night's scoreboard on screen: a board that fits 80 columns, in the reader's language
(the board's data, its one-line form and its JSON: :mod:`lanparty.night`)."""

from __future__ import annotations

import textwrap
from datetime import datetime

from lanparty.games.cells import cells
from lanparty.i18n import _, language, ngettext
from lanparty.night import GameResult, Night, points_text
from lanparty.text import printable
from lanparty.ui.layout import game_title

__all__ = ["night_text"]

#: At most this many games get a column of their own; the board keeps the latest ones.
COLUMNS = 5
_NAME_CELLS = 18
WIDTH = 80  # the notes under the board are wrapped to it


def _date(when: str) -> str:
    """``when`` ("YYYY-MM-DD HH:MM") as a long date in the reader's language."""
    from babel.dates import format_date

    try:
        day = datetime.strptime(when, "%Y-%m-%d %H:%M").date()
    except ValueError:
        return when
    return format_date(day, format="long", locale=language())


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` terminal cells (an ellipsis marks the cut), then padded."""
    if cells(text) > width:
        while text and cells(text) > width - 1:
            text = text[:-1]
        text += "…"
    return text + " " * (width - cells(text))


def _why_not(night: Night, game: GameResult) -> str:
    if game.points is None:
        return (
            _("it stopped before the end")
            if game.status == "incomplete"
            else _("its transcript does not pass the audit")
        )
    return _("it does not follow game {n} as this night's transcripts hold it").format(
        n=game.number - 1
    )


def night_text(night: Night) -> str:
    """The board of ``night``: a title, one row per player (leader first) with the
    placing points of each game and the total, then what does not count and why (the
    notes wrapped to :data:`WIDTH`)."""
    n = len(night.games)
    title = ngettext("Night of {date} · {n} game", "Night of {date} · {n} games", n).format(
        date=_date(night.when), n=n
    )
    shown = night.games[-COLUMNS:]
    heads = [f"{g.number} {game_title(g.game)}" for g in shown]
    widths = [max(5, min(12, cells(h))) for h in heads]
    board = [title, ""]
    if len(shown) < n:
        board.append(_("(the last {shown} of {n} games)").format(shown=len(shown), n=n))
    head = " " * (_NAME_CELLS + 2) + "  ".join(
        _fit(h, w) for h, w in zip(heads, widths, strict=True)
    )
    total = _("total")  # the column of each player's points in all
    board.append(f"{head}  {total}".rstrip())
    skip = n - len(shown)
    for row in night.standings():
        mark = "★ " if row.place == 1 and row.total > 0 else "  "
        scores = "  ".join(
            _fit(points_text(p), w) for p, w in zip(row.games[skip:], widths, strict=True)
        )
        board.append(
            f"{mark}{_fit(printable(row.name), _NAME_CELLS)}{scores}  "
            f"{points_text(row.total)}".rstrip()
        )
    notes = [
        _("Game {n} ({game}) counts for nothing: {why}.").format(
            n=g.number, game=game_title(g.game), why=_why_not(night, g)
        )
        for g in night.games
        if not night.counted(g)
    ]
    missing = night.missing()
    if missing:
        notes.append(
            _("No transcript here of game {numbers} of this night.").format(
                numbers=", ".join(str(m) for m in missing)
            )
        )
    notes.append(
        _(
            "Placing points: 1 for every player below you in a game, ½ for every "
            "player level with you (lanparty rules night)."
        )
    )
    wrapped = [line for note in notes for line in textwrap.wrap(note, WIDTH)]
    return "\n".join([*board, "", *wrapped]) + "\n"

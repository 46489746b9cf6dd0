"""The regions of the full-screen table and what each shows, for a terminal of a given size.

```
 header: game · table · round, whose turn (the game's) ·················· clock
 board: the game's table and the player's hand, whole (or why it cannot be)
 ─ story ──────────────────────────────────────────────────────── PgUp ↑ ─
 story: every line of the game, newest at the bottom
 (the editor's title, when it is open)
 input: the prompt and what is typed (the editor's lines)
 status: what may be done now, the keys ······ who the table is waiting for
```

From :data:`~lanparty.games.screens.WIDE` columns the story is a column of its own at the
right, beside the board. The board gets :func:`~lanparty.games.screens.board_area`; a board
that cannot be drawn whole there gives way to one centred message saying how big the window
must be. The functions here draw; ``app.py`` holds the state and builds the containers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from prompt_toolkit.utils import get_cwidth

from lanparty.games import PLUGINS, rules_for_reader
from lanparty.games.screens import (
    NARROW_CHROME,
    STORY_COLUMNS,
    WIDE,
    WIDE_CHROME,
    Editor,
    Fragments,
    Listed,
    TooSmall,
    board_area,
)
from lanparty.i18n import _, language
from lanparty.table.local import TableSession
from lanparty.text import printable

from .story import wrap

__all__ = [
    "board_rows",
    "columns_of",
    "draw_board",
    "editor_rows",
    "fit",
    "game_title",
    "header",
    "line_count",
    "listed_names",
    "too_small",
    "wide",
]


def wide(columns: int) -> bool:
    """Does the story go beside the board on a terminal this wide?"""
    return columns >= WIDE


@cache
def _title(name: str, lang: str) -> str:
    heading = rules_for_reader(name).lstrip().splitlines()[:1]
    return heading[0].lstrip("# ").strip() if heading and heading[0].startswith("#") else name


def game_title(name: str) -> str:
    """The game's name as its rules write it (``"Kill the Unicorns"``); ``"table"``, a
    table whose game is not known yet, in the reader's words."""
    if name not in PLUGINS:
        return _("table")
    return _title(name, language())


def line_count(fragments: Fragments) -> int:
    """The lines ``fragments`` take (a last line without its newline counts)."""
    text = "".join(t for _s, t in fragments)
    return text.count("\n") + (1 if text and not text.endswith("\n") else 0)


def columns_of(fragments: Fragments) -> int:
    """The cells the widest line of ``fragments`` takes (trailing spaces not counted)."""
    text = "".join(t for _s, t in fragments)
    return max((get_cwidth(line.rstrip()) for line in text.split("\n")), default=0)


def fit(left: Fragments, right: Fragments, width: int) -> Fragments:
    """``left`` and ``right`` on one row of ``width`` cells, ``right`` at its end; what
    does not fit is cut from the end of ``left``, at a ``" · "`` between its parts where
    there is one. ``left`` keeps at least its first part (at most half the row): a
    ``right`` too long for the rest is cut at its end, marked ``…``."""
    text = "".join(t for _s, t in left)
    first = text.find(" · ", 1)
    keep = min(get_cwidth(text if first < 0 else text[:first]), width // 2)
    right = _cut_end(right, max(width - keep - 2, 0))
    room = width - sum(get_cwidth(t) for _s, t in right) - 1
    out: Fragments = []
    used = 0
    for style, text in left:
        cut = ""
        for ch in text:
            w = get_cwidth(ch)
            if used + w > room:
                break
            cut, used = cut + ch, used + w
        if len(cut) < len(text) and " · " in cut:
            kept = cut[: cut.rindex(" · ")]
            used -= get_cwidth(cut) - get_cwidth(kept)
            cut = kept
        if cut:
            out.append((style, cut))
        if len(cut) < len(text):
            break
    return [*out, ("", " " * max(width - used - sum(get_cwidth(t) for _s, t in right), 0)),
            *right]  # fmt: skip


def _cut_end(fragments: Fragments, cells: int) -> Fragments:
    """``fragments`` in at most ``cells`` cells: as they are if they fit, else cut at the
    end and marked ``…`` (nothing if there is no room for one cell)."""
    if sum(get_cwidth(t) for _s, t in fragments) <= cells:
        return fragments
    out: Fragments = []
    used = 0
    for style, text in fragments:
        cut = ""
        for ch in text:
            if used + get_cwidth(ch) > cells - 1:
                break
            cut, used = cut + ch, used + get_cwidth(ch)
        if len(cut) < len(text):
            return [*out, (style, cut.rstrip() + "…")] if cells > 0 else []
        out.append((style, cut))
    return out


def header(session: TableSession, clock: tuple[str, bool] | None, width: int) -> Fragments:
    """The top row: the game, the table's name (a networked session's optional
    ``table_name``), the game's own part (its screen's optional ``header``: round, turn),
    else whose turn as the session knows it; the clock of a timed phase at the right. The
    table's name only where the whole row still fits with it (the turn matters more)."""
    parts = [game_title(session.game_name)]
    view = session.view()
    said: Callable[..., str] | None = getattr(session.screen, "header", None)
    if said is not None and view:
        parts.append(said(view, session.names))
    elif view and not session.over():
        parts.append(_("your move") if session.may_move() else session.status_line())
    right: Fragments = []
    if clock is not None:
        right = [("class:clock.low" if clock[1] else "class:clock", clock[0] + " ")]
    table = printable(str(getattr(session, "table_name", "") or ""))
    cells = sum(get_cwidth(" · " + printable(p)) for p in parts if p) + get_cwidth(
        clock[0] if clock else ""
    )
    if table and cells + get_cwidth(" · " + table) + 2 <= width:
        parts.insert(1, table)
    left: Fragments = [("class:header.title", " " + parts[0])]
    left += [("class:header", " · " + printable(part)) for part in parts[1:] if part]
    return fit(left, right, width)


def editor_rows(editor: Editor | None) -> int:
    """The rows the input takes: one for the command line; the editor's title and its
    lines (one more than it makes room for: a line too many is shown, and marked)."""
    return 1 if editor is None else editor.max_lines + 2


def board_rows(columns: int, rows: int, editor: Editor | None) -> tuple[int, int]:
    """The ``(width, rows)`` the board may take: :func:`board_area`, less what an open
    editor takes beyond the command line's row (from the story's rows first)."""
    width, height = board_area(columns, rows)
    extra = editor_rows(editor) - 1
    if extra and wide(columns):
        height -= extra
    elif extra:
        height -= max(0, extra - (NARROW_CHROME - 4))  # the story's 4 lines give way first
    return width, max(height, 0)


def too_small(game: str, small: TooSmall, columns: int, rows: int, width: int) -> Fragments:
    """The one message that stands for a board that does not fit, centred in ``width``:
    the window's size to aim for (the board's need plus the table's own rows)."""
    need_w, need_h = small.columns, small.rows + NARROW_CHROME
    if need_w >= WIDE:
        need_w, need_h = small.columns + STORY_COLUMNS + 1, small.rows + WIDE_CHROME
    said = _("Make the window at least {need} to play {game} (now {now})").format(
        need=f"{max(need_w, 1)}×{need_h}", game=game_title(game), now=f"{columns}×{rows}"
    )
    out: Fragments = [("", "\n")]
    for row in wrap([("class:warn", said)], max(width - 2, 10), 0):
        text = "".join(t for _s, t in row)
        pad = max((width - get_cwidth(text)) // 2, 0)
        out += [("", " " * pad), *row, ("", "\n")]
    return out


def listed_names(session: TableSession) -> tuple[str, ...]:
    """The names as the board gets them: each a :class:`Listed` name that the players' list
    shows as a session's ``listed`` has it where it has one (each bot its program started
    with its level: "Bea (bot, hard)"; sentences still say "Bea"), else the names."""
    listed = getattr(session, "listed", None)
    names = session.names
    if not isinstance(listed, tuple) or len(listed) != len(names) or listed == names:
        return names
    return tuple(Listed(name, str(label)) for name, label in zip(names, listed, strict=True))


def draw_board(
    session: TableSession, columns: int, rows: int, typed: str, editor: Editor | None
) -> Fragments:
    """The board region for a terminal of ``columns`` × ``rows``: the game's table and the
    hand whole (its screen's ``board``, else ``table`` then ``hand``), or the message
    saying the window is too small; nothing before the deal."""
    view = session.view()
    if not view:
        return []
    width, height = board_rows(columns, rows, editor)
    legal = session.legal_moves() if session.may_move() else []
    whole = getattr(session.screen, "board", None)
    names = listed_names(session)
    try:
        if height < 1:
            raise TooSmall(width, 1)
        if callable(whole):
            out: Fragments = whole(view, names, width, height, legal, typed)
        else:
            out = [*session.screen.table(view, names, width),
                   *session.screen.hand(view, width, legal)]  # fmt: skip
        count, widest = line_count(out), columns_of(out)
        if count > height or widest > width:
            raise TooSmall(max(widest, width), count)
    except TooSmall as small:
        return too_small(session.game_name, small, columns, rows, width)
    return out

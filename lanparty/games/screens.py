"""What a game's screen is, for the generic terminal UI: pure functions from one seat's view to
styled text, and from typed text to a move. No prompt-toolkit here, and no game.

Each game brings one :class:`GameScreen` through its plugin (``lanparty/games/plugin.py``);
the prompt loop (``lanparty/ui/app.py``), the command line's common commands
(``lanparty/ui/commands.py``) and the log are the same for every game. This contract lives
with the games (the UI above reads it; a game's screen never imports the UI).

Every screen made by :func:`gather_screen` also has ``board`` (:class:`BoardScreen`: the whole
live board in the space the full-screen table gives it, or :class:`TooSmall`), and, when its
game gives them, ``header`` and ``scores`` (:class:`HeaderScreen`: the header's game part and
the score sheet so far; ``None`` when a game has none). Every game of ours gives all three.

A screen may also have these optional methods (the app looks for them with ``getattr``, so a
game without them needs nothing):

* ``editor(view) -> Editor | None``: a multi-line :class:`Editor` for the free-text move the
  seat is asked for now; the app opens it instead of the command line (``lanparty/ui/editor.py``);
* ``animating(view) -> bool``: True while the board changes with time by itself (a reading
  shown step by step); the app redraws it a few times a second meanwhile;
* ``still() -> GameScreen``: the same screen with nothing changing with time (every reading
  whole at once), for a replay, where a recorded state must look the same every time;
* ``may_close(view) -> bool``: True while a sealed phase is open and this seat is the one
  who may close it, now or once enough seats have handed in (its own words may be what it
  waits for): the closer's ``close`` then hands in what its editor holds first, and closes
  once that is on the table (not when it ended the phase by itself).

A fragment list is ``[(style, text), ...]`` — prompt-toolkit's formatted text, built here
without importing it. Style names are classes (``class:card.r``) that the screen's ``styles``
and the app's own colour.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

from lanparty.games.cells import cells
from lanparty.games.narration import HEADING, YOURS, kind_of
from lanparty.i18n import _
from protocol.contract import Move, Plain

__all__ = [
    "Board",
    "BoardScreen",
    "DraftLeftOutError",
    "Editor",
    "Fragments",
    "GameScreen",
    "Header",
    "HeaderScreen",
    "Listed",
    "ParseError",
    "Scores",
    "Screen",
    "TooSmall",
    "board_area",
    "gather_screen",
    "listed_name",
    "log_line",
    "player_name",
    "view_seat",
]

Fragments = list[tuple[str, str]]


class ParseError(ValueError):
    """The text is not a command; ``str(error)`` says why, for the player."""


class DraftLeftOutError(ParseError):
    """A command would hand in ``move``, which leaves out what the player wrote in the
    editor (``str(error)`` says what): the app asks before making it."""

    def __init__(self, message: str, move: Move) -> None:
        super().__init__(message)
        self.move = move


class GameScreen(Protocol):
    """One game's part of the terminal UI."""

    @property
    def styles(self) -> Mapping[str, str]:
        """Style classes this game's fragments use, and their colours (prompt-toolkit
        syntax)."""
        ...

    @property
    def aliases(self) -> Mapping[str, str]:
        """Short forms of this game's commands (``{"p": "play"}``)."""
        ...

    def table(self, view: Mapping[str, Plain], names: Sequence[str], width: int) -> Fragments:
        """The public state of the table, as the seat of ``view`` sees it; for no seat
        (:func:`view_seat` ``None``: a spectator's or a replay's view) nobody is "you"."""
        ...

    def hand(self, view: Mapping[str, Plain], width: int, legal: Sequence[Move]) -> Fragments:
        """What the seat holds or is writing (empty for a game with nothing private, and for
        a view of no seat);
        ``legal`` are the seat's legal moves now (empty when it is not asked), so the screen
        can mark what may be played."""
        ...

    def prompt(self, view: Mapping[str, Plain], can_decline: bool) -> str:
        """The prompt when the seat is asked (``can_decline``: only an out-of-turn chance)."""
        ...

    def parse(self, head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
        """The move for a game command (``head``, after aliases; ``args`` lower-cased words;
        ``text`` as typed, for free text). Raises :class:`ParseError` with the reason."""
        ...

    def command_for(self, move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
        """The text :meth:`parse` turns into ``move``, and a short description of it;
        ``("", "")`` for a move the screen does not offer now (it is not completed)."""
        ...

    def help(self) -> Sequence[tuple[str, str]]:
        """This game's commands for ``help``: ``(command, what it does)``."""
        ...

    def humanize(self, reason: str) -> str:
        """A rules engine's reason in the player's words (card labels named, say); also
        the tag of a rule an audit found broken (``Violation.rule``)."""
        ...

    def final(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """The end of the game: every player's total and who won (for no seat too); nothing
        for a view of a game that did not end (a table that stopped has no result)."""
        ...


class Editor(Protocol):
    """A game's editor for a free-text move typed over several lines (one item a line), as
    pure functions of the lines; the app's ``editor.py`` gives it its keys."""

    @property
    def command(self) -> str:
        """What the player types on the command line to open the editor again."""
        ...

    @property
    def title(self) -> str:
        """The line over the editor: what to write."""
        ...

    @property
    def max_lines(self) -> int:
        """The lines the editor makes room for (the most a move takes); a line more may be
        typed, and :meth:`problem` says it is one too many (it is never glued to the last)."""
        ...

    def line_prompt(self, index: int) -> str:
        """What goes before line ``index`` (from 0), e.g. ``" 1│ "``; all of one width."""
        ...

    def problem(self, lines: Sequence[str]) -> tuple[int, str] | None:
        """The first line (its index) that cannot be handed in and why, or ``None``; the app
        shows it as the player types and refuses to hand in while there is one."""
        ...

    def remark(self, lines: Sequence[str], index: int) -> str:
        """Advice on line ``index`` that does not stop it from being handed in ("" none)."""
        ...

    def marks(self, lines: Sequence[str]) -> list[str]:
        """A short mark for each line ("" none), shown after it for as long as it holds what
        the mark is about: a word the move will reject or count once, one that cannot be
        handed in, one too many."""
        ...

    def settle(self, move: Move, lines: Sequence[str]) -> Move:
        """The move to make when the command line asks for ``move`` while the editor holds
        ``lines`` (what the player typed there): ``move`` itself when it leaves out nothing
        they typed, the editor's own move (:meth:`move`) when ``move`` asks for what the
        editor holds. Raises :class:`DraftLeftOutError` for a move that would leave out
        some of it (the player is asked first), :class:`ParseError` when what it holds
        cannot be handed in (and why)."""
        ...

    def move(self, lines: Sequence[str]) -> Move:
        """The move the lines make; raise :class:`ParseError` saying why there is none."""
        ...


class TooSmall(Exception):  # noqa: N818 - names what happened, like the others here
    """The board cannot be drawn whole in the space given: it needs at least ``columns``
    columns and ``rows`` rows (the board's area, not the terminal's; the app adds what
    its own regions take and tells the player the terminal's size to aim for)."""

    def __init__(self, columns: int, rows: int) -> None:
        super().__init__(f"the board needs {columns}x{rows}")
        self.columns, self.rows = columns, rows


class BoardScreen(Protocol):
    """The whole live board, drawn by the game for the space the full-screen table gives it
    (:func:`board_area`), instead of :meth:`GameScreen.table` then :meth:`GameScreen.hand`:
    every :class:`Screen` has one (a game's own, else table and hand one above the other).
    The app finds it with ``getattr`` and calls it on every redraw (each key typed, each
    change, each resize). A board may use more room when it has it (more of a grid, every
    detail of a collection); it never draws a line wider than ``width`` columns (a wide
    character counts two: :mod:`lanparty.games.cells`) nor more than ``rows`` lines."""

    def board(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
        legal: Sequence[Move], typed: str,
    ) -> Fragments:  # fmt: skip
        """The table and the hand in at most ``rows`` lines of ``width`` columns; ``legal``
        as for :meth:`GameScreen.hand`; ``typed``: the text on the prompt line now (so the
        board can show what the command being typed selects). Raises :class:`TooSmall` when
        the board cannot be drawn whole in that space (nothing is ever cut)."""
        ...


class HeaderScreen(Protocol):
    """Optional, for the full-screen table's header and score sheet (every game of ours
    gives both; :func:`gather_screen` finds them as ``header`` and ``scores``)."""

    def header(self, view: Mapping[str, Plain], names: Sequence[str]) -> str:
        """The game's part of the one-line header: round, day or card, the direction or the
        phase, whose turn (``"round 2 · play goes ↺ · Bea to play"``); the app adds the
        game's name, the table's and the clock."""
        ...

    def scores(self, view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
        """The score sheet so far (every player's points, by round or day where the game
        keeps them), for the overlay a player opens during the game."""
        ...


class Screen:
    """A :class:`GameScreen` with :class:`BoardScreen`'s ``board`` (and :class:`HeaderScreen`'s
    ``header`` and ``scores`` when given) made of a game's functions, so no game writes a
    class that forwards each method to them. ``commands`` are the game's commands and what
    each does, in English (shown translated); ``legend``, more help lines after them
    (already in the reader's language). Without a ``board`` of its own, a screen's board is
    its table then its hand, whole or :class:`TooSmall`."""

    def __init__(
        self,
        styles: Mapping[str, str],
        aliases: Mapping[str, str],
        commands: Sequence[tuple[str, str]],
        *,
        table: Callable[[Mapping[str, Plain], Sequence[str], int], Fragments],
        hand: Callable[[Mapping[str, Plain], int, Sequence[Move]], Fragments],
        prompt: Callable[[Mapping[str, Plain], bool], str],
        parse: Callable[[str, list[str], str, Mapping[str, Plain]], Move],
        command_for: Callable[[Move, Mapping[str, Plain]], tuple[str, str]],
        humanize: Callable[[str], str],
        final: Callable[[Mapping[str, Plain], Sequence[str]], Fragments],
        board: Board | None = None,
        header: Header | None = None,
        scores: Scores | None = None,
        legend: Callable[[], list[tuple[str, str]]] = list,
    ) -> None:
        self.styles, self.aliases, self._commands, self._legend = styles, aliases, commands, legend
        self.table, self.hand, self.prompt, self.parse = table, hand, prompt, parse
        self.command_for, self.humanize, self.final = command_for, humanize, final
        #: The whole live board (:class:`BoardScreen`): the game's, else table then hand.
        self.board: Board = board if board is not None else self._stacked
        #: The header's game part and the score sheet (:class:`HeaderScreen`), or ``None``.
        self.header, self.scores = header, scores

    def help(self) -> Sequence[tuple[str, str]]:
        """The game's commands in the reader's language, then its legend."""
        return [(command, _(what)) for command, what in self._commands] + self._legend()

    def _stacked(
        self, view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
        legal: Sequence[Move], typed: str,
    ) -> Fragments:  # fmt: skip
        """The table, then the hand, drawn at ``width``; :class:`TooSmall` if that is wider
        or longer than the space given (nothing is cut)."""
        drawn = self.table(view, names, width) + self.hand(view, width, legal)
        text = "".join(t for _s, t in drawn)
        rows_of = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
        columns = max((cells(r) for r in rows_of), default=0)
        needed = len(rows_of) if text else 0
        if columns > width or needed > rows:
            raise TooSmall(max(columns, width), needed)
        return drawn


def gather_screen(*modules: str | ModuleType, **given: Any) -> Screen:
    """The :class:`Screen` of a game, its parts found in ``modules`` (a module, or a name:
    the screen module calls this at its end with ``__name__``) by the names screens use:
    ``STYLES``, ``ALIASES``, ``HELP`` and ``table``, ``hand``, ``prompt``, ``parse``,
    ``command_for``, ``humanize``, ``final``, with ``board``, ``header``, ``scores`` and
    ``legend`` if there are any (the first module that has a name gives it); ``given``
    names a part outright (``hand=hand_lines``). Pass every module a part comes from: a
    name a module only imports is not looked for. Raises ``TypeError`` naming a part no
    module has."""
    found = [vars(sys.modules[m] if isinstance(m, str) else m) for m in modules]
    parts: dict[str, Any] = {}
    for name in ("STYLES", "ALIASES", "HELP", "table", "hand", "prompt", "parse",
                 "command_for", "humanize", "final", *_OPTIONAL):  # fmt: skip
        part = given.get(name.lower(), next((f[name] for f in found if name in f), None))
        if part is None and name not in _OPTIONAL:
            raise TypeError(f"no module gives {name} for the screen")
        if part is not None:
            parts[name.lower()] = part
    return Screen(parts.pop("styles"), parts.pop("aliases"), parts.pop("help"), **parts)


_OPTIONAL = ("board", "header", "scores", "legend")
"""The parts of a screen a game may leave out."""


WIDE = 140
"""From this many columns the full-screen table puts the story beside the board."""
STORY_COLUMNS = 56
"""The story's width beside the board on a wide terminal (its rule included)."""
NARROW_CHROME = 8
"""Rows the full-screen table keeps for itself under :data:`WIDE` columns: the header, the
story's rule and its four lines at least, the input line and the status line."""
WIDE_CHROME = 3
"""Rows the full-screen table keeps for itself from :data:`WIDE` columns: the header, the
input line and the status line (the story has a column of its own)."""


def board_area(columns: int, rows: int) -> tuple[int, int]:
    """The ``(width, rows)`` a full-screen table of ``columns`` × ``rows`` gives the board
    (the game's table and the player's hand): the board must fit whole in it, or raise
    :class:`TooSmall`. At 80×24 that is 80×16."""
    if columns >= WIDE:
        return columns - STORY_COLUMNS - 1, max(rows - WIDE_CHROME, 0)
    return columns, max(rows - NARROW_CHROME, 0)


#: :meth:`BoardScreen.board` as a function.
Board = Callable[[Mapping[str, Plain], Sequence[str], int, int, Sequence[Move], str], Fragments]
#: :meth:`HeaderScreen.header` as a function.
Header = Callable[[Mapping[str, Plain], Sequence[str]], str]
#: :meth:`HeaderScreen.scores` as a function.
Scores = Callable[[Mapping[str, Plain], Sequence[str]], Fragments]


def view_seat(view: Mapping[str, Plain]) -> int | None:
    """The seat a view is for; ``None`` for no seat (a spectator's or a replay's view: its
    ``seat`` is ``None`` or missing)."""
    seat = view.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


class Listed(str):
    """A player's name (the string itself: every sentence says it so) that a list of the
    players shows as ``label`` ("Bea (bot, hard)": :func:`listed_name`)."""

    label: str

    def __new__(cls, name: str, label: str) -> Listed:
        """``name``, listed as ``label``."""
        made = super().__new__(cls, name)
        made.label = label
        return made


def listed_name(names: Sequence[str], seat: int, me: int | None) -> str:
    """:func:`player_name` as a list of the players shows it: with the label of a
    :class:`Listed` name (a bot's level), else the name."""
    name = names[seat]
    shown = name.label if isinstance(name, Listed) else name
    return _("{name} (you)").format(name=shown) if seat == me else str(shown)


def player_name(names: Sequence[str], seat: int, me: int | None) -> str:
    """``names[seat]``, with ``(you)`` after the seat's own (none when ``me`` is ``None``:
    the view of no seat)."""
    return _("{name} (you)").format(name=names[seat]) if seat == me else names[seat]


def log_line(line: str) -> Fragments:
    """One log line, styled by the kind its narrator gave it
    (:func:`lanparty.games.narration.kind_of`, whatever the language): the player's own
    in ``log.you``, a round's start or end and the game's in ``log.round``, any other in
    ``log``."""
    style = _LOG_STYLE.get(kind_of(line), "class:log")
    return [(style, "· " + line), ("", "\n")]


_LOG_STYLE = {YOURS: "class:log.you", HEADING: "class:log.round"}

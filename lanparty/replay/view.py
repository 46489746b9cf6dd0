"""``lanparty replay FILE`` on a terminal: the game stepped through, move by move, drawn by
the game's own screen for no seat (or, with ``--open``, with every hand shown too).

The screen is one full-screen prompt-toolkit application in the colours of the table
(``ui.app.make_style``): at the top what the audit found, then where the replay is ("move 12
of 80 · turn 5 · round 1"), what that move did (the narration for no seat), and the table as
the game's screen draws it; the keys are on the bottom line. Every frame is drawn from its
recorded view alone, so going back shows exactly what going forward showed.

Keys: → or n, ← or p a move; ↓ or t, ↑ or T a turn (the next seat to move); r, R a round (what
the game calls one: a hand, a day, a subject card; else a turn cycle); g then a number and
Enter a move; Home, End; ? the keys; q quits.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lanparty.games import PLUGINS
from lanparty.games.screens import Fragments, GameScreen, log_line
from lanparty.i18n import N_, _
from lanparty.replay.course import Course
from lanparty.text import printable, safe_fragments

__all__ = ["KEYS", "Heading", "Viewer", "help_epilog", "position_line", "replay_screen",
           "run_viewer"]  # fmt: skip

KEYS = (
    ("→ n / ← p", N_("the next / the previous move")),
    ("↓ t / ↑ T", N_("the next turn / back a turn")),
    ("r / R", N_("the next round / back a round")),
    ("g N Enter", N_("go to move N")),
    ("Home / End", N_("the start / the end")),
    ("?", N_("these keys")),
    ("q", N_("quit")),
)
"""The viewer's keys and what they do (shown by ``?``)."""


def help_epilog() -> str:
    """What ``lanparty replay --help`` says under the options: the keys, and what is shown
    when the output is not a terminal."""
    keys = "\n".join(f"  {key:<12} {_(what)}" for key, what in KEYS)
    shown = _("On a terminal the game is shown move by move, as a spectator saw it, with what "
              "the audit found at the top. Keys:")
    elsewhere = _("Elsewhere (a pipe, a file) and with --plain the game is told in lines, "
                  "move by move; --json prints every public state for scripts. The exit "
                  "status is the audit's: 0 passed, 1 failed, 3 incomplete, 2 the file cannot "
                  "be read.")
    return "\n".join([*textwrap.wrap(shown, 78), keys, *textwrap.wrap(elsewhere, 78)])


def replay_screen(game: str) -> GameScreen:
    """The game's screen, without animation if it has one (its optional ``still``): a
    replay draws recorded states, and the same state must look the same every time."""
    screen = PLUGINS[game].screen()
    still: Callable[[], GameScreen] | None = getattr(screen, "still", None)
    return still() if still is not None else screen


def position_line(course: Course, at: int) -> str:
    """Where frame ``at`` is: ``"move 12 of 80 · turn 5 · round 1"``."""
    frame = course.frames[at]
    return _("move {n} of {total} · turn {turn} · {round} {number}").format(
        n=frame.move, total=course.moves, turn=frame.turn, round=_(course.round_word),
        number=frame.round,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Heading:
    """What the viewer says above every frame: the game, who played, what the audit found
    and whether every hand is open."""

    title: str
    verified: bool
    verdict: str
    opening: str = ""

    @classmethod
    def of(cls, verdict: Mapping[str, Any], course: Course, asked_open: bool) -> Heading:
        """The heading for ``verdict`` (``lanparty audit --json``'s) and ``course``."""
        title = f"lanparty replay · {course.game} · {', '.join(course.names)}"
        ok = bool(verdict.get("audit_ok"))
        if ok:
            said = _("verified: every signature, proof, share and move checked")
        else:
            why = verdict.get("error") or verdict.get("stopped") or verdict.get("stage") or ""
            status = str(verdict.get("verdict"))
            status = {"failed": _("failed"), "incomplete": _("incomplete")}.get(status, status)
            said = _("NOT verified ({verdict}): {why}").format(
                verdict=status, why=printable(str(why)))  # fmt: skip
        opening = ""
        if asked_open and course.opened:
            opening = _("every hand open: the audit unmasked every card")
        elif asked_open and not ok:
            opening = _("--open: the hands stay hidden: the game was not verified to its end "
                        "(its secrets are not all in the file); only what was public is shown")
        elif asked_open:
            opening = _("--open: the hands stay hidden: {why}; only what was public is shown"
                        ).format(why=course.closed or _("the audit unmasked no card"))
        return cls(title, ok, said, opening)


class Viewer:
    """Where the replay is (a frame of ``course``) and what the keys do to it; ``draw``
    gives the screen for a terminal of a given size. No prompt-toolkit here: the keys are
    names (``"right"``, ``"n"``, ``"home"``...)."""

    def __init__(self, course: Course, heading: Heading, screen: GameScreen) -> None:
        self.course = course
        self.heading = heading
        self.screen = screen
        self.at = 0
        self.help = False
        self.typed: str | None = None  # the move number being typed after g (None: not)
        self.note = ""

    def press(self, key: str) -> bool:
        """Do what ``key`` asks; False when it asks to quit."""
        course, last = self.course, len(self.course.frames) - 1
        self.note = ""
        if self.typed is not None:
            return self._typing(key)
        moves: dict[str, Callable[[], int]] = {
            "right": lambda: min(self.at + 1, last), "n": lambda: min(self.at + 1, last),
            "left": lambda: max(self.at - 1, 0), "p": lambda: max(self.at - 1, 0),
            "down": lambda: course.next_start("turn", self.at),
            "t": lambda: course.next_start("turn", self.at),
            "up": lambda: course.prev_start("turn", self.at),
            "T": lambda: course.prev_start("turn", self.at),
            "r": lambda: course.next_start("round", self.at),
            "R": lambda: course.prev_start("round", self.at),
            "home": lambda: 0, "end": lambda: last,
        }  # fmt: skip
        if key in moves:
            self.at = moves[key]()
        elif key == "g":
            self.typed = ""
        elif key == "?":
            self.help = not self.help
        elif key in ("q", "c-c"):
            return False
        elif key == "escape":
            self.help = False
        return True

    def _typing(self, key: str) -> bool:
        """A key while a move number is typed after ``g``."""
        assert self.typed is not None
        if key.isdigit() and len(key) == 1:
            self.typed = (self.typed + key)[:7]
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif key == "enter":
            if self.typed and int(self.typed) <= self.course.moves:
                self.at = int(self.typed)
            elif self.typed:
                self.note = _("there is no move {n}: the moves are 0 to {last}").format(
                    n=self.typed, last=self.course.moves)  # fmt: skip
            self.typed = None
        elif key in ("escape", "c-c", "c-g"):
            self.typed = None
        return True

    def draw(self, columns: int, rows: int) -> Fragments:
        """The whole screen for frame ``at`` in ``columns`` × ``rows`` (the bottom line is
        the keys' line; what does not fit is cut at the bottom)."""
        width = max(columns - 1, 20)
        h, course = self.heading, self.course
        frame = course.frames[self.at]
        out: Fragments = [("class:title", h.title[:width]), ("", "\n")]
        out += _wrapped("class:turn" if h.verified else "class:warn", h.verdict, width)
        if h.opening:
            out += _wrapped("class:dim" if course.opened else "class:warn", h.opening, width)
        out += [("", "\n"), ("class:title", position_line(course, self.at)), ("", "\n")]
        if self.help:
            out += [("", f"{key:<12} {_(what)}\n") for key, what in KEYS]
            return out
        for line in frame.said or (_("The table before the first move"),):
            style = log_line(line)[0][0]  # the log's own colour for the line
            out += _wrapped(style, line, width, "· ")
        out.append(("", "\n"))
        used = sum(text.count("\n") for _, text in out)
        out += self._table(frame.view, width, max(rows - used - 1, 4))
        if frame.view.get("phase") == "over" or self.at == len(course.frames) - 1:
            out += [("", "\n"), *self.screen.final(frame.view, course.names)]
        for seat, view in enumerate(frame.hands):  # each seat's part of its own screen
            sees = _("{name} sees").format(name=course.names[seat])
            out += [("", "\n"), ("class:title", f"── {sees} ──"), ("", "\n")]
            out += self.screen.hand(view, width, ())
        return out

    def _table(self, view: Mapping[str, Any], width: int, rows: int) -> Fragments:
        """The table as the game's screen draws it for no seat (whole, if it has a
        ``board``: it knows how to fit ``rows``)."""
        board = getattr(self.screen, "board", None)
        if callable(board):
            drawn: Fragments = board(view, self.course.names, width, rows, (), "")
            return drawn
        return self.screen.table(view, self.course.names, width)

    def bottom(self) -> Fragments:
        """The keys' line: a move number being typed, a note, or the keys."""
        if self.typed is not None:
            return [("class:prompt", _("go to move: ")), ("", self.typed + "▏"),
                    ("class:bottom-toolbar", "  " + _("Enter: go · Esc: back"))]  # fmt: skip
        if self.note:
            return [("class:error", self.note)]
        return [("class:bottom-toolbar",
                 _("→/n ←/p move · ↓/t ↑/T turn · r/R round · g go to · Home/End · ? · q quit"))]


def _wrapped(style: str, text: str, width: int, first: str = "") -> Fragments:
    """``text`` in ``style`` on lines of at most ``width`` columns, after ``first`` (the
    next lines indented as far)."""
    lines = textwrap.wrap(text, width, initial_indent=first,
                          subsequent_indent=" " * len(first)) or [first]  # fmt: skip
    return [(style, "\n".join(lines)), ("", "\n")]


def run_viewer(viewer: Viewer) -> int:
    """Show ``viewer`` full screen on the terminal until it is asked to quit; 0."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
    from prompt_toolkit.layout import HSplit, Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    from lanparty.ui.app import make_style

    app: Application[int]
    bindings = KeyBindings()
    names = [*"nptTrRgq?", *"0123456789", "right", "left", "down", "up", "home", "end",
             "escape", "enter", "backspace", "c-c", "c-g"]  # fmt: skip

    def bind(name: str, key: str) -> None:
        @bindings.add(key)
        def _key(event: KeyPressEvent) -> None:
            if not viewer.press(name):
                event.app.exit(result=0)

    for name in dict.fromkeys(names):
        bind(name, name)
    bind("enter", "c-j")  # Enter typed before the screen was up (the terminal made it ^J)

    def body() -> FormattedText:  # names and words from the file: made safe to show
        size = app.output.get_size()
        return FormattedText(safe_fragments(viewer.draw(size.columns, size.rows - 1)))

    layout = Layout(HSplit([
        Window(FormattedTextControl(body), wrap_lines=False),
        Window(FormattedTextControl(lambda: FormattedText(safe_fragments(viewer.bottom()))),
               height=1),
    ]))  # fmt: skip
    app = Application(layout=layout, key_bindings=bindings, style=make_style(viewer.screen),
                      full_screen=True)  # fmt: skip
    result = app.run()
    return result if isinstance(result, int) else 0

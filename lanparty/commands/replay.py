"""``lanparty replay FILE``: the public course of a finished game, from its transcript.

The file is verified first exactly as ``lanparty audit`` does (every signature, proof, share
and move replayed on a spectator's table); the replay records what a spectator may see after
each input to the game — every move, and every result of the table (a shuffle, a deal, a
card turned over) — as the game's own view for no seat (``Game.view(state, None)``). Nothing
hidden is in it: the spectator's table holds no secret and is told no hidden label.

``--json`` prints ``{"file", "game", "names", "verified", "verdict", "states": [...]}``, each
state ``{"step", "pos", "by", "input", "view"}`` (``by``: the seat that moved, ``null`` for a
result of the table; ``input``: the move, or the result's kind), for scripts and tests.
Without it, and when the output is not a terminal (or with ``--plain``), the game is told in
lines as the viewer tells it: the game's narration, move by move, in the reader's language
(:mod:`lanparty.replay.told`). The exit status is the audit's (0 passed, 1 failed, 3
incomplete; 2 if the file cannot be read).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from lanparty import i18n
from lanparty.commands.common import Command, net_errors
from lanparty.commands.progress import Progress
from lanparty.games import GAMES
from lanparty.i18n import N_, _, catalogue, ngettext
from lanparty.replay.audit import Verdict, audit_file, refusal_text
from lanparty.replay.auditwords import status_words, verdict_json
from lanparty.replay.course import Input
from lanparty.text import printable
from protocol.contract import Game, GameError, Move, Plain, Result, Violation

__all__ = ["Recorder", "replay_states", "run_replay"]


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready plain data (tuples as lists, bytes as hex), copied."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


class Recorder:
    """A game that delegates everything to ``game`` and records the public view after each
    move and each result, with the log position being replayed; also every input itself
    (``inputs``), the table's seats and options, and the labels the end-of-game audit
    unmasked (``labels``: every handle's, ``None`` until the audit ran)."""

    def __init__(self, game: Game[Any]) -> None:
        self._game = game
        self.states: list[dict[str, Any]] = []
        self.inputs: list[Input] = []
        self.seats = 0
        self.options: dict[str, Plain] = {}
        self.labels: dict[int, str] | None = None
        self.pos = -1

    def setup(self, seats: int, options: Mapping[str, Plain]) -> Any:
        self.seats, self.options = seats, dict(options)
        return self._game.setup(seats, options)

    def apply(self, state: Any, seat: int, move: Move) -> None:
        self._game.apply(state, seat, move)
        self.inputs.append((seat, move))
        self._record(state, seat, _plain(move))

    def resolve(self, state: Any, result: Result) -> None:
        self._game.resolve(state, result)
        self.inputs.append((None, result))
        self._record(state, None, type(result).__name__)

    def audit(self, state: Any, cards: Mapping[int, str]) -> list[Violation]:
        self.labels = dict(cards)
        return self._game.audit(state, cards)

    def _record(self, state: Any, seat: int | None, what: Plain) -> None:
        view = _plain(self._game.view(state, None))
        self.states.append({"step": len(self.states), "pos": self.pos, "by": seat,
                            "input": what, "view": view})  # fmt: skip

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def replay_states(
    path: str, games: Mapping[str, Game[Any]] = GAMES, progress: Progress | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The audit verdict (as ``lanparty audit --json`` gives it) and the public states of
    the game in ``path``, in order; raises ``NetError`` if the file cannot be read."""
    verdict, recorder = replay_recorded(path, games, progress)
    return verdict, recorder.states if recorder is not None else []


def replay_recorded(
    path: str, games: Mapping[str, Game[Any]] = GAMES, progress: Progress | None = None
) -> tuple[dict[str, Any], Recorder | None]:
    """The audit verdict (as ``lanparty audit --json`` gives it) and the recorder of the
    game in ``path`` (``None`` for a game this program does not know); raises ``NetError``
    if the file cannot be read."""
    audited, recorder = _replay(path, games, progress)
    return verdict_json(audited), recorder


def _replay(
    path: str, games: Mapping[str, Game[Any]], progress: Progress | None
) -> tuple[Verdict, Recorder | None]:
    """The audit verdict and the recorder of the game in ``path`` (see
    :func:`replay_recorded`)."""
    recorders = {name: Recorder(game) for name, game in games.items()}

    def seen(pos: int, raw: bytes) -> None:
        for r in recorders.values():
            r.pos = pos

    verdict = audit_file(path, recorders, progress=progress, seen=seen)
    return verdict, recorders.get(verdict.game)


def run_replay(args: argparse.Namespace) -> int:
    """``lanparty replay FILE [--open] [--json] [--plain]``: on a terminal, the game stepped
    through on screen (``lanparty.replay.view``); else (a pipe, a file, ``--plain``) the game
    told in lines as the viewer tells it, or ``--json``. The exit status is the audit's."""
    with Progress() as progress:
        audited, recorder = _replay(args.file, GAMES, progress)
    verdict = verdict_json(audited)
    states = recorder.states if recorder is not None else []
    seated = recorder is not None and recorder.seats > 0  # the game began
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if not args.json and not args.plain and seated and terminal:
        assert recorder is not None
        return _view(args, verdict, recorder)
    code = {"passed": 0, "failed": 1, "incomplete": 3}.get(str(verdict["verdict"]), 1)
    try:
        if args.json:
            print(json.dumps({
                "file": verdict["file"], "game": verdict["game"], "names": verdict["names"],
                "verified": verdict["audit_ok"], "verdict": verdict["verdict"], "states": states,
            }))  # fmt: skip
            return code
        if args.open:
            print(_("--open shows the hands on a terminal only"), file=sys.stderr)
        _tell(verdict, audited, recorder if seated else None)
        said = ngettext(
            "{n} public state; --json prints each one",
            "{n} public states; --json prints each one",
            len(states),
        )
        print(printable(said.format(n=len(states))), file=sys.stderr)
    except BrokenPipeError:  # ``| head``: whoever reads has had enough
        _stdout_gone()
    return code


def _tell(verdict: dict[str, Any], audited: Verdict, recorder: Recorder | None) -> None:
    """The verdict in a line, then the game told as the viewer tells it (its narration,
    move by move, and the final scores); if the game cannot be told (a changed engine),
    each move as it was recorded."""
    names = [str(n) for n in verdict["names"]]
    why = _("see lanparty audit")
    if audited.refused is not None:  # told again in the reader's words
        why = refusal_text(audited.path, audited.refused, audited, catalogue())
    head = (_("verified: every signature, proof, share and move checked") if verdict["audit_ok"]
            else _("NOT verified ({verdict}): {why}").format(verdict=status_words(audited.status),
                                                              why=why))  # fmt: skip
    print(printable(f"{verdict['game']} · {', '.join(names)} · {head}"))
    if recorder is None:
        return
    from lanparty.replay.course import build_course
    from lanparty.replay.told import told_lines

    try:
        course = build_course(str(verdict["game"]), names, recorder.seats, recorder.options,
                              recorder.inputs)  # fmt: skip
    except (KeyError, GameError):
        for s in recorder.states:
            if s["by"] is not None:
                print(printable(f"{s['step']:>4}  {_who(names, s['by'])}: {_move(s['input'])}"))
        return
    for line in told_lines(course):
        print(line)


def _who(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("seat {seat}").format(seat=seat)


def _move(recorded: Any) -> str:
    return " ".join(str(x) for x in recorded) if isinstance(recorded, list) else str(recorded)


def _stdout_gone() -> None:
    """Standard output's reader left: nothing more goes there (not even at exit)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _view(args: argparse.Namespace, verdict: dict[str, Any], recorder: Recorder) -> int:
    """The viewer on the terminal; the audit's exit status once it is closed."""
    from lanparty.replay.course import build_course
    from lanparty.replay.view import Heading, Viewer, replay_screen, run_viewer

    code = {"passed": 0, "failed": 1, "incomplete": 3}.get(str(verdict["verdict"]), 1)
    opened = args.open and verdict["audit_ok"] and recorder.labels is not None
    course = build_course(  # names come from the file: nothing in them may steer the terminal
        str(verdict["game"]), [printable(str(n)) for n in verdict["names"]], recorder.seats,
        recorder.options, recorder.inputs, recorder.labels if opened else None,
    )  # fmt: skip
    heading = Heading.of(verdict, course, bool(args.open))
    run_viewer(Viewer(course, heading, replay_screen(course.game)))
    return code


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=i18n._("a saved transcript (.lptx)"))
    p.add_argument("--json", action="store_true",
                   help=i18n._("print every public state of the game as JSON"))  # fmt: skip
    p.add_argument("--plain", action="store_true",
                   help=i18n._("tell the game in lines, as for a pipe, even on a terminal "
                               "(for screen readers)"))  # fmt: skip
    p.add_argument("--open", action="store_true",
                   help=i18n._("show every hand too, once the audit has verified the game to "
                               "its end and unmasked every card"))  # fmt: skip
    from lanparty.replay.view import help_epilog

    p.epilog = help_epilog()
    p.formatter_class = argparse.RawDescriptionHelpFormatter


COMMAND = Command(
    "replay",
    N_("step through a saved game on screen, verified first"),
    configure,
    net_errors(run_replay),
)

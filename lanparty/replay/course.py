"""The course of a replayed game, one frame per move, for ``lanparty replay``'s viewer.

The audit's spectator table hands every input of the game to the recorder (a move, or a
table result as a spectator gets it: no hidden label); :func:`build_course` replays those
inputs on a fresh copy of the engine and cuts them into frames: frame 0 is the table before
the first move, frame ``k`` the table after the ``k``-th move and the table results that
follow it (the card it drew, the next deal). Each frame holds the public view for no seat,
the narration of its inputs for no seat, and its turn and round.

With the labels the end-of-game audit unmasked (every card, known only once every seat has
published its deck secrets), the same inputs are replayed a second time with every hidden
label filled in (a deal's cards, a hand shown to one seat), so each frame also holds every
seat's own view: what ``--open`` shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from lanparty.games import GAMES, PLUGINS
from lanparty.i18n import N_
from protocol.contract import Dealt, GameError, Move, Plain, Result, Seat, Shown

__all__ = ["ROUND_KEYS", "Course", "Frame", "Input", "build_course", "open_hands"]

Input = tuple[Seat | None, Move | Result]
"""One input to the game: ``(seat, move)``, or ``(None, result)`` as a spectator got it."""

ROUND_KEYS = (("round", N_("round")), ("day", N_("day")), ("card", N_("card")))
"""Where a view says which round it is (a hand of KaTO or Unikato, a day of Kill the
Unicorns, a subject card of Unanimo), and the word for it; the first one found is used. A
game with none counts turn cycles: a round ends when a seat moves again."""
CYCLE = N_("cycle")
"""The word for a round of a game whose views say none."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after one move (``move`` 0: before the first) and the results after it."""

    move: int
    by: Seat | None
    turn: int
    round: int
    said: tuple[str, ...]
    view: dict[str, Plain]
    hands: tuple[dict[str, Plain], ...] = ()


@dataclass(slots=True)
class Course:
    """A whole game in frames, and the word for its rounds (``round``, ``day``...)."""

    game: str
    names: tuple[str, ...]
    frames: list[Frame]
    round_word: str = CYCLE
    #: Why the hands could not be opened ("" if they are, or were not asked for).
    closed: str = ""
    opened: bool = False
    starts: dict[str, list[int]] = field(default_factory=dict)

    @property
    def moves(self) -> int:
        """How many moves the game had."""
        return len(self.frames) - 1

    def _starts(self, key: str) -> list[int]:
        if key not in self.starts:
            values = [f.turn if key == "turn" else f.round for f in self.frames]
            self.starts[key] = [
                i for i, v in enumerate(values) if i == 0 or v != values[i - 1]
            ]
        return self.starts[key]

    def next_start(self, key: str, at: int) -> int:
        """The first frame of the next turn or round (``key``) after frame ``at``; the last
        frame if there is none."""
        return next((i for i in self._starts(key) if i > at), len(self.frames) - 1)

    def prev_start(self, key: str, at: int) -> int:
        """The first frame of the turn or round that frame ``at`` is in, or of the one before
        if ``at`` is already its first; 0 at the start."""
        return max((i for i in self._starts(key) if i < at), default=0)


def _round_key(view: Mapping[str, Plain]) -> tuple[str, str] | None:
    for key, word in ROUND_KEYS:
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return key, word
    return None


def _filled(result: Result, labels: Mapping[int, str]) -> Result:
    """``result`` with the labels a spectator did not get (a deal's, a shown hand's) from
    ``labels``; raises ``KeyError`` for a handle the audit did not unmask."""
    if isinstance(result, Dealt | Shown) and result.cards is None:
        return replace(result, cards=tuple(labels[h] for h in result.handles))
    return result


def build_course(
    game_name: str,
    names: Sequence[str],
    seats: int,
    options: Mapping[str, Plain],
    inputs: Sequence[Input],
    labels: Mapping[int, str] | None = None,
) -> Course:
    """The frames of the game ``inputs`` played (see the module's docstring), told with
    ``names``. With ``labels`` (handle → label, from the audit) every frame also holds each
    seat's own view; if they do not fit the game (a label missing, a view for no seat that
    comes out different), the course says why in ``closed`` and holds no seat's view.

    Raises ``KeyError`` for a game that is not registered and ``GameError`` if the inputs do
    not replay (they did at the audit: only a changed engine could refuse them)."""
    game, plugin = GAMES[game_name], PLUGINS[game_name]
    names = tuple(names) + tuple(f"seat {s}" for s in range(len(names), seats))
    state = game.setup(seats, options)
    narrator = plugin.narrator(None, names, lambda: state)
    frames: list[Frame] = []
    said: list[str] = []
    by: Seat | None = None
    turn, cycle = 0, 1
    movers: set[Seat] = set()
    key = _round_key(game.view(state, None))
    ends: list[int] = []  # the index of each frame's last input

    def close(upto: int) -> None:
        view = game.view(state, None)
        number = view.get(key[0]) if key is not None else cycle
        frames.append(Frame(len(frames), by, turn, int(number) if isinstance(number, int) else 0,
                            tuple(said), view))  # fmt: skip
        ends.append(upto)
        said.clear()

    for i, (seat, item) in enumerate(inputs):
        if seat is not None:
            close(i - 1)
            turn += seat != by
            if seat in movers and seat != by:
                cycle, movers = cycle + 1, set()
            movers.add(seat)
            by = seat
        before = game.view(state, None)
        if seat is None:
            game.resolve(state, item)  # type: ignore[arg-type]
        else:
            game.apply(state, seat, item)  # type: ignore[arg-type]
        start = len(narrator.lines)
        narrator.narrate(seat, item, before, game.view(state, None))
        said += narrator.lines[start:]
    close(len(inputs) - 1)
    word = key[1] if key is not None else CYCLE
    course = Course(game_name, names, frames, word)
    if labels is not None:
        try:
            hands = open_hands(game_name, seats, options, inputs, labels, ends, frames)
        except (KeyError, GameError) as exc:
            course.closed = f"{type(exc).__name__}: {exc}"
        else:
            course.frames = [replace(f, hands=h) for f, h in zip(frames, hands, strict=True)]
            course.opened = True
    return course


def open_hands(
    game_name: str,
    seats: int,
    options: Mapping[str, Plain],
    inputs: Sequence[Input],
    labels: Mapping[int, str],
    ends: Sequence[int],
    frames: Sequence[Frame],
) -> list[tuple[dict[str, Plain], ...]]:
    """Every seat's view at the end of each frame (``ends``: the index of each frame's last
    input), with ``inputs`` replayed on a copy told every label. Raises ``KeyError`` for a
    handle ``labels`` lacks and ``GameError`` when the copy's view for no seat differs from
    the frame's (the labels are not this game's)."""
    game = GAMES[game_name]
    state: Any = game.setup(seats, options)
    out: list[tuple[dict[str, Plain], ...]] = []
    done = -1
    for frame, end in zip(frames, ends, strict=True):
        for seat, item in inputs[done + 1 : end + 1]:
            if seat is None:
                game.resolve(state, _filled(item, labels))  # type: ignore[arg-type]
            else:
                game.apply(state, seat, item)  # type: ignore[arg-type]
        done = end
        if game.view(state, None) != frame.view:
            raise GameError(f"the unmasked cards do not replay move {frame.move}")
        out.append(tuple(game.view(state, s) for s in range(seats)))
    return out

"""End to end: the real ``lanparty replay FILE`` in a tmux pane (a private tmux server),
driven by keys, read by capture-pane.

The transcript is a golden file (``tests/data/kato_2p.lptx``: a whole KaTO game played by bots
over the real protocol and kept); the same file replayed here in-process says what the pane
must show.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lanparty.commands.replay import replay_recorded
from lanparty.games import PLUGINS
from lanparty.replay.course import Course, build_course
from protocol import pack, unpack

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


#: A golden transcript: a whole two-player KaTO game of heuristic bots, played once over the
#: real protocol (``protocol.harness.Harness``, seed 1) and kept, so the replay is checked
#: against a file made by an earlier program, as a person's saved game would be.
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "kato_2p.lptx"


@pytest.fixture(scope="module")
def saved() -> Path:
    """The golden transcript."""
    return GOLDEN


@pytest.fixture
def pane_factory(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    panes: list[Pane] = []

    def start(*args: str) -> Pane:
        home = tmp_path / f"pane{len(panes)}"  # a tmux server of its own for each pane
        home.mkdir()
        command = " ".join([sys.executable, "-m", "lanparty", "replay", *args])
        pane = Pane(home, f"cd {REPO} && {command}", "tmux-256color")
        panes.append(pane)
        return pane

    yield start
    for pane in panes:
        pane.kill()


def course_of(path: Path, opened: bool = False) -> Course:
    """The course the program builds for ``path`` (``opened``: with ``--open``)."""
    verdict, recorder = replay_recorded(str(path))
    assert recorder is not None
    labels = recorder.labels if opened else None
    return build_course("kato", verdict["names"], recorder.seats, recorder.options,
                        recorder.inputs, labels)  # fmt: skip


def at_move(pane: Pane, move: int, total: int) -> str:
    """The screen once it shows move ``move`` and has been drawn whole (two looks alike)."""
    wanted = f"move {move} of {total} ·"
    seen = [""]

    def drawn() -> bool:
        before, seen[0] = seen[0], pane.screen()
        return wanted in seen[0] and seen[0] == before

    pane.wait(drawn, repr(wanted))
    return seen[0]


def test_going_back_shows_the_same_screens_as_going_forward(
    saved: Path, pane_factory: Callable[..., Pane]
) -> None:
    course = course_of(saved)
    total, steps = course.moves, 12
    pane = pane_factory(str(saved))
    forward = [at_move(pane, 0, total)]
    assert "verified: every signature, proof, share and move checked" in forward[0]
    for move in range(1, steps + 1):
        pane.keys("Right" if move % 2 else "n")
        forward.append(at_move(pane, move, total))
        # The move's narration and the table as it stands after it.
        flat = " ".join(forward[-1].split())  # a long line is wrapped to the width
        assert all(" ".join(line.split()) in flat for line in course.frames[move].said)
        assert f"turn {course.frames[move].turn} · round 1" in forward[-1]
    assert len(set(forward)) == len(forward)
    for move in range(steps - 1, -1, -1):
        pane.keys("Left" if move % 2 else "p")
        assert at_move(pane, move, total) == forward[move], f"move {move} differs going back"
    pane.keys("g")
    pane.type("7")
    assert at_move(pane, 7, total) == forward[7]
    pane.keys("End")
    assert "Final scores" in at_move(pane, total, total)
    pane.keys("Home")
    assert at_move(pane, 0, total) == forward[0]
    pane.keys("q")
    assert pane.exit_code() == 0


def test_open_shows_the_hands_the_plain_replay_hides(
    saved: Path, pane_factory: Callable[..., Pane]
) -> None:
    course = course_of(saved, opened=True)
    screen = PLUGINS["kato"].screen()
    total = course.moves
    plain, opened = pane_factory(str(saved)), pane_factory(str(saved), "--open")
    for pane in (plain, opened):
        at_move(pane, 0, total)
        pane.keys("g")
        pane.type("5")
    hidden, shown = at_move(plain, 5, total), at_move(opened, 5, total)
    assert "every hand open: the audit unmasked every card" in shown
    for seat, view in enumerate(course.frames[5].hands):
        assert f"── {course.names[seat]} sees ──" in shown
        cards = "".join(t for _, t in screen.hand(view, 99, ())).splitlines()[1].strip()
        assert cards and cards in shown, f"seat {seat}'s cards are not on the screen"
        assert cards not in hidden
    assert "Your hand" not in hidden and "every hand open" not in hidden
    for pane in (plain, opened):
        pane.keys("q")
        assert pane.exit_code() == 0


def test_open_on_a_game_that_stopped_says_so(
    saved: Path, pane_factory: Callable[..., Pane], tmp_path: Path
) -> None:
    value = unpack(saved.read_bytes(), 1 << 28)
    assert isinstance(value, dict)
    cut = tmp_path / "cut.lptx"
    cut.write_bytes(pack({**value, "entries": value["entries"][:40]}))
    pane = pane_factory(str(cut), "--open")
    screen = at_move(pane, 0, course_of(cut).moves)
    assert "NOT verified (incomplete)" in screen
    assert "--open: the hands stay hidden" in screen and "Your hand" not in screen
    pane.keys("q")
    assert pane.exit_code() == 3

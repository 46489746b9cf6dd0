"""``lanparty replay``'s viewer without a terminal: the course in frames (one per move), the
keys that move through it, what each frame draws, and ``--open``'s hands.

Each game is played by bots over the real protocol in one process (``protocol.harness``),
its transcript saved and replayed as the command does: verified by the audit first.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from lanparty.commands.replay import Recorder, _plain, replay_recorded
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from lanparty.replay.course import ROUND_KEYS, Course, build_course
from lanparty.replay.view import Heading, Viewer, position_line, replay_screen
from protocol import pack, unpack
from protocol.harness import Harness

_YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


@cache
def _played(name: str, tmp: Path) -> tuple[Harness, Path]:
    factories = list(bots_for(name).values())
    h = Harness(GAMES, name, 3, dict(PLUGINS[name].short), [f() for f in factories[-1:] * 3],
                seed=4)  # fmt: skip
    h.run()
    assert h.done
    path = tmp / f"{name}.lptx"
    path.write_bytes(h.host.transcript())
    return h, path


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replays")


@cache
def _recorded(path: Path) -> tuple[dict[str, Any], Recorder]:
    """The verdict and the recording of the transcript at ``path``: audited once for every
    test that reads them (each builds its own course from them)."""
    verdict, recorder = replay_recorded(str(path))
    assert recorder is not None
    return verdict, recorder


def _course(path: Path, opened: bool) -> tuple[dict[str, Any], Recorder, Course]:
    verdict, recorder = _recorded(path)
    labels = recorder.labels if opened and verdict["audit_ok"] else None
    course = build_course(str(verdict["game"]), [str(n) for n in verdict["names"]],
                          recorder.seats, recorder.options, recorder.inputs, labels)  # fmt: skip
    return verdict, recorder, course


def _text(viewer: Viewer) -> str:
    return "".join(text for _, text in viewer.draw(100, 40))


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_frame_is_a_move_and_the_results_after_it(name: str, tmp: Path) -> None:
    _, path = _played(name, tmp)
    verdict, recorder, course = _course(path, opened=False)
    assert verdict["audit_ok"] and not course.opened
    movers = [s for s, _ in recorder.inputs if s is not None]
    assert course.moves == len(movers) and [f.move for f in course.frames] == list(
        range(len(movers) + 1)
    )
    assert [f.by for f in course.frames] == [None, *movers]
    # Each frame shows the last public state before the next move (the results included).
    firsts = [i for i, (s, _) in enumerate(recorder.inputs) if s is not None]
    ends = [firsts[0] - 1, *[i - 1 for i in firsts[1:]], len(recorder.inputs) - 1]
    for frame, end in zip(course.frames, ends, strict=True):
        assert _plain(frame.view) == recorder.states[end]["view"], f"move {frame.move}"
    # A turn changes with the seat that moves; a round with the view's round (or cycle).
    for prev, frame in zip(course.frames, course.frames[1:], strict=False):
        assert frame.turn == prev.turn + (frame.by != prev.by)
    key = next((k for k, _ in ROUND_KEYS if isinstance(course.frames[0].view.get(k), int)), None)
    if key is not None:
        assert all(f.round == f.view[key] for f in course.frames)
        assert course.round_word == dict(ROUND_KEYS)[key]


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_going_back_draws_exactly_what_going_forward_drew(name: str, tmp: Path) -> None:
    _, path = _played(name, tmp)
    verdict, _, course = _course(path, opened=False)
    screen = replay_screen(name)
    animating = getattr(screen, "animating", None)  # nothing may change with time
    assert animating is None or not any(animating(f.view) for f in course.frames)
    if name == "unanimo":  # ...though a player's screen reads the words out one by one
        player = PLUGINS[name].screen()
        assert any(player.animating(f.view) for f in course.frames)  # type: ignore[attr-defined]
    viewer = Viewer(course, Heading.of(verdict, course, False), screen)
    forward = [_text(viewer)]
    while viewer.at < course.moves:
        viewer.press("right" if viewer.at % 2 else "n")
        forward.append(_text(viewer))
    assert len(set(forward)) == len(forward) > 5  # every frame its own screen
    for at in range(course.moves, -1, -1):
        assert viewer.at == at
        text = _text(viewer)
        assert text == forward[at]
        assert position_line(course, at) in text
        assert "verified: every signature, proof, share and move checked" in text
        flat = " ".join(text.split())  # a long line is wrapped to the width
        assert all(" ".join(line.split()) in flat for line in course.frames[at].said)
        assert not _YOU.search(text), text
        viewer.press("left" if at % 2 else "p")
    assert viewer.at == 0


def test_the_keys_move_by_turn_by_round_and_to_a_number(tmp: Path) -> None:
    _, path = _played("unicorns", tmp)  # characters chosen before day 1, then four days
    verdict, _, course = _course(path, opened=False)
    viewer = Viewer(course, Heading.of(verdict, course, False), replay_screen("unicorns"))
    frames = course.frames
    days = [f.round for f in frames]
    assert course.round_word == "day" and sorted(set(days)) == [0, 1, 2, 3, 4]
    for day in (1, 2, 3, 4):
        viewer.press("r")
        assert days[viewer.at] == day and days[viewer.at - 1] == day - 1
    viewer.press("right")
    viewer.press("R")  # back to the start of this day, then to the day before
    assert days[viewer.at] == 4 and days[viewer.at - 1] == 3
    viewer.press("R")
    assert days[viewer.at] == 3 and days[viewer.at - 1] == 2
    viewer.press("home")
    for _ in range(6):
        was = viewer.at
        viewer.press("down" if was % 2 else "t")
        assert frames[viewer.at].turn == frames[was].turn + 1
        assert frames[viewer.at - 1].turn == frames[was].turn
    viewer.press("right")
    while frames[viewer.at].turn == frames[viewer.at - 1].turn:
        viewer.press("right")  # the first frame of a turn of two moves or more
    viewer.press("right")
    if frames[viewer.at].turn == frames[viewer.at - 1].turn:
        start = viewer.at - 1
        viewer.press("T")  # back to the start of this turn
        assert viewer.at == start
    viewer.press("up")
    assert frames[viewer.at].turn == frames[viewer.at - 1].turn + 1
    for key in ("g", "1", "2", "enter"):
        viewer.press(key)
    assert viewer.at == 12 and "move 12 of" in _text(viewer)
    for key in ("g", "9", "9", "9", "9", "enter"):
        viewer.press(key)
    assert viewer.at == 12 and "there is no move 9999" in "".join(t for _, t in viewer.bottom())
    for key in ("g", "3", "escape"):
        viewer.press(key)
    assert viewer.at == 12 and viewer.typed is None
    viewer.press("end")
    assert viewer.at == course.moves and "Final scores" in _text(viewer)
    viewer.press("?")
    assert "go to move N" in _text(viewer)
    assert viewer.press("q") is False


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_open_shows_each_seats_own_view(name: str, tmp: Path) -> None:
    h, path = _played(name, tmp)
    verdict, _, course = _course(path, opened=True)
    assert course.opened and not course.closed
    game = GAMES[name]
    for s, party in enumerate(h.parties):  # at the end: what each seat's own copy shows it
        assert party.table.state is not None
        assert course.frames[-1].hands[s] == game.view(party.table.state, s)
    assert all(len(f.hands) == 3 and all(v["seat"] == s for s, v in enumerate(f.hands))
               for f in course.frames)  # fmt: skip
    viewer = Viewer(course, Heading.of(verdict, course, True), replay_screen(name))
    assert "every hand open" in _text(viewer)
    if name == "kato":
        plain = _course(path, opened=False)[2]
        held = PLUGINS[name].screen().hand(course.frames[3].hands[1], 99, ())
        viewer.at = 3
        shown = "".join(t for _, t in held)
        assert shown.strip() and shown.splitlines()[1] in _text(viewer)
        closed = Viewer(plain, Heading.of(verdict, plain, False), replay_screen(name))
        closed.at = 3
        assert shown.splitlines()[1] not in _text(closed)


def test_open_on_a_game_that_did_not_end_shows_only_what_was_public(tmp: Path) -> None:
    _, path = _played("kato", tmp)
    value = unpack(path.read_bytes(), 1 << 28)
    assert isinstance(value, dict)
    cut = tmp / "cut.lptx"
    cut.write_bytes(pack({**value, "entries": value["entries"][:60]}))
    verdict, recorder, course = _course(cut, opened=True)
    assert verdict["verdict"] == "incomplete" and recorder.labels is None
    assert not course.opened and all(not f.hands for f in course.frames)
    viewer = Viewer(course, Heading.of(verdict, course, True), replay_screen("kato"))
    text = _text(viewer)
    assert "NOT verified (incomplete)" in text
    assert "--open: the hands stay hidden" in text and "only what was public is shown" in text
    assert "Your hand" not in text and "──" not in text

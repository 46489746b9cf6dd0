"""The story pane and the regions of the full-screen table, without a terminal: wrapping,
scrolling a long story, a pane that keeps its place, the size a board asks for."""

from __future__ import annotations

from lanparty.games.screens import TooSmall
from lanparty.ui.layout import board_rows, fit, header, line_count, too_small
from lanparty.ui.story import Story, StoryControl, lines_of, wrap

from .helpers import make_table


def text(rows: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(t for _s, t in row) for row in rows]


def test_lines_are_cut_at_newlines_and_wrapped_at_spaces_under_their_text() -> None:
    assert text(lines_of([("a", "one\ntw"), ("b", "o\n")])) == ["one", "two"]
    line = [("class:log", "· Bea plays Red 7 and calls KaTO")]
    assert text(wrap(line, 16)) == ["· Bea plays Red", "  7 and calls", "  KaTO"]
    assert text(wrap([("", "x" * 25)], 12)) == ["x" * 12, "  " + "x" * 10, "  " + "x" * 3]
    assert text(wrap([], 10)) == [""]
    styled = wrap([("a", "red "), ("b", "blue")], 80)
    assert styled == [[("a", "red "), ("b", "blue")]]  # the styles kept


def test_a_long_story_shows_its_newest_rows_and_scrolls_back_to_its_first() -> None:
    story = Story(tee="")
    for n in range(1000):
        story.add([("", f"· line {n}\n")])
    rows, back, newer = story.window(40, 5, 0)
    assert text(rows) == [f"· line {n}" for n in range(995, 1000)] and back == newer == 0
    rows, back, newer = story.window(40, 5, 10)
    assert text(rows)[-1] == "· line 989" and newer == 10
    rows, back, newer = story.window(40, 5, 10**9)  # never past the first line
    assert text(rows)[0] == "· line 0" and back == 995 and newer == 995


def test_a_pane_scrolled_back_keeps_its_place_as_lines_come() -> None:
    story = Story(tee="")
    control = StoryControl(story)
    for n in range(50):
        story.add([("", f"· line {n}\n")])
    content = control.create_content(30, 6)  # the rule, then 5 rows
    assert "PgUp ↑" in "".join(t for _s, t in content.get_line(0))
    control.page_up()
    shown = [control.create_content(30, 6).get_line(i) for i in range(6)]
    story.add([("", "· line 50\n· line 51\n")])
    assert [control.create_content(30, 6).get_line(i) for i in range(1, 6)] == shown[1:]
    assert "6 newer ↓" in "".join(t for _s, t in control.create_content(30, 6).get_line(0))
    control.end()
    assert "line 51" in "".join(t for _s, t in control.create_content(30, 6).get_line(5))


def test_a_story_file_gets_each_line_once_it_is_flushed(tmp_path) -> None:
    path = tmp_path / "story.txt"
    story = Story(tee=str(path))
    story.add([("class:log", "· one\n"), ("", "note\n")])
    assert path.read_text() == ""  # not drawn yet
    story.flush()
    story.add([("", "· two\n")])
    story.close()
    assert path.read_text() == "· one\nnote\n· two\n"


def test_the_status_line_is_cut_between_its_parts_and_keeps_its_right_end() -> None:
    row = fit([("", " Tab: moves · ? help · PgUp: story")], [("", "Bea to play ")], 40)
    shown = "".join(t for _s, t in row)
    assert shown == " Tab: moves · ? help" + " " * 8 + "Bea to play " and len(shown) == 40


def test_a_long_right_end_is_cut_and_leaves_the_first_key_whole() -> None:
    stopped = "The table stopped: the host stopped the table: Ana (the host) left the table "
    row = fit([("", " Enter or q: leave · PgUp: the story")], [("", stopped)], 80)
    shown = "".join(t for _s, t in row)
    assert shown.startswith(" Enter or q: leave ") and len(shown) == 80
    assert shown.endswith("Ana (the hos…") and "The table stopped: the host" in shown
    filling = "waiting for players: 2 of 3 seated; asking to join: 2 Bo (type start to begin now) "
    row = fit([("", " Tab: moves · ? help")], [("", filling)], 80)
    shown = "".join(t for _s, t in row)
    assert shown.startswith(" Tab: moves ") and shown.endswith("…") and len(shown) == 80


def test_a_board_too_big_says_the_window_to_aim_for() -> None:
    said = "".join(t for _s, t in too_small("kato", TooSmall(60, 20), 50, 15, 50))
    assert "Make the window at least 60×28 to play KaTO (now 50×15)" in " ".join(said.split())
    assert line_count([("", "a\nb")]) == 2 and line_count([("", "a\nb\n")]) == 2
    assert board_rows(80, 24, None) == (80, 16) and board_rows(150, 40, None) == (93, 37)


def test_the_header_names_the_table_where_the_turn_still_fits() -> None:
    table = make_table(seed=3, bots=2)
    table.table_name = "Ann's kato"  # as a host's seat knows it  # type: ignore[attr-defined]
    shown = "".join(t for _s, t in header(table, None, 80))
    assert shown.startswith(" KaTO · Ann's kato · round 1 · ") and len(shown) == 80
    table.table_name = "A table with a name as long as the row allows"  # type: ignore[attr-defined]
    narrow = "".join(t for _s, t in header(table, None, 60))
    assert "A table with" not in narrow and "round 1" in narrow

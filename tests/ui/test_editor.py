"""The multi-line editor's pure parts: the line arithmetic and what reopens it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanparty.ui.editor import next_line, previous_line, reopens, timed_move, usable_lines
from protocol.contract import Move


@dataclass(frozen=True)
class Lines:
    """An editor of up to three lines; a line with a digit cannot be handed in."""

    command: str = "write"
    title: str = "Your lines:"
    max_lines: int = 3

    def line_prompt(self, index: int) -> str:
        return f"{index + 1}> "

    def problem(self, lines: Sequence[str]) -> tuple[int, str] | None:
        bad = [i for i, line in enumerate(lines) if any(c.isdigit() for c in line)]
        return (bad[0], "a digit") if bad else None

    def remark(self, lines: Sequence[str], index: int) -> str:
        return ""

    def marks(self, lines: Sequence[str]) -> list[str]:
        return ["✗" if any(c.isdigit() for c in line) else "" for line in lines]

    def settle(self, move: Move, lines: Sequence[str]) -> Move:
        return move

    def move(self, lines: Sequence[str]) -> Move:
        return ("lines", tuple(line for line in lines if line.strip()))


def test_next_line_adds_a_line_only_after_a_written_one_even_past_the_last() -> None:
    assert next_line("a", 1) == ("a\n", 2, "")
    assert next_line("a\nb", 0) == ("a\nb", 3, "")  # to the end of the next line
    assert next_line("a\n", 2)[2].startswith("nothing on this line yet")
    # Past the editor's last line (the game marks it one too many): the next word is never
    # glued to the last one.
    assert next_line("a\nb\nc", 5) == ("a\nb\nc\n", 6, "")


def test_previous_line_goes_to_the_end_of_the_line_above() -> None:
    assert previous_line("ab\ncd", 4) == 2
    assert previous_line("ab\ncd", 1) == 1


def test_usable_lines_drop_only_what_cannot_be_handed_in() -> None:
    assert usable_lines(Lines(), ["a", "b2", "c", "4"]) == ["a", "c"]
    assert usable_lines(Lines(), ["1"]) == []


def test_time_up_hands_in_what_can_be_and_names_the_rest() -> None:
    assert timed_move(Lines(), "a\nb2\n\nc") == (("lines", ("a", "c")), ["b2"])
    assert timed_move(Lines(), "1\n 2 ") == (None, ["1", "2"])
    assert timed_move(Lines(), "\n") == (None, [])


def test_the_command_or_a_short_form_of_it_alone_reopens_the_editor() -> None:
    short = {"e": "write"}
    assert reopens("write", Lines(), short) and reopens("  E ", Lines(), short)
    assert not reopens("write now", Lines(), short) and not reopens("words", Lines(), short)
    assert not reopens("e", Lines(), {})

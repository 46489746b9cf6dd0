"""No word typed in Unanimo's editor is lost, in a real terminal (issue 21): whatever hands
words in hands in what the editor shows, and what cannot be is said.

Most tests play one card offline against heuristic bots (they hand in at once, and write
only their subject's common words: the rare words typed here are nobody else's), say
``done`` and read, in the log, which words the reading found for "you" (the leader, read
first): exactly those handed in. The last plays at a networked table, two people and a bot,
where the leader's close must wait for the leader's own words to be on the table.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .tmux import NIGHT_END, REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

KEYS = "Enter/Tab: next line · Ctrl-S: hand in · Esc: commands"  # the editor's bottom bar
BACK = "write: back to the editor · Tab: moves"  # the command line's status line begins so


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    """``lanparty play unanimo --offline --bots 3 --option cards=1`` (and ``args``) in a
    pane, once its editor is open."""
    panes: list[Pane] = []

    def run(*args: str) -> Pane:
        folder = tmp_path / f"pane{len(panes)}"
        folder.mkdir()
        env = f"LANPARTY_HOME={folder} LANPARTY_LANG=en"
        command = " ".join([sys.executable, "-m", "lanparty", "play", "unanimo", "--offline",
                            "--bots", "3", "--nick", "Ann", "--option", "cards=1",
                            *args])  # fmt: skip
        pane = Pane(folder, f"cd {REPO} && {env} {command}", "tmux-256color")
        panes.append(pane)
        pane.wait(lambda: KEYS in pane.screen(), "the editor", 30)
        return pane

    yield run
    for pane in panes:
        pane.kill()


def send(pane: Pane, text: str) -> None:
    """Type ``text`` without pressing Enter."""
    pane.keys("-l", text)


def write(pane: Pane, *words: str) -> None:
    """Type ``words`` in the editor, Tab between them."""
    for i, word in enumerate(words):
        if i:
            pane.keys("Tab")
        send(pane, word)

    def typed() -> bool:
        lines = editor(pane.screen())
        return len(lines) == len(words) and lines[-1][4:].startswith(words[-1])

    pane.wait(typed, f"{words[-1]!r} on line {len(words)}")


def editor(screen: str) -> list[str]:
    """The lines of the editor open at the bottom of ``screen`` (what follows its title)."""
    if "Your words for" not in screen:
        return []
    rows = screen[screen.rindex("Your words for") :].splitlines()[1:]
    return [row.rstrip() for row in rows if re.match(r"^ ?\d│", row)]


def to_command_line(pane: Pane) -> None:
    pane.keys("Escape")
    pane.wait(lambda: at_command_line(pane), "the command line")


def at_command_line(pane: Pane) -> bool:
    """Is the command line open, with the editor's draft kept (its status line says so)?"""
    return pane.screen().rstrip().splitlines()[-1].startswith(" " + BACK)


def log_lines(pane: Pane) -> list[str]:
    """The log as told."""
    return pane.log()


def subject(pane: Pane) -> str:
    found = re.search(r"^· Card 1 of 1: the subject is (.+?) \(leader: you", pane.story(), re.M)
    assert found, pane.story()
    return found[1]


def read_for_us(pane: Pane) -> list[str]:
    """Say ``done`` once the objections are open, let the game end, and give the words the
    reading found for us, in the order read (a word written twice is read once)."""
    end = NIGHT_END  # the host's seat: the night may go on
    pane.wait(lambda: "or done>" in pane.screen() or end in pane.screen(), "the objections", 30)
    if end not in pane.screen():
        pane.type("done")
    pane.wait_text(end)
    pane.keys("Enter")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()
    return [m[1] for m in re.finditer(r"^· “(.+?)” \(you[,)]", pane.story(), re.M)]


def test_w_hands_in_the_words_in_the_editor(start) -> None:
    """(a) ``w``, the short form of ``words``, typed after Esc with two words in the editor
    hands in those two words (it handed in none, and the player scored 0)."""
    pane = start("--seed", "3")
    write(pane, "zyzzyva", "quokka")
    to_command_line(pane)
    pane.type("w")
    pane.wait(lambda: "You hand in your words" in log_lines(pane), "our words handed in")
    assert read_for_us(pane) == ["zyzzyva", "quokka"]


def test_the_leaders_close_hands_in_the_leaders_own_words_first(start) -> None:
    """(b) The leader with a word in the editor presses Esc and types ``close``: the word is
    handed in and read (it was never read: the close shut the leader out)."""
    pane = start("--seed", "4")
    write(pane, "zyzzyva")
    to_command_line(pane)
    pane.type("close")
    pane.wait(lambda: "You hand in your words" in log_lines(pane), "our word handed in")
    assert read_for_us(pane) == ["zyzzyva"]
    told = log_lines(pane)
    assert not any(line.startswith("The writing is closed") for line in told), told
    assert "may not close" not in pane.story()


def test_a_ninth_line_is_marked_one_too_many_and_bad_words_stay_marked(start) -> None:
    """(c) Enter on the eighth line opens a ninth (the next word was glued to the eighth:
    "wombatnarwhal") and the editor says it is one too many; every word the reading will
    reject or count once stays marked wherever the cursor is; without the ninth line,
    Ctrl-S hands in exactly what the editor shows."""
    pane = start("--seed", "5")
    root = subject(pane).lower()
    words = ("r2d2", root, "zyzzyva", "Zyzzyva", "quokka", "axolotl", "okapi", "wombat")
    write(pane, *words)
    pane.keys("Enter")  # on the eighth line, the last a word may take
    send(pane, "narwhal")
    pane.wait(lambda: editor(pane.screen())[-1].startswith(" 9│ narwhal"), "a ninth line")
    screen = pane.screen()
    assert editor(screen) == [
        " 1│ r2d2  ✗ rejected: not only letters",
        f" 2│ {root}  ✗ rejected: the subject's root",
        " 3│ zyzzyva",
        " 4│ Zyzzyva  counts once: as line 3",
        " 5│ quokka",
        " 6│ axolotl",
        " 7│ okapi",
        " 8│ wombat",
        " 9│ narwhal  ✗ one word too many (at most 8)",
    ], screen
    assert "9 words: at most 8, remove 1" in screen
    pane.keys("C-s")  # refused: one word too many
    pane.keys("BSpace")
    pane.wait(lambda: editor(pane.screen())[-1] == " 9│ narwha  ✗ one word too many (at most 8)",
              "a letter less")  # fmt: skip
    assert "You hand in your words" not in log_lines(pane)
    pane.keys(*["BSpace"] * 7)  # the rest of the ninth line, and the line itself
    pane.wait(lambda: len(editor(pane.screen())) == 8, "eight lines")
    assert editor(pane.screen())[-1] == " 8│ wombat"
    pane.keys("C-s")
    pane.wait(lambda: "You hand in your words" in log_lines(pane), "our words handed in")
    assert read_for_us(pane) == ["r2d2", root, "zyzzyva", "quokka", "axolotl", "okapi",
                                 "wombat"]  # fmt: skip


def test_words_on_one_line_after_esc_asks_before_leaving_out_the_editors_words(start) -> None:
    """(d) After Esc the command line is not judged by the editor's one-word check: a long
    ``words`` line goes through (it was refused as "longer than 32 characters"). One that
    leaves out a word the editor holds is asked about first; no keeps it, and a line that
    holds it hands in."""
    pane = start("--seed", "6")
    write(pane, "zyzzyva")
    to_command_line(pane)
    pane.type("words aa, bb, cc, dd, ee, ff, gg, hh")
    pane.wait_text("Your editor holds “zyzzyva”, which this line leaves out.")
    pane.wait_text("hand it in all the same? (y/N)>")
    pane.type("n")
    pane.wait_text("Nothing handed in; what you wrote is kept (write goes back to it).")
    assert "You hand in your words" not in log_lines(pane)
    pane.wait(lambda: at_command_line(pane), "the command line again")
    pane.type("words zyzzyva, aa, bb, cc, dd, ee, ff, gg")
    pane.wait(lambda: "You hand in your words" in log_lines(pane), "our words handed in")
    assert read_for_us(pane) == ["zyzzyva", "aa", "bb", "cc", "dd", "ee", "ff", "gg"]


def test_when_time_is_up_what_cannot_be_handed_in_is_named(start) -> None:
    """With a timer, the words in the editor are handed in as time runs out, and a line
    that cannot be (too long) is named: it was dropped without a word."""
    pane = start("--seed", "7", "--option", "timer=4")
    long = "x" * 40
    write(pane, "zyzzyva", long)
    pane.wait(lambda: editor(pane.screen())[-1].endswith("✗ cannot be handed in"), "the mark")
    said = ("Time is nearly up: what you wrote is handed in. Left out, as it cannot be handed "
            f"in: {long}")  # fmt: skip
    pane.wait(lambda: said in pane.story(), "the hand-in and what it left out", 15)
    assert read_for_us(pane) == ["zyzzyva"]


def test_a_draft_the_writing_closed_on_is_named(start) -> None:
    """With a timer and nothing in the editor that can be handed in, the writing closes on
    it and the player is told what was not handed in (it vanished without a word)."""
    pane = start("--seed", "8", "--option", "timer=3")
    long = "y" * 40
    write(pane, long)
    said = f"Too late: what you wrote was not handed in ({long})."
    pane.wait(lambda: said in pane.story(), "the lost draft named", 15)
    assert read_for_us(pane) == []


def test_at_a_networked_table_close_waits_for_the_leaders_words_and_the_other_is_told(
    tmp_path: Path,
) -> None:
    """Ann hosts (3 seats: Ann, Bob, a bot) and leads; the bot hands in at once. Ann's close
    with a word in her editor hands it in, and only then closes (before, her one word of 3
    hands in was not yet half the table: "You may not close this now"). Bob, who had typed a
    word and not handed it in, is told it was not (it vanished without a word)."""
    panes: list[Pane] = []

    def terminal(name: str, *args: str) -> Pane:
        (tmp_path / name).mkdir()
        command = " ".join([sys.executable, "-m", "lanparty", *args])
        env = f"LANPARTY_HOME={tmp_path / name} LANPARTY_LANG=en"
        panes.append(Pane(tmp_path / name, f"cd {REPO} && {env} {command}", "tmux-256color"))
        return panes[-1]

    try:
        ann = terminal("ann", "host", "unanimo", "--local", "--seats", "3", "--bots", "1",
                       "--nick", "Ann", "--option", "cards=1", "--name",
                       f"words-{os.getpid()}")  # fmt: skip
        ann.wait(lambda: "is open on 127.0.0.1:" in ann.screen(), "the table", 60)
        endpoint = re.search(r"is open on (127\.0\.0\.1:\d+)", ann.screen())
        assert endpoint is not None
        bob = terminal("bob", "join", "--connect", endpoint[1], "--nick", "Bob")
        for pane in (ann, bob):
            pane.wait(lambda p=pane: KEYS in p.screen(), "the editor", 60)
        ann.wait(lambda: re.search(r"^· \S+ hands in$", ann.story(), re.M) is not None,
                 "the bot's words", 30)  # fmt: skip
        write(bob, "quokka")
        write(ann, "zyzzyva")
        to_command_line(ann)
        ann.type("close")
        read = "“zyzzyva” (you): 0 points, nobody else wrote it"
        ann.wait(lambda: read in log_lines(ann), "the writing closed and Ann's word read", 30)
        told = log_lines(ann)
        assert told.index("You hand in your words") < told.index(read), told
        assert "may not close" not in ann.story() and "quokka" not in ann.story()
        bob.wait(lambda: "Too late: what you wrote was not handed in (quokka)." in bob.story(),
                 "Bob told", 30)  # fmt: skip
        assert "Traceback" not in ann.history() + bob.history()
    finally:
        for pane in panes:
            pane.kill()

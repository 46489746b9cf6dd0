"""Unanimo end to end in a tmux pane, played as a person would: words typed in the editor
(Tab between them, Esc to the command line and ``write`` back, Ctrl-S to hand in), the
reading on the board with the hands raised and the points, an objection and its vote, the
card's scores in the log, and a timed writing whose draft is handed in as time runs out.

The person thinks of the words the bots think of (their association table), so the points
are known: a heuristic bot always writes its subject's four most common words. The objection
is played offline with random bots and a seed an in-process twin chose, so its outcome is
known too.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lanparty.games.bots import bots_for
from lanparty.games.unanimo.associations import ASSOCIATIONS
from lanparty.table.local import BOT_NAMES, LocalTable

from .tmux import NIGHT_END, REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0  # the table fills and the first subject is drawn with a joint coin
READING_DEADLINE = 30.0  # the reading is shown word by word (about 10 s at most)
OWN_WORD = "zyzzyva"  # a word no bot thinks of: nobody else writes it
KEYS = "Enter/Tab: next line · Ctrl-S: hand in · Esc: commands"  # the editor's bottom bar
HINT = "Object to a word with object N"  # under the board once the whole reading is shown


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    panes: list[Pane] = []

    def run(*args: str) -> Pane:
        folder = tmp_path / f"pane{len(panes)}"
        folder.mkdir()
        env = f"LANPARTY_HOME={folder} LANPARTY_LANG=en"
        command = " ".join([sys.executable, "-m", "lanparty", "play", "unanimo", *args])
        pane = Pane(folder, f"cd {REPO} && {env} {command}", "tmux-256color")
        panes.append(pane)
        return pane

    yield run
    for pane in panes:
        pane.kill()


def send(pane: Pane, text: str) -> None:
    """Type ``text`` without pressing Enter."""
    pane.keys("-l", text)


def log_lines(pane: Pane) -> list[str]:
    """The log as told."""
    return pane.log()


def wait_log(pane: Pane, line: str, deadline: float = READING_DEADLINE) -> None:
    pane.wait(lambda: line in log_lines(pane), repr(line), deadline)


def subjects(pane: Pane) -> list[str]:
    """The subject of every card begun so far."""
    return re.findall(r"^· Card \d+ of \d+: the subject is (.+?) \(leader", pane.story(), re.M)


def editor(screen: str) -> list[str]:
    """The lines of the editor open at the bottom of ``screen`` (what follows its title)."""
    rows = screen[screen.rindex("Your words for") :].splitlines()[1:]
    return [row.rstrip() for row in rows if re.match(r"^ ?\d│", row)]


def reopened(pane: Pane, command: str) -> list[str]:
    """The lines of the editor that ``command``, typed at the command line, opened again."""

    def back() -> bool:
        screen = pane.screen()
        return "Your words for" in screen and KEYS in screen

    pane.wait(back, f"the editor again after {command!r}")
    return editor(pane.screen())


def grid_number(screen: str, word: str) -> int:
    """The number of ``word`` in the reading's grid on ``screen``."""
    found = re.search(rf"(\d+) {re.escape(word)} (\d+|✗)", screen)
    assert found, f"{word!r} is not in the reading:\n{screen}"
    return int(found[1])


def bot_logs(pane: Pane) -> str:
    return "\n".join(p.read_text() for p in (pane.rc_file.parent / "logs").glob("*.log"))


def quit_game(pane: Pane, question: str) -> None:
    pane.type("quit")
    pane.wait_text(question)
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Bye." in pane.story()


def test_a_card_written_read_objected_to_and_scored_then_the_next_card(start) -> None:
    """At a networked table (each bot a process of its own): the words typed with Tab between
    them, Esc and ``write`` give them back untouched, Ctrl-S hands in; the board reads the
    words with the hands raised and the points; an objection the bots vote down; ``done``;
    the card's scores in the log and the next card's editor."""
    pane = start("--bots", "3", "--nick", "Ann")
    pane.wait(lambda: KEYS in pane.screen(), "the editor", SETUP_DEADLINE)
    pane.wait(lambda: bool(subjects(pane)), "the first card's subject in the story")
    subject = subjects(pane)[0]
    first, second, third = ASSOCIATIONS[subject][:3]  # every bot writes these
    # One capture with the whole editor (a capture taken while a bot's hand-in is being
    # drawn may hold the log lines alone).
    heading = f"Your words for “{subject}” (up to 8, one a line):"
    screen = ""

    def drawn() -> bool:
        nonlocal screen
        screen = pane.screen()
        return heading in screen and KEYS in screen

    pane.wait(drawn, "the whole editor")
    assert re.search(r"^  Ann \(you\) +0 pts  writing…", screen, re.M), screen

    for word in (first, second):
        send(pane, word)
        pane.keys("Tab")
    pane.wait(lambda: editor(pane.screen())[-1] == " 3│", "the third line")
    assert editor(pane.screen()) == [f" 1│ {first}", f" 2│ {second}", " 3│"]

    # Esc: the command line under the board; write: the same words, the cursor where it was.
    pane.keys("Escape")
    pane.wait_text("(what you wrote is kept: write goes back to it)")
    pane.wait(lambda: pane.screen().rstrip().splitlines()[-1].startswith(
        " write: back to the editor · Tab: moves"), "the command line")  # fmt: skip
    assert re.search(r"^your words>\s*$", pane.screen(), re.M)
    pane.type("write")
    assert reopened(pane, "write") == [f" 1│ {first}", f" 2│ {second}", " 3│"]
    send(pane, third)
    pane.keys("Tab")
    send(pane, OWN_WORD)
    pane.wait(lambda: editor(pane.screen())[-1] == f" 4│ {OWN_WORD}", "the fourth word")
    pane.keys("C-s")
    wait_log(pane, "You hand in your words")

    # The reading: the leader's words first (ours), each writer's hand raised with its points.
    def four_hands() -> bool:
        nonlocal screen
        screen = pane.screen()
        return re.search(r"^  Ann \(you\) +o/ \+4 +\d+ pts this card", screen, re.M) is not None

    pane.wait(four_hands, "our hand raised")
    assert re.search(r"Reading \d+ of \d+ · Ann \(you\) reads +\S.*4 hands: 4 points each",
                     screen), screen  # fmt: skip
    assert len(re.findall(r"^  \w+ +o/ \+4 ", screen, re.M)) == 3, screen  # and us: 4 hands
    # An objection to the word being read, without waiting for the rest: the bots wrote it
    # too, so they keep it; the board then shows the whole reading at once.
    n = grid_number(screen, first)
    pane.type(f"object {n}")
    wait_log(pane, f"You object to “{first.lower()}”")
    wait_log(pane, f"“{first.lower()}” is kept")
    votes = [line for line in log_lines(pane) if re.fullmatch(r"\w+ votes (keep|reject)", line)]
    assert len(votes) == 2 and all(v.endswith("keep") for v in votes), votes
    pane.wait(lambda: HINT in pane.screen(), "the whole reading")
    screen = pane.screen()
    assert f"“{first.lower()}” was objected to: kept" in screen
    assert re.search(r"^  Ann \(you\) +12 pts this card +total +0", screen, re.M), screen
    assert re.search(rf"\d+ {OWN_WORD} 0\b", screen), screen
    assert "The reading: " in screen and "object N, appeal N, or done>" in screen

    pane.type("done")
    pane.wait(lambda: any(line.startswith(f"{subject}: you 12, ") for line in log_lines(pane)),
              "the card's scores", READING_DEADLINE)  # fmt: skip
    told = log_lines(pane)
    assert any(re.fullmatch(rf"The reading of {re.escape(subject)}: \d+ words", t) for t in told)
    ours = [t for t in told if t.startswith(f"“{first}” (you, ")]
    assert len(ours) == 1 and ours[0].endswith("): 4 points each (objection voted down)"), told
    assert f"“{OWN_WORD}” (you): 0 points, nobody else wrote it" in told

    # The next card: its subject in the log and its editor open, empty.
    pane.wait(lambda: len(subjects(pane)) == 2, "the second card", SETUP_DEADLINE)
    pane.wait(lambda: f"Your words for “{subjects(pane)[1]}”" in pane.screen(), "its editor")
    pane.wait_text("Card 2 of 3")

    pane.keys("Escape")
    pane.wait_text("(what you wrote is kept: write goes back to it)")
    quit_game(pane, "leave the table? the game stops for everyone (y/N)>")
    assert "Traceback" not in pane.history() + bot_logs(pane)


def test_a_draft_is_handed_in_when_time_is_nearly_up(start) -> None:
    """``--option timer=3``: the countdown in the bottom bar; the word typed but not handed
    in is handed in shortly before the writing closes."""
    pane = start("--offline", "--bots", "3", "--nick", "Ann", "--option", "timer=3")
    pane.wait_text("Your words for")
    # The screen and the story's file are written one after the other: wait for the file.
    pane.wait(lambda: bool(subjects(pane)), "the first card's subject in the story")
    subject = subjects(pane)[0]
    send(pane, ASSOCIATIONS[subject][0])
    told = "Time is nearly up: what you wrote is handed in."
    left: set[int] = set()
    end = time.monotonic() + 10
    while told not in pane.story():
        since = pane.written()
        header = pane.screen().splitlines()[0]  # the clock at the header's right end
        left.update(int(s) for s in re.findall(r" 0:0(\d) left\s*$", header))
        assert time.monotonic() < end, f"not handed in; screen:\n{pane.screen()}"
        pane.pause(since)  # until the program writes again (the clock, the story)
    assert left and left <= {1, 2, 3}, left
    wait_log(pane, "You hand in your words")
    assert f"Card 1 of 3: the subject is {subject} (leader: you; 3 s to write)" in log_lines(pane)
    pane.wait(lambda: re.search(r"^  Ann \(you\) +o/ \+4 ", pane.screen(), re.M) is not None,
              "our word read with four hands")  # fmt: skip
    quit_game(pane, "leave the game? (y/N)>")
    assert "Traceback" not in pane.history()


# --------------------------------------------------------------------------- the objection


def twin(seed: int) -> LocalTable:
    """The table ``play unanimo --offline --bots 3 --bot-kind random --seed SEED --option
    cards=1`` builds."""
    factory = bots_for("unanimo")["random"]
    names = ["Ann", *BOT_NAMES[:3]]
    return LocalTable("unanimo", names, [None, *(factory() for _ in range(3))], {"cards": 1}, seed)


def replay(seed: int, moves: list[tuple[object, ...]]) -> LocalTable:
    table = twin(seed)
    table.advance()
    for move in moves:
        table.submit(move)
        table.advance()
    return table


def keys(words: tuple[str, ...]) -> list[str]:
    """How the table names ``words`` (plain English words: in lower case)."""
    return [w.lower() for w in words]


def rejection() -> tuple[int, tuple[str, ...], str]:
    """A seed, our words (the subject's three most common) and one of them that random bots
    reject when we object to it, after which we say done and the game is over."""
    for seed in range(1, 200):
        table = twin(seed)
        table.advance()
        subject = table.view()["subject"]
        assert isinstance(subject, dict)
        words = ASSOCIATIONS[str(subject["en"])][:3]
        table.submit(("words", words))
        table.advance()
        if table.view()["phase"] != "objections":
            continue
        ours = [m[1] for m in table.legal_moves() if m[0] == "object" and m[1] in keys(words)]
        for key in ours:
            after = replay(seed, [("words", words), ("object", key)])
            rejected = {"key": key, "by": 0, "rejected": True, "appeal": False}
            if (
                after.view()["phase"] == "objections" and ("done",) in after.legal_moves()
                and after.view()["verdicts"] == [rejected]
                and replay(seed, [("words", words), ("object", key), ("done",)]).over()
            ):  # fmt: skip
                return seed, words, str(key)
    raise AssertionError("no seed in 1..199 has a word of ours rejected")


def test_an_objection_is_voted_on_and_the_word_rejected(start, monkeypatch) -> None:
    """Offline with random bots: ``e`` (short for ``write``) reopens the editor, the words
    are handed in on one line instead (``words a, b, c``: asked first, as it leaves out the
    editor's word, and yes), then ``object N`` on one of ours;
    the others vote, the word is rejected (✗ on the board, no points), and the log tells
    the same story as the twin's, to the score sheet."""
    monkeypatch.setenv("LANPARTY_LANG", "en")
    seed, words, key = rejection()
    pane = start("--offline", "--bots", "3", "--nick", "Ann", "--bot-kind", "random",
                 "--seed", str(seed), "--option", "cards=1")  # fmt: skip
    pane.wait_text(KEYS)
    send(pane, "spring")
    pane.keys("Escape")
    pane.wait(lambda: pane.screen().rstrip().endswith("quit"), "the command line")
    pane.type("e")  # the short form of write
    assert reopened(pane, "e") == [" 1│ spring"]
    pane.keys("Escape")
    pane.wait(lambda: pane.screen().rstrip().endswith("quit"), "the command line again")
    pane.type("words " + ", ".join(words))  # on one line instead
    pane.wait_text("Your editor holds “spring”, which this line leaves out.")
    pane.type("y")  # asked first: yes, leave it out
    moves: list[tuple[object, ...]] = [("words", words)]
    wait_log(pane, "You hand in your words")
    word = next(w for w in words if w.lower() == key)
    shown = rf"\b(\d+) {re.escape(word)} \d+"  # read, and scoring (the leader's words first)
    pane.wait(lambda: re.search(shown, pane.screen()) is not None, f"{word!r} read")
    n = grid_number(pane.screen(), word)

    pane.type(f"object {n}")
    moves.append(("object", key))
    table = replay(seed, moves)
    told = table.take_log()
    assert told[-1] == f"“{key}” is rejected", told
    wait_log(pane, told[-1])
    assert log_lines(pane) == told
    votes = [line for line in told if re.fullmatch(r"\w+ votes (keep|reject)", line)]
    assert len(votes) >= 2 and sum(v.endswith("reject") for v in votes) >= 2, votes
    pane.wait_text(f"“{key}” was objected to: rejected")
    assert re.search(rf"\b{n} {re.escape(word)} ✗", pane.screen()), pane.screen()

    pane.type("done")
    moves.append(("done",))
    told = replay(seed, moves).take_log()
    assert told[-1].startswith("Game over: ")
    out = [t for t in told if t.startswith(f"“{word}” (you, ")]
    assert len(out) == 1 and out[0].endswith("): rejected, voted out"), told
    pane.wait_text(NIGHT_END)  # the score sheet stays until a key is pressed
    assert "Score sheet" in pane.screen()
    pane.keys("Enter")
    assert pane.exit_code() == 0
    assert log_lines(pane) == told
    history = pane.history()  # the end stays on the terminal
    assert "Score sheet" in history and re.search(r"wins? the game", history)
    assert "Traceback" not in history

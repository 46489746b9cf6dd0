"""End to end at a real networked table: ``lanparty play`` hosts on loopback, each bot is a
peer process of its own, the deck is shuffled and dealt with mental poker. A person in a tmux
pane (``send-keys``, ``capture-pane``) reads the screen and types: plays cards, draws, picks
a colour for a wild, calls KaTO, and finishes the game or quits.

The deal is truly random here, so the player adapts to its hand the way a person would; the
options make the needed situations (a wild in hand, one card left) come quickly.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .tmux import NIGHT_END, THE_END, Pane, board_of, last_line, pause_any

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0  # the table fills and the first deal is shuffled, proved and dealt
TURN_DEADLINE = 30.0  # the bots' turns (with their reaction time) until we are asked again
_CELL = re.compile(r"(\d+): (.+?)(?=\s+\d+: |\s*$)")
_PROMPTS = (
    "waiting>",
    "your move>",
    "play the drawn card or pass>",
    "answer or accept>",
    "name a colour>",
    "kato/catch now, or Enter to play on>",
    "announce the verdict>",
)


class Player:
    """A person at the pane: reads the last prompt and hand, types a command."""

    def __init__(self, pane: Pane) -> None:
        self.pane = pane
        self.did: set[str] = set()

    def prompt(self) -> str | None:
        """The prompt waiting for input (nothing typed after it), if any."""
        for line in reversed(self.pane.screen().splitlines()):
            text = line.rstrip()
            if text in _PROMPTS:
                return text
            if text.startswith(_PROMPTS):
                return None  # something is typed (or an older prompt)
        return None

    def hand(self, text: str | None = None) -> list[tuple[int, str]]:
        """The numbered cards of the hand on the screen (in ``text``, a capture, if given)."""
        lines = (self.pane.screen() if text is None else text).splitlines()
        starts = [i for i, line in enumerate(lines) if line.startswith("Your hand:")]
        if not starts:
            return []  # the game ended as we looked: the board has left the screen
        start = starts[-1]
        cells: list[tuple[int, str]] = []
        for line in lines[start + 1 :]:
            found = _CELL.findall(line)
            if not found:
                break
            cells += [(int(n), card.strip()) for n, card in found]
        return cells

    def count(self, text: str) -> int:
        """How often the story has told ``text``."""
        return self.pane.story().count(text)

    def asked(self, deadline: float = TURN_DEADLINE) -> str:
        """Wait until the program asks for something (or ends); the prompt, or "" at the end
        (once the end of the game has been shown and Enter has left it)."""
        end = time.monotonic() + deadline
        while True:
            since = self.pane.written()
            if self.ended():
                return ""
            if any(end in self.pane.screen() for end in (THE_END, NIGHT_END)):
                self.pane.keys("Enter")
                self.pane.wait(self.ended, "the program to end")
                return ""
            prompt = self.prompt()
            if prompt is not None and prompt != "waiting>":
                return prompt
            if time.monotonic() > end:
                pytest.fail(f"not asked anything for {deadline} s; screen:\n{self.pane.screen()}")
            self.pane.pause(since, least=0.05)  # until the program writes again

    def attempt(self, command: str, success: str) -> bool:
        """Type ``command``; True once ``success`` is logged, False if it was not allowed."""
        ok, refused = self.count(success), self._refusals()
        self.pane.type(command)
        self.pane.wait(
            lambda: self.count(success) > ok or self._refusals() > refused or self.ended(),
            f"the outcome of {command!r}",
        )
        return self.count(success) > ok

    def _refusals(self) -> int:
        """Moves not taken so far: refused, or lost a race for the turn."""
        return sum(self.count(x) for x in ("Not allowed", "Not played", "Too late"))

    def ended(self) -> bool:
        """The program has exited (the game may end while a command is being typed)."""
        rc = self.pane.rc_file
        return rc.exists() and rc.read_text().strip() != ""

    def turn(self, prompt: str) -> None:
        """One decision, as a person would make it from the screen."""
        if prompt == "name a colour>":
            self.attempt("colour red", "You name red")
            self.did.add("colour")
        elif prompt == "answer or accept>":
            self.attempt("accept", "miss the turn")
        elif prompt.startswith("kato/catch"):
            if self.attempt("kato", "You call KaTO!"):
                self.did.add("kato")
            elif not self.attempt("catch", "You catch"):
                self.pane.keys("Enter")
        elif prompt == "play the drawn card or pass>":
            if not self.play_any():
                self.attempt("pass", "You keep the card and pass")
        elif prompt == "your move>":
            self.move()

    def move(self) -> None:
        hand = self.hand()
        wilds = [n for n, card in hand if card.startswith(("Wild", "Cone"))]
        if (
            wilds
            and "wild" not in self.did
            and self.attempt(f"play {wilds[0]} red", "and name red")
        ):
            self.did.add("wild")
            return
        if "draw" not in self.did and len(hand) > 3:
            self.attempt("draw", "You draw a card")
            self.did.add("draw")
            return
        if not self.play_any():
            self.attempt("draw", "You draw a card")

    def playable(self, text: str | None = None) -> list[int]:
        """The cards the board marks as playable now (in ``text``, a capture, if given)."""
        screen = self.pane.screen() if text is None else text
        found = re.findall(r"^Playable: ([\d, ]+)$", screen, re.MULTILINE)
        return [int(n) for n in found[-1].split(",")] if found else []

    def play_any(self) -> bool:
        """Play the first card the board marks as playable (a wild naming red): the board
        must be right, the move is never refused."""
        text = self.pane.screen()  # the hand and its marks from one capture of the board
        hand = dict(self.hand(text))
        for n in self.playable(text):
            wild = hand[n].startswith(("Wild", "Cone"))
            refused = self.count("Not allowed")
            if self.attempt(f"play {n} red" if wild else f"play {n}", f"You play {hand[n]}"):
                self.did.add("play")
                return True
            assert self.count("Not allowed") == refused, f"{hand[n]} was marked playable"
        return False


def _bot_logs(pane: Pane) -> str:
    logs = sorted((pane.rc_file.parent / "logs").glob("*.log"))
    return "\n".join(p.read_text() for p in logs)


def test_play_draw_wild_then_quit_at_a_networked_table(start) -> None:
    pane = start("play", "kato", "--bots", "2", "--nick", "Ann",
                 "--option", "hand_size=20", "--option", "cones=8")  # fmt: skip
    board = ("Your hand:", "Top:", "Colour in play:", "Ann (you)")
    # The board is redrawn under each new log line: read it once it is whole on screen.
    pane.wait(lambda: all(x in pane.screen() for x in board), "the first deal", SETUP_DEADLINE)
    story = pane.story()
    assert "Ann joined (seat 0)" in story and "Bea joined" in story
    assert re.search(r"key [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}", story)
    player = Player(pane)
    pane.wait(lambda: len(player.hand()) >= 20, "a hand of at least 20 cards")
    for _ in range(60):
        if {"play", "draw", "wild"} <= player.did:
            break
        prompt = player.asked()
        assert prompt, "the game ended before the player could do everything"
        player.turn(prompt)
    assert {"play", "draw", "wild"} <= player.did, player.did
    pane.type("quit")
    pane.wait_text("leave the table? the game stops for everyone (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    history = pane.history()
    assert "Bye." in pane.story() and "transcript saved:" in history
    assert "Traceback" not in history
    # The host told both bots it left; only ours is kept (the bots we started keep none).
    assert _bot_logs(pane).count("Ann (the host) left the table") == 2
    assert len(list((pane.rc_file.parent / "transcripts").glob("*.lptx"))) == 1
    assert "Traceback" not in _bot_logs(pane)


def test_call_kato_and_finish_the_game(start) -> None:
    for attempt in range(8):
        pane = start("play", "kato", "--bots", "1", "--nick", "Ann",
                     "--option", "hand_size=2", "--option", "rounds=1",
                     name=f"game{attempt}")  # fmt: skip
        pane.wait(lambda p=pane: "Your hand:" in p.screen(), "the first deal", SETUP_DEADLINE)
        player = Player(pane)
        while prompt := player.asked():
            player.turn(prompt)
        history, story = pane.history(), pane.story()
        assert pane.exit_code() == 0, history
        assert "Final scores" in story and re.search(r"wins? the game!", story)
        assert "Final scores" in history  # left on the terminal after the table's screen
        assert "Audit passed" in story
        assert "transcript saved:" in history and "Traceback" not in history
        assert "Traceback" not in _bot_logs(pane)
        if "kato" in player.did:
            assert "You call KaTO!" in story
            return
    pytest.fail("in 8 games the player never got down to one card before the bot went out")


def test_the_host_starts_early_with_the_players_seated(start, tmp_path: Path) -> None:
    pane = start("host", "kato", "--local", "--seats", "4", "--nick", "Ann",
                 "--option", "rounds=1", "--name", f"early-{os.getpid()}")  # fmt: skip
    pane.wait_text("is open on 127.0.0.1:")
    pane.type("start")  # alone at the table: refused, with the reason
    pane.wait_text("At least 2 players are needed to start.")
    endpoint = re.search(r"is open on (127\.0\.0\.1:\d+)", pane.screen())
    assert endpoint is not None
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path / "bea")}
    join = ["join", "--bot", "--connect", endpoint[1], "--nick", "Bea"]
    bea = subprocess.Popen([sys.executable, "-m", "lanparty", *join], env=env, text=True,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)  # fmt: skip
    try:
        seated = ("(type start to begin now)", "waiting for players: 2 of 4 seated")
        pane.wait(lambda: all(x in pane.screen() for x in seated), "Bea to sit down",
                  SETUP_DEADLINE)  # fmt: skip
        pane.type("start")
        pane.wait(lambda: "Seats: Ann, Bea." in pane.story(), "two seats", SETUP_DEADLINE)
        player = Player(pane)
        while prompt := player.asked():
            player.turn(prompt)
        history = pane.history()
        assert pane.exit_code() == 0, history
        assert "Audit passed" in pane.story() and "Traceback" not in history
        _, err = bea.communicate(timeout=60)
        assert bea.returncode == 0 and "Traceback" not in err
    finally:
        if bea.poll() is None:
            bea.kill()
            bea.communicate()


def _board(screen: str) -> str:
    """The live board: the region between the header and the story."""
    return board_of(screen)


def test_the_board_of_a_waiting_player_is_redrawn_as_the_other_plays(start) -> None:
    """Two people at one table: the one not on turn sees ``waiting>`` under the board, with
    the turn marked, and the board changes as soon as the other has played."""
    ann = start("host", "kato", "--local", "--seats", "2", "--nick", "Ann",
                "--option", "rounds=1", "--name", f"wait-{os.getpid()}")  # fmt: skip
    ann.wait_text("is open on 127.0.0.1:")
    endpoint = re.search(r"is open on (127\.0\.0\.1:\d+)", ann.screen())
    assert endpoint is not None
    bea = start("join", "--connect", endpoint[1], "--nick", "Bea", name="bea")
    panes = {"Ann": Player(ann), "Bea": Player(bea)}
    for p in panes.values():
        p.pane.wait(lambda p=p: "Your hand:" in p.pane.screen(), "the deal", SETUP_DEADLINE)

    def mover() -> tuple[str, str]:
        while True:  # one of the two is asked (the other waits) once the deal is done
            marks = [(p.pane, p.pane.written()) for p in panes.values()]
            for name, p in panes.items():
                prompt = p.prompt()
                if prompt not in (None, "waiting>"):
                    return name, prompt
            pause_any(marks, least=0.05)  # until one of the two programs writes again

    name, prompt = mover()
    other = panes["Bea" if name == "Ann" else "Ann"]
    other.pane.wait(lambda: other.prompt() == "waiting>", "the other to wait")
    before = _board(other.pane.screen())
    assert re.search(rf"^▶ {name}\b", before, re.MULTILINE), before
    assert "Your hand:" in before and "Playable:" not in before
    moved = panes[name]
    log = len(moved.pane.log())
    moved.turn(prompt)
    assert len(moved.pane.log()) > log
    other.pane.wait(lambda: _board(other.pane.screen()) != before, "the board redrawn")
    for p in panes.values():
        p.pane.keys("C-c")
        p.pane.keys("C-c")
    assert "Traceback" not in ann.history() + bea.history()


def test_ctrl_c_twice_leaves_a_networked_table_in_one_line(start) -> None:
    pane = start("play", "kato", "--bots", "1", "--nick", "Ann")
    pane.wait(lambda: "Your hand:" in pane.screen(), "the first deal", SETUP_DEADLINE)
    pane.keys("C-c")
    pane.wait_text("leave the table? the game stops for everyone (y/N)>")
    pane.keys("C-c")
    assert pane.exit_code() == 130
    history = pane.history()
    assert "Traceback" not in history
    saved = list((pane.rc_file.parent / "transcripts").glob("*.lptx"))
    assert len(saved) == 1  # ours: the bot keeps none
    assert last_line(pane) == ("lanparty play: interrupted: the table stopped for everyone; "
                                  f"transcript saved: {saved[0]}")  # fmt: skip
    # The bot was told (the host halted the table) and has ended: it was waited for.
    assert "Ann (the host) left the table" in _bot_logs(pane)


def menu(pane: Pane, entry: str) -> bool:
    """Does the completion menu on the screen offer ``entry``?"""
    return any(f" {entry} " in line for line in pane.screen().splitlines())


def test_the_host_lets_players_in_turns_one_away_and_removes_one(start, tmp_path: Path) -> None:
    """With --approve each join waits for the host's yes, asked by number with the key shown;
    `deny N` sends one away for good, `kick N` removes a seated player before the game starts
    (it is told, and cannot come back)."""
    pane = start("host", "kato", "--local", "--seats", "4", "--nick", "Ann", "--approve",
                 "--option", "rounds=1", "--name", f"door-{os.getpid()}")  # fmt: skip
    pane.wait_text("is open on 127.0.0.1:")
    endpoint = re.search(r"is open on (127\.0\.0\.1:\d+)", pane.screen())
    assert endpoint is not None
    bots: dict[str, subprocess.Popen[str]] = {}

    def join(nick: str) -> None:
        env = {**os.environ, "LANPARTY_HOME": str(tmp_path / nick)}
        cmd = [sys.executable, "-m", "lanparty", "join", "--bot", "--connect", endpoint[1],
               "--nick", nick, "--grace", "0"]  # fmt: skip
        bots[nick] = subprocess.Popen(
            cmd, env=env, text=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip

    try:
        join("Bo")
        pane.wait(lambda: "request 1: Bo (key" in pane.story() and "approve 1" in pane.story(),
                  "Bo to ask", SETUP_DEADLINE)  # fmt: skip
        assert "Bo joined" not in pane.story()
        # Tab on the empty line offers what the host may do now: let Bo in, or not.
        pane.keys("Tab")
        pane.wait(lambda: menu(pane, "approve 1") and menu(pane, "deny 1"), "the host's moves")
        assert re.search(r"approve 1 +let Bo \(", pane.screen()), pane.screen()
        pane.keys("Escape", "C-u")
        pane.type("approve 1")
        pane.wait(lambda: "Bo joined (seat 1)" in pane.story(), "Bo to sit down")
        join("Cy")
        pane.wait(lambda: "request 2: Cy (key" in pane.story(), "Cy to ask", SETUP_DEADLINE)
        pane.keys("Tab")  # two seated: start now, kick Bo, or answer Cy
        for offered in ("start", "approve 2", "deny 2", "kick 1"):
            pane.wait(lambda o=offered: menu(pane, o), f"{offered} offered")
        assert re.search(r"kick 1 +remove Bo from the table", pane.screen()), pane.screen()
        pane.keys("Escape", "C-u")
        pane.type("deny 2")
        _, err = bots["Cy"].communicate(timeout=60)
        assert bots["Cy"].returncode == 1 and "the host did not let you in" in err
        pane.type("kick 1")
        pane.wait(lambda: "Bo was removed from the table by the host" in pane.story(),
                  "Bo to be removed")  # fmt: skip
        _, err = bots["Bo"].communicate(timeout=60)
        assert bots["Bo"].returncode == 1 and "the host removed you from the table" in err
        pane.wait_text("waiting for players: 1 of 4 seated")
        pane.type("quit")
        pane.wait_text("(y/N)>")
        pane.type("y")
        assert pane.exit_code() == 0 and "Traceback" not in pane.history()
    finally:
        for proc in bots.values():
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_again_at_the_end_plays_the_next_game_at_the_same_table(start) -> None:
    """The host's person types ``again`` at the end screen (Tab completes it): the bot stays,
    the next game is dealt at the same table under a rule in the story; quitting then asks
    first, as in any game."""
    pane = start("play", "kato", "--bots", "1", "--nick", "Ann", "--option", "hand_size=2",
                 "--option", "rounds=1")  # fmt: skip
    pane.wait(lambda: "Your hand:" in pane.screen(), "the first deal", SETUP_DEADLINE)
    player = Player(pane)
    end = time.monotonic() + 4 * TURN_DEADLINE
    while NIGHT_END not in pane.screen():
        prompt = player.prompt()
        if prompt is not None and prompt != "waiting>":
            player.turn(prompt)
        assert time.monotonic() < end, pane.screen()
        time.sleep(0.05)  # a short pause between polls, not a wait for anything
    assert pane.screen().rstrip().endswith("game over")  # the status line
    typed = re.compile(re.escape(NIGHT_END) + r" ?(\w*) *$", re.M)

    def on_the_line() -> str:
        """What the input line holds (a key typed while the end screen came up may be lost:
        the test looks before it goes on)."""
        found = typed.findall(pane.screen())
        return found[-1] if found else ""

    pane.keys("-l", "ag")
    pane.wait(lambda: on_the_line() == "ag", "ag typed")
    pane.keys("Tab")
    pane.wait(lambda: "the same game again, with the same options" in pane.screen()
              and on_the_line() == "again", "Tab")  # fmt: skip
    pane.keys("Enter")  # the completion taken: "again"
    pane.wait(lambda: "— game 2 of the night: KaTO —" in pane.story(), "the next game")
    pane.wait(lambda: "Your hand:" in pane.screen(), "the second deal", SETUP_DEADLINE)
    story = pane.story()
    assert story.index("transcript saved:") < story.index("— game 2 of the night: KaTO —")
    assert "Bea stays for the next game" in story
    pane.type("quit")
    pane.wait_text("leave the table? the game stops for everyone (y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    history = pane.history()
    assert history.count("transcript saved:") >= 1 and "Traceback" not in history
    saved = sorted((pane.rc_file.parent / "transcripts").glob("*.lptx"))
    assert len(saved) == 2  # one per game of the night

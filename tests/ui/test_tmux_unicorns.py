"""Kill the Unicorns end to end at a real networked table: ``lanparty play unicorns`` hosts on
loopback, each bot is a peer process of its own, the decks are shuffled with mental poker. A
person in a tmux pane reads the board and types: plants a scheme face down, bids in a hunt,
lays hunt cards sealed and sees them turned over with everyone's, the totals and the winner.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .tmux import NIGHT_END, REPO, Pane, board_of

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0  # the table fills; the unicorn deck and every scheme deck are shuffled
TURN_DEADLINE = 30.0  # the bots' turns (with their reaction time) until we are asked again
_PROMPTS = {
    "character": "choose your character (character NAME)>",
    "trap": "plant a scheme (plant SCHEME N)>",
    "bid": "hunt N, join or pass>",
    "commit": "lay your hunt cards face down (cards A B)>",
    "knight": "Knight: boost or decline>",
    "choose": "choose the scheme to turn over (reveal a|b)>",
    "give": "Trojan Unicorn: give one of your unicorns (give N)>",
    "colour": "Chameleon: name the colour>",
    "wizard": "Wizard: recall a hunt card or decline>",
    "market": "black market: buy or decline>",
}
_ASKED = {text: phase for phase, text in _PROMPTS.items()}


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Pane]]:
    panes: list[Pane] = []

    def run(*args: str) -> Pane:
        command = " ".join([sys.executable, "-m", "lanparty", "play", "unicorns", *args])
        # (40 rows: the whole board, the row of unicorns and every collection, above the
        # story; what fits in 80x24 is the board's own business.)
        p = Pane(tmp_path, f"cd {REPO} && LANPARTY_HOME={tmp_path} {command}", "tmux-256color",
                 rows=40)  # fmt: skip
        panes.append(p)
        return p

    yield run
    for p in panes:
        p.kill()


def _asked(pane: Pane, deadline: float = TURN_DEADLINE) -> tuple[str, str]:
    """Wait until the program asks this seat for something; the phase asked about ("" once
    the game is over: Enter then leaves), and the screen that asks (read once: a later read
    may catch the board being redrawn)."""
    end = time.monotonic() + deadline
    while True:
        since = pane.written()
        screen = pane.screen()
        if NIGHT_END in screen:
            return "", screen
        for line in reversed(screen.splitlines()):
            text = line.rstrip()
            if text in _ASKED:
                return _ASKED[text], screen
            if text.startswith(tuple(_ASKED)) or text == "waiting>":
                break  # something typed after it, or not our turn
        if pane.rc_file.exists() and pane.rc_file.read_text().strip():
            return "", screen  # the program ended
        if time.monotonic() > end:
            pytest.fail(f"not asked anything for {deadline} s; screen:\n{pane.screen()}")
        pane.pause(since, least=0.05)  # until the program writes again


def _may(screen: str) -> list[str]:
    """The moves of the last "You may:" line, as typed (of ``colour pink|blue``, the first)."""
    found = re.findall(r"^You may: (.+)$", screen, re.MULTILINE)
    assert found, screen
    return [" ".join(w.split("|")[0] for w in m.split()) for m in found[-1].split(" · ")]


def _do(pane: Pane, command: str, logged: str) -> None:
    """Type ``command`` and wait until the log says ``logged`` (more often than before)."""
    before = pane.story().count(logged)
    pane.type(command)
    pane.wait(lambda: pane.story().count(logged) > before or "Not allowed" in pane.screen(),
              f"the outcome of {command!r}")  # fmt: skip
    assert pane.story().count(logged) > before, pane.screen()


def _plant(pane: Pane, screen: str) -> tuple[str, int]:
    """Plant the first drawn scheme on the first row unicorn with a free place."""
    kinds = re.findall(r"(?:Your schemes \(esquemas\):|^ {10,})\s*(\w+) = ", screen, re.MULTILINE)
    assert len(kinds) == 2, screen
    row = screen[screen.rindex("Row (fila de unicornios)") :].splitlines()[1:]
    free = [int(m[1]) for line in row if (m := re.match(r"^[▶ ] (\d) ", line))
            and line.count("face down") < 2]  # fmt: skip
    assert free, screen
    _do(pane, f"plant {kinds[0]} {free[0]}", "· You plant ")
    return kinds[0], free[0]


def _other(pane: Pane, phase: str, screen: str) -> None:
    """Anything else asked before our hunt is settled: the first move offered, or decline
    (every move of ours is told in the log as "You …")."""
    may = _may(screen)
    command = "decline" if phase in ("market", "wizard", "knight") else may[0]
    _do(pane, command, "· You ")


def _settled(pane: Pane) -> str:
    """The totals line of the last hunt we turned cards over in, once it is logged ("" yet)."""
    text = pane.story()
    if "· You turn over " not in text:
        return ""
    after = text[text.rindex("· You turn over ") :]
    found = re.search(r"^· Totals: .*$", after, re.MULTILINE)
    return found[0] if found else ""


def test_plant_a_scheme_bid_in_a_hunt_and_see_the_cards_turned_over(start) -> None:
    pane = start("--bots", "2", "--nick", "Ann")
    chosen = "Characters (personajes) are chosen in turn from the first player"
    pane.wait(lambda: chosen in pane.story(), "the characters to choose", SETUP_DEADLINE)
    assert "Ann joined (seat 0)" in pane.story()
    planted: tuple[str, int] | None = None
    laid = ""
    fresh = False
    for _ in range(80):
        phase, screen = _asked(pane)
        assert phase, f"the program ended; screen:\n{screen}"
        if laid and (totals := _settled(pane)):
            break
        if phase == "trap":
            planted = _plant(pane, screen)
            assert re.search(r"· You plant .+ face down on .+ and discard ", pane.story())
            fresh = True
        elif phase == "bid":
            # The first hunt after we planted: our scheme lies face down, marked as ours.
            assert not fresh or "yours, face down" in screen, screen
            fresh = False
            may = _may(screen)
            bid = "join" if "join" in may else "hunt 1"
            _do(pane, bid, "· You join the hunt" if bid == "join" else "· You hunt ")
        elif phase == "commit":
            board = board_of(screen)
            assert "laying " in board and "(sealed)" not in board.split("Day ")[-1]
            pane.wait(lambda: pane.screen().rstrip().splitlines()[-1].endswith(" your move"),
                      "the status bar to say it is our move")  # fmt: skip
            hand = re.findall(r"^Your hunt cards \(cartas de caza\): ([\d ]+)$", board,
                              re.MULTILINE)  # fmt: skip
            bid = int(re.findall(r"hunt \(caza\) of .+?: (\d) hunt cards? each", board)[-1])
            laid = " ".join(hand[-1].split()[-bid:])  # the highest cards, lowest first
            turned = pane.story().count("· You turn over ")
            _do(pane, f"cards {laid}", f"· You lay {bid} card")
            # Sealed: the board says so until every hunter's cards are turned over at once.
            pane.wait(lambda t=turned: pane.story().count("· You turn over ") > t
                      or "■ sealed" in pane.screen(), "our cards sealed")  # fmt: skip
        else:
            _other(pane, phase, screen)
    else:
        pytest.fail(f"no hunt with us and another hunter settled; screen:\n{pane.screen()}")
    assert planted and laid, (planted, laid)
    # Every hunter's cards were turned over together, then the totals (with the tie rule).
    assert re.search(rf"\byou {sum(map(int, laid.split()))}\b", totals), totals
    assert re.search(r"(wins? the hunt|: out)", totals), totals
    assert "Traceback" not in pane.history()
    pane.type("quit")
    pane.wait_text("(y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()


def test_a_whole_offline_game_to_the_gnomes_buying(start) -> None:
    """Offline (bots in this process, no cryptography): four days of planting, hunting and
    the market, typed by a person who plays the first move offered; then the final scores."""
    pane = start("--offline", "--bots", "3", "--seed", "5", "--nick", "Ann")
    asked: set[str] = set()
    for _ in range(200):
        phase, screen = _asked(pane)
        if not phase:
            break
        asked.add(phase)
        if phase == "trap":
            _plant(pane, screen)
        elif phase == "bid":
            may = _may(screen)
            bid = next(m for m in ("join", "hunt 1", "pass") if m in may)
            _do(pane, bid, "· You ")
        elif phase == "commit":
            hand = re.findall(r"^Your hunt cards \(cartas de caza\): ([\d ]+)$", screen, re.M)
            bid = int(re.findall(r"hunt \(caza\) of .+?: (\d) hunt cards? each", screen)[-1])
            _do(pane, f"cards {' '.join(hand[-1].split()[:bid])}", f"· You lay {bid} card")
        else:
            _other(pane, phase, screen)
    assert "Final scores" in pane.screen()  # shown until a key is pressed
    pane.keys("Enter")
    assert pane.exit_code() == 0
    history = pane.story()
    assert {"trap", "bid", "commit", "market"} <= asked, asked
    assert history.count("· You plant ") in (1, 2, 3, 4)  # one a day (a double rainbow: fewer)
    assert "Final scores" in history and re.search(r"wins? the game", history)
    assert "Final scores" in pane.history()  # left on the terminal
    assert "Traceback" not in pane.history()


def test_characters_are_chosen_in_turn_offline(start) -> None:
    """Offline, before day 1: the board lists the four characters with their powers and who
    took which; when our turn comes we are asked, a taken character is refused with the
    reason, and the one we choose is ours on the board and in the log."""
    pane = start("--offline", "--bots", "3", "--seed", "2", "--nick", "Ann")
    phase, screen = _asked(pane)
    assert phase == "character", screen
    assert "Characters (personajes): chosen in turn; each power once a day" in screen
    assert re.search(r"^Before day 1 · first player: \S+", screen, re.M), screen
    for name, power in (("princess", "look at another player's face-down scheme"),
                        ("knight", "+2 to his total once the cards of a hunt he joined are"),
                        ("wizard", "take back a hunt card he played once the hunt is"),
                        ("shaman", "move a face-down scheme to another unicorn")):  # fmt: skip
        assert re.search(rf"^  {name} = .*\n +{re.escape(power)}", screen, re.M), screen
    taken = re.findall(r"^  (\w+) = .* · taken by (\S+)$", screen, re.M)
    free = [m for m in re.findall(r"^  (\w+) = [^·\n]+$", screen, re.M)]
    first = re.search(r"first player: (\S+)", screen)[1]  # type: ignore[index]
    # Everyone before us in turn from the first player has chosen, and only they.
    seats = ["Ann", "Bea", "Carl", "Dora"]
    before = [seats[(seats.index(first) + k) % 4] for k in range(4)]
    assert sorted(who for _c, who in taken) == sorted(before[: before.index("Ann")])
    assert len(free) == 4 - len(taken) and _may(screen) == [f"character {free[0]}"]
    if taken:
        pane.type(f"character {taken[0][0]}")
        pane.wait(lambda: "is taken: choose one nobody has" in pane.screen(), "the refusal")
    pane.type(f"character {free[-1]}")
    pane.wait(lambda: "· You choose the " in pane.story(), "our choice told")
    said = re.search(r"· You choose the (\w+)", pane.story())[1]  # type: ignore[index]
    assert said.lower() == free[-1]
    phase, screen = _asked(pane)  # the next thing asked of us: a scheme to plant on day 1
    assert phase == "trap", screen
    pane.wait_story("· Day 1 (día 1): the row is ")  # the file follows the screen
    assert re.search(rf"Ann \(you\) +{said} \(\w+\) •", screen), screen
    assert pane.story().count(" chooses the ") + 1 == 4
    pane.type("quit")
    pane.wait_text("(y/N)>")
    pane.type("y")
    assert pane.exit_code() == 0
    assert "Traceback" not in pane.history()

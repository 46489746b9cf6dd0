"""One Kill the Unicorns hunt in Spanish, in a real terminal: ``LANG=es_ES.UTF-8 lanparty play
unicorns --offline``. A person plants a scheme, bids, lays hunt cards face down and reads the
cards turned over, the totals and the winner, all in Spanish, with the Spanish names alone
(no English beside them) and the commands typed in English as everywhere."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

DEADLINE = 30.0
_UNSET = "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES"  # the tests' LANGUAGE=en would outrank LANG
_PROMPTS = {
    "character": "elige tu personaje (character NOMBRE)>",
    "trap": "coloca un esquema (plant ESQUEMA N)>",
    "bid": "caza con N cartas (hunt N), join o pass>",
    "commit": "pon tus cartas de caza boca abajo (cards A B)>",
    "knight": "Caballero: boost o decline>",
    "choose": "elige el esquema que se descubre (reveal a|b)>",
    "give": "Trojan Unicorn: da uno de tus unicornios (give N)>",
    "colour": "Camaleón: elige el color>",
    "wizard": "Mago: recupera una carta de caza (recall) o decline>",
    "market": "mercado negro: buy o decline>",
}
_ASKED = {text: phase for phase, text in _PROMPTS.items()}
_ENGLISH = ("Row", "Your hunt cards", "Your schemes", "You may", "Totals", "face down",
            "Day ", "hunt card", "(caza)", "(esquemas)", "Decoy", "Ambush")  # fmt: skip


def _asked(pane: Pane) -> tuple[str, str]:
    """Poll until this seat is asked for something: the phase ("" once the program ended)
    and the screen that asks."""
    end = time.monotonic() + DEADLINE
    while True:
        since = pane.written()
        screen = pane.screen()
        for line in reversed(screen.splitlines()):
            text = line.rstrip()
            if text in _ASKED:
                return _ASKED[text], screen
            if text.startswith(tuple(_ASKED)) or text.startswith("esperando"):
                break  # something typed after it, or not our turn
        if pane.rc_file.exists() and pane.rc_file.read_text().strip():
            return "", screen
        if time.monotonic() > end:
            pytest.fail(f"not asked anything for {DEADLINE} s; screen:\n{screen}")
        pane.pause(since, least=0.05)  # until the program writes again


def _logged(pane: Pane) -> int:
    return len(re.findall(r"^· ", pane.story(), re.MULTILINE))


def _do(pane: Pane, command: str) -> None:
    """Type ``command`` and poll until the log grows (or a refusal is shown)."""
    before = _logged(pane)
    pane.type(command)
    pane.wait(lambda: _logged(pane) > before or "No permitido" in pane.screen(),
              f"the outcome of {command!r}")  # fmt: skip
    assert "No permitido" not in pane.screen(), pane.screen()


def _may(screen: str) -> list[str]:
    found = re.findall(r"^Puedes: (.+)$", screen, re.MULTILINE)
    assert found, screen
    return [" ".join(w.split("|")[0] for w in m.split()) for m in found[-1].split(" · ")]


def test_one_unicorns_hunt_in_spanish(tmp_path: Path) -> None:
    command = " ".join([sys.executable, "-m", "lanparty", "play", "unicorns", "--offline",
                        "--bots", "2", "--seed", "5", "--nick", "Ann"])  # fmt: skip
    pane = Pane(tmp_path, f"cd {REPO} && {_UNSET} LANPARTY_HOME={tmp_path} LANG=es_ES.UTF-8 "
                f"{command}", "tmux-256color", rows=40)  # fmt: skip
    try:
        totals = ""
        for _ in range(80):
            phase, screen = _asked(pane)
            assert phase, f"the program ended; screen:\n{screen}"
            text = pane.story()
            if "· Descubres " in text:
                found = re.findall(r"^· Sumas: .*$", text[text.rindex("· Descubres ") :], re.M)
                if found:
                    totals = found[0]
                    break
            if phase == "trap":
                assert "Tus esquemas: " in screen and "Fila" in screen, screen
                kinds = re.findall(r"(?:Tus esquemas:|^ {10,})\s*(\w+) = ", screen, re.M)
                row = screen[screen.rindex("Fila") :].splitlines()[1:]
                free = [int(m[1]) for line in row if (m := re.match(r"^[▶ ] (\d) ", line))
                        and len(re.findall(r"\d[ab]: ", line)) < 2]  # fmt: skip
                _do(pane, f"plant {kinds[0]} {free[0]}")
                assert "· Colocas " in pane.story() and " boca abajo en " in pane.story()
            elif phase == "bid":
                may = _may(screen)
                _do(pane, "join" if "join" in may else "hunt 1")
            elif phase == "commit":
                hand = re.findall(r"^Tus cartas de caza: ([\d ]+)$", screen, re.M)
                bid = int(re.findall(r" de .+?: (\d) cartas? de caza cada uno", screen)[-1])
                laid = " ".join(hand[-1].split()[-bid:])
                _do(pane, f"cards {laid}")
                assert re.search(r"· Pones \d cartas? boca abajo \(selladas?\)", pane.story())
            else:
                may = _may(screen)
                _do(pane, "decline" if phase in ("market", "wizard", "knight") else may[0])
        else:
            pytest.fail(f"no hunt of ours settled; screen:\n{pane.screen()}")
        assert re.search(r"\btú \d+\b", totals)
        assert re.search(r"(gana la caza|: quedan fuera)", totals)
        history = pane.story() + pane.screen()  # the story, and the board and keys now
        assert "· Caza de " in history and "· Eliges personaje: " in history
        assert "· Día 1: en la fila, " in history
        for english in _ENGLISH:
            assert english not in history, english
        assert "Traceback" not in history
        pane.type("quit")
        pane.wait_text("(s/N)>")
        pane.type("s")
        assert pane.exit_code() == 0
    finally:
        pane.kill()

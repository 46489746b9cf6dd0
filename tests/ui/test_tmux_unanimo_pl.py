"""One Unanimo card in Polish, in a real terminal: ``LANG=pl_PL.UTF-8 lanparty play unanimo
--offline``. A person reads the subject in Polish, writes words in the editor whose title,
remarks and keys are Polish, hands them in, follows the reading with the hands raised and
the points, says ``done`` (the commands stay English) and reads the card's scores, the score
sheet and the winner in Polish."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from lanparty.games.unanimo.associations import BY_LANGUAGE
from lanparty.games.unanimo.subjects import SUBJECTS

from .tmux import REPO, Pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

DEADLINE = 60.0
KEYS = "Enter/Tab: następny wiersz · Ctrl-S: oddaj · Esc: polecenia"
_UNSET = "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES"  # the tests' LANGUAGE=en would outrank LANG
_ENGLISH = ("Card ", "the subject", "leader", "Your words", "hands in", "points each",
            "nobody else", "Score sheet", "Total", "Game over", "win the game", "Reading ",
            "writing…", "handed in", "pts")  # fmt: skip


def test_one_unanimo_card_in_polish(tmp_path: Path) -> None:
    command = " ".join([sys.executable, "-m", "lanparty", "play", "unanimo", "--offline",
                        "--bots", "3", "--bot-kind", "heuristic", "--seed", "4", "--nick",
                        "Ann", "--option", "cards=1"])  # fmt: skip
    pane = Pane(tmp_path, f"cd {REPO} && {_UNSET} LANPARTY_HOME={tmp_path} LANG=pl_PL.UTF-8 "
                f"{command}", "tmux-256color")  # fmt: skip
    try:
        pane.wait(lambda: KEYS in pane.screen(), "the editor", DEADLINE)
        found = re.search(r"^· Karta 1 z 1: hasło to (.+?) \(prowadzi: ", pane.story(), re.M)
        assert found, pane.story()
        polish = found[1]
        english = next(names[0] for names in SUBJECTS if names[1] == polish)
        screen = pane.screen()
        assert f"Twoje słowa do hasła „{polish}” (do 8, jedno w wierszu):" in screen
        assert re.search(rf"^Hasło:   {polish.upper()}$", screen, re.M), screen  # one language
        assert re.search(r"^  Ann \(ty\) +0 pkt  pisze…", screen, re.M), screen

        words = BY_LANGUAGE["pl"][english][:3]  # every heuristic bot writes these: the table
        # writes in Polish, its host's language
        for word in words:
            pane.keys("-l", word)
            pane.keys("Tab")
        pane.keys("-l", words[0].upper())  # the same word again: the editor says so
        pane.wait(lambda: "już jest na Twojej liście: liczy się raz" in pane.screen(),
                  "the remark on a repeated word")  # fmt: skip
        pane.keys("C-s")
        pane.wait(lambda: "· Oddajesz swoje słowa" in pane.story(), "our words handed in")

        # The reading, step by step, with the hands raised; then the whole reading.
        pane.wait(lambda: "Czytanie: " in pane.screen() and " · czyta " in pane.screen(),
                  "a word being read", DEADLINE)  # fmt: skip
        pane.wait(lambda: re.search(r"Czytanie: \d+ słó?w", pane.screen()) is not None,
                  "the whole reading", DEADLINE)  # fmt: skip
        pane.wait(lambda: "object N, appeal N albo done>" in pane.screen(),
                  "the objections' prompt")  # fmt: skip
        pane.type("done")
        pane.wait_text("again, next GRA albo Enter, by zakończyć wieczór>")
        screen = pane.screen()  # the score sheet, the story and the keys: all in Polish
        pane.keys("Enter")
        assert pane.exit_code() == 0
        history = pane.story() + screen + pane.history()
        assert re.search(rf"^· „{re.escape(words[0])}” \(ty, [^)]*\): po 4 punkty$", history,
                         re.M), history  # fmt: skip
        assert re.search(rf"^· Czytanie karty {re.escape(polish)}: \d+ słów$", history, re.M)
        assert "Tabela wyników" in history and "Suma" in history
        assert re.search(r"^· Koniec gry: wygry", history, re.M), history
        for english_word in _ENGLISH:
            assert english_word not in history, english_word
        assert "Traceback" not in history
    finally:
        pane.kill()

"""KaTO read in Polish and Spanish at the real terminal (tmux): one turn in Polish told exactly
as an in-process twin tells it in Polish, and a mixed table, a Polish host and a Spanish
guest, whose two transcripts are byte for byte the same (only what is shown is translated)."""

from __future__ import annotations

import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from lanparty import i18n
from lanparty.games.kato.narrate import card_name
from lanparty.games.kato.screen import command_for, hand_of

from .test_tmux import choose, twin
from .tmux import REPO, Pane, pause_any

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

# The tests' environment says LANGUAGE=en (tests/conftest.py): a pane in another language
# unsets every variable that would outrank LANG.
_UNSET = "env -u LANGUAGE -u LC_ALL -u LC_MESSAGES"


def _pane(tmp: Path, name: str, lang: str, *args: str, home: Path | None = None) -> Pane:
    (tmp / name).mkdir()
    where = f"LANPARTY_HOME={home}" if home is not None else ""
    command = " ".join([sys.executable, "-m", "lanparty", *args])
    return Pane(tmp / name, f"cd {REPO} && {_UNSET} {where} LANG={lang} {command}",
                "tmux-256color")  # fmt: skip


def test_one_kato_turn_in_polish(tmp_path: Path) -> None:
    pane = _pane(tmp_path, "pl", "pl_PL.UTF-8", "play", "kato", "--offline", "--bots", "2",
                 "--seed", "7", "--nick", "ann")  # fmt: skip
    try:
        i18n.set_language("pl")
        table = twin(7, "ann", 2)
        table.advance()
        told = table.take_log()
        pane.wait_text("Twoja ręka:")
        screen = pane.screen()
        assert "ann (ty)" in screen and "Na stosie:" in screen and "Kolor w grze:" in screen
        pane.wait_story("(wpisz help; Tab podpowiada)")  # the file follows the screen
        assert card_name(str(table.view()["top"])) in screen
        for i, (_, label) in enumerate(hand_of(table.view()), 1):
            assert f"{i}: {card_name(label)}" in screen
        assert "Your hand" not in screen and "Top:" not in screen

        pane.type("taniec")  # a mistake, in Polish
        pane.wait_text("nieznane polecenie 'taniec' (wpisz help albo naciśnij Tab)")

        command = choose(table)  # the commands themselves are the same in every language
        pane.type(command)
        view = table.view()
        table.submit(next(m for m in table.legal_moves() if command_for(m, view)[0] == command))
        table.advance()
        told += table.take_log()
        pane.wait(lambda: len(pane.log()) >= len(told), f"the log after {command}")
        assert pane.log() == told
        assert any(line.startswith(("Bea ", "Carl ")) for line in told)  # the others' turns too

        pane.type("quit")
        pane.wait_text("wyjść z gry? (t/N)>")
        pane.type("t")
        assert pane.exit_code() == 0
        assert "Do zobaczenia." in pane.story()
        assert "Traceback" not in pane.history()
    finally:
        pane.kill()


# What each language's prompt asks, and what a player who wants the game over types then.
_PROMPTS = {
    "pl": {"twój ruch> ": "play", "zagraj dobraną kartę lub spasuj> ": "pass",
           "odpowiedz lub przyjmij> ": "accept", "wybierz kolor> ": "colour red",
           "kato/catch teraz albo Enter, by grać dalej> ": "", "koniec: Enter, by wyjść> ": "",
           "again, next GRA albo Enter, by zakończyć wieczór> ": ""},
    "es": {"tu jugada> ": "play", "juega la carta robada o pasa> ": "pass",
           "responde o acepta> ": "accept", "elige un color> ": "colour red",
           "kato/catch ahora, o Enter para seguir> ": "", "fin: Enter para salir> ": "",
           "again, next JUEGO o Enter para terminar la noche> ": ""},
}  # fmt: skip
_PLAYABLE = {"pl": "Można zagrać: ", "es": "Se pueden jugar: "}
_WILDS = {"pl": ("Zmiana koloru", "Dobierz cztery"), "es": ("Comodín",)}
_OVER = {"pl": "Koniec gry: ", "es": "Fin de la partida: "}
_DEALT = {"pl": "Runda 1: karty są potasowane i rozdane",
          "es": "Ronda 1: se barajan y reparten las cartas"}  # fmt: skip


def _prompt(screen: str) -> str:
    """The prompt on ``screen`` ("" if none)."""
    prompts = [line for line in screen.splitlines() if line.rstrip().endswith(">")]
    return prompts[-1].rstrip() + " " if prompts else ""


def _asked(screen: str, lang: str) -> str | None:
    """The command to type at the prompt now on ``screen`` (``None``: nothing is asked)."""
    line = _prompt(screen)
    if not line:
        return None
    action = _PROMPTS[lang].get(line)
    if action != "play":
        return action
    playable = [line for line in screen.splitlines() if line.startswith(_PLAYABLE[lang])]
    if not playable:
        return "draw"
    n = playable[-1][len(_PLAYABLE[lang]) :].split(",")[0].strip()
    lines = screen.splitlines()
    first = max((i for i, line in enumerate(lines) if line.startswith("1: ")), default=len(lines))
    rows = []  # the hand may wrap onto more rows
    for line in lines[first:]:
        if not re.match(r"\d+: ", line):
            break
        rows.append(line)
    cells = dict(re.findall(r"(\d+): (.+?)(?=\s+\d+: |\s*$)", "  ".join(rows)))
    card = cells.get(n, "")
    return f"play {n} red" if card.startswith(_WILDS[lang]) else f"play {n}"


def test_a_polish_and_a_spanish_player_share_a_table_and_its_transcript(tmp_path: Path) -> None:
    table = f"mixta-{tmp_path.name[-8:]}"
    homes = {"pl": tmp_path / "home-pl", "es": tmp_path / "home-es"}
    panes: dict[str, Pane] = {}
    try:
        panes["pl"] = _pane(tmp_path, "pl", "pl_PL.UTF-8", "host", "kato", "--local", "--seats",
                            "2", "--option", "rounds=1", "--option", "hand_size=1", "--name",
                            table, "--nick", "ana", home=homes["pl"])  # fmt: skip
        opened = f"Stół '{table}' jest otwarty pod 127.0.0.1:"
        panes["pl"].wait(lambda: opened in panes["pl"].story(), "the table open", 60)
        panes["es"] = _pane(tmp_path, "es", "es_ES.UTF-8", "join", table, "--local", "--nick",
                            "bea", home=homes["es"])  # fmt: skip
        for lang, pane in panes.items():
            pane.wait(lambda p=pane, t=_DEALT[lang]: t in p.story(), "the deal", 60)
        end = time.monotonic() + 120
        while not all(pane.rc_file.exists() for pane in panes.values()):
            marks = [(p, p.written()) for p in panes.values()]
            assert time.monotonic() < end, {lang: p.screen() for lang, p in panes.items()}
            for lang, pane in panes.items():
                if pane.rc_file.exists():
                    continue
                screen = pane.screen()
                command = _asked(screen, lang)
                if command is None:
                    continue
                told = len(pane.story())
                pane.type(command)
                # The typed line is answered (a new prompt, a log line or a reason).
                pane.wait(lambda p=pane, n=told, s=screen: p.rc_file.exists()
                          or len(p.story()) > n or _prompt(p.screen()) != _prompt(s),
                          "an answer")  # fmt: skip
            pause_any(marks, least=0.05)  # until one of the two programs writes again
        for lang, pane in panes.items():
            assert pane.exit_code() == 0, pane.story()
            assert _OVER[lang] in pane.story() and "Traceback" not in pane.history()
            assert "★" in pane.history()  # the final scores stay on the terminal
        assert "Auditoría superada" in panes["es"].story()
        assert "Conectado a 127.0.0.1:" in panes["es"].story()
        assert "Audyt zaliczony" in panes["pl"].story()
        saved = {lang: sorted(home.rglob("*.lptx")) for lang, home in homes.items()}
        assert [len(files) for files in saved.values()] == [1, 1], saved
        assert saved["pl"][0].read_bytes() == saved["es"][0].read_bytes()
    finally:
        for pane in panes.values():
            pane.kill()

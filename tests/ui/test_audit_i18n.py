"""The audit's verdict and the replay's head line for a person, in Polish and Spanish; the
same verdict in English as before, and ``--json`` in English whatever the language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lanparty import i18n
from lanparty.replay.audit import Verdict
from lanparty.replay.auditwords import verdict_json, verdict_text
from protocol import Finding
from protocol.contract import Outcome


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def finished(**fields: object) -> Verdict:
    """A KaTO verdict for two seats, complete, ana won."""
    v = Verdict("game.lptx", game="kato", options={"rounds": 1}, seats=2, names=["ana", "bo"],
                keys=["aa11", "bb22"], entries=57, kinds={"secrets": 2, "signoff": 2},
                last_kind="signoff", complete=True,
                outcome=Outcome((30, 0), ((30, 0),), (0,), True))  # fmt: skip
    for name, value in fields.items():
        setattr(v, name, value)
    return v


ENGLISH = """\
transcript   game.lptx
game         kato (rounds=1)
seats        2 of 2: 0: ana [aa11], 1: bo [bb22]
entries      57
complete     yes: closed: all 2 seats signed off the audit
outcome      winner: ana; scores: ana 30, bo 0
rules broken 1, that nobody challenged:
  - illegal-wild-draw-four: seat 0 (ana), log position 40: W+4 held r
audit passed"""

POLISH = """\
zapis gry      game.lptx
gra            kato (rounds=1)
miejsca        2 z 2: 0: ana [aa11], 1: bo [bb22]
wpisy          57
kompletny      tak: stół zamknięty: wszystkie 2 miejsca podpisały audyt
wynik          zwycięzca: ana; wyniki: ana 30, bo 0
złamane zasady 1, której nikt nie zakwestionował:
  - Dobierz cztery zagrane, choć gracz miał kartę w kolorze w grze (illegal-wild-draw-four): \
miejsce 0 (ana), pozycja w dzienniku 40: W+4 held r
audyt zaliczony"""


def test_a_passed_verdict_in_english_and_in_polish() -> None:
    bluff = [Finding(40, 0, "illegal-wild-draw-four", "W+4 held r")]
    v = finished(findings=bluff)
    assert verdict_text(v) == ENGLISH
    english = verdict_json(v)
    i18n.set_language("pl")
    assert verdict_text(v) == POLISH
    assert verdict_json(v) == english  # for scripts: the same words in any language


def test_an_incomplete_verdict_in_spanish() -> None:
    v = finished(complete=False, entries=56, kinds={"secrets": 2, "signoff": 1},
                 waiting=(1, "signoff"))  # fmt: skip
    english = verdict_text(v).splitlines()
    assert english[-1] == (
        "incomplete: stopped at entry 56, waiting for bo (seat 1)'s sign-off; everything up "
        "to there verified"
    )
    i18n.set_language("es")
    lines = verdict_text(v).splitlines()
    assert len(lines) == len(english)
    assert lines[4] == ("completa           no: se detuvo antes de tiempo tras 56 entradas (la "
                        "última, 'signoff'): firmaron la auditoría 1 de 2 asientos")  # fmt: skip
    # The sign-off never came: that seat, or the host that relays it, withheld it.
    assert lines[-2] == ("por qué            lo retuvo bo (asiento 1) o el anfitrión: el "
                         "anfitrión retransmite cada entrada y su parada no es una entrada "
                         "firmada, así que el registro no puede decir quién")  # fmt: skip
    assert lines[-1] == ("incompleta: se detiene en la entrada 56, esperando la firma final "
                         "de bo (asiento 1); todo hasta ahí verificado")  # fmt: skip
    assert verdict_json(v)["stopped"] == english[-1][len("incomplete: "):].split(";")[0]


def test_a_tables_summary_in_spanish_and_polish() -> None:
    from lanparty.table.outcome import verdict

    s = {"names": ["ana", "bo", "cy"], "scores": [30, 0, 5], "winners": ["ana", "cy"],
         "moves": 21, "rounds": 1, "audit_ok": True, "findings": [], "transcript": "t.lptx",
         "times_s": {"seated": 1.0, "first_move": 2.5, "over": 9.0, "closed": 9.4}}  # fmt: skip
    assert verdict(s).splitlines()[1] == "winner: ana and cy · 21 moves in 1 round"
    i18n.set_language("es")
    assert verdict(s).splitlines() == [
        "puntuaciones: ana 30, bo 0, cy 5",
        "ganador: ana y cy · 21 jugadas en 1 ronda",
        "tiempos: barajar y repartir 1.5 s, jugar 6.5 s, auditoría 0.4 s",
        "auditoría superada: verificadas todas las firmas, pruebas de barajado, repartos y "
        "jugadas",
        "transcripción: t.lptx",
    ]
    i18n.set_language("pl")
    assert verdict({**s, "moves": 22, "rounds": 2}).splitlines()[1] == (
        "zwycięzca: ana i cy · 22 ruchy w 2 rundach"
    )

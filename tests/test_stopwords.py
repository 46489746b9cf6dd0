"""Why a table stopped (and why the host refused us, what the network layer notices) in
Polish and Spanish: every such text the program gives has a pattern in
:mod:`lanparty.table.stopwords` (read from the source, so a new one without a pattern fails here),
every pattern is translated, and a real stop reads whole in each language."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanparty import i18n
from lanparty.games import GAMES
from lanparty.table import stopwords
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import Outcome, name_at, report
from protocol import Phase, RemoteProtocolError, Stopped
from protocol.harness import Harness

from .protocol.conftest import Honest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [*sorted((ROOT / "protocol").glob("*.py")),
           *sorted((ROOT / "lanparty" / "net").glob("*.py")),
           *(ROOT / "lanparty" / "table" / name for name in (
               "hosting.py", "joining.py", "watching.py", "outcome.py", "terminal.py")),
           ]  # fmt: skip
"""Where the protocol, the network layer and the network commands say what happens."""
FIELD = re.compile(r"\{\w*\}")

CALLS = {"halt": 0, "Refuse": 1, "PeerVanished": 0, "Stalled": 0, "_notice": 0, "lost": 0,
         "VersionMismatchError": 0, "_deny": 1}  # fmt: skip
"""Calls that take a text a person reads, and which argument it is."""
TARGETS = {"stopped", "refused", "why", "reason", "_halting"}
"""Names that hold such a text when assigned one."""
SCOPES = {"_join": "_fail", "_reject": "RemoteProtocolError", "_halted": "RemoteProtocolError",
          "say": "LocalProtocolError", "verify_talk": "RemoteProtocolError"}  # fmt: skip
"""Functions whose errors a joiner reads as the host's refusal, or a peer as the host's halt
(or a talker as why its line cannot go)."""
RETURNS = {"talk_problem", "too_fast", "_speaker_of", "_heard_line"}
"""Functions whose texts returned are a refusal a person reads (a line of talk's)."""


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _texts(node: ast.expr) -> Iterator[str]:
    """The texts ``node`` may be, each formatted part as ``{}`` (none if it is no text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        yield "".join(str(p.value) if isinstance(p, ast.Constant) else "{}" for p in node.values)
    elif isinstance(node, ast.IfExp):
        yield from _texts(node.body)
        yield from _texts(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _texts(value)
    elif isinstance(node, ast.Tuple) and node.elts:
        yield from _texts(node.elts[0])
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        for left in _texts(node.left):
            yield left + ("".join(_texts(node.right)) or "{}")


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _in_halt_branch(tree: ast.AST) -> Iterator[ast.Call]:
    """``RemoteProtocolError`` calls under an ``isinstance(msg, Halt)`` test (a peer's
    words for the host's halt)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "Halt" in ast.unparse(node.test):
            for call in ast.walk(ast.Module(body=node.body, type_ignores=[])):
                if isinstance(call, ast.Call) and _name(call.func) == "RemoteProtocolError":
                    yield call


def _in_function(node: ast.FunctionDef) -> Iterator[str]:
    """The texts a function of :data:`SCOPES` raises, or one of :data:`RETURNS` returns."""
    for inner in ast.walk(node):
        if node.name in SCOPES and isinstance(inner, ast.Call):
            if _name(inner.func) == SCOPES[node.name]:
                yield from _texts(inner.args[0])
        elif node.name in RETURNS and isinstance(inner, ast.Return) and inner.value is not None:
            yield from _texts(inner.value)


def source_texts() -> set[str]:
    """Every stop reason, refusal and notice the protocol and the network commands give,
    its varying parts as ``{}``."""
    found: set[str] = set()
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in CALLS:
                at = CALLS[str(_name(node.func))]
                if len(node.args) > at:
                    found.update(_texts(node.args[at]))
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                        pairs = list(zip(target.elts, node.value.elts, strict=False))
                    else:
                        pairs = [(target, node.value)]
                    for name, value in pairs:
                        if _name(name) in TARGETS:
                            found.update(_texts(value))
            elif isinstance(node, ast.FunctionDef):
                found.update(_in_function(node))
        for call in _in_halt_branch(tree):
            found.update(_texts(call.args[0]))
    return found


def test_every_text_of_the_source_has_a_pattern_and_no_pattern_is_left_over() -> None:
    source = source_texts()
    assert len(source) > 35
    assert "{} (seat {}) left the table" in source and "the host vanished" in source
    patterns = {FIELD.sub("{}", p) for p in (*stopwords.STOPS, *stopwords.COUNTED)}
    versions = {FIELD.sub("{}", p) for p in stopwords.PARTS if p.startswith("incompatible")}
    # A host's own reasons shown as they are, in English: a bug's words, a protocol rule
    # a dishonest program broke (the protocol's words are not translated), or why the host
    # turned a connection away (kept for its own record, not shown).
    kept = {"{}", "again", "a second hello on one connection",
            "said hello holding {} entries of {}", "a watch after the connection's hello",
            "watches holding {} entries of {}",
            "a peer sent a {} frame", "undecodable msgpack ({})", "no hello",
            "silent with no seat"}  # fmt: skip
    assert sorted(source - patterns - versions - kept) == [], "a text without a pattern"
    assert sorted(patterns - source) == [], "a pattern the program no longer gives"


@pytest.mark.parametrize("lang", ["pl", "es"])
def test_every_pattern_is_translated(lang: str) -> None:
    for pattern in stopwords.PATTERNS:
        for n in (1, 2, 5):
            i18n.set_language("en")
            english = stopwords.in_language(pattern, n)
            i18n.set_language(lang)
            said = stopwords.in_language(pattern, n)
            assert said != english or pattern == "{culprit}: {reason}", (lang, pattern)
            assert set(FIELD.findall(said)) == set(FIELD.findall(pattern)), (lang, said)


@pytest.mark.parametrize(
    ("lang", "text", "expected"),
    [
        ("pl", "the table stalled: nothing from the host for 60 s while waiting for Carl "
         "(seat 2)'s shuffle", "stół utknął: gospodarz milczy od 60 s, a czekamy na: "
         "tasowanie — Carl (miejsce 2)"),
        ("es", "Carl (seat 2)'s sealed move is more than 60 s late",
         "la jugada sellada de Carl (asiento 2): más de 60 s de retraso"),
        ("pl", "the table is full (4 of 4 seats taken)",
         "stół jest pełny (zajęte miejsca: 4 z 4)"),
        ("es", "the name 'Ann' looks like 'Ánn', already at this table",
         "el nombre 'Ann' se parece demasiado a 'Ánn', que ya está en esta mesa"),
        ("pl", "a peer vanished: Ann (seat 1), seat 2's move",
         "utracono kontakt z: Ann (miejsce 1), ruch — miejsce 2"),
        ("pl", "Bea (seat 1) was refused 5 times for frames no honest program sends",
         "Bea (miejsce 1): 5 razy odrzucono ramki, jakich nie wysyła żaden uczciwy program"),
        ("es", "2 spectators are watching already (the most this table takes)",
         "ya están mirando 2 espectadores (el máximo que admite esta mesa)"),
        ("es", "unknown peer: the host vanished", "participante desconocido: el anfitrión ha "
         "desaparecido"),
    ],
)  # fmt: skip
def test_texts_read_whole_with_their_parts(lang: str, text: str, expected: str) -> None:
    i18n.set_language(lang)
    assert stopwords.said(text) == expected


def test_a_text_in_no_pattern_stays_as_it_is() -> None:
    i18n.set_language("pl")
    reason = "ABCD-EFGH-JKMN-PQRS (seat 1): a second hello on one connection"
    said = stopwords.said(reason)
    assert said == "ABCD-EFGH-JKMN-PQRS (miejsce 1): a second hello on one connection"
    assert stopwords.translate("something else entirely") is None


ENGLISH = re.compile(r"\b(the|seat|left|host|table|stopped)\b")


@pytest.mark.parametrize(
    ("lang", "line"),
    [("pl", "Stół się zatrzymał: gospodarz zatrzymał stół: {name} (miejsce {seat}) "
            "opuszcza stół"),
     ("es", "La mesa se detuvo: el anfitrión ha detenido la mesa: "
            "{name} (asiento {seat}) ha dejado la mesa")],
)  # fmt: skip
def test_a_seat_that_leaves_stops_the_table_in_the_readers_language(
    lang: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    h = Harness(GAMES, "kato", 3, {"rounds": 1}, [Honest()] * 3, seed=14)
    h.pump()
    h.step()
    h.pump()
    h.peers[1].leave()
    h.pump()
    leaver = h.peers[1]
    watcher = h.peers[0]
    assert watcher.phase is Phase.STOPPED
    [stop] = [e for e in h.events[h.parties.index(watcher)] if isinstance(e, Stopped)]
    i18n.set_language(lang)
    seat = NetSeat(watcher)
    seat.observe(stop)
    fp = leaver.table.me.identity.public.fingerprint if leaver.table.me else "?"
    expected = line.format(name=leaver.name, seat=leaver.seat)
    assert seat.take_log()[-1] == expected  # the words first, and no key: the name says who
    assert fp not in expected and fp in str(stop.error)
    assert not ENGLISH.search(expected.replace(leaver.name, "")), expected
    # The summary after the table (``lanparty join``) says it in the same words; --json not.
    out = Outcome(stopped=stopwords.blamed(stop.error, name_at(watcher)))
    assert report(out, as_json=False) == 1
    assert expected.split(": ", 1)[1] in capsys.readouterr().err
    report(out, as_json=True)
    assert f"{leaver.name} (seat {leaver.seat}) left the table" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (RemoteProtocolError("bad shuffle proof", culprit="ABCD-EFGH-JKMN-PQRS", seat=2, pos=14),
         "Carl (seat 2): bad shuffle proof (at log position 14)"),
        (RemoteProtocolError("the host stopped the table: Carl (seat 2) left the table",
                             culprit="ABCD-EFGH-JKMN-PQRS", seat=2),
         "the host stopped the table: Carl (seat 2) left the table"),
        (RemoteProtocolError("Carl (seat 2) left the table", culprit="ABCD-EFGH-JKMN-PQRS",
                             seat=2),
         "Carl (seat 2) left the table"),
        (RemoteProtocolError("bad signature", culprit="ABCD-EFGH-JKMN-PQRS", seat=5),
         "seat 5: bad signature (key ABCD-EFGH-JKMN-PQRS)"),
        (RemoteProtocolError("bad signature", culprit="ABCD-EFGH-JKMN-PQRS", pos=3),
         "a peer with no seat (key ABCD-EFGH-JKMN-PQRS): bad signature (at log position 3)"),
        (RemoteProtocolError("the host vanished"), "the host vanished"),
    ],
)  # fmt: skip
def test_a_stop_says_who_by_name_and_what_first_and_a_key_only_for_a_stranger(
    error: RemoteProtocolError, line: str
) -> None:
    names = {0: "Ann", 1: "Bea", 2: "Carl"}
    assert stopwords.blamed(error, names.get) == line
    i18n.set_language("pl")
    said = stopwords.said(line)
    assert said != line and not said.startswith("ABCD"), said

"""Every string a peer chose is shown harmlessly (issue 24): a name, a table name, a line of
talk, a word, a reason — with escape sequences (a window title, a clear screen, a colour),
other control characters, bidi overrides or zero-width characters — never reaches the
terminal as such. Each is refused where it comes in (names, table names, words, talk's
control characters) or shown escaped (talk's format characters, reasons), and every region
of the table's screen, its story (and the story's file), the plain mode, the pages over the
table, the lobby and the replay escape what they draw once more."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from zeroconf import ServiceInfo

from lanparty.games.bots import bots_for
from lanparty.games.unanimo.fold import problem
from lanparty.games.unanimo.rules import check_words
from lanparty.net.discovery import SERVICE_TYPE, AdError, TableAd, bad_table_name
from lanparty.replay.told import plain_text
from lanparty.table.local import LocalTable
from lanparty.table.talk import Talk
from lanparty.text import printable, printable_lines, safe_fragments
from lanparty.ui.app import TableApp
from lanparty.ui.control import Conduct, talk_line
from lanparty.ui.plain import _writer
from lanparty.ui.story import Story, lines_of
from protocol import PROTOCOL_VERSION, RemoteProtocolError, talk_problem
from protocol._bodies import read_name
from protocol.contract import IllegalMove

HOSTILE = (
    "\x1b]0;pwned\x07",  # the window's title
    "\x1b[2J",  # clear the screen
    "\x1b[31m",  # red from here on
    "\x9b31m",  # the same with an 8-bit CSI
    "\u202e",  # right-to-left override: what follows reads backwards
    "\u2066",  # left-to-right isolate
    "\u200b",  # zero-width space
    "\ufeff",  # zero-width no-break space
    "\u2028",  # line separator
    "\x00\x7f\t\r",  # NUL, DEL, a tab, a carriage return
)


def harmless(text: str) -> bool:
    """Nothing in ``text`` but printable characters and line breaks."""
    return all(ch.isprintable() or ch == "\n" for ch in text)


@pytest.mark.parametrize("bad", HOSTILE)
def test_printable_escapes_every_control_and_format_character(bad: str) -> None:
    text = f"Bea{bad}ok"
    shown = printable(text)
    assert harmless(shown) and shown.startswith("Bea") and shown.endswith("ok")
    assert bad not in shown and "\\" in shown  # told as text: \x1b, \u202e
    assert printable(shown) == shown  # once is enough
    assert printable_lines(f"a{bad}\nb") == f"{printable('a' + bad)}\nb"
    assert safe_fragments([("class:x", text)]) == [("class:x", shown)]


@pytest.mark.parametrize("bad", HOSTILE)
def test_names_and_table_names_with_them_are_refused_where_they_come_in(bad: str) -> None:
    with pytest.raises(RemoteProtocolError):
        read_name(f"Bea{bad}")  # every copy of the table refuses such a join or opening
    assert bad_table_name(f"Dup{bad}") is not None  # a host cannot announce it
    props = {"txtvers": "1", "game": "kato", "seats": "4", "free": "3",
             "proto": str(PROTOCOL_VERSION), "fp": "7QXM-K2PA-93TD-HB0R", "host": "ana",
             "name": f"Dup{bad}"}  # fmt: skip
    info = ServiceInfo(SERVICE_TYPE, f"x [7QXM-K2PA-93TD-HB0R].{SERVICE_TYPE}",
                       addresses=[socket.inet_aton("10.0.0.2")], port=4000,
                       properties=props)  # fmt: skip
    with pytest.raises(AdError):
        TableAd.from_service(info)  # nor does any lobby or `lanparty list` show one heard


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_unanimo_word_with_them_is_refused_naming_it_harmlessly(bad: str) -> None:
    word = f"sea{bad}"
    assert problem(word) is not None  # the editor marks it, and no copy takes it
    with pytest.raises(IllegalMove) as refused:
        check_words(("sand", word))  # what every copy says of a peer's sealed words
    assert harmless(refused.value.reason) and bad not in refused.value.reason


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_line_of_talk_refuses_controls_and_shows_format_characters_escaped(bad: str) -> None:
    text = f"good{bad}luck"
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or ch == "\u2028" for ch in bad):
        assert talk_problem(text) == "a line of talk has no control characters"
    else:
        assert talk_problem(text) is None  # a bidi override may be said: it is shown escaped
    talk = Talk(f"Zed{bad}", text, watching=True)
    assert harmless(str(talk)) and bad not in str(talk)
    assert all(harmless(part) for _style, part in talk_line(talk))


def test_the_story_its_file_and_the_plain_mode_show_a_hostile_line_harmlessly(
    tmp_path: Path,
) -> None:
    tee = tmp_path / "story.txt"
    story = Story(tee=str(tee))
    line = "".join(HOSTILE)
    story.add([("class:log", "· " + line), ("", "\n"), ("class:talk", line), ("", "\n")])
    story.close()
    assert len(story.lines) == 2
    assert all(harmless(text) for row in story.lines for _style, text in row)
    assert harmless(tee.read_text(encoding="utf-8"))
    out = io.StringIO()
    _writer(out)([("", line + "\n"), ("", line + "\n")])
    assert harmless(out.getvalue()) and out.getvalue().count("\n") == 2
    assert all(harmless(said) for said in plain_text([("", line + "\n")]))  # the replay's


def test_a_table_screen_draws_hostile_names_and_a_table_name_harmlessly() -> None:
    # A local table takes any name (the protocol refuses these at a networked one): the
    # screen itself must not pass them to the terminal either.
    names = ["Ann", "\x1b]0;pwned\x07Bea", "C\u202earl"]
    bots = [None, *(factory() for factory in list(bots_for("kato").values())[:2])]
    session = LocalTable("kato", names, bots, {"rounds": 1}, seed=4)
    session.table_name = "\x1b[2JDup\u200b"  # type: ignore[attr-defined]
    with create_pipe_input() as pipe:
        app = TableApp(session, input=pipe, output=DummyOutput())
        app.refresh()  # the bots play up to our turn, told in the story
        drawn = [*app.board(), *app._header(), *app._status()]
        assert any("pwned" in text for _style, text in drawn)  # the name is there, as text
        assert all(harmless(text) for _style, text in drawn)
        assert all(harmless(text) for row in app.story.lines for _style, text in row)
        scores = Conduct(session, lambda fragments: None).scores()  # a page over the table
        assert all(harmless(text) for row in lines_of(scores) for _style, text in row)

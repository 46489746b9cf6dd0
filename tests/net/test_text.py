"""Text another peer chose never steers the terminal."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lanparty.text import printable


def test_control_characters_are_shown_not_obeyed() -> None:
    assert printable("Bea") == "Bea"
    assert printable("Zoë ♠") == "Zoë ♠"
    assert printable("\x1b[2Jgone\r\n\x07") == "\\x1b[2Jgone\\r\\n\\x07"


@given(st.text())
def test_output_is_always_printable(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    if text.isprintable():
        assert shown == text


def test_a_seat_shows_a_hostile_halt_reason_escaped() -> None:
    from crypto import Identity
    from lanparty.games import GAMES
    from lanparty.table.networked import NetSeat
    from protocol import Peer, RemoteProtocolError, Stopped

    seat = NetSeat(Peer(Identity(), "Bo", GAMES))
    seat.observe(Stopped(RemoteProtocolError("the host stopped the table: \x1b]0;pwned\x07")))
    [line] = seat.take_log()
    assert "\x1b" not in line and "\\x1b]0;pwned\\x07" in line
    assert seat.over() and "\x1b" not in seat.status_line()


def test_a_flood_of_log_lines_is_cut_to_its_end() -> None:
    from crypto import Identity
    from lanparty.games import GAMES
    from lanparty.table.networked import NetSeat
    from protocol import Peer

    seat = NetSeat(Peer(Identity(), "Bo", GAMES))
    for i in range(10):
        seat.note(f"line {i}")
    assert seat.take_log() == [f"line {i}" for i in range(10)]  # a normal amount: all of it
    for i in range(500):
        seat.note(f"line {i}")
    lines = seat.take_log()
    assert lines[0] == "… 480 earlier lines skipped (catching up)"
    assert lines[1:] == [f"line {i}" for i in range(480, 500)]

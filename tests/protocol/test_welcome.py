"""The host's challenge describes its table (protocol version 9): the key it says it is, the
table's name and whether spectators may talk. A seat and a spectator keep what fits; a name
no table may have is dropped (never shown), one too long for the wire makes the frame
malformed (the connection's end, not the program's); and the host names its table only with
a name that could be one."""

from __future__ import annotations

import pytest

from crypto import Identity, KeyShare, SealKey
from protocol import (
    MAX_TABLE_NAME,
    Challenge,
    Host,
    LocalProtocolError,
    Peer,
    RemoteProtocolError,
    Watcher,
    encode_message,
    frame,
    table_name_problem,
)


def _meet(host: Host, party: Peer) -> None:
    """Connect ``party`` to ``host`` and hand the challenge over."""
    cid = host.connect("10.0.0.9")
    party.receive_data(host.data_to_send(cid))


def test_a_seat_and_a_spectator_learn_the_table_from_the_challenge(games) -> None:
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 3)
    host.table_name, host.spectators_talk = "Ann's kato · the 2nd", True
    bo = Peer(Identity(), "Bo", games, key=KeyShare(), seal=SealKey())
    zed = Watcher(games)
    for party in (bo, zed):
        assert party.table_name == "" and party.host_claim is None  # before the challenge
        _meet(host, party)
        assert party.table_name == "Ann's kato · the 2nd"
        assert party.host_claim == host.identity.public.raw
        assert party.spectators_talk is True
    quiet = Host(Identity(), "Cy", games, "kato", {"rounds": 1}, 3)  # no name, no talk
    zoe = Watcher(games)
    _meet(quiet, zoe)
    assert zoe.table_name == "" and zoe.spectators_talk is False


@pytest.mark.parametrize(
    "name",
    ["\x1b[2Jboo", "   ", "a\u202eb", "x" * (MAX_TABLE_NAME + 1), "line\nbreak", "x" * 1024],
    ids=["escape", "blank", "bidi", "one-too-long", "newline", "wire-limit"],
)
def test_a_name_no_table_may_have_is_dropped_and_the_join_goes_on(games, name: str) -> None:
    bo = Peer(Identity(), "Bo", games, key=KeyShare(), seal=SealKey())
    key = Identity().public.raw
    bo.receive_data(frame(encode_message(Challenge(bytes(32), 0, key, name, False))))
    assert bo.table_name == "" and bo.host_claim == key
    assert bo.data_to_send()  # the hello went: the name changes nothing else
    assert table_name_problem(name) is not None


def test_a_name_past_the_wire_limit_is_a_malformed_frame(games) -> None:
    bo = Watcher(games)
    data = frame(encode_message(Challenge(bytes(32), 0, bytes(32), "x" * 1025, False)))
    with pytest.raises(RemoteProtocolError, match="table name"):
        bo.receive_data(data)


def test_the_host_names_its_table_only_with_a_name_that_could_be_one(games) -> None:
    host = Host(Identity(), "Ann", games, "kato", {"rounds": 1}, 3)
    for bad in ("x" * (MAX_TABLE_NAME + 1), "\x07bell", " "):
        with pytest.raises(LocalProtocolError, match="table name"):
            host.table_name = bad
    host.table_name = "x" * MAX_TABLE_NAME
    assert host.table_name == "x" * MAX_TABLE_NAME
    host.table_name = ""  # none
    assert host.table_name == ""

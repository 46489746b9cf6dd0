"""The link between the games of a night (the ``open`` entry's ``night``, entry version 4):
decoded strictly, signed by the host, checked by every copy, readable offline from a
transcript; entries of version 3 (before the link) still read, audit and replay, and a log
that mixes the two versions is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from crypto import Identity, SealKey
from lanparty.games import GAMES
from protocol import (
    ENTRY_VERSION,
    Entry,
    Host,
    NightLink,
    OpenTable,
    Phase,
    RemoteProtocolError,
    SignedEntry,
    Table,
    VersionMismatchError,
    audit_transcript,
    decode_entry,
    pack,
    read_transcript,
    unpack,
)
from protocol._bodies import Join
from protocol._messages import MAX_FRAME
from protocol.harness import Harness

from .conftest import Honest

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "kato_2p.lptx"
LINK = NightLink(first=b"F" * 16, after=b"A" * 16, digest=b"D" * 32, number=3)


def _open_raw(night: NightLink | None, v: int = ENTRY_VERSION) -> bytes:
    host = Identity()
    body = OpenTable("kato", {"rounds": 1}, 2, "ann", SealKey().public, night)
    return SignedEntry.create(host, Entry(b"T" * 16, 0, bytes(32), host.public.raw, body, v)).raw


def _with_night(night: object) -> bytes:
    """An ``open`` entry's bytes whose ``night`` field is ``night`` (a peer's value)."""
    value = unpack(_open_raw(None), MAX_FRAME)
    value["body"]["night"] = night
    return pack(value)


def test_the_night_link_round_trips_in_the_open_entry() -> None:
    for night in (None, LINK, NightLink(b"F" * 16, b"F" * 16, b"D" * 32, 2)):
        raw = _open_raw(night)
        e = decode_entry(raw)
        assert isinstance(e.body, OpenTable) and e.body.night == night
        assert e.v == ENTRY_VERSION == 4 and e.encode() == raw


@pytest.mark.parametrize(
    ("night", "why"),
    [
        ("link", "expected a map"),
        ({**LINK.to_plain(), "extra": 1}, "fields differ"),
        ({k: v for k, v in LINK.to_plain().items() if k != "digest"}, "fields differ"),
        ({**LINK.to_plain(), "first": b"F" * 15}, "first table"),
        ({**LINK.to_plain(), "after": b"A" * 17}, "previous table"),
        ({**LINK.to_plain(), "digest": b"D" * 31}, "closing digest"),
        ({**LINK.to_plain(), "digest": "D" * 32}, "closing digest"),
        ({**LINK.to_plain(), "number": 1}, "game number"),
        ({**LINK.to_plain(), "number": 10_000}, "game number"),
        ({**LINK.to_plain(), "number": True}, "game number"),
        ({**LINK.to_plain(), "number": -3}, "game number"),
        ({**LINK.to_plain(), "number": 2}, "second game"),  # first != after
        ({**LINK.to_plain(), "after": b"F" * 16}, "second game"),  # first == after, game 3
    ],
)
def test_a_night_link_is_decoded_strictly(night: object, why: str) -> None:
    with pytest.raises(RemoteProtocolError, match=why):
        decode_entry(_with_night(night))


def test_version_4_needs_the_night_field_and_version_3_has_none() -> None:
    value = unpack(_open_raw(None), MAX_FRAME)
    del value["body"]["night"]
    with pytest.raises(RemoteProtocolError, match="fields differ"):
        decode_entry(pack(value))  # version 4 without night
    value["v"] = 3
    old = decode_entry(pack(value))  # version 3 without night: read as no night
    assert isinstance(old.body, OpenTable) and old.body.night is None and old.v == 3
    assert old.encode() == pack(value)  # written back exactly as signed
    value["body"]["night"] = None
    with pytest.raises(RemoteProtocolError, match="fields differ"):
        decode_entry(pack(value))  # version 3 with a night field
    with pytest.raises(ValueError, match="version 3 has no night"):
        _open_raw(LINK, v=3)
    value["v"] = 5
    with pytest.raises(VersionMismatchError, match="reads version 4 \\(and 3\\)"):
        decode_entry(pack(value))


def test_a_log_that_mixes_entry_versions_is_refused() -> None:
    host = Host(Identity(), "ann", GAMES, "kato", {"rounds": 1}, 2)
    copy = Table(GAMES)
    copy.apply(host.table.log.entries[0], host.table.log.seqs[0])
    bob = Identity()
    for v in (3, 4):
        join = Entry(
            host.table_id, 1, copy.log.head, bob.public.raw, Join("bob", SealKey().public), v
        )
        se = SignedEntry.create(bob, join)
        if v == 3:
            with pytest.raises(RemoteProtocolError, match="version 3 in a log of version 4"):
                copy.apply(se)
            assert len(copy.log) == 1  # nothing changed
        else:
            copy.apply(se)
    assert copy.phase is Phase.KEYS


def test_no_table_follows_itself_in_a_night() -> None:
    host = Identity()
    tid = b"T" * 16
    for link in (NightLink(tid, b"A" * 16, b"D" * 32, 3), NightLink(b"F" * 16, tid, b"D" * 32, 3)):
        body = OpenTable("kato", {"rounds": 1}, 2, "ann", SealKey().public, link)
        se = SignedEntry.create(host, Entry(tid, 0, bytes(32), host.public.raw, body))
        with pytest.raises(RemoteProtocolError, match="cannot follow itself"):
            Table(GAMES).apply(se)


def test_a_version_3_transcript_still_audits_and_reads_as_no_night() -> None:
    data = GOLDEN.read_bytes()
    report = audit_transcript(data, GAMES)
    assert report.ok and report.table_open is not None and report.table_open.night is None
    assert report.table_id == decode_entry(read_transcript(data)[0][0]).table
    assert report.closing is not None and len(report.closing) == 32
    # a file whose header says version 4 over entries of version 3 is refused
    value = unpack(data, len(data))
    assert value["v"] == 3
    value["v"] = 4
    with pytest.raises(RemoteProtocolError, match="transcript of entry version 4 whose entries"):
        audit_transcript(pack(value), GAMES)


def test_the_next_game_names_the_one_before_and_the_audit_reads_it_back() -> None:
    h = Harness(GAMES, "kato", 2, {"rounds": 1, "first": "host"}, [Honest(), Honest()], seed=3)
    h.run()
    first = h.host
    assert first.phase is Phase.CLOSED
    closing = first.table.closing
    assert closing is not None and all(p.table.closing == closing for p in h.peers)
    report = audit_transcript(first.transcript(), GAMES)
    assert report.ok and report.table_open is not None and report.table_open.night is None
    assert (report.table_id, report.closing) == (first.table_id, closing)
    link = NightLink(first.table_id, first.table_id, closing, 2)
    nxt = Host(first.identity, "p0", GAMES, "unanimo", {"cards": 1}, 3, night=link)
    assert nxt.table.opening is not None and nxt.table.opening.night == link
    assert nxt.table_id != first.table_id
    later = audit_transcript(nxt.transcript(), GAMES)  # just opened: incomplete
    assert not later.complete and later.closing is None
    assert later.table_open is not None and later.table_open.night == link
    assert later.table_open.game == "unanimo" and later.table_id == nxt.table_id
    assert unpack(nxt.transcript(), 1 << 16)["v"] == 4


def test_lanparty_audit_json_tells_the_table_its_night_link_and_closing() -> None:
    from lanparty.replay.audit import audit_file
    from lanparty.replay.auditwords import verdict_json

    said = verdict_json(audit_file(str(GOLDEN)))
    report = audit_transcript(GOLDEN.read_bytes(), GAMES)
    assert report.table_id is not None and report.closing is not None
    assert (said["table"], said["night"], said["closing"]) == (
        report.table_id.hex(),
        None,
        report.closing.hex(),
    )

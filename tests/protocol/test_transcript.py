"""Reading a transcript file as a stream: the same triples as decoding it whole, the same
refusals (non-canonical, truncated, trailing bytes, wrong fields, types or version), a source
over the size limit refused once that much is read, and a malformed file refused before the
audit replays a single entry."""

from __future__ import annotations

import io

import msgpack
import pytest

from protocol import RemoteProtocolError, VersionMismatchError, audit_transcript, pack, unpack
from protocol._log import MAX_TRANSCRIPT, check_transcript, iter_transcript, read_transcript
from protocol._messages import ENTRY_VERSION, _check_version

SIG = bytes(range(64))
SEQ = bytes(range(64, 128))
#: Entries whose encodings use every header size of a bin (8 and 16 bits).
TRIPLES = [(b"", SIG, SEQ), (b"e" * 31, SEQ, SIG), (b"f" * 300, SIG, SIG)]


def _file(entries, **fields) -> bytes:
    entries = [list(e) for e in entries]
    value = {"v": ENTRY_VERSION, "type": "lanparty-transcript", "entries": entries}
    return pack({**value, **fields})


GOOD = _file(TRIPLES)


def whole(data: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """The reader before streaming, as the oracle: decode the whole file at once, then check."""
    value = unpack(data, 1 << 30)
    if not isinstance(value, dict) or set(value) != {"v", "type", "entries"}:
        raise RemoteProtocolError("fields differ")
    _check_version(value["v"], entries=True)
    if value["type"] != "lanparty-transcript" or not isinstance(value["entries"], list):
        raise RemoteProtocolError("not a transcript")
    out = []
    for item in value["entries"]:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and all(isinstance(x, bytes) for x in item)
            and len(item[1]) == len(item[2]) == 64
        ):
            raise RemoteProtocolError("bad entry")
        out.append((item[0], item[1], item[2]))
    return out


class ShortReads:
    """A binary file that hands out at most ``most`` bytes per read; counts what it gave."""

    def __init__(self, data: bytes, most: int) -> None:
        self.file = io.BytesIO(data)
        self.most = most

    def read(self, size: int) -> bytes:
        return self.file.read(min(size, self.most))


class Endless:
    """A source of ``head`` followed by ``fill`` forever; counts the bytes it gave."""

    def __init__(self, head: bytes, fill: bytes) -> None:
        self.head, self.fill, self.given = head, fill, 0

    def read(self, size: int) -> bytes:
        out = bytearray()
        while len(out) < size:
            at, want = self.given + len(out), size - len(out)
            if at < len(self.head):
                out += self.head[at : at + want]
            else:
                start = (at - len(self.head)) % len(self.fill)
                out += self.fill[start : start + want]
        self.given += size
        return bytes(out)


def _outcome(read, data: bytes) -> object:
    try:
        return read(data)
    except VersionMismatchError:
        return "other version"
    except RemoteProtocolError:
        return "refused"


def _assembled(triples: list[tuple[bytes, bytes, bytes]]) -> bytes:
    """The canonical file of ``triples``, put together piece by piece (fast for many)."""
    head = b"\x83" + pack("entries") + msgpack.Packer().pack_array_header(len(triples))
    tail = pack("type") + pack("lanparty-transcript") + pack("v") + pack(ENTRY_VERSION)
    return head + b"".join(pack(list(t)) for t in triples) + tail


@pytest.mark.parametrize("entries", [0, 3, 20, 70_000], ids=lambda n: f"{n}-entries")
def test_a_streamed_read_gives_the_same_triples_as_a_whole_one(entries):
    """Every array header size (fix, 16- and 32-bit) and reads as short as one byte."""
    triples = [TRIPLES[i % 3] for i in range(entries)]
    data = _assembled(triples)
    if entries <= 20:
        assert data == _file(triples) and whole(data) == triples
        for most in (1, 2, 7):
            assert list(iter_transcript(ShortReads(data, most))) == triples
    assert read_transcript(data) == triples
    assert check_transcript(io.BytesIO(data)) == entries


def _nested(depth: int) -> object:
    return [] if depth == 0 else [_nested(depth - 1)]


MALFORMED = {
    "trailing byte": GOOD + b"\xc0",
    "two transcripts": GOOD + GOOD,
    "map16 header": b"\xde\x00\x03" + GOOD[1:],
    "array16 entries header": GOOD.replace(b"\x93\x93", b"\xdc\x00\x03\x93", 1),
    "array32 entries header": GOOD.replace(b"\x93\x93", b"\xdd\x00\x00\x00\x03\x93", 1),
    "array16 entry": GOOD.replace(b"\x93\xc4\x00", b"\xdc\x00\x03\xc4\x00", 1),
    "bin16 signature": GOOD.replace(b"\xc4\x40" + SIG, b"\xc5\x00\x40" + SIG, 1),
    "str entry": GOOD.replace(b"\xc4\x1f" + b"e" * 31, b"\xbf" + b"e" * 31, 1),
    "uint8 version": GOOD[:-1] + b"\xcc\x01",
    "unsorted fields": msgpack.packb(
        {"v": ENTRY_VERSION, "type": "lanparty-transcript", "entries": [list(t) for t in TRIPLES]}
    ),
    "a field twice": GOOD.replace(b"\xa4type", b"\xa1v", 1),
    "an extra field": _file(TRIPLES, x=1),
    "a field missing": pack({"v": ENTRY_VERSION, "entries": []}),
    "another type": _file(TRIPLES, type="lanparty-other"),
    "another version": _file(TRIPLES, v=ENTRY_VERSION + 1),
    "the edwards25519 version": _file(TRIPLES, v=1),
    "version true": _file(TRIPLES, v=True),
    "entries a map": pack({"entries": {"a": 1}, "type": "lanparty-transcript", "v": ENTRY_VERSION}),
    "not a map": pack([1, 2, 3]),
    "empty": b"",
    "an entry of two": _file([(b"e", SIG)]),
    "an entry of 2000": _file([(b"e", SIG, SEQ, *[0] * 1997)]),
    "a short signature": _file([(b"e", SIG[:-1], SEQ)]),
    "an int in an entry": _file([(1, SIG, SEQ)]),
    "nested too deep": _file([(b"e", SIG, SEQ)]).replace(
        b"\xc4\x01e", msgpack.packb(_nested(40)), 1
    ),
    "a float": GOOD.replace(b"\xc4\x00", b"\xcb" + bytes(8), 1),
    "an extension type": GOOD.replace(b"\xc4\x00", b"\xd4\x01\x00", 1),
    "an int map key": GOOD.replace(b"\xc4\x00", b"\x81\x01\x01", 1),
    "invalid utf-8": GOOD.replace(b"\xc4\x00", b"\xa1\xff", 1),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_file_is_refused_as_before(name):
    data = MALFORMED[name]
    before = _outcome(whole, data)
    assert before in ("refused", "other version")  # the case is what it says
    assert _outcome(read_transcript, data) == before
    assert _outcome(lambda d: read_transcript(ShortReads(d, 3)), data) == before


def test_every_damaged_byte_and_every_cut_is_judged_as_before():
    """A byte changed or the file cut anywhere: refused by both readers, or read the same."""
    for i in range(len(GOOD)):
        assert _outcome(read_transcript, GOOD[:i]) == "refused"
        for new in {GOOD[i] ^ 0x01, GOOD[i] ^ 0x10, GOOD[i] ^ 0x80, 0x00, 0xC1, 0xCC, 0xDC}:
            data = GOOD[:i] + bytes([new]) + GOOD[i + 1 :]
            assert _outcome(read_transcript, data) == _outcome(whole, data), (i, new)


def test_a_source_over_the_limit_is_refused_once_that_much_is_read():
    with pytest.raises(RemoteProtocolError, match=r"of 1001 bytes larger than the 1000-byte"):
        read_transcript(b"\x00" * 1001, limit=1000)
    # an endless list of entries: refused after the limit, holding one entry at a time
    head = b"\x83" + pack("entries") + b"\xdd\xff\xff\xff\xff"
    source = Endless(head, pack(list(TRIPLES[2])))
    with pytest.raises(RemoteProtocolError, match="larger than the 200000-byte limit"):
        check_transcript(source, limit=200_000)
    assert source.given <= 200_000 + (1 << 16)


def test_a_value_larger_than_any_entry_is_refused_without_reading_it():
    source = Endless(b"\x83" + pack("entries") + b"\x91\xc6\x7f\xff\xff\xff", bytes(4096))
    with pytest.raises(RemoteProtocolError, match="no entry is as large") as info:
        check_transcript(source)
    assert info.value.pos == 0
    assert source.given < 2 << 20 < MAX_TRANSCRIPT


def test_a_malformed_file_is_refused_before_any_entry_is_replayed(games):
    seen: list[int] = []
    for data in (GOOD + b"\x00", _file(TRIPLES, v=ENTRY_VERSION + 1), GOOD[:-5]):
        for source in (data, io.BytesIO(data)):
            with pytest.raises(RemoteProtocolError):
                audit_transcript(source, games, seen=lambda pos, raw: seen.append(pos))
    assert seen == []
    with pytest.raises(RemoteProtocolError) as info:  # well formed: its first entry is junk
        audit_transcript(GOOD, games, seen=lambda pos, raw: seen.append(pos))
    assert seen == [0] and info.value.pos == 0

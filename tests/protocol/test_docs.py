"""What docs/protocol.md and docs/app.md claim about the wire, checked against the code: the
entries table (every kind, its body's fields, its size limit), the versions, the transcript's
header, the limits the app's table repeats."""

from __future__ import annotations

import re
from pathlib import Path

from protocol import PROTOCOL_VERSION, pack, unpack
from protocol._bodies import _BODY_FIELDS, BODY_LIMITS
from protocol._held import RACING_KINDS
from protocol._log import Log
from protocol._messages import ENTRY_VERSION
from protocol._roles import PERSONS_CHOICE

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()
APP = (ROOT / "docs" / "app.md").read_text()
_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20}


def _entries_table() -> dict[str, tuple[str, int]]:
    """The entries table of docs/protocol.md: kind -> (its body column, its limit)."""
    rows = {}
    for line in PROTOCOL.splitlines():
        m = re.match(r"\| `(\w+)`\s*\|[^|]*\|(.*)\|\s*([\d.]+) (B|KiB|MiB)\s*\|$", line)
        if m:
            rows[m[1]] = (m[2], int(float(m[3]) * _UNITS[m[4]]))
    return rows


def test_the_entries_table_lists_every_kind_its_fields_and_its_limit() -> None:
    rows = _entries_table()
    assert set(rows) == set(_BODY_FIELDS)
    for kind, (body, limit) in rows.items():
        assert limit == BODY_LIMITS[kind], kind
        named = set(re.findall(r"`(\w+)`", body))
        assert set(_BODY_FIELDS[kind][1]) <= named, (kind, named)


def test_the_versions_and_the_transcript_header_are_the_codes() -> None:
    assert f"(`ENTRY_VERSION`, {ENTRY_VERSION}:" in PROTOCOL
    assert f"{{v: {ENTRY_VERSION}, type: \"lanparty-transcript\"" in PROTOCOL
    header = unpack(Log().transcript(), 1 << 10)
    assert isinstance(header, dict) and header["v"] == ENTRY_VERSION
    assert pack(header) == Log().transcript()
    older = f"speaks lanparty protocol version {PROTOCOL_VERSION - 1}, this program speaks " \
            f"version {PROTOCOL_VERSION}"  # fmt: skip
    assert older in PROTOCOL.replace("\n", " ") and older in APP


def test_what_races_and_what_a_person_chooses_are_as_documented() -> None:
    assert "`RACING_KINDS`" in PROTOCOL and "`PERSONS_CHOICE`" in PROTOCOL
    assert {"move", "seal_commit", "seal_close", "join"} == RACING_KINDS
    assert PERSONS_CHOICE == ("move", "seal_commit")


def test_the_app_limits_table_repeats_the_entry_limits() -> None:
    [row] = [line for line in APP.splitlines() if line.startswith("| entry size |")]
    for kind, said in (("join", "1 KiB"), ("move", "64 KiB"), ("shares", "128 KiB"),
                       ("show", "256 KiB")):  # fmt: skip
        n, unit = said.split()
        assert f"{said} for {'a ' if kind != 'shares' else ''}{kind}" in row, (kind, row)
        assert BODY_LIMITS[kind] == int(n) * _UNITS[unit]

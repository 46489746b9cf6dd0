"""Local persistence: the identity survives restarts; transcripts never overwrite each other."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from lanparty.store import home, load_identity, save_transcript


def test_identity_is_created_once_and_private(tmp_path: Path) -> None:
    first = load_identity(tmp_path)
    again = load_identity(tmp_path)
    assert first.public == again.public
    mode = stat.S_IMODE((tmp_path / "identity.key").stat().st_mode)
    assert mode == 0o600


def test_damaged_identity_is_not_replaced(tmp_path: Path) -> None:
    (tmp_path / "identity.key").write_bytes(b"short")
    with pytest.raises(ValueError, match="damaged"):
        load_identity(tmp_path)
    assert (tmp_path / "identity.key").read_bytes() == b"short"


def test_transcripts_get_distinct_safe_names(tmp_path: Path) -> None:
    a = save_transcript(b"one", "kato", "Friday / night", tmp_path)
    b = save_transcript(b"two", "kato", "Friday / night", tmp_path)
    assert a != b and a.read_bytes() == b"one" and b.read_bytes() == b"two"
    assert "/" not in a.name.removesuffix(".lptx").split("-", 2)[2]
    assert a.parent == tmp_path / "transcripts"


def test_home_honours_lanparty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path / "peer1"))
    assert home() == tmp_path / "peer1"
    assert home().is_dir()


def test_seats_of_one_table_in_a_shared_home_are_kept_apart(tmp_path: Path) -> None:
    from crypto import Identity, KeyShare, SealKey
    from lanparty.store import SavedSeat, forget_seat, load_seat, save_seat

    table = bytes(range(16))
    seats = []
    for nick in ("ann", "bob"):
        ident, key, seal = Identity(), KeyShare(), SealKey()
        seat = SavedSeat(table, nick, "127.0.0.1:4000", ident.seed(), key.secret_bytes(),
                         seal.secret_bytes())  # fmt: skip
        path = save_seat(seat, tmp_path)
        assert path.stat().st_mode & 0o777 == 0o600
        seats.append((seat, ident))
    with pytest.raises(ValueError, match="several saved seats"):
        load_seat(None, tmp_path)
    forget_seat(table, seats[0][1].public.raw, tmp_path)
    assert load_seat(None, tmp_path) == seats[1][0]
    assert load_seat(table.hex()[:6], tmp_path).nick == "bob"
    forget_seat(table, seats[1][1].public.raw, tmp_path)
    with pytest.raises(ValueError, match="no saved seat"):
        load_seat(None, tmp_path)


def test_a_seats_held_record_is_loaded_with_it_and_forgotten_with_it(tmp_path: Path) -> None:
    """What a seat held of the log lives beside its secrets (0600, replaced whole) and is
    read back with them; forgetting the seat removes it, and a half-written copy a killed
    program left, but nothing of another seat."""
    from crypto import Identity, KeyShare, SealKey
    from lanparty.store import SavedSeat, forget_seat, held_path, load_seat, save_held, save_seat

    table = bytes(range(16))
    seats = []
    for ident in (Identity(), Identity()):
        seat = SavedSeat(table, "ann", "127.0.0.1:4000", ident.seed(),
                         KeyShare().secret_bytes(), SealKey().secret_bytes())  # fmt: skip
        save_seat(seat, tmp_path)
        save_held(seat, b"held by " + ident.seed()[:4], tmp_path)
        seats.append((seat, ident))
    (mine, me), (theirs, them) = seats
    held = held_path(mine, tmp_path)
    assert held.stat().st_mode & 0o777 == 0o600
    held.with_name(held.name + ".4242.tmp").write_bytes(b"half")  # a program killed mid-write
    forget_seat(table, me.public.raw, tmp_path)
    left = sorted(p.name for p in (tmp_path / "seats").iterdir())
    assert left == sorted([theirs.file_name, held_path(theirs, tmp_path).name])
    assert load_seat(None, tmp_path).held == b"held by " + them.seed()[:4]

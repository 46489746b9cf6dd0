"""Where a peer keeps its state: the identity key and saved game transcripts.

Everything lives under the user's data directory (``platformdirs``), or under
``$LANPARTY_HOME`` when set (tests and several peers on one machine use that). Secrets are
written with mode 0600 and replaced atomically, so a crash never leaves half a key.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO

import platformdirs

from crypto import CryptoError, Identity, KeyShare, L, SealKey
from lanparty.i18n import _, pgettext

_IDENTITY_FILE = "identity.key"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def home() -> Path:
    """The data directory (created if missing)."""
    env = os.environ.get("LANPARTY_HOME")
    path = Path(env) if env else Path(platformdirs.user_data_dir("lanparty", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` with mode 0600, atomically (a temporary file in the same
    folder, flushed to the disk, then renamed over it): a reader sees the old file or the
    new one, never half of one. Raises :class:`OSError` if it cannot."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # several peers may share a home
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def load_identity(base: Path | None = None) -> Identity:
    """This user's long-term identity, created on first use.

    Raises :class:`ValueError` if the key file exists but is damaged (it is never overwritten
    silently: the fingerprint other players know would change).
    """
    path = (base or home()) / _IDENTITY_FILE
    if path.exists():
        seed = path.read_bytes()
        if len(seed) != 32:
            raise ValueError(f"{path} is damaged (expected 32 bytes); move it away to start anew")
        return Identity(seed)
    ident = Identity()
    write_private(path, ident.seed())
    return ident


def persistent_key(base: Path | None = None) -> bytes | None:
    """The public key of this data directory's persistent identity, if it has a sound one
    (``None`` otherwise); never makes one. Never raises."""
    try:
        seed = ((base or home()) / _IDENTITY_FILE).read_bytes()
        return Identity(seed).public.raw if len(seed) == 32 else None
    except (OSError, CryptoError, ValueError):
        return None


def transcripts_dir(base: Path | None = None) -> Path:
    """The folder of saved games (created if missing)."""
    path = (base or home()) / "transcripts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def save_transcript(data: bytes, game: str, table: str, base: Path | None = None) -> Path:
    """Write a transcript file and return its path (``YYYYmmdd-HHMMSS-GAME-TABLE.lptx``)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"{stamp}-{_SAFE.sub('_', game)}-{_SAFE.sub('_', table)[:40]}.lptx"
    folder = transcripts_dir(base)
    path = folder / name
    n = 1
    while True:
        # Exclusive creation: several peers on one machine may save at the same moment.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            n += 1
            path = folder / f"{name.removesuffix('.lptx')}~{n}.lptx"
            continue
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        return path


def open_log(label: str) -> IO[bytes]:
    """A new log file ``logs/<time>-<label>.log`` (for a bot process's output)."""
    folder = home() / "logs"
    folder.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return (folder / f"{stamp}-{_SAFE.sub('_', label)}.log").open("ab")


# --------------------------------------------------------------------------- seats to resume


@dataclass(frozen=True, slots=True)
class SavedSeat:
    """What a peer needs to take its seat again after its process ended: the table, where
    its host is, and this seat's secrets (identity, key share, seal key, and the sealed move
    it has not opened yet, as ``protocol.SealedMove`` gave it)."""

    table: bytes
    nick: str
    endpoint: str
    identity: bytes
    key: bytes
    seal: bytes
    host: bool = False  # the table's host: its relays are kept too (``journal_path``)
    sealed: bytes = b""  # our pending sealed move (salt and move): secret until opened
    #: What this seat held of the log when it last signed (``protocol.Holding``): a host
    #: that gives the resumed seat a log without it is refused (kept in its own file,
    #: :func:`save_held`, as it changes with every entry the seat signs).
    held: bytes = b""

    @classmethod
    def of(
        cls,
        table: bytes,
        nick: str,
        endpoint: str,
        secrets: tuple[Identity, KeyShare, SealKey],
        *,
        host: bool = False,
    ) -> SavedSeat:
        """The seat to keep for a seated peer (or host) holding ``secrets``."""
        identity, key, seal = secrets
        return cls(table, nick, endpoint, identity.seed(), key.secret_bytes(),
                   seal.secret_bytes(), host)  # fmt: skip

    def secrets(self) -> tuple[Identity, KeyShare, SealKey]:
        """This seat's identity, key share and seal key again; :class:`ValueError` if the
        saved bytes are not valid ones."""
        x = int.from_bytes(self.key, "little")
        if len(self.key) != 32 or not 0 < x < L:
            raise ValueError("the saved key share is damaged")
        try:
            return Identity(self.identity), KeyShare(x), SealKey(self.seal)
        except CryptoError as exc:
            raise ValueError(f"the saved seat is damaged: {exc}") from None

    @property
    def table_hex(self) -> str:
        """The table id in hex."""
        return self.table.hex()

    @property
    def file_name(self) -> str:
        """``<table id>-<identity key>.json``: one file per seat, even in a shared home."""
        return _seat_file(self.table, Identity(self.identity).public.raw)


def _seats_dir(base: Path | None) -> Path:
    path = (base or home()) / "seats"
    path.mkdir(parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def save_seat(seat: SavedSeat, base: Path | None = None) -> Path:
    """Keep ``seat`` (mode 0600, replaced atomically) until :func:`forget_seat`."""
    data = {
        "table": seat.table.hex(), "nick": seat.nick, "endpoint": seat.endpoint,
        "identity": seat.identity.hex(), "key": seat.key.hex(), "seal": seat.seal.hex(),
        "host": seat.host, "sealed": seat.sealed.hex(),
    }  # fmt: skip
    path = _seats_dir(base) / seat.file_name
    write_private(path, json.dumps(data).encode())
    return path


def held_path(seat: SavedSeat, base: Path | None = None) -> Path:
    """Where a seat keeps what it held of the log when it last signed."""
    return _seats_dir(base) / seat.file_name.replace(".json", ".held")


def save_held(seat: SavedSeat, blob: bytes, base: Path | None = None) -> None:
    """Keep ``blob`` (``protocol.Holding``) for ``seat``: mode 0600, replaced atomically and
    flushed to the disk before this returns (what the seat signs next leaves after it). A
    seat that keeps it after every entry names the file once (:func:`held_path`) and
    writes it with :func:`write_private`: the name costs a key derivation."""
    write_private(held_path(seat, base), blob)


def _seat_file(table: bytes, key: bytes) -> str:
    return f"{table.hex()}-{key.hex()[:16]}.json"


#: A saved seat older than this is of a game long over: it is dropped, not offered.
SEAT_MAX_AGE_S = 12 * 3600


def _seat_files(base: Path | None) -> list[Path]:
    """The saved seats' files, oldest dropped first (see ``SEAT_MAX_AGE_S``)."""
    now = time.time()
    files = []
    for f in sorted(_seats_dir(base).glob("*.json")):
        with contextlib.suppress(FileNotFoundError):  # another peer may forget it meanwhile
            if now - f.stat().st_mtime > SEAT_MAX_AGE_S:
                f.unlink()
                f.with_suffix(".journal").unlink(missing_ok=True)
            else:
                files.append(f)
    return files


def _read_seat(path: Path) -> SavedSeat:
    try:
        d = json.loads(path.read_text())
        seat = SavedSeat(
            bytes.fromhex(d["table"]), str(d["nick"]), str(d["endpoint"]),
            bytes.fromhex(d["identity"]), bytes.fromhex(d["key"]), bytes.fromhex(d["seal"]),
            bool(d.get("host", False)), bytes.fromhex(d.get("sealed", "")),
        )  # fmt: skip
        held = path.with_name(path.name.replace(".json", ".held"))
        if held.exists():
            seat = replace(seat, held=held.read_bytes())
        return seat
    except (OSError, ValueError, KeyError, TypeError):
        raise ValueError(f"{path} is damaged; remove it") from None


def saved_seats(base: Path | None = None, *, host: bool = False) -> list[SavedSeat]:
    """Every seat (or, ``host``, every hosted table) kept for ``--resume``; damaged files
    are skipped."""
    out = []
    for f in _seat_files(base):
        with contextlib.suppress(ValueError):
            seat = _read_seat(f)
            if seat.host == host:
                out.append(seat)
    return out


def load_seat(prefix: str | None, base: Path | None = None, *, host: bool = False) -> SavedSeat:
    """The saved seat (or, ``host``, hosted table) whose table id starts with ``prefix``
    (the only one when ``None``).

    Raises :class:`ValueError` naming the saved tables when there is none or several.
    """
    seats = saved_seats(base, host=host)
    chosen = [x for x in seats if prefix is None or x.table_hex.startswith(prefix.lower())]
    if len(chosen) != 1:
        known = ", ".join(x.table_hex[:12] for x in seats) or pgettext("saved", "none")
        what = ((_("no saved hosted table") if not chosen else _("several saved hosted tables"))
                if host else (_("no saved seat") if not chosen else _("several saved seats")))
        said = (_("{what} to resume matching {prefix}; saved: {known}") if prefix
                else _("{what} to resume; saved: {known}"))  # fmt: skip
        raise ValueError(said.format(what=what, prefix=repr(prefix), known=known))
    return chosen[0]


def journal_path(seat: SavedSeat, base: Path | None = None) -> Path:
    """Where a host keeps the relay frames it sent (to be restored from)."""
    return _seats_dir(base) / seat.file_name.replace(".json", ".journal")


def append_journal(path: Path, frames: list[bytes]) -> None:
    """Append relay frames to a host's journal (created with mode 0600), flushed."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, b"".join(frames))
    finally:
        os.close(fd)


def forget_seat(table: bytes, key: bytes, base: Path | None = None) -> None:
    """Delete the seat of identity ``key`` at ``table`` (it ended): its secrets, a host's
    journal, what it held of the log, and any half-written copy a killed program left;
    nothing if there is none."""
    stem = _seat_file(table, key).removesuffix(".json")
    for f in _seats_dir(base).glob(f"{stem}.*"):
        with contextlib.suppress(FileNotFoundError):
            f.unlink()

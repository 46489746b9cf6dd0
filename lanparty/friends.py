"""Friends known by their keys, as ``ssh`` knows hosts: who this user played with.

``friends.json`` in the data directory (beside ``transcripts/``; ``$LANPARTY_HOME`` when
set) holds one entry per public key (the 32-byte Ed25519 key a player signs with, in hex):
the name they used when first met, the names seen since, the label the user gave them
(``lanparty friends rename``), the first and the last day played, and how many games. A table
records its players when it ends (``lanparty.table.friendly``); the lobby and the table read
it to mark a known key, and to flag a known friend's name under another key.

The file is written atomically with mode 0600 under a lock (several programs of one data
directory may end a table at once). A damaged file is never overwritten: it is read as no
friends, said once, and nothing is recorded until the user moves it away. What a hostile
table can add is bounded: at most :data:`MAX_FRIENDS` entries (the least recently played
goes first, a friend the user named last of all), names of at most :data:`MAX_NAME`
characters, :data:`MAX_SEEN` names kept per friend. A new key under a name that reads like a
friend's (``protocol._names.looks_alike``) is not recorded: it would make an impostor a
friend the next time; the user forgets the old key first if theirs really changed.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crypto import fingerprint
from lanparty.i18n import _
from lanparty.store import home, write_private
from protocol._names import readings

__all__ = [
    "FILE",
    "MAX_FRIENDS",
    "MAX_NAME",
    "MAX_SEEN",
    "MIN_PREFIX",
    "Friend",
    "Friends",
    "FriendsError",
    "Recorded",
    "complaint",
    "forget",
    "label_trouble",
    "load",
    "record",
    "rename",
]

FILE = "friends.json"
#: At most this many friends are kept: the least recently played one makes room.
MAX_FRIENDS = 500
#: A name or a label is cut to this many characters (a table's names are as long at most).
MAX_NAME = 32
#: The names a friend was seen under besides the first, the latest kept.
MAX_SEEN = 8
#: A file larger than this is no file of ours (500 friends take about 700 KB at most).
MAX_FILE = 2 << 20
_VERSION = 1
_KEY_BYTES = 32
_MAX_GAMES = 10**9
_CROCKFORD = set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
#: A fingerprint prefix given to name a friend has at least this many characters.
MIN_PREFIX = 4


class FriendsError(Exception):
    """The friends file cannot be changed: damaged (never overwritten), or not writable;
    the message says so in the reader's words."""


@dataclass(frozen=True, slots=True)
class Friend:
    """One key this user played with: the name it came with first, the later names
    (``seen``, the latest last), the user's own ``label`` for it ("" if none), the first
    and last day played (ISO dates) and the number of games."""

    key: bytes
    name: str
    seen: tuple[str, ...] = ()
    label: str = ""
    first: str = ""
    last: str = ""
    games: int = 0

    @property
    def fingerprint(self) -> str:
        """The key's fingerprint, as the tables show it."""
        return fingerprint(self.key)

    @property
    def called(self) -> str:
        """What the user calls this friend: their label, else the name first met."""
        return self.label or self.name

    @property
    def names(self) -> tuple[str, ...]:
        """Every name this friend is known by: the label, the first name, the later ones."""
        return tuple(dict.fromkeys(n for n in (self.label, self.name, *self.seen) if n))

    def as_json(self) -> dict[str, Any]:
        """This friend as plain JSON values (the file's entry and ``--json``'s)."""
        return {"key": self.key.hex(), "name": self.name, "seen": list(self.seen),
                "label": self.label, "first": self.first, "last": self.last,
                "games": self.games}  # fmt: skip


class Friends:
    """The friends as read at one moment (a snapshot: :func:`record` and the others read the
    file again under its lock). ``damaged`` says why the file could not be read ("" if it
    could, or there is none)."""

    def __init__(
        self, friends: Iterable[Friend] = (), *, path: Path | None = None, damaged: str = ""
    ) -> None:
        """Friends ``friends`` (by key: a later entry of one key replaces an earlier one)."""
        self.path = path
        self.damaged = damaged
        self._by_key = {f.key: f for f in friends}
        self._by_fp = {f.fingerprint: f for f in self._by_key.values()}
        self._index: dict[tuple[int, str], list[bytes]] | None = None

    def __iter__(self) -> Iterator[Friend]:
        """The friends, the most recently played first."""
        return iter(sorted(self._by_key.values(), key=lambda f: (f.last, f.games), reverse=True))

    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, key: bytes) -> Friend | None:
        """The friend of public key ``key``, if known."""
        return self._by_key.get(key)

    def by_fingerprint(self, fp: str) -> Friend | None:
        """The friend whose key has fingerprint ``fp``, if known."""
        return self._by_fp.get(fp)

    def alike(self, name: str, *, other_than: str = "") -> list[Friend]:
        """The friends known by a name that reads like ``name`` (its label, first name or a
        later one: ``looks_alike``), except the one of fingerprint ``other_than``; the most
        recently played first."""
        if self._index is None:
            self._index = {}
            for f in self._by_key.values():
                for known in f.names:
                    for place, reading in enumerate(readings(known)):
                        self._index.setdefault((place, reading), []).append(f.key)
        keys: dict[bytes, None] = {}
        for place, reading in enumerate(readings(name)):
            keys.update(dict.fromkeys(self._index.get((place, reading), ())))
        found = [self._by_key[k] for k in keys if self._by_key[k].fingerprint != other_than]
        return sorted(found, key=lambda f: (f.last, f.games), reverse=True)

    def find(self, who: str) -> list[Friend]:
        """The friends ``who`` may mean: by a name that reads like it (label, first name,
        a later one), or by a fingerprint that starts with it (dashes and case aside, at
        least :data:`MIN_PREFIX` characters)."""
        who = who.strip()
        found = {f.key: f for f in self.alike(who)} if who else {}
        prefix = who.upper().replace("-", "").replace(" ", "")
        if len(prefix) >= MIN_PREFIX and set(prefix) <= _CROCKFORD:
            for f in self:
                if f.fingerprint.replace("-", "").startswith(prefix):
                    found.setdefault(f.key, f)
        return list(found.values())


# --------------------------------------------------------------------------- the file


def _path(base: Path | None) -> Path:
    return (base or home()) / FILE


def _name(value: object) -> str:
    """A name as kept: printable text of 1 to :data:`MAX_NAME` characters; ValueError if not."""
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise ValueError("a name")
    if not value.isprintable() or value != value.strip():
        raise ValueError("a name")
    return value


def _date(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("a date")
    return datetime.date.fromisoformat(value).isoformat()


def _entry(d: object) -> Friend:
    """One entry of the file, checked whole; ValueError (or KeyError, TypeError) if not."""
    if not isinstance(d, dict):
        raise ValueError("an entry")
    key = bytes.fromhex(d["key"])
    seen, games = d["seen"], d["games"]
    if len(key) != _KEY_BYTES or not isinstance(seen, list) or len(seen) > MAX_SEEN:
        raise ValueError("an entry")
    if type(games) is not int or not 0 <= games <= _MAX_GAMES:
        raise ValueError("a count")
    label = d["label"]
    return Friend(key, _name(d["name"]), tuple(_name(n) for n in seen),
                  _name(label) if label != "" else "", _date(d["first"]), _date(d["last"]),
                  games)  # fmt: skip


def _read(path: Path) -> list[Friend]:
    """The friends in ``path`` (none if there is no file); ValueError saying why the file is
    damaged, OSError if it cannot be read."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE + 1)
    except FileNotFoundError:
        return []
    if len(data) > MAX_FILE:
        raise ValueError(f"larger than {MAX_FILE // (1 << 20)} MiB")
    try:
        top = json.loads(data.decode("utf-8"))
        if not isinstance(top, dict) or top.get("version") != _VERSION:
            raise ValueError
        entries = top["friends"]
        if not isinstance(entries, list) or len(entries) > MAX_FRIENDS:
            raise ValueError
        friends = [_entry(d) for d in entries]
    except (ValueError, KeyError, TypeError, AttributeError):
        raise ValueError("not a friends file of this lanparty") from None
    if len({f.key for f in friends}) != len(friends):
        raise ValueError("a key is listed twice")
    return friends


def _damaged(path: Path, why: str) -> str:
    return _("{path} is damaged ({why}): friends are not marked or recorded until it is "
             "moved away").format(path=path, why=why)  # fmt: skip


def load(base: Path | None = None) -> Friends:
    """The friends as the file holds them now. Never raises: a damaged or unreadable file
    reads as no friends, with ``damaged`` saying so (see :func:`complaint`)."""
    path = _path(base)
    try:
        return Friends(_read(path), path=path)
    except ValueError as exc:
        return Friends(path=path, damaged=_damaged(path, str(exc)))
    except OSError as exc:
        return Friends(path=path, damaged=_damaged(path, exc.strerror or str(exc)))


_told: set[str] = set()


def complaint(friends: Friends) -> str | None:
    """What to say about ``friends``'s damaged file, the first time this process asks;
    ``None`` after that, and for a sound file."""
    if not friends.damaged or friends.damaged in _told:
        return None
    _told.add(friends.damaged)
    return friends.damaged


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold the friends file's lock (``run/friends.lock``) for the block: one program of
    the data directory changes the file at a time. No lock where ``fcntl`` is missing."""
    try:
        import fcntl
    except ImportError:  # not POSIX
        yield
        return
    lock = folder / "run" / "friends.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # and with it the lock


def _write(path: Path, friends: Iterable[Friend]) -> None:
    entries = [f.as_json() for f in sorted(friends, key=lambda f: f.key)]
    data = {"version": _VERSION, "friends": entries}
    write_private(path, json.dumps(data, ensure_ascii=False, indent=1).encode())


@contextlib.contextmanager
def _changing(base: Path | None) -> Iterator[dict[bytes, Friend]]:
    """The friends by key, read under the lock, written back (atomically) after the block
    unless it raised. Raises :class:`FriendsError` if the file is damaged (it is never
    overwritten) or cannot be read or written."""
    folder = base or home()
    path = _path(folder)
    try:
        with _locked(folder):
            try:
                friends = {f.key: f for f in _read(path)}
            except ValueError as exc:
                raise FriendsError(_damaged(path, str(exc))) from None
            yield friends
            _write(path, friends.values())
    except OSError as exc:
        raise FriendsError(_("cannot keep your friends in {path}: {error}").format(
            path=path, error=exc.strerror or exc)) from None  # fmt: skip


def _clean(name: str) -> str:
    """A name a peer chose, as kept: printable, at most :data:`MAX_NAME` characters."""
    text = "".join(c for c in name if c.isprintable())
    return " ".join(text.split())[:MAX_NAME].strip()


@dataclass(frozen=True, slots=True)
class Recorded:
    """What :func:`record` did: the friends ``added`` (new keys), those ``updated``, and
    the players ``passed_over``: a new key under a name that reads like a known friend's
    (the player's name, their key, the friend whose name it reads like)."""

    added: tuple[Friend, ...] = ()
    updated: tuple[Friend, ...] = ()
    passed_over: tuple[tuple[str, bytes, Friend], ...] = ()


def record(
    players: Iterable[tuple[bytes, str]], *, today: str | None = None, base: Path | None = None
) -> Recorded:
    """One more game with ``players`` (each a public key and the name it played under),
    played ``today`` (an ISO date; the local date if ``None``): a known key is updated (its
    last day, its games, the name if new), a new key becomes a friend, unless its name reads
    like a friend's (it is passed over, see :class:`Recorded`). Bounded: the least recently
    played friends make room. Raises :class:`FriendsError` if the file cannot be changed."""
    day = today or datetime.date.today().isoformat()
    added: list[Friend] = []
    updated: list[Friend] = []
    passed: list[tuple[str, bytes, Friend]] = []
    with _changing(base) as friends:
        before = Friends(friends.values())
        for key, given in players:
            name = _clean(given)
            if len(key) != _KEY_BYTES or not name:
                continue
            known = friends.get(key)
            if known is None:
                alike = before.alike(name, other_than=fingerprint(key))
                if alike:
                    passed.append((name, key, alike[0]))
                    continue
                friends[key] = Friend(key, name, (), "", day, day, 1)
                added.append(friends[key])
                continue
            seen = known.seen
            if name != known.name:
                seen = (*(n for n in seen if n != name), name)[-MAX_SEEN:]
            games = min(known.games + 1, _MAX_GAMES)
            friends[key] = Friend(key, known.name, seen, known.label, known.first,
                                  max(known.last, day), games)  # fmt: skip
            updated.append(friends[key])
        _bound(friends, keep={f.key for f in (*added, *updated)})
    return Recorded(tuple(added), tuple(updated), tuple(passed))


def _bound(friends: dict[bytes, Friend], keep: set[bytes]) -> None:
    """Drop friends until :data:`MAX_FRIENDS` are left: those not in ``keep``, unnamed by
    the user first, then the least recently played, the fewest games."""
    if len(friends) <= MAX_FRIENDS:
        return
    order = sorted((f for f in friends.values() if f.key not in keep),
                   key=lambda f: (bool(f.label), f.last, f.games))  # fmt: skip
    for f in order[: len(friends) - MAX_FRIENDS]:
        del friends[f.key]


def label_trouble(label: str) -> str | None:
    """Why ``label`` cannot name a friend (empty, unprintable, too long); ``None`` if it can."""
    if not label.strip() or not label.isprintable() or label != label.strip():
        return _("a friend's name is printable text with no space at either end")
    if len(label) > MAX_NAME:
        return _("a friend's name is at most {n} characters").format(n=MAX_NAME)
    return None


def rename(key: bytes, label: str, base: Path | None = None) -> Friend:
    """Call the friend of ``key`` ``label`` from now on; the friend as changed. Raises
    :class:`FriendsError` if the label is not a valid one, the key is no friend's, or the
    file cannot be changed."""
    trouble = label_trouble(label)
    if trouble is not None:
        raise FriendsError(trouble)
    with _changing(base) as friends:
        known = friends.get(key)
        if known is None:
            raise FriendsError(_("no friend has the key {key}").format(key=fingerprint(key)))
        friends[key] = Friend(known.key, known.name, known.seen, label, known.first,
                              known.last, known.games)  # fmt: skip
        return friends[key]


def forget(key: bytes, base: Path | None = None) -> Friend:
    """Forget the friend of ``key``; the friend forgotten. Raises :class:`FriendsError` if
    the key is no friend's or the file cannot be changed."""
    with _changing(base) as friends:
        known = friends.pop(key, None)
        if known is None:
            raise FriendsError(_("no friend has the key {key}").format(key=fingerprint(key)))
        return known

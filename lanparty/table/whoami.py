"""Who this process is at a table: the key it signs with and the name it goes by.

**The key.** The persistent identity (``identity.key`` in the data directory) is what friends
know a person by: its fingerprint is shown to everyone when they sit down, and read out loud
when someone cares who is who. One running process of a data directory uses it at a time: it
holds a lock on ``run/identity.lock`` for as long as it lives (the system drops the lock when
the process ends, however it ends). Another process of the same data directory — a second
terminal of the same person, the first thing anyone does to try lanparty alone — signs with a
one-off key made for it and says so. Both presenting one key to one table cannot work: the
host would take the second for the first coming back on a new connection, and nobody could
tell the two seats apart.

**The name.** Without ``--nick`` a person goes by their login name (from the OS: ``$LOGNAME``,
``$USER``, else the password database), or ``player`` if there is none. Names are unique per
table, so two terminals of one person must not both be "ana": every person's process of a
data directory takes a number while it lives (the lowest free one; locks ``run/name-N.lock``,
free again as soon as their process ends), given ``--nick`` or not, and the n-th goes by
``NAME n`` by default (the first by the plain login name). A headless peer (``--bot``) takes a
number only when it needs a default name: the bots a command starts are named by it.

Locks are ``flock`` locks: on a system without ``fcntl`` every process gets the persistent
identity and the plain login name, as before.
"""

from __future__ import annotations

import getpass
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from crypto import Identity
from lanparty.errors import NetError
from lanparty.i18n import _
from lanparty.store import home, load_identity
from lanparty.table.outcome import say
from lanparty.table.stopwords import said
from protocol._bodies import MAX_NAME
from protocol._names import name_problem

__all__ = [
    "FALLBACK_NAME",
    "bot_identity",
    "claim_identity",
    "default_nick",
    "login_name",
    "my_identity",
    "name_trouble",
    "nick_for",
    "seat_identity",
]

#: The name of a person whose login name cannot be found (it reads well in "player's kato").
FALLBACK_NAME = "player"
#: A login name is cut to this many characters, so "NAME 99's kato" stays a valid name.
_MAX_LOGIN = 24

# Locks this process holds until it ends (file descriptors, never closed), and what it
# was given, by data directory: one process keeps one key and one name.
_held: dict[str, int] = {}
_identities: dict[Path, tuple[Identity, bool]] = {}
_slots: dict[Path, int] = {}


def login_name() -> str:
    """The user's login name as a player name (printable, at most 24 characters), or
    :data:`FALLBACK_NAME` if the system does not know one."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError, ImportError):  # no variable set and no password entry
        return FALLBACK_NAME
    name = "".join(c for c in " ".join(name.split()) if c.isprintable())[:_MAX_LOGIN].strip()
    return name or FALLBACK_NAME


def _lock(path: Path) -> bool:
    """Hold an exclusive lock on ``path`` until this process ends; False if another
    process holds it. Always True where locks are not supported."""
    if str(path) in _held:
        return True
    try:
        import fcntl
    except ImportError:  # not POSIX: no coordination between processes
        return True
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError: held by another process
        os.close(fd)
        return False
    _held[str(path)] = fd
    return True


def claim_identity(base: Path | None = None) -> tuple[Identity, bool]:
    """The identity this process signs with, and whether it is the persistent one.

    The persistent identity if no other live process of this data directory uses it (it is
    then locked for this process's lifetime), else a fresh one-off identity. Raises
    :class:`ValueError` if the persistent key file is damaged.
    """
    folder = base or home()
    if folder not in _identities:
        if _lock(folder / "run" / "identity.lock"):
            _identities[folder] = load_identity(folder), True
        else:
            _identities[folder] = Identity(), False
    return _identities[folder]


#: Numbers handed out to the processes of one data directory running at once.
_MAX_SLOTS = 99


def _slot(folder: Path) -> int:
    """This process's number among the live processes of ``folder`` (the lowest free one,
    kept for this process's lifetime); its pid if all are taken."""
    if folder not in _slots:
        free = (n for n in range(1, _MAX_SLOTS + 1) if _lock(folder / "run" / f"name-{n}.lock"))
        _slots[folder] = next(free, os.getpid())
    return _slots[folder]


def default_nick(base: Path | None = None) -> str:
    """The name of a process that gave no ``--nick``: the login name for the first process
    of this data directory, ``NAME 2``, ``NAME 3``, … for the others running at the same
    time."""
    n = _slot(base or home())
    return login_name() if n == 1 else f"{login_name()} {n}"


def nick_for(given: str | None, *, bot: bool = False, base: Path | None = None) -> str:
    """The name this process goes by: ``given``, else :func:`default_nick`. A person's
    process takes its number either way, so that another terminal's default name never
    repeats the login name this one chose to be called by."""
    if given:
        if not bot:
            _slot(base or home())
        return given
    return default_nick(base)


def my_identity() -> Identity:
    """Our persistent identity, or a one-off one (said on stderr) if another process of ours
    uses it; raises :class:`NetError` if the key file is damaged."""
    try:
        identity, persistent = claim_identity()
    except ValueError as exc:  # a damaged key file: never replaced silently
        raise NetError(str(exc)) from None
    if not persistent:
        say(
            False,
            _(
                "another lanparty of yours (same data directory) is using your key: this "
                "one signs with a one-off key, {key}"
            ).format(key=identity.public.fingerprint),
        )
    return identity


def seat_identity(tell: Callable[[str], None]) -> Identity:
    """The key a spectator sits down with when it takes a free seat (``lanparty watch``):
    our persistent identity, claimed now if it is not yet (``watch --sit`` claims it as it
    starts), or a one-off one if another process of ours uses it, or if the key file is
    damaged (each told with ``tell``: a damaged file is never replaced). Never raises."""
    try:
        identity, persistent = claim_identity()
    except ValueError as exc:
        identity, persistent = Identity(), False
        tell(str(exc))
    if not persistent:
        key = identity.public.fingerprint
        tell(_("another lanparty of yours (same data directory) is using your key: this one "
               "signs with a one-off key, {key}").format(key=key))  # fmt: skip
    return identity


def bot_identity(owner: Identity, name: str) -> Identity:
    """The key of the bot called ``name`` that ``owner``'s command starts: derived from the
    owner's secret key and the name, so it is the same at every table of that owner (a friend
    who played with Ana's bot Bea meets the same key next time, not a stranger under a
    friend's name) and nobody without the owner's key can make it. Never raises."""
    seed = hashlib.blake2b(name.encode(), key=owner.seed(), digest_size=32,
                           person=b"lanparty/bot/v1").digest()  # fmt: skip
    return Identity(seed)


def name_trouble(name: str) -> str | None:
    """Why no table would seat ``name`` (empty, too long, unprintable, letters no name
    uses, a look-alike's mix of scripts), in the reader's words; ``None`` if a table may
    (one where nobody else goes by it or by a name like it)."""
    if not name.strip() or name != name.strip() or not name.isprintable():
        return _("a name is printable text with no space at either end")
    if len(name) > MAX_NAME:
        return _("a name is at most {n} characters").format(n=MAX_NAME)
    problem = name_problem(name)
    return said(problem) if problem is not None else None

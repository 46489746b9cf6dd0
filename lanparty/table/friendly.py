"""Friends at a table and in the lobby (:mod:`lanparty.friends` keeps them): a known key is
marked, a friend's name under another key is flagged, and a table that began records its
players when it ends.

**Marks.** A seat that sits down with a friend's key is marked in the story ("★ Bea (seat 2)
is your friend Bea: 3 games together, the last on 1 December 2026"); one that sits down under
a name that reads like a friend's (``looks_alike``, as the tables judge names) with another
key is flagged at once, before the game starts ("⚠ Bea (seat 2) is not the Bea you played
with on 1 December 2026: another key (…)"), so the host can ``kick`` it and the others can
leave; a join the host holds for its yes (``--approve``) is flagged the same way. In the
lobby a table announced by a friend's key is marked, and one whose host goes by a friend's
name with another key is flagged.

**The record.** A table counts once its seats were fixed (the shuffle began: everyone sat
down together), whether it then ended or stopped; each other seat's key and name is recorded
by each program that keeps the table's transcript: a person's (``host``, ``join``, ``play``),
or a headless peer someone started with its own data directory. Spectators record nothing,
and neither do the bots a command starts (they keep no transcript and share their starter's
data directory); the bots a host starts are not recorded by that host either (it knows
their keys: :func:`lanparty.table.whoami.bot_identity`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crypto import fingerprint
from lanparty.friends import Friend, Friends, FriendsError, complaint, record
from lanparty.i18n import _, long_date, ngettext
from lanparty.store import persistent_key
from lanparty.table.whoami import bot_identity
from lanparty.text import printable
from protocol import Event, Host, JoinAsked, Joined, Peer, Watcher
from protocol._names import looks_alike

__all__ = [
    "asked_note",
    "host_json",
    "host_note",
    "marking",
    "record_table",
    "seat_note",
]

Tell = Callable[[str], None]


def _known_as(friend: Friend, name: str) -> str:
    """The friend's name that ``name`` reads like (the first such), else what they are
    called."""
    return next((n for n in friend.names if looks_alike(n, name)), friend.called)


def _games(friend: Friend) -> str:
    return ngettext("{n} game together", "{n} games together", friend.games).format(n=friend.games)


def _impostor(friends: Friends, name: str, fp: str) -> Friend | None:
    """The friend (the most recently played) whose name ``name`` reads like, if ``fp`` is
    not their key and no friend's; ``None`` otherwise."""
    if friends.by_fingerprint(fp) is not None:
        return None
    alike = friends.alike(name, other_than=fp)
    return alike[0] if alike else None


def _judged(friends: Friends, name: str, fp: str) -> tuple[dict[str, str], bool] | None:
    """What a note on ``name`` with key fingerprint ``fp`` is filled with, and whether it is
    a friend's mark (``True``) or an impostor's flag (``False``); ``None`` for a stranger."""
    known = friends.by_fingerprint(fp)
    if known is not None:
        return {"name": printable(name), "friend": printable(known.called),
                "games": _games(known), "date": long_date(known.last)}, True  # fmt: skip
    other = _impostor(friends, name, fp)
    if other is None:
        return None
    return {"name": printable(name), "friend": printable(_known_as(other, name)),
            "date": long_date(other.last), "key": fp}, False  # fmt: skip


def seat_note(friends: Friends, name: str, seat: int, fp: str) -> str | None:
    """The story's line on ``name`` sitting down in ``seat`` with key fingerprint ``fp``:
    a friend's mark, an impostor's flag, or ``None`` for a stranger."""
    judged = _judged(friends, name, fp)
    if judged is None:
        return None
    fields, friend = judged
    if friend:
        said = _("★ {name} (seat {seat}) is your friend {friend}: {games}, the last on {date}")
    else:
        said = _("⚠ {name} (seat {seat}) is not the {friend} you played with on {date}: "
                 "another key ({key})")  # fmt: skip
    return said.format(seat=seat, **fields)


def asked_note(friends: Friends, name: str, request: int, fp: str) -> str | None:
    """The host's line on join request ``request`` (``name``, key fingerprint ``fp``): a
    friend's mark, an impostor's flag, or ``None`` for a stranger."""
    judged = _judged(friends, name, fp)
    if judged is None:
        return None
    fields, friend = judged
    if friend:
        said = _("★ request {n}: {name} is your friend {friend} ({games})")
    else:
        said = _("⚠ request {n}: {name} is not the {friend} you played with on {date}: "
                 "another key ({key})")  # fmt: skip
    return said.format(n=request, **fields)


def host_note(friends: Friends, host: str, fp: str) -> tuple[str, bool] | None:
    """The lobby's note on a table its host ``host`` announced with key fingerprint
    ``fp``: ``("★ friend: Bea", False)`` for a friend's key, ``("⚠ not the Bea you played
    with on 2026-12-01", True)`` for a friend's name with another key (a warning), ``None``
    for a stranger."""
    known = friends.by_fingerprint(fp)
    if known is not None:
        return _("★ friend: {friend}").format(friend=printable(known.called)), False
    other = _impostor(friends, host, fp)
    if other is None:
        return None
    said = _("⚠ not the {friend} you played with on {date}").format(
        friend=printable(_known_as(other, host)), date=other.last)  # fmt: skip
    return said, True


def host_json(friends: Friends, host: str, fp: str) -> dict[str, Any]:
    """What ``--json`` says of a table's host: ``friend``, the friend's name (or ``None``),
    and ``not_friend``, the friend whose name the host uses with another key (``name``,
    ``key``: their fingerprint, ``last``: the last day played) or ``None``."""
    known = friends.by_fingerprint(fp)
    other = _impostor(friends, host, fp)
    return {
        "friend": known.called if known is not None else None,
        "not_friend": None if other is None else {
            "name": _known_as(other, host), "key": other.fingerprint, "last": other.last},
    }  # fmt: skip


def _ours(party: Host | Peer | Watcher, event: Joined) -> bool:
    """Whether the seat ``event`` took is this program's, or a bot this program started
    (its key derived from ours: a bot of ours called like a friend is no impostor)."""
    me = party.table.me
    if me is None:  # a spectator
        return False
    bot = bot_identity(me.identity, event.name)
    return event.fingerprint in (me.identity.public.fingerprint, bot.public.fingerprint)


def marking(sink: Any, party: Host | Peer | Watcher, tell: Tell, friends: Friends) -> Any:
    """``sink``, then each seat taken (and, at the host, each join held for its yes) marked
    or flagged through ``tell`` from ``friends`` (said once if their file is damaged); not
    this program's own seat, nor its own bots'."""
    said = complaint(friends)
    if said is not None:
        tell(said)

    def marked(event: Event) -> None:
        sink(event)
        line = None
        if isinstance(event, Joined) and not _ours(party, event):
            line = seat_note(friends, event.name, event.seat, event.fingerprint)
        elif isinstance(event, JoinAsked):
            line = asked_note(friends, event.name, event.request, event.fingerprint)
        if line is not None:
            tell(line)

    return marked


def record_table(party: Host | Peer, tell: Tell, *, news: bool = True) -> None:
    """Record the other seats of ``party``'s table as friends if the table began (its seats
    were fixed), leaving out this program, the bots it started and this data directory's own
    key (a second terminal of the same person signs with a one-off key, and meets the first);
    say who was passed over (a friend's name under another key), once why nothing could be
    recorded, and (``news``) the friends added. Never raises."""
    table, me = party.table, party.table.me
    if table.state is None or me is None:  # the seats were never fixed: no game with them
        return
    mine = me.identity
    own = {mine.public.raw, persistent_key()}
    players = [(m.key, m.name) for m in table.members
               if m.key not in own
               and m.key != bot_identity(mine, m.name).public.raw]  # fmt: skip
    if not players:
        return
    try:
        done = record(players)
    except FriendsError as exc:
        said = complaint(Friends(damaged=str(exc)))
        if said is not None:
            tell(said)
        return
    if done.added and news:
        names = ", ".join(printable(f.name) for f in done.added)
        tell(_("New among your friends: {names} (lanparty friends lists them)").format(
            names=names))  # fmt: skip
    for name, key, other in done.passed_over:
        tell(_("{name} ({key}) is not recorded as a friend: you know another {friend} "
               "({other}); if their key changed, lanparty friends forget {other} first"
               ).format(name=printable(name), key=fingerprint(key),
                        friend=printable(_known_as(other, name)),
                        other=other.fingerprint))  # fmt: skip

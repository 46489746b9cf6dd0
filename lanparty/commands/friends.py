"""``lanparty friends``: the players you played with, known by their keys (as ``ssh`` knows
hosts; :mod:`lanparty.friends` keeps them): list them, ``rename WHO NEW``, ``forget WHO``.

WHO is a name they played under or the one you gave them, or the start of their key's
fingerprint; one that means no friend, or several, is an error (exit 2) naming them.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from lanparty.commands.common import CliError, Command
from lanparty.friends import Friend, Friends, FriendsError, complaint, forget, label_trouble
from lanparty.friends import load as load_friends
from lanparty.friends import rename as rename_friend
from lanparty.i18n import N_, _, pgettext
from lanparty.text import printable

__all__ = ["COMMAND", "table"]

#: Columns the list fits in.
WIDTH = 80
#: A friend's name is cut to this many characters in the list (the whole is in ``--json``).
NAME_WIDTH = 16
#: At most this many friends are named in an error about WHO.
NAMED = 8


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty friends``'s arguments."""
    p.add_argument("action", nargs="?", default="list", choices=("list", "rename", "forget"),
                   metavar="ACTION", help=_("list (the default), rename WHO NEW, or forget "
                   "WHO"))  # fmt: skip
    p.add_argument("who", nargs="?", metavar="WHO", help=_("a friend: a name they played "
                   "under or you gave them, or the start of their key's fingerprint"))  # fmt: skip
    p.add_argument("new", nargs="?", metavar="NEW", help=_("rename: what to call them from now "
                   "on (shown in the lobby and at the table)"))  # fmt: skip
    p.add_argument("--json", action="store_true", help=_("print the friends as JSON (for scripts)"))


def _entry(friend: Friend) -> dict[str, object]:
    """A friend as ``--json`` prints it: the file's entry and the key's fingerprint."""
    return {**friend.as_json(), "fingerprint": friend.fingerprint}


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def table(friends: Friends) -> list[str]:
    """The friends as lines of at most :data:`WIDTH` columns: one row each (what you call
    them, the key's fingerprint, games, the first and the last day played), under it the
    names they were met and seen under, if others; the most recently played first."""
    titles = [pgettext("friends", "friend"), pgettext("friends", "key"),
              pgettext("friends", "games"), pgettext("friends", "first"),
              pgettext("friends", "last")]  # fmt: skip
    listed = list(friends)
    rows = [[_cut(printable(f.called), NAME_WIDTH), f.fingerprint, str(f.games), f.first,
             f.last] for f in listed]  # fmt: skip
    widths = [max(len(row[i]) for row in [titles, *rows]) for i in range(5)]
    lines = []
    for i, row in enumerate([titles, *rows]):
        cells = [row[c].ljust(widths[c]) for c in (0, 1)]
        cells += [row[2].rjust(widths[2]), row[3].ljust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
        friend = listed[i - 1] if i else None
        said = _names(friend) if friend is not None else ""
        if said:
            indent = " " * (widths[0] + 2)
            lines += textwrap.wrap(said, WIDTH, initial_indent=indent, subsequent_indent=indent)
    return lines


def _names(friend: Friend) -> str:
    """The names ``friend`` came under besides what they are called, in words ("" if none)."""
    parts = []
    if friend.label:
        parts.append(_("first met as {name}").format(name=printable(friend.name)))
    seen = [printable(n) for n in friend.seen if n != friend.called]
    if seen:
        parts.append(_("also seen as {names}").format(names=", ".join(seen)))
    return "; ".join(parts)


def _named(friends: list[Friend]) -> str:
    """``Bea (7QXM-K2PA-93TD-HB0R), Carl (…)``: at most :data:`NAMED` of them."""
    said = ", ".join(f"{printable(f.called)} ({f.fingerprint})" for f in friends[:NAMED])
    return said + (", …" if len(friends) > NAMED else "")


def _one(friends: Friends, who: str) -> Friend:
    """The one friend ``who`` means; :class:`CliError` naming the candidates if none or
    several."""
    found = friends.find(who)
    if len(found) == 1:
        return found[0]
    if found:
        raise CliError(_("{who} may be any of {n} friends: {friends}; give more of the key's "
                         "fingerprint").format(who=repr(who), n=len(found),
                                               friends=_named(found)))  # fmt: skip
    if not len(friends):
        raise CliError(_("no friend is called {who}: you have no friends recorded yet").format(
            who=repr(who)))  # fmt: skip
    raise CliError(_("no friend is called {who} or has a key that starts so; your friends: "
                     "{friends}").format(who=repr(who), friends=_named(list(friends))))  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """``lanparty friends``: 0 when done, 1 if the friends file is damaged or cannot be
    changed; :class:`CliError` (exit 2) for WHO meaning no friend or several, or arguments
    that do not fit the action."""
    friends = load_friends()
    damaged = complaint(friends)
    if damaged is not None:
        print(printable(damaged), file=sys.stderr)
    if args.action == "list":
        if args.who is not None:
            raise CliError(_("list takes no WHO (rename WHO NEW, forget WHO)"))
        _list(friends, args.json)
        return 1 if damaged else 0
    if args.who is None:
        raise CliError(_("{action} which friend? lanparty friends {action} WHO{new}").format(
            action=args.action, new=" NEW" if args.action == "rename" else ""))  # fmt: skip
    if args.action == "forget" and args.new is not None:
        raise CliError(_("forget takes one WHO; quote a name with spaces"))
    if args.action == "rename":
        trouble = label_trouble(args.new) if args.new is not None else _("what to call them?")
        if trouble is not None:
            raise CliError(_("rename WHO NEW: {why}").format(why=trouble))
    friend = _one(friends, args.who)
    try:
        if args.action == "rename":
            changed = rename_friend(friend.key, args.new)
            said = _("{name} ({key}) is called {label} from now on")
        else:
            changed = forget(friend.key)
            said = _("forgot {name} ({key}): a table of theirs is no longer marked, and "
                     "their name no longer flagged")  # fmt: skip
    except FriendsError as exc:
        print(printable(str(exc)), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(_entry(changed), ensure_ascii=False))
    else:
        print(printable(said.format(name=friend.called, key=friend.fingerprint,
                                    label=changed.label)))  # fmt: skip
    return 0


def _list(friends: Friends, as_json: bool) -> None:
    """Print the friends: a table, or JSON."""
    if as_json:
        print(json.dumps([_entry(f) for f in friends], ensure_ascii=False))
    elif not len(friends):
        print(_("no friends yet: the players of each game you play on the network are "
                "recorded here"))  # fmt: skip
    else:
        print("\n".join(table(friends)))


COMMAND = Command("friends", N_("the players you played with, known by their keys"), configure,
                  run)  # fmt: skip

"""``lanparty watch``: follow a table that is running, as a spectator.

A spectator holds no seat and no secret (:class:`protocol.Watcher`): the host sends it the
log from the start and every entry after (exactly what every seat reads), and it checks each
one as a seat does, so what it shows is the table's public state, verified. It catches up
from the log whenever it comes, is never waited for, and keeps the transcript like a seat
(``lanparty audit``/``replay`` it afterwards; :mod:`lanparty.table.watching`).

On screen: the board, the narration, whose turn and the scores, as a seated player sees them
minus any hand, and the table's talk (``quit`` leaves; ``say TEXT`` talks, as ``--nick``,
where the host lets spectators talk). Where the host lets spectators take a free seat at a
night's next game (``host --spectators-sit``), the person is asked whether they take it
("A seat is free: take it? (y/N)"); ``--sit`` takes it whenever one is offered, without
asking (with ``--json``, a bot plays the seat: for scripts and tests). A spectator sits down
as ``--nick``, under the user's own identity key (``--sit`` claims it as it starts; a person
asked, when they say yes), so friends, ``--resume`` and the night's board know the seat.

``--json``: no screen, one JSON line per entry applied,
``{"pos", "kind", "seat", "view"}`` (the game's view for no seat), then a summary line.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from lanparty.commands.common import CliError, Command, net_errors
from lanparty.commands.netargs import endpoint, plain_arg
from lanparty.games import GAMES
from lanparty.i18n import N_, _
from lanparty.table.plan import TablePlan

if TYPE_CHECKING:
    from lanparty.table.outcome import Outcome

__all__ = ["COMMAND", "configure"]


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty watch``'s arguments."""
    p.add_argument(
        "table",
        metavar="TABLE",
        nargs="?",
        help=_("table name (default: the one table that takes spectators)"),
    )
    p.add_argument("--connect", metavar="HOST:PORT", type=endpoint,
                   help=_("watch the table at this address, without mDNS"))  # fmt: skip
    p.add_argument("--host-key", metavar="FINGERPRINT",
                   help=_("watch only the table opened by this key (several tables may share "
                   "a name)"))  # fmt: skip
    p.add_argument("--timeout", type=float, default=10, help=_("seconds to look for the table"))
    p.add_argument("--interface", help=_("interface name or IPv4 address to look on "
                   "(default: the default route's)"))  # fmt: skip
    p.add_argument("--local", action="store_true",
                   help=_("look on loopback (this machine only)"))  # fmt: skip
    p.add_argument(
        "--json",
        action="store_true",
        help=_("no screen: print each public state as a JSON line (for scripts)"),
    )
    p.add_argument("--quiet", action="store_true", help=_("no progress lines on stderr"))
    p.add_argument("--nick", default=None,
                   help=_("your name when you talk at a table whose host lets spectators "
                   "talk (default: your login name); shown as watching"))  # fmt: skip
    p.add_argument("--sit", action="store_true",
                   help=_("take a free seat at the night's next game whenever the host offers "
                   "one, without asking (as --nick, with your own key; with --json a bot "
                   "plays it)"))  # fmt: skip
    plain_arg(p)


def run(args: argparse.Namespace) -> int:
    """``lanparty watch``: 0 once the table closed with its audit passed and we saw it to
    the end, 1 otherwise (it stopped, we were refused, we left); on screen, 0. Raises
    :class:`CliError` for a ``--nick`` no table would take."""
    from crypto import Identity
    from lanparty.commands.seating import seated  # the table, its network and its screen
    from lanparty.table.outcome import Outcome
    from lanparty.table.watching import play_watch
    from lanparty.table.whoami import login_name, my_identity, name_trouble, nick_for
    from protocol import Watcher

    if args.sit:  # it sits down as itself: the name and key a seat of ours has
        nick = nick_for(args.nick)
        my_identity()  # claimed now, for as long as we run (a one-off one is said now)
    else:
        nick = args.nick if args.nick is not None else login_name()
    trouble = name_trouble(nick)
    if trouble is not None:
        raise CliError(_("--nick: {why}").format(why=trouble))
    args.nick = nick
    plan = TablePlan.of(args)
    saved = _("transcript saved: {path}  (replay it: lanparty replay FILE)")
    # A spectator's lines are signed with a key of its own, made for this run: its friends'
    # fingerprint stays with the program that plays (one process signs with it at a time).
    watcher = Watcher(GAMES, identity=Identity(), name=nick)
    leaving = _("you stopped watching")
    return seated(plan, watcher, play_watch, Outcome(), leaving, headless=plan.json,
                  ended=_ended, saved=saved)  # fmt: skip


def _ended(out: Outcome) -> int:
    """``--json``'s last line, the summary; 0 only if we saw the table close, audited."""
    kept = [*out.earlier, *([out.transcript] if out.transcript else [])]  # a night's games
    end = {"end": True, "audit_ok": out.audit_ok, "stopped": out.stopped,
           "transcript": out.transcript, "names": list(out.names), "transcripts": kept}  # fmt: skip
    print(json.dumps(end))
    return 0 if out.audit_ok and not out.stopped and not out.earlier_failed else 1


COMMAND = Command(
    "watch",
    N_("watch a table on the network (no seat; nothing hidden is shown)"),
    configure,
    net_errors(run),
)

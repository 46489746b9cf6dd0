"""``lanparty join``: take a seat at a table on the network, found by name over mDNS or by
``--connect`` (``--resume``: take a saved seat back after a restart), and play it in the
terminal or headless (``--bot``; :mod:`lanparty.table.joining`)."""

from __future__ import annotations

import argparse
import sys

from lanparty.commands.common import Command, net_errors
from lanparty.commands.netargs import endpoint, level_args, network_args
from lanparty.i18n import N_, _
from lanparty.table.outcome import NotSeated
from lanparty.table.plan import TablePlan
from lanparty.table.stopwords import said
from lanparty.table.whoami import name_trouble, nick_for

__all__ = ["COMMAND", "configure"]


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty join``'s arguments."""
    p.add_argument("table", metavar="TABLE", nargs="?",
                   help=_("table name (default: the first)"))  # fmt: skip
    p.add_argument("--connect", metavar="HOST:PORT", type=endpoint,
                   help=_("join directly, without mDNS"))  # fmt: skip
    p.add_argument("--timeout", type=float, default=10, help=_("seconds to look for the table"))
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="TABLE_ID",
        help=_(
            "take your seat back after this program ended mid-game (the host waits for "
            "--grace seconds); the saved seat, or the one whose table id starts with TABLE_ID"
        ),
    )
    p.add_argument(
        "--host-key",
        metavar="FINGERPRINT",
        help=_(
            "join only the table opened by this key: with --connect, refuse any other; "
            "over mDNS, pick the table announced with it (several tables may share a name)"
        ),
    )
    p.add_argument(
        "--react",
        type=float,
        default=None,
        metavar="S",
        help=_(
            "a --bot's reaction time when others may move too (a call out of turn); "
            "default: like a person, 0.7 to 2 s drawn at random each time; 0 for none"
        ),
    )
    p.add_argument(
        "--games",
        type=int,
        default=0,
        metavar="N",
        help=_(
            "leave the table after N games of the night (default: stay for every next game "
            "the host offers; a person is asked each time)"
        ),
    )
    p.add_argument(
        "--no-transcript",
        action="store_true",
        help=_(
            "keep no copy of the transcript (the bots a command of yours starts: the peer "
            "that represents you keeps one)"
        ),
    )
    p.add_argument(
        "--trust",
        metavar="KEYS",
        default="",
        help=_(
            "(set by lanparty for the bots a command starts) a --bot leaves shuffle proofs "
            "to the host while every seat is one of these keys (hex, comma-separated): the "
            "host checks every proof for the table, so they are not checked again"
        ),
    )
    # Set by lanparty for the bots a command starts: the descriptor of a pipe that holds
    # the bot's signing key (see lanparty.table.hosting). Not for people: no help, no catalogue.
    p.add_argument("--key-fd", type=int, default=None, help=argparse.SUPPRESS)
    network_args(p)
    level_args(p, many=False)


def run(args: argparse.Namespace) -> int:
    """``lanparty join``: the exit status (headless: 0 only if the audit passed). A person
    whose name the host refuses (taken, or too like one taken) is asked for another in
    place, and joins the same table with it; ``args.nick`` is the name they sat down with.

    Raises :class:`NotSeated` (one line) for a join that got no seat otherwise."""
    if args.resume is None:
        args.nick = nick_for(args.nick, bot=args.bot)
    from lanparty.commands.seating import seated  # the table, its network and its screen
    from lanparty.table.joining import open_seat, play_join  # load when a table opens

    while True:
        plan = TablePlan.of(args)
        peer, out = open_seat(plan)
        try:
            return seated(plan, peer, play_join, out, _("you left the table"))
        except NotSeated as exc:
            name = _another_name(exc, plan.nick) if not args.bot else None
            if name is None:
                raise
            # The very table the host refused the name at: where it was, opened by that key.
            args.nick, args.connect, args.table = name, exc.out.where, None
            args.host_key = exc.out.opener or args.host_key


def _another_name(exc: NotSeated, nick: str) -> str | None:
    """Ask the person at the terminal for another name if ``exc`` is the host refusing
    ``nick``; ``None`` if it is not, there is no terminal to ask at, or no name is given
    (an empty line, Ctrl-D). Raises ``KeyboardInterrupt`` on Ctrl-C."""
    if not exc.name_refused or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    from lanparty.ui.asking import ask_line  # the terminal: loaded when it asks

    if exc.out.refused == f"the name {nick!r} is already taken at this table":
        question = _("{name} is taken at this table; another name: ").format(name=nick)
    else:
        question = _("{why}; another name: ").format(why=said(exc.out.refused))
    while True:
        name = ask_line(question)
        trouble = name_trouble(name) if name is not None else None
        if trouble is None:
            return name
        question = _("{why}; another name: ").format(why=trouble)


COMMAND = Command("join", N_("join a table on the network"), configure, net_errors(run))

"""``lanparty`` with no command: the lobby, and the tables chosen from it.

The lobby only chooses (:mod:`lanparty.ui.lobby`); the choice runs as the very command line it
stands for (``lanparty join/watch/host/play …``), parsed by the same parser. When that table ends —
the game is over, or the player quit it — the player is back in the lobby. Ctrl-C ends the
whole program (one line, exit status 130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from lanparty.commands.common import CliError, Command
from lanparty.commands.netargs import NICK_HELP, plain_arg
from lanparty.i18n import N_, _
from lanparty.interrupt import Interrupted
from lanparty.net.interfaces import InterfaceError, choose_interface
from lanparty.table.whoami import nick_for
from lanparty.text import printable

if TYPE_CHECKING:
    from lanparty.ui.lobbymodel import Choice

__all__ = ["COMMAND", "argv_for", "run_lobby_command"]


def argv_for(choice: Choice, args: argparse.Namespace, nick: str) -> list[str] | None:
    """The command line ``choice`` stands for (``None``: leave the lobby)."""
    plain = ["--plain"] if getattr(args, "plain", False) else []
    net = [f"--nick={nick}", *(["--local"] if args.local else []),
           *([f"--interface={args.interface}"] if args.interface else []), *plain]  # fmt: skip
    if choice.action == "join" and choice.table is not None:
        ad = choice.table  # joined where it was seen, with the key it was seen with
        return ["join", f"--connect={ad.endpoint}", f"--host-key={ad.fingerprint}", *net]
    if choice.action == "watch" and choice.table is not None:
        ad = choice.table  # (the lobby's name: a spectator's when it talks, where allowed)
        return ["watch", f"--connect={ad.endpoint}", f"--host-key={ad.fingerprint}", *net]
    if choice.action == "resume":
        command = "host" if choice.extra["host"] else "join"
        return [command, f"--resume={choice.extra['table']}", *net]
    bots = [] if choice.bots is None else [f"--bots={choice.bots}"]
    level = [] if choice.level is None else [f"--level={choice.level}"]
    if choice.action == "host":
        return ["host", choice.game, f"--seats={choice.seats}", *bots, *level, *net]
    if choice.action == "play":
        return ["play", choice.game, f"--nick={nick}", *bots, *level, *plain]
    return None


def run_lobby_command(
    args: argparse.Namespace,
    parse: Callable[[list[str]], argparse.Namespace],
    error: type[Exception],
) -> int:
    """Show the lobby, run what the player picks, and come back to the lobby when that
    table ends; 0 once the player quits. ``parse`` is the command line's parser;
    ``error`` its one-line error, shown without leaving the lobby.

    Raises :class:`KeyboardInterrupt` or :class:`Interrupted` on Ctrl-C, and ``error`` if
    the interface cannot be used.
    """
    try:
        iface = choose_interface(args.interface, local=args.local)
    except InterfaceError as exc:
        raise error(_("{error} (try --local, or --interface NAME)").format(error=exc)) from None
    from lanparty.ui.lobby import run_lobby  # the screen: loaded when it opens

    nick = nick_for(args.nick)
    again = False
    notes: list[str] = []
    plain = True if getattr(args, "plain", False) else None
    while True:
        choice = run_lobby(iface.ip, f"{iface.name} ({iface.ip})", nick=nick, again=again,
                           plain=plain, notes=notes)  # fmt: skip
        notes = []
        if choice.action == "interrupt":
            raise KeyboardInterrupt
        nick = choice.nick or nick  # ``name NEW`` in the lobby
        argv = argv_for(choice, args, nick)
        if argv is None:
            return 0
        command = parse(argv)
        run: Callable[[argparse.Namespace], int] = command._run
        try:
            run(command)
        except Interrupted:
            raise
        except error as exc:  # a table that could not be joined, say: back to the lobby
            line = _("lanparty {command}: error: {message}")
            said = line.format(command=command.command, message=exc)
            print(printable(said), file=sys.stderr)
            notes.append(said)  # and in the lobby's events, which hide the terminal
        if choice.action == "join" and getattr(command, "nick", None):
            nick = command.nick  # the name they sat down with, if the table asked another
        again = True


def configure(p: argparse.ArgumentParser) -> None:
    """The lobby's arguments (``lanparty`` with no command)."""
    p.add_argument("--interface", help=_("interface name or IPv4 address to look on "
                   "(default: the default route's)"))  # fmt: skip
    p.add_argument("--local", action="store_true", help=_("look on loopback (this machine only)"))
    p.add_argument("--nick", default=None, help=_(NICK_HELP))
    plain_arg(p)


def run(args: argparse.Namespace) -> int:
    """The lobby (see :func:`run_lobby_command`), with the command line's own parser."""
    parse: Callable[[list[str]], argparse.Namespace] = args._parse
    return run_lobby_command(args, parse, CliError)


COMMAND = Command("lobby", N_("the tables on the network, live (the default)"), configure, run)

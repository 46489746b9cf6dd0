"""The arguments the commands that use the network share (``host``, ``join``, ``watch``,
``list``, the lobby, ``play``), and the checks argparse makes of them as they are parsed: a
port is 0 to 65535, an address is ``HOST:PORT``. A bad value ends in one line and exit code
2, before anything starts."""

from __future__ import annotations

import argparse

from lanparty.commands.common import CliError
from lanparty.games import GAMES
from lanparty.i18n import N_, _, ngettext
from lanparty.net.discovery import MAX_SPECTATORS
from lanparty.table.locate import split_endpoint
from lanparty.table.plan import DEFAULT_SPECTATORS

__all__ = [
    "NICK_HELP",
    "check_levels",
    "endpoint",
    "games_help",
    "level",
    "level_args",
    "levels",
    "network_args",
    "plain_arg",
    "port",
    "spectator_args",
    "spectators",
]

NICK_HELP = N_("your name at the table (default: your login name; 'NAME 2' in a second terminal)")


def games_help() -> str:
    """The help of a GAME argument: every game's name."""
    return _("the game: {games}").format(games=", ".join(sorted(GAMES)))


def port(text: str) -> int:
    """``--port``: a TCP port, 0 to 65535 (0: any free port); ``ArgumentTypeError`` else."""
    value = text.strip()
    if not value.isdigit() or not 0 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is a number from 0 to 65535 (0: any free port), got {text}").format(
                text=repr(text)
            )
        )
    return int(value)


def endpoint(text: str) -> str:
    """``--connect``: ``text`` if :func:`split_endpoint` takes it; ``ArgumentTypeError`` else."""
    try:
        split_endpoint(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--connect ")) from None
    return text


def network_args(p: argparse.ArgumentParser) -> None:
    """The arguments of a seat on the network: where, who, how it plays, how long a lost
    connection may take to come back."""
    p.add_argument("--interface", help=_("interface name or IPv4 address to use "
                   "(default: the default route's; --local: loopback)"))  # fmt: skip
    p.add_argument("--local", action="store_true", help=_("stay on loopback (this machine only)"))
    p.add_argument("--nick", default=None, help=_(NICK_HELP))
    p.add_argument("--bot", action="store_true", help=_("play this seat with a bot, headless"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the bot's choices"))
    p.add_argument("--json", action="store_true", help=_("print the outcome as JSON"))
    p.add_argument("--quiet", action="store_true", help=_("no progress lines on stderr"))
    plain_arg(p)
    p.add_argument("--no-friends", action="store_true", help=_("record nobody at this table "
                   "as a friend (lanparty friends lists those you played with)"))  # fmt: skip
    p.add_argument("--grace", type=float, default=30.0, metavar="S",
                   help=_("seconds a lost connection may take to come back before the table "
                   "stops (default 30; 0: stop at once)"))  # fmt: skip


def level(text: str) -> tuple[str]:
    """``--level`` of one bot (``join --bot``): easy, normal or hard (``random``/``heuristic``
    are read as easy/normal), as a list of one; ``ArgumentTypeError`` else."""
    from lanparty.games.bots import LEVELS, level_of

    found = level_of(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("a level is one of {levels}, got {text}").format(
                levels=", ".join(LEVELS), text=repr(text)
            )
        )
    return (found,)


def levels(text: str) -> tuple[str, ...]:
    """``--level`` of the bots a command starts: one level (every bot's) or one per bot,
    comma-separated, each easy, normal or hard; ``ArgumentTypeError`` else. How many a
    list must have is the command's to check (:func:`check_levels`)."""
    from lanparty.games.bots import LEVELS, levels_of

    found = levels_of(text)
    if found is None:
        line = _("a level is one of {levels}, or one per bot comma-separated (e.g. "
                 "hard,easy), got {text}")  # fmt: skip
        raise argparse.ArgumentTypeError(line.format(levels=", ".join(LEVELS), text=repr(text)))
    return found


def check_levels(given: tuple[str, ...] | None, bots: int, *, own: bool = False) -> tuple[str, ...]:
    """``given`` (``--level``: none, one, or a list) if it fits ``bots`` bots (``own``: a
    headless host, whose own seat's level may come first, one more); raises
    :class:`~lanparty.commands.common.CliError` (one line: what is accepted) for a list of
    another length."""
    from lanparty.games.bots import levels_for

    fits = levels_for(given or (), bots) is not None
    if not fits and not (own and given is not None and len(given) == bots + 1):
        raise CliError(
            ngettext(
                "--level takes one level for every bot, or one per bot comma-separated: "
                "{n} level here, got {text}",
                "--level takes one level for every bot, or one per bot comma-separated: "
                "{n} levels here, got {text}",
                bots,
            ).format(n=bots, text=repr(",".join(given or ())))
        )
    return given or ()


def think(text: str) -> float:
    """``--think``: seconds, more than 0 and at most 60; ``ArgumentTypeError`` else."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(
            _("a think time is a number of seconds above 0, at most 60, got {text}").format(
                text=repr(text)
            )
        )
    return value


def level_args(p: argparse.ArgumentParser, *, many: bool = True) -> None:
    """``--level`` and ``--think``: how well the bots play (a host's, ``play``'s: ``many``,
    one level or one per bot; a ``join --bot``'s: one), and how long a hard one may think
    about a move."""
    from lanparty.games.search import DEFAULT_THINK

    if many:
        p.add_argument("--level", type=levels, default=(), metavar="LEVEL[,LEVEL...]",
                       help=_("how well the bots play: easy (any legal move), normal (rules "
                       "of thumb; the default) or hard (searches its moves: slower, "
                       "stronger); one for every bot, or one per bot in seat order, "
                       "comma-separated (e.g. hard,normal,easy)"))  # fmt: skip
    else:
        p.add_argument("--level", type=level, default=(), metavar="LEVEL",
                       help=_("how well the bots play: easy (any legal move), normal (rules "
                       "of thumb; the default) or hard (searches its moves: slower, "
                       "stronger)"))  # fmt: skip
    p.add_argument("--think", type=think, default=None, metavar="S",
                   help=_("seconds a hard bot may think about one move (default {s})").format(
                       s=DEFAULT_THINK.seconds))  # fmt: skip


def plain_arg(p: argparse.ArgumentParser) -> None:
    """``--plain``: the table as one line per event (as when not on a terminal)."""
    p.add_argument("--plain", action="store_true", help=_("one line per event instead of the "
                   "full-screen table (for screen readers; automatic when the input or the "
                   "output is not a terminal)"))  # fmt: skip


def spectators(text: str) -> int:
    """``--spectators N``: 0 to :data:`MAX_SPECTATORS`; raises ``ArgumentTypeError``."""
    if not text.isdigit() or not 0 <= int(text) <= MAX_SPECTATORS:
        raise argparse.ArgumentTypeError(
            _("{value} is not a number of spectators from 0 to {most}").format(
                value=repr(text), most=MAX_SPECTATORS
            )
        )
    return int(text)


def spectator_args(p: argparse.ArgumentParser) -> None:
    """``--spectators N``, ``--no-spectators``, ``--spectators-talk`` and
    ``--spectators-sit`` (a host's, and ``play``'s)."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--spectators", type=spectators, default=DEFAULT_SPECTATORS,
                       metavar="N", help=_("how many people may watch the table at once "
                       "(lanparty watch; default {default}, at most {most})").format(
                           default=DEFAULT_SPECTATORS, most=MAX_SPECTATORS))  # fmt: skip
    group.add_argument("--no-spectators", dest="spectators", action="store_const", const=0,
                       help=_("nobody may watch (the table is no longer announced once it "
                       "plays)"))  # fmt: skip
    p.add_argument("--spectators-talk", action="store_true",
                   help=_("spectators may talk at the table too (say TEXT), each under "
                   "the name they give, shown as watching (default: they only read)"))  # fmt: skip
    p.add_argument("--spectators-sit", action="store_true",
                   help=_("spectators may take a free seat at the night's next game (after "
                   "the players who stay, the one watching longest first; default: they "
                   "only watch)"))  # fmt: skip

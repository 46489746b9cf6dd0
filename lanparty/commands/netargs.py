"""The arguments of the commands that use the network (``host``, ``join``, ``watch``,
``list``, the lobby), and the checks argparse makes of them as they are parsed: a port is 0
to 65535, an address is ``HOST:PORT``. A bad value ends in one line and exit code 2, before
anything starts."""

from __future__ import annotations

import argparse

from lanparty.games import GAMES
from lanparty.i18n import N_, _
from lanparty.net.discovery import MAX_SPECTATORS

__all__ = [
    "DEFAULT_SPECTATORS",
    "configure_host",
    "configure_join",
    "configure_list",
    "configure_lobby",
    "configure_watch",
    "endpoint",
    "games_help",
    "port",
    "spectator_args",
    "spectators",
    "split_endpoint",
]

#: How many people may watch a table at once unless its host says otherwise.
DEFAULT_SPECTATORS = 16

_NICK_HELP = N_(
    "your name at the table (default: your login name; 'NAME 2' in a second terminal)"
)


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


def split_endpoint(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[IPv6]:PORT`` too) as host and port, the port 1 to 65535; raises
    :class:`ValueError` with a one-line reason."""
    host, sep, number = text.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not number.isdigit() or not 0 < int(number) <= 65535:
        wants = _("wants HOST:PORT with a port from 1 to 65535, got {text}")
        raise ValueError(f"--connect {wants.format(text=repr(text))}")
    return host, int(number)


def endpoint(text: str) -> str:
    """``--connect``: ``text`` if :func:`split_endpoint` takes it; ``ArgumentTypeError`` else."""
    try:
        split_endpoint(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--connect ")) from None
    return text


def _network_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--interface", help=_("interface name or IPv4 address to use "
                   "(default: the default route's; --local: loopback)"))  # fmt: skip
    p.add_argument("--local", action="store_true", help=_("stay on loopback (this machine only)"))
    p.add_argument("--nick", default=None, help=_(_NICK_HELP))
    p.add_argument("--bot", action="store_true", help=_("play this seat with a bot, headless"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the bot's choices"))
    p.add_argument("--json", action="store_true", help=_("print the outcome as JSON"))
    p.add_argument("--quiet", action="store_true", help=_("no progress lines on stderr"))
    p.add_argument("--grace", type=float, default=30.0, metavar="S",
                   help=_("seconds a lost connection may take to come back before the table "
                   "stops (default 30; 0: stop at once)"))  # fmt: skip


def configure_host(p: argparse.ArgumentParser) -> None:
    """``lanparty host``'s arguments."""
    p.add_argument("game", metavar="GAME", nargs="?",
                   help=games_help())  # fmt: skip
    p.add_argument("--resume", nargs="?", const="", metavar="TABLE_ID",
                   help=_("restore the table this host ran when its program ended mid-game "
                   "(its players reconnect within their --grace)"))  # fmt: skip
    p.add_argument("--name", help=_("table name shown in the lobby (default: NICK's GAME)"))
    p.add_argument("--seats", type=int, default=4, help=_("number of seats (default 4)"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=_("a table option; repeatable"))  # fmt: skip
    p.add_argument("--bots", type=int, default=0,
                   help=_("bot peers to start (separate processes)"))  # fmt: skip
    p.add_argument("--port", type=port, default=0,
                   help=_("TCP port, 0 to 65535 (default 0: any free port)"))  # fmt: skip
    p.add_argument("--approve", action="store_true", help=_("each join waits for your yes at "
                   "the table (approve N, deny N: N is the request's number)"))  # fmt: skip
    p.add_argument("--react", type=float, default=None, metavar="S",
                   help=_("the bots' reaction time when others may move too (default: like a "
                   "person, 0.7 to 2 s at random; 0 for none, e.g. to measure)"))  # fmt: skip
    spectator_args(p)
    _network_args(p)


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
    """``--spectators N`` and ``--no-spectators`` (a host's, and ``play``'s)."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--spectators", type=spectators, default=DEFAULT_SPECTATORS,
                       metavar="N", help=_("how many people may watch the table at once "
                       "(lanparty watch; default {default}, at most {most})").format(
                           default=DEFAULT_SPECTATORS, most=MAX_SPECTATORS))  # fmt: skip
    group.add_argument("--no-spectators", dest="spectators", action="store_const", const=0,
                       help=_("nobody may watch (the table is no longer announced once it "
                       "plays)"))  # fmt: skip


def configure_watch(p: argparse.ArgumentParser) -> None:
    """``lanparty watch``'s arguments."""
    p.add_argument("table", metavar="TABLE", nargs="?",
                   help=_("table name (default: the one table that takes spectators)"))
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
    p.add_argument("--json", action="store_true",
                   help=_("no screen: print each public state as a JSON line (for scripts)"))
    p.add_argument("--quiet", action="store_true", help=_("no progress lines on stderr"))


def configure_join(p: argparse.ArgumentParser) -> None:
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
        help=_("take your seat back after this program ended mid-game (the host waits for "
        "--grace seconds); the saved seat, or the one whose table id starts with TABLE_ID"),
    )
    p.add_argument(
        "--host-key",
        metavar="FINGERPRINT",
        help=_("join only the table opened by this key: with --connect, refuse any other; "
        "over mDNS, pick the table announced with it (several tables may share a name)"),
    )
    p.add_argument(
        "--react",
        type=float,
        default=None,
        metavar="S",
        help=_("a --bot's reaction time when others may move too (a call out of turn); "
        "default: like a person, 0.7 to 2 s drawn at random each time; 0 for none"),
    )
    p.add_argument(
        "--no-transcript",
        action="store_true",
        help=_("keep no copy of the transcript (the bots a command of yours starts: the peer "
        "that represents you keeps one)"),
    )
    p.add_argument(
        "--trust",
        metavar="KEYS",
        default="",
        help=_("(set by lanparty for the bots a command starts) a --bot leaves shuffle proofs "
        "to the host while every seat is one of these keys (hex, comma-separated): the "
        "host checks every proof for the table, so they are not checked again"),
    )
    # Set by lanparty for the bots a command starts: the descriptor of a pipe that holds
    # the bot's signing key (see netcmd._spawn_join). Not for people: no help, no catalogue.
    p.add_argument("--key-fd", type=int, default=None, help=argparse.SUPPRESS)
    _network_args(p)


def configure_list(p: argparse.ArgumentParser) -> None:
    """``lanparty list``'s arguments."""
    p.add_argument("--timeout", type=float, default=2, help=_("seconds to listen (default 2)"))
    p.add_argument("--interface", help=_("interface name or IPv4 address"))
    p.add_argument("--local", action="store_true", help=_("look on loopback only"))
    p.add_argument("--json", action="store_true", help=_("print the tables as JSON"))


def configure_lobby(p: argparse.ArgumentParser) -> None:
    """The lobby's arguments (``lanparty`` with no command)."""
    p.add_argument("--interface", help=_("interface name or IPv4 address to look on "
                   "(default: the default route's)"))  # fmt: skip
    p.add_argument("--local", action="store_true", help=_("look on loopback (this machine only)"))
    p.add_argument("--nick", default=None, help=_(_NICK_HELP))

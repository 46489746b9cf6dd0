"""``lanparty host``: open a table on the network (``--resume``: restore the table this host
ran when its program ended mid-game). Parses, checks the game and its options, and plays the
host's seat (:mod:`lanparty.table.hosting`) in the terminal or headless (``--bot``)."""

from __future__ import annotations

import argparse

from lanparty import i18n
from lanparty.commands.common import (
    CliError,
    Command,
    check_table,
    known_game,
    net_errors,
    parse_options,
)
from lanparty.commands.netargs import (
    check_levels,
    games_help,
    level_args,
    network_args,
    port,
    spectator_args,
)
from lanparty.games import DEFAULT_GAME, get_game
from lanparty.i18n import N_, _
from lanparty.table.nightplan import read_then
from lanparty.table.plan import TablePlan
from lanparty.table.whoami import nick_for
from protocol.contract import Plain

__all__ = ["COMMAND", "configure", "host"]


def configure(p: argparse.ArgumentParser) -> None:
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
    p.add_argument("--then", default="", metavar="GAMES",
                   help=_("the night's next games, played one after another at this table "
                   "by everyone who stays, comma-separated: again (the same game), GAME, "
                   "or GAME:OPTION=VALUE[:OPTION=VALUE...], e.g. again,{game}").format(
                       game=DEFAULT_GAME))  # fmt: skip
    p.add_argument("--react", type=float, default=None, metavar="S",
                   help=_("the bots' reaction time when others may move too (default: like a "
                   "person, 0.7 to 2 s at random; 0 for none, e.g. to measure)"))  # fmt: skip
    spectator_args(p)
    network_args(p)
    level_args(p)


def run(args: argparse.Namespace) -> int:
    """``lanparty host``: the exit status; :class:`CliError` for what was typed wrong."""
    if args.resume is not None:
        return host(TablePlan.of(args), {})
    args.nick = nick_for(args.nick, bot=args.bot)
    if args.game is None:
        raise CliError(
            i18n._("which game? e.g. lanparty host {game} (or --resume)").format(game=DEFAULT_GAME)
        )
    game = get_game(known_game(args.game))
    options = parse_options(args.game, args.option)
    if not game.min_seats <= args.seats <= game.max_seats:
        raise CliError(i18n._("--seats must be {low}..{high} for {game}").format(
            low=game.min_seats, high=game.max_seats, game=args.game))  # fmt: skip
    if not 0 <= args.bots < args.seats:
        raise CliError(i18n._("--bots must be 0..{high}").format(high=args.seats - 1))
    # A list of levels is one per bot it starts (a headless host's own seat: one more,
    # first).
    args.level = check_levels(args.level, args.bots, own=args.bot)
    if args.approve and args.bot:
        raise CliError(i18n._("--approve needs a person at the table to say yes: not with --bot"))
    check_table(args.game, args.seats, options)
    try:
        read_then(args.then)
    except ValueError as exc:
        raise CliError(f"--then: {exc}") from None
    return host(TablePlan.of(args), options)


def host(plan: TablePlan, options: dict[str, Plain]) -> int:
    """Open the table ``plan`` says with ``options`` and play its host's seat; the exit
    status. Raises :class:`NetError` if it cannot be opened (``lanparty play`` hosts on
    loopback through this too)."""
    from lanparty.commands.seating import seated  # the table, its network and its screen
    from lanparty.table.hosting import open_host, play_host  # load when a table opens

    party, out = open_host(plan, options)
    return seated(plan, party, play_host, out, _("the table stopped for everyone"))


COMMAND = Command("host", N_("open a table on the network"), configure, net_errors(run))

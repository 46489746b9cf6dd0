"""``lanparty play``: a game in this terminal against bots. By default a real table on
loopback (each bot a peer process, the deck dealt with mental poker as on a LAN); with
``--offline`` the bots play in this process with no cryptography, instantly."""

from __future__ import annotations

import argparse
import random

from lanparty import i18n
from lanparty.commands.common import CliError, Command, check_table, known_game, parse_options
from lanparty.commands.host import host
from lanparty.commands.netargs import check_levels, games_help, level_args, plain_arg
from lanparty.errors import NetError
from lanparty.games import get_game
from lanparty.games.optionwords import refusal
from lanparty.i18n import N_
from lanparty.interrupt import EXIT_INTERRUPTED, Interrupted
from lanparty.table.plan import TablePlan
from lanparty.table.whoami import nick_for
from protocol.contract import OptionError, Plain

__all__ = ["COMMAND", "configure"]


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=games_help())
    p.add_argument(
        "--bots", type=int, default=None,
        help=i18n._("bot players (default 3, or fewer if the game seats fewer)"),
    )  # fmt: skip
    p.add_argument("--nick", default=None, help=i18n._("your name at the table (default: your "
                   "login name; 'NAME 2' in a second terminal)"))  # fmt: skip
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=i18n._("a table option, e.g. --option target=200 (repeatable); see 'lanparty rules'"),
    )
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help=i18n._("seed of the bots' choices (and, --offline, of the deal)"),
    )
    p.add_argument(
        "--bot-kind",
        default="heuristic",
        help=i18n._("bot strategy of an --offline table: heuristic (default) or random"),
    )
    level_args(p)
    p.add_argument(
        "--offline",
        action="store_true",
        help=i18n._(
            "no network and no cryptography: bots in this process, a seeded dealer "
            "(instant; for learning the rules)"
        ),
    )
    plain_arg(p)


def run(args: argparse.Namespace) -> int:
    """``lanparty play``: the exit status; :class:`CliError` for what was typed wrong,
    :class:`Interrupted` if the player pressed Ctrl-C."""
    from lanparty.games.bots import Bot, bot_at, bots_for, level_of, level_word, levels_for
    from lanparty.games.search import Think
    from lanparty.table.local import BOT_NAMES, LocalTable
    from lanparty.table.localnight import LocalNight

    game_name = known_game(args.game)
    game = get_game(game_name)
    options = parse_options(game_name, args.option)
    bots = args.bots if args.bots is not None else min(3, game.max_seats - 1)
    if not game.min_seats <= bots + 1 <= game.max_seats:
        raise CliError(i18n._("--bots must be {low} to {high} for {game}, got {n}").format(
            low=game.min_seats - 1, high=game.max_seats - 1, game=game_name, n=bots))  # fmt: skip
    kinds = bots_for(game_name)
    if args.bot_kind not in kinds:
        known = ", ".join(sorted(kinds))
        raise CliError(i18n._("unknown --bot-kind {kind}; known: {known}").format(
            kind=repr(args.bot_kind), known=known))  # fmt: skip
    # The bots are listed with their levels when one was chosen (else all are normal).
    chosen = bool(args.level) or args.bot_kind != "heuristic"
    given = check_levels(args.level, bots) or (level_of(args.bot_kind) or "normal",)
    levels = levels_for(given, bots) or ()
    think = Think.given(args.think)
    nick = nick_for(args.nick)
    check_table(game_name, bots + 1, options)
    if not args.offline:
        return _play_on_loopback(args, game_name, options, bots, nick, given if chosen else ())
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)

    def make(game: str, options: dict[str, Plain], seats: int, number: int) -> LocalTable:
        """The night's ``number``-th table: the person and ``seats - 1`` bots, each of the
        level asked for it (``normal`` past the list), each simulating this table's options
        when it searches; the players' list shows each bot's level if one was chosen."""
        levels_now = [levels[i] if i < len(levels) else "normal" for i in range(seats - 1)]
        players: list[Bot | None] = [None]
        players += [bot_at(game, level, options, think) for level in levels_now]
        names = [nick, *BOT_NAMES[: seats - 1]]
        return LocalTable(game, names, players, options, seed + number - 1,
                          levels=[None, *levels_now] if chosen else ())  # fmt: skip

    try:
        session = LocalNight(make, game_name, options, bots + 1)
    except OptionError as exc:
        raise CliError(refusal(exc)) from None
    from lanparty.ui.app import run

    if len(set(levels)) <= 1:
        kind = level_word(levels[0] if levels else "normal")
        print(i18n.ngettext("{game} against {n} {kind} bot, seed {seed}",
                            "{game} against {n} {kind} bots, seed {seed}", bots).format(
            game=game_name, n=bots, kind=kind, seed=seed))  # fmt: skip
    else:
        words = ", ".join(level_word(level) for level in levels)
        print(i18n._("{game} against {n} bots ({levels}), seed {seed}").format(
            game=game_name, n=bots, levels=words, seed=seed))  # fmt: skip
    if run(session, plain=args.plain or None) == EXIT_INTERRUPTED:
        raise Interrupted(i18n._("interrupted: you left the game"))
    return 0


def _play_on_loopback(
    args: argparse.Namespace,
    game: str,
    options: dict[str, Plain],
    bots: int,
    nick: str,
    level: tuple[str, ...],
) -> int:
    """A real table on loopback: this process hosts and plays seat 1, each bot is a peer
    process of its own; the deck is shuffled and dealt with mental poker like on a LAN."""
    plan = TablePlan(
        game=game, nick=nick, seats=bots + 1, bots=bots, local=True, name=f"{nick}'s {game}",
        seed=args.seed or 0, quiet=True, advertise=False, grace=0.0, plain=args.plain,
        level=level, think=args.think,
    )  # fmt: skip
    try:
        return host(plan, options)
    except NetError as exc:
        raise CliError(str(exc)) from None


COMMAND = Command("play", N_("play a game in this terminal against bots"), configure, run)

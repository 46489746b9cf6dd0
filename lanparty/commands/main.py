"""The ``lanparty`` command: parsing and dispatch only.

Each subcommand is one ``Subcommand`` in ``SUBCOMMANDS``: a name, a one-line help, a function
that adds its arguments and a function that runs it. Adding ``host`` or ``join`` means adding
one entry. Errors a user can make end in one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, NoReturn

from lanparty import i18n
from lanparty.commands import argwords
from lanparty.commands.netargs import (
    configure_host,
    configure_join,
    configure_list,
    configure_lobby,
    configure_watch,
    games_help,
)
from lanparty.commands.whoami import nick_for
from lanparty.games import (
    DEFAULT_GAME,
    GAMES,
    get_game,
    rules_for_reader,
    with_reader_language,
)
from lanparty.games.optionwords import refusal
from lanparty.i18n import N_
from lanparty.interrupt import EXIT_INTERRUPTED, Interrupted, interrupted
from lanparty.text import printable
from protocol.contract import OptionError, Plain

__all__ = ["SUBCOMMANDS", "CliError", "Subcommand", "main"]


class CliError(Exception):
    """A mistake on the command line; its message is shown as one line (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage block, a hint to ``--help`` instead), and
    argparse's own words (headings, errors) in the reader's language (:mod:`.argwords`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        with argwords.in_language():  # the headings and -h's help are written now
            super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """As argparse parses, its errors and ``--help`` in the reader's language."""
        with argwords.in_language():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        """The usage line, ``usage:`` in the reader's language."""
        with argwords.in_language():
            return super().format_usage()

    def format_help(self) -> str:
        """The whole help, argparse's headings in the reader's language."""
        with argwords.in_language():
            return super().format_help()

    def error(self, message: str) -> NoReturn:
        line = i18n._("{program}: error: {message} (see {program} --help)")
        self.exit(2, line.format(program=self.prog, message=message) + "\n")


@dataclass(frozen=True, slots=True)
class Subcommand:
    """One ``lanparty NAME`` command: ``configure`` adds its arguments, ``run`` returns the
    exit code (or raises ``CliError``)."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# --------------------------------------------------------------------------- helpers


def _game(name: str) -> str:
    """``name`` if it is a known game; ``CliError`` listing the known ones otherwise."""
    try:
        get_game(name)
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise CliError(
            i18n._("unknown game {name}; known: {known}").format(name=repr(name), known=known)
        ) from None
    return name


def _value(text: str) -> Plain:
    """An option value as typed: ``true``/``false`` → bool, digits → int, else the text."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_options(game: str, items: Sequence[str]) -> dict[str, Plain]:
    """``KEY=VALUE`` items validated by the game; ``CliError`` with the game's reason."""
    given: dict[str, Plain] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CliError(i18n._("--option wants KEY=VALUE, got {item}").format(item=repr(item)))
        given[key.strip()] = _value(value.strip())
    try:
        return get_game(game).validate_options(with_reader_language(game, given))
    except OptionError as exc:
        raise CliError(refusal(exc)) from None


def check_table(game: str, seats: int, options: dict[str, Plain]) -> None:
    """Options that depend on the number of seats (cards that must fit in the deck) are
    checked now, not when the last player sits down; ``CliError`` with the game's reason."""
    try:
        get_game(game).setup(seats, options)
    except OptionError as exc:
        raise CliError(refusal(exc)) from None


# --------------------------------------------------------------------------- play


def _configure_play(p: argparse.ArgumentParser) -> None:
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
    p.add_argument(
        "--offline",
        action="store_true",
        help=i18n._("no network and no cryptography: bots in this process, a seeded dealer "
                    "(instant; for learning the rules)"),
    )


def _run_play(args: argparse.Namespace) -> int:
    from lanparty.games.bots import Bot, bots_for
    from lanparty.table.local import BOT_NAMES, LocalTable

    game_name = _game(args.game)
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
    nick = nick_for(args.nick)
    check_table(game_name, bots + 1, options)
    if not args.offline:
        return _play_on_loopback(args, game_name, options, bots, nick)
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    players: list[Bot | None] = [None, *(kinds[args.bot_kind]() for _ in range(bots))]
    try:
        session = LocalTable(game_name, [nick, *BOT_NAMES[:bots]], players, options, seed)
    except OptionError as exc:
        raise CliError(refusal(exc)) from None
    from lanparty.ui.app import run

    kind = {"random": i18n.pgettext("bots", "random"),
            "heuristic": i18n.pgettext("bots", "heuristic")}.get(args.bot_kind, args.bot_kind)
    print(i18n.ngettext("{game} against {n} {kind} bot, seed {seed}",
                        "{game} against {n} {kind} bots, seed {seed}", bots).format(
        game=game_name, n=bots, kind=kind, seed=seed))  # fmt: skip
    if run(session) == EXIT_INTERRUPTED:
        raise Interrupted(i18n._("interrupted: you left the game"))
    return 0


def _play_on_loopback(
    args: argparse.Namespace, game: str, options: dict[str, Plain], bots: int, nick: str
) -> int:
    """A real table on loopback: this process hosts and plays seat 1, each bot is a peer
    process of its own; the deck is shuffled and dealt with mental poker like on a LAN."""
    from lanparty.commands.netplay import NetError, run_host

    table = argparse.Namespace(
        game=game, nick=nick, seats=bots + 1, bots=bots, bot=False, local=True,
        interface=None, port=0, name=f"{nick}'s {game}", seed=args.seed or 0,
        quiet=True, json=False, advertise=False, grace=0.0,
    )  # fmt: skip
    try:
        return run_host(table, options)
    except NetError as exc:
        raise CliError(str(exc)) from None


# --------------------------------------------------------------------------- rules


def _configure_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=games_help())


def _run_rules(args: argparse.Namespace) -> int:
    sys.stdout.write(rules_for_reader(_game(args.game)))
    return 0


# --------------------------------------------------------------------------- the table


def _net(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def wrapped(args: argparse.Namespace) -> int:
        from lanparty.commands.netplay import NetError

        try:
            return run(args)
        except NetError as exc:
            raise CliError(str(exc)) from None

    return wrapped


def _run_host(args: argparse.Namespace) -> int:
    from lanparty.commands.netplay import run_host

    if args.resume is not None:
        return run_host(args, {})
    args.nick = nick_for(args.nick, bot=args.bot)
    if args.game is None:
        raise CliError(
            i18n._("which game? e.g. lanparty host {game} (or --resume)").format(game=DEFAULT_GAME)
        )
    game = get_game(_game(args.game))
    options = parse_options(args.game, args.option)
    if not game.min_seats <= args.seats <= game.max_seats:
        raise CliError(i18n._("--seats must be {low}..{high} for {game}").format(
            low=game.min_seats, high=game.max_seats, game=args.game))  # fmt: skip
    if not 0 <= args.bots < args.seats:
        raise CliError(i18n._("--bots must be 0..{high}").format(high=args.seats - 1))
    if args.approve and args.bot:
        raise CliError(
            i18n._("--approve needs a person at the table to say yes: not with --bot")
        )
    check_table(args.game, args.seats, options)
    return run_host(args, options)


def _run_join(args: argparse.Namespace) -> int:
    from lanparty.commands.netplay import run_join

    if args.resume is None:
        args.nick = nick_for(args.nick, bot=args.bot)
    return run_join(args)


def _run_watch(args: argparse.Namespace) -> int:
    from lanparty.commands.watch import run_watch

    return run_watch(args)


def _run_list(args: argparse.Namespace) -> int:
    from lanparty.commands.listing import run_list

    return run_list(args)


def _configure_demo(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", help=games_help())
    p.add_argument("--players", type=int, default=4, help=i18n._("bot peers, one process each"))
    p.add_argument("--seed", type=int, default=1, help=i18n._("seed of the bots' choices"))
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=i18n._("a table option; repeatable"))  # fmt: skip
    p.add_argument("--json", action="store_true", help=i18n._("print the outcome as JSON (with "
                   "rounds_won and races_won per seat)"))  # fmt: skip


def _run_demo(args: argparse.Namespace) -> int:
    from lanparty.commands.demo import run_demo

    game = get_game(_game(args.game))
    if not game.min_seats <= args.players <= game.max_seats:
        raise CliError(i18n._("--players must be {low}..{high} for {game}").format(
            low=game.min_seats, high=game.max_seats, game=args.game))  # fmt: skip
    check_table(args.game, args.players, parse_options(args.game, args.option))
    return run_demo(args)


# --------------------------------------------------------------------------- audit, bench


def _configure_audit(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=i18n._("a saved transcript (.lptx)"))
    p.add_argument("--json", action="store_true", help=i18n._("print the verdict as JSON"))


def _run_audit(args: argparse.Namespace) -> int:
    from lanparty.commands.audit import run_audit

    return run_audit(args)


def _configure_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help=i18n._("a saved transcript (.lptx)"))
    p.add_argument("--json", action="store_true",
                   help=i18n._("print every public state of the game as JSON"))  # fmt: skip
    p.add_argument("--open", action="store_true",
                   help=i18n._("show every hand too, once the audit has verified the game to "
                               "its end and unmasked every card"))  # fmt: skip
    from lanparty.replay.view import help_epilog

    p.epilog = help_epilog()
    p.formatter_class = argparse.RawDescriptionHelpFormatter


def _run_replay(args: argparse.Namespace) -> int:
    from lanparty.commands.replay import run_replay

    return run_replay(args)


def _configure_bench(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME", nargs="?", default=DEFAULT_GAME,
                   help=i18n._("the game to play (default {game}): {games}").format(
                       game=DEFAULT_GAME, games=", ".join(sorted(GAMES))))  # fmt: skip
    p.add_argument("--players", type=int, default=4, help=i18n._("peer processes (default 4)"))
    p.add_argument("--json", action="store_true", help=i18n._("print the figures as JSON"))
    p.add_argument("--lan-model", action="store_true",
                   help=i18n._("also the joint shuffle as if each peer had a machine of its "
                   "own: proof and check times measured here, composed along the message "
                   "order"))  # fmt: skip


def _run_bench(args: argparse.Namespace) -> int:
    from lanparty.commands.bench import run_bench

    return run_bench(args)


# --------------------------------------------------------------------------- lobby


def _run_lobby(args: argparse.Namespace) -> int:
    from lanparty.commands.lobby import run_lobby_command

    return run_lobby_command(args, build_parser().parse_args, CliError)


SUBCOMMANDS: list[Subcommand] = [
    Subcommand(
        "lobby", N_("the tables on the network, live (the default)"), configure_lobby, _run_lobby
    ),
    Subcommand("play", N_("play a game in this terminal against bots"), _configure_play, _run_play),
    Subcommand("host", N_("open a table on the network"), configure_host, _net(_run_host)),
    Subcommand("join", N_("join a table on the network"), configure_join, _net(_run_join)),
    Subcommand(
        "watch",
        N_("watch a table on the network (no seat; nothing hidden is shown)"),
        configure_watch,
        _net(_run_watch),
    ),
    Subcommand("list", N_("list the tables on the network"), configure_list, _net(_run_list)),
    Subcommand(
        "demo",
        N_("a whole table of bot processes over mDNS on loopback"),
        _configure_demo,
        _net(_run_demo),
    ),
    Subcommand("rules", N_("print the rules of a game"), _configure_rules, _run_rules),
    Subcommand("audit", N_("re-verify a saved game offline"), _configure_audit, _net(_run_audit)),
    Subcommand(
        "replay", N_("step through a saved game on screen, verified first"), _configure_replay,
        _net(_run_replay),
    ),
    Subcommand(
        "bench", N_("measure real peer processes on loopback"), _configure_bench, _net(_run_bench)
    ),
]
"""Every subcommand, in the order ``--help`` lists them."""


def _version() -> str:
    """``lanparty X.Y.Z (protocol N)``: peers of one protocol version can share a table."""
    from importlib.metadata import PackageNotFoundError, version

    from protocol import PROTOCOL_VERSION

    try:
        number = version("lanparty")
    except PackageNotFoundError:  # running from a source tree that was never installed
        number = "unknown"
    return f"lanparty {number} (protocol {PROTOCOL_VERSION})"


def _add_lang(parser: argparse.ArgumentParser, default: str | None) -> None:
    """The ``--lang`` option (every command has it, and the bare ``lanparty`` too)."""
    parser.add_argument(
        "--lang", metavar="LANG", default=default,
        help=i18n._("the language to read: {languages} (default: from LANGUAGE, LC_ALL, "
                    "LC_MESSAGES or LANG; any other: English)").format(
            languages=", ".join(i18n.LANGUAGES)),
    )  # fmt: skip


def _lang_in(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``argv`` (``None``: none given)."""
    found: str | None = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def build_parser() -> argparse.ArgumentParser:
    """The parser with one subparser per entry of ``SUBCOMMANDS``."""
    parser = _Parser(
        prog="lanparty",
        description=i18n._("Peer-to-peer LAN party card games with mental poker."),
        epilog=i18n._("With no command, lanparty opens the lobby: the tables on your network, "
                      "live."),
    )
    parser.add_argument("--version", action="version", version=_version(),
                        help=i18n._("show program's version number and exit"))  # fmt: skip
    _add_lang(parser, default=None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in SUBCOMMANDS:
        said = i18n._(command.help)
        p = sub.add_parser(command.name, help=said, description=said)
        command.configure(p)
        _add_lang(p, default=argparse.SUPPRESS)  # before or after the command, alike
        p.set_defaults(_run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (0 ok, 1 the table stopped or the audit
    failed, 2 usage error, 3 an incomplete transcript, 130 Ctrl-C)."""
    given = list(sys.argv[1:] if argv is None else argv)
    i18n.set_language(_lang_in(given))  # first: the help texts are read in it too
    parser = build_parser()
    lead: list[str] = []  # ``--lang X`` before the command stays before it
    while given and (given[0] == "--lang" or given[0].startswith("--lang=")):
        take = 1 if "=" in given[0] else 2
        lead, given = lead + given[:take], given[take:]
    if not given or (given[0].startswith("-") and given[0] not in ("-h", "--help", "--version")):
        given.insert(0, "lobby")  # no command: the lobby (``lanparty --local`` too)
    args = parser.parse_args(lead + given)
    run: Callable[[argparse.Namespace], int] = args._run
    try:
        return run(args)
    except CliError as exc:
        line = i18n._("lanparty {command}: error: {message}")
        print(printable(line.format(command=args.command, message=exc)), file=sys.stderr)
        return 2
    except BaseException as exc:
        if not interrupted(exc):
            raise
        # Ctrl-C: one line, whatever was running (children are ended where they were started).
        line = str(exc) if isinstance(exc, Interrupted) and str(exc) else i18n._("interrupted")
        with suppress(KeyboardInterrupt):
            print(printable(f"lanparty {args.command}: {line}"), file=sys.stderr)
        return EXIT_INTERRUPTED

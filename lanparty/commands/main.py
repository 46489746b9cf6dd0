"""The ``lanparty`` command: parsing and dispatch only.

Each command is a module of this package with a ``COMMAND`` (:class:`.common.Command`: its
name, a one-line help, what adds its arguments and what runs it); ``SUBCOMMANDS`` lists them
in the order ``--help`` does. Adding a command means adding its module and one entry. Errors
a user can make end in one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any, NoReturn

from lanparty import i18n
from lanparty.commands import (
    argwords,
    audit,
    bench,
    demo,
    friends,
    host,
    join,
    listing,
    lobby,
    night,
    play,
    replay,
    rules,
    watch,
)
from lanparty.commands.common import CliError, Command
from lanparty.interrupt import EXIT_INTERRUPTED, Interrupted, interrupted
from lanparty.text import printable

__all__ = ["SUBCOMMANDS", "CliError", "build_parser", "main"]


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


SUBCOMMANDS: list[Command] = [
    lobby.COMMAND,
    play.COMMAND,
    host.COMMAND,
    join.COMMAND,
    watch.COMMAND,
    listing.COMMAND,
    friends.COMMAND,
    demo.COMMAND,
    rules.COMMAND,
    audit.COMMAND,
    replay.COMMAND,
    night.COMMAND,
    bench.COMMAND,
]
"""Every command, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The parser with one subparser per entry of ``SUBCOMMANDS``."""
    parser = _Parser(
        prog="lanparty",
        description=i18n._("Peer-to-peer LAN party card games with mental poker."),
        epilog=i18n._(
            "With no command, lanparty opens the lobby: the tables on your network, live."
        ),
    )
    parser.add_argument("--version", action="version", version=_version(),
                        help=i18n._("show program's version number and exit"))  # fmt: skip
    _add_lang(parser, default=None)
    parser.set_defaults(_parse=parser.parse_args)  # the lobby runs what it picks with it
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

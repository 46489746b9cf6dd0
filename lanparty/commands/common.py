"""What every command shares: the one-line error, the shape of a command (its arguments and
what runs it), and the checks of a game and its options as typed."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lanparty import i18n
from lanparty.errors import NetError
from lanparty.games import GAMES, get_game, with_reader_language
from lanparty.games.optionwords import refusal
from lanparty.table.nightplan import option_value
from protocol.contract import OptionError, Plain

__all__ = [
    "CliError",
    "Command",
    "check_table",
    "known_game",
    "net_errors",
    "parse_options",
]


class CliError(Exception):
    """A mistake on the command line, or a table that cannot be reached; its message is
    shown as one line (exit code 2)."""


@dataclass(frozen=True, slots=True)
class Command:
    """One ``lanparty NAME`` command: ``configure`` adds its arguments, ``run`` returns the
    exit code (or raises ``CliError``). ``help`` is marked for translation (``N_``) and
    read in the reader's language when the parser is built."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def net_errors(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``run``, with a :class:`NetError` (an address, a table, a socket) said as a
    :class:`CliError`."""

    def wrapped(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except NetError as exc:
            raise CliError(str(exc)) from None

    wrapped.__doc__ = run.__doc__
    return wrapped


def known_game(name: str) -> str:
    """``name`` if it is a known game; ``CliError`` listing the known ones otherwise."""
    try:
        get_game(name)
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise CliError(
            i18n._("unknown game {name}; known: {known}").format(name=repr(name), known=known)
        ) from None
    return name


def parse_options(game: str, items: Sequence[str]) -> dict[str, Plain]:
    """``KEY=VALUE`` items validated by the game; ``CliError`` with the game's reason."""
    given: dict[str, Plain] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise CliError(i18n._("--option wants KEY=VALUE, got {item}").format(item=repr(item)))
        given[key.strip()] = option_value(value.strip())
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

"""``lanparty rules GAME``: print a game's rules in the reader's language."""

from __future__ import annotations

import argparse
import sys

from lanparty import i18n
from lanparty.commands.common import Command, known_game
from lanparty.commands.netargs import games_help
from lanparty.games import NIGHT, rules_for_reader
from lanparty.i18n import N_

__all__ = ["COMMAND"]


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty rules``'s argument: the game."""
    p.add_argument("game", metavar="GAME",
                   help=games_help() + " " + i18n._("(or night: how a night of games is "
                                                     "scored)"))  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Print the rules; 0 (:class:`CliError` for an unknown game)."""
    sys.stdout.write(rules_for_reader(args.game if args.game == NIGHT else known_game(args.game)))
    return 0


COMMAND = Command("rules", N_("print the rules of a game"), configure, run)

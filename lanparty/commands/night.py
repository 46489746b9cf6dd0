"""``lanparty night``: the night's scoreboard, computed from the saved transcripts.

``lanparty night`` shows the latest night (the games a table played one after another),
``--list`` every night kept here, ``lanparty night N`` the N-th of that list (1: the
latest) or the night whose id starts with N's hex digits, and ``--files`` the night the
given transcripts make up (anyone can check a board from the files alone). Every transcript
is audited once (then remembered by its digest; ``--check`` audits them all again); only a
game that passes its audit counts (``lanparty rules night``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from lanparty import i18n
from lanparty.commands.common import CliError, Command
from lanparty.commands.progress import Progress
from lanparty.i18n import N_, _, ngettext
from lanparty.night import Night, night_json, nights, points_text
from lanparty.replay.night import game_results
from lanparty.text import printable

__all__ = ["COMMAND"]


def _chosen(found: list[Night], which: str | None) -> Night:
    """The night ``which`` names (``None``: the latest); :class:`CliError` otherwise."""
    latest_first = list(reversed(found))
    if which is None:
        return latest_first[0]
    if which.isdigit() and 1 <= int(which) <= len(latest_first):
        return latest_first[int(which) - 1]
    matches = [n for n in latest_first if n.first.hex().startswith(which.lower())]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise CliError(
            _("{which} names {n} nights: give more of its id").format(
                which=printable(which), n=len(matches)
            )
        )
    raise CliError(
        _("no night {which}: lanparty night --list shows the {n} kept here").format(
            which=printable(which), n=len(found)
        )
    )


def _list_line(index: int, night: Night) -> str:
    """One night in ``--list``: its number, id, when, its games and its leader."""
    from lanparty.ui.layout import game_title  # the screen's modules only when asked for

    games = ", ".join(game_title(g.game) for g in night.games)
    top = night.standings()[0] if night.standings() else None
    leader = (
        _("{name} leads with {points}").format(
            name=printable(top.name), points=points_text(top.total)
        )
        if top is not None and top.total > 0
        else _("nothing counted")
    )
    count = ngettext("{n} game", "{n} games", len(night.games)).format(n=len(night.games))
    return f"{index:>3}  {night.first.hex()[:8]}  {night.when}  {count}: {games} · {leader}"


def run(args: argparse.Namespace) -> int:
    """Print a night's board (or the list of nights); 0. :class:`CliError` (exit 2) when
    no transcript is kept here, or for a night that is not known."""
    paths = [Path(f) for f in args.files] if args.files else None
    if paths is not None:
        missing = [str(p) for p in paths if not p.is_file()]
        if missing:
            raise CliError(_("no such file: {files}").format(files=printable(", ".join(missing))))
    with Progress() as progress:
        results = game_results(
            paths,
            check=args.check,
            told=lambda p: progress.show(
                _("auditing {name}…").format(name=printable(p.name)), force=True
            ),
        )
    found = nights(results)
    if not found:
        raise CliError(
            _(
                "no game played here yet: a night's board is made from the saved "
                "games (lanparty play, host or join)"
            )
            if paths is None
            else _("none of these files is a lanparty transcript")
        )
    if args.list:
        if args.json:
            print(json.dumps([night_json(n) for n in reversed(found)]))
        else:
            print("\n".join(_list_line(i, n) for i, n in enumerate(reversed(found), 1)))
        return 0
    night = _chosen(found, args.which)
    if args.json:
        print(json.dumps(night_json(night)))
    else:
        from lanparty.ui.nightboard import night_text  # the screen's modules only now

        sys.stdout.write(night_text(night))
    return 0


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty night``'s arguments."""
    p.add_argument(
        "which",
        metavar="NIGHT",
        nargs="?",
        help=i18n._(
            "which night: its number in --list (1: the latest) or the "
            "start of its id; the latest by default"
        ),
    )
    p.add_argument("--list", action="store_true", help=i18n._("list every night kept here"))
    p.add_argument(
        "--files",
        nargs="+",
        metavar="FILE",
        help=i18n._("the night these transcripts make up, instead of the games kept here"),
    )
    p.add_argument(
        "--check",
        action="store_true",
        help=i18n._("audit every transcript again (results are remembered otherwise)"),
    )
    p.add_argument("--json", action="store_true", help=i18n._("print the board as JSON"))


COMMAND = Command("night", N_("show the scoreboard of a night of games"), configure, run)

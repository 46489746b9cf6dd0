"""``lanparty list``: the tables announced on the network, listened for a moment."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import trio

from lanparty.commands.common import Command, net_errors
from lanparty.errors import NetError
from lanparty.friends import Friends, complaint
from lanparty.friends import load as load_friends
from lanparty.i18n import N_, _, ngettext
from lanparty.net.discovery import TableAd, browse
from lanparty.net.interfaces import InterfaceError, choose_interface
from lanparty.table.friendly import host_json, host_note
from lanparty.table.locate import by_name
from lanparty.text import printable
from protocol._names import skeleton

__all__ = ["COMMAND", "run_list"]

_LANGUAGE_NAMES = {"en": N_("English"), "pl": N_("Polish"), "es": N_("Spanish")}
"""The writing languages a table may advertise, by name (translated where shown)."""


async def _list(args: argparse.Namespace) -> list[TableAd]:
    iface = choose_interface(args.interface, local=args.local)
    async with browse(iface.ip) as lobby:
        with trio.move_on_after(args.timeout):
            while True:
                await lobby.next_event()
        return sorted(lobby.tables.values(), key=by_name)


def run_list(args: argparse.Namespace) -> int:
    """``lanparty list``; :class:`NetError` if the interface cannot be used."""
    try:
        tables = trio.run(_list, args)
    except InterfaceError as exc:
        raise NetError(str(exc)) from None
    friends = load_friends()
    damaged = complaint(friends)
    if damaged is not None:
        print(printable(damaged), file=sys.stderr)
    if args.json:
        print(json.dumps([_ad(t, friends) for t in tables]))
    elif not tables:
        print(_("no tables found"))
    for t in [] if args.json else tables:
        seated = _("{seated}/{seats} seated").format(seated=t.seats - t.free, seats=t.seats)
        if t.playing:
            seated = _("playing")
        if t.watchers:
            seated += "  " + ngettext("{n} watching", "{n} watching", t.watchers).format(
                n=t.watchers
            )
        if t.lang:
            said = _LANGUAGE_NAMES.get(t.lang)
            seated += "  " + _("writing language: {language}").format(
                language=_(said) if said is not None else t.lang
            )
        host = _("host {host} [{key}]").format(host=t.host, key=t.fingerprint)
        note = host_note(friends, t.host, t.fingerprint)
        if note is not None:
            host += "  " + note[0]
        print(printable(f"{t.name:24} {t.game:9} {seated}  {host}  --connect {t.endpoint}"))
    for t, alike in [] if args.json else _namesakes(tables):
        said = _(
            "({count} tables are called {name}: tell them apart by the host key; join one "
            "with --host-key FINGERPRINT)"
        )
        print(printable(said.format(count=alike, name=repr(t.name))))
    return 0


def _namesakes(tables: list[TableAd]) -> list[tuple[TableAd, int]]:
    """One table of each name that several tables read as, and how many do."""
    groups: dict[str, list[TableAd]] = {}
    for t in tables:
        groups.setdefault(skeleton(t.name), []).append(t)
    return [(group[0], len(group)) for group in groups.values() if len(group) > 1]


def _ad(t: TableAd, friends: Friends) -> dict[str, Any]:
    """A table as ``--json`` prints it: what it announced, and what the friends file says
    of its host (``friend``, ``not_friend``: see :func:`host_json`)."""
    return {**{k: getattr(t, k) for k in TableAd.__slots__},
            **host_json(friends, t.host, t.fingerprint)}  # fmt: skip


def configure(p: argparse.ArgumentParser) -> None:
    """``lanparty list``'s arguments."""
    p.add_argument("--timeout", type=float, default=2, help=_("seconds to listen (default 2)"))
    p.add_argument("--interface", help=_("interface name or IPv4 address"))
    p.add_argument("--local", action="store_true", help=_("look on loopback only"))
    p.add_argument("--json", action="store_true", help=_("print the tables as JSON"))


COMMAND = Command("list", N_("list the tables on the network"), configure, net_errors(run_list))

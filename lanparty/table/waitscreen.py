"""What a networked seat shows while it cannot show a table yet: the status words for a seat
that owes the table an entry, and the screen of a table whose game is not known yet."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from lanparty.i18n import _
from lanparty.table.stopwords import OWED
from protocol import Host, Peer
from protocol.contract import Move, Seat

__all__ = ["WAITING", "waiting_for"]


def waiting_for(party: Host | Peer, seat: Seat, kind: str) -> str:
    """``"waiting for Carl (seat 2)'s shuffle"``, in the reader's language."""
    member = party.table.member_at(seat)
    if member:
        who = _("{name} (seat {seat})").format(name=member.name, seat=seat)
    else:
        who = _("seat {seat}").format(seat=seat)
    what = _(OWED[kind]) if kind in OWED else kind
    return _("waiting for {who}'s {what}").format(who=who, what=what)


class Waiting:
    """The screen of a table whose game is not known yet: nothing to show or type."""

    styles: Mapping[str, str] = MappingProxyType({})
    aliases: Mapping[str, str] = MappingProxyType({})

    def table(self, view: Any, names: Any, width: int) -> list[tuple[str, str]]:
        return []

    def hand(self, view: Any, width: int, legal: Any) -> list[tuple[str, str]]:
        return []

    def prompt(self, view: Any, can_decline: bool) -> str:
        return _("waiting> ")

    def parse(self, head: str, args: list[str], text: str, view: Any) -> Move:
        from lanparty.games.screens import ParseError

        raise ParseError(_("the game has not started yet"))

    def command_for(self, move: Move, view: Any) -> tuple[str, str]:
        return str(move[0]), ""

    def help(self) -> list[tuple[str, str]]:
        return []

    def humanize(self, reason: str) -> str:
        return reason

    def final(self, view: Any, names: Any) -> list[tuple[str, str]]:
        return []


WAITING = Waiting()

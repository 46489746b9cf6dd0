"""The host's own commands at its seat in a networked table (``start``, ``kick N``,
``approve N``, ``deny N``), and what it is offered to type while the table fills: the part
of :class:`lanparty.table.networked.NetSeat` only a host uses (mixed into it, which owns
every attribute used here)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

import trio

from lanparty.i18n import _
from lanparty.text import printable
from protocol import Host, LocalProtocolError, Peer, Phase

__all__ = ["HostCommands"]


class HostCommands:
    """A host's say over who sits, before the game."""

    party: Host | Peer
    token: trio.lowlevel.TrioToken | None
    _poke: Callable[[], None]

    def _run(self, action: Callable[[], None]) -> str:
        """Do ``action`` on the network side (trio); "" (the seat's own)."""
        raise NotImplementedError

    def start_now(self) -> str:
        """As the host, start with the players seated so far; "" if it starts, else why not."""
        t = self.party.table
        if not isinstance(self.party, Host):
            return _("only the host can start the game")
        if t.phase is not Phase.LOBBY:
            return _("the game has already started")
        game = t.game
        if game is None or len(t.members) < game.min_seats:
            need = game.min_seats if game is not None else 2
            return _("at least {n} players are needed to start").format(n=need)
        if self.token is not None:
            self.token.run_sync_soon(self._start)
        return ""

    @property
    def hosting(self) -> bool:
        """Is this the host's seat (the one who may start, approve, deny and kick)?"""
        return isinstance(self.party, Host)

    def host_offers(self) -> list[tuple[str, str]]:
        """The host's commands that mean something now, with what each does: ``start`` once
        enough players sit, ``approve N``/``deny N`` for each join request waiting, ``kick N``
        for each seated player; none once the game has begun or for anyone but the host."""
        party = self.party
        if not isinstance(party, Host) or party.table.phase is not Phase.LOBBY:
            return []
        table, out = party.table, []
        game = table.game
        if game is not None and len(table.members) >= game.min_seats:
            out.append(("start", _("begin now, with the players seated so far")))
        for number, name, key in party.asking():
            who = printable(f"{name} ({key})")
            out.append((f"approve {number}", _("let {who} in").format(who=who)))
            out.append((f"deny {number}", _("turn {who} away").format(who=who)))
        for member in table.members[1:]:
            out.append((f"kick {member.seat}", _("remove {name} from the table").format(
                name=printable(member.name))))  # fmt: skip
        return out

    def host_command(self, name: str, arg: str) -> str:
        """As the host, before the game: ``kick N`` removes the player in seat N, ``approve
        N``/``deny N`` answers the join request numbered N; "" if done, else why not."""
        party, t = self.party, self.party.table
        if not isinstance(party, Host):
            return _("only the host can {command}").format(command=name)
        if t.phase is not Phase.LOBBY:
            return _("the game has already started")
        if name == "kick":
            seat = int(arg) if arg.isdigit() else -1
            if not 1 <= seat < len(t.members):
                last = len(t.members) - 1
                return _("kick N: N is a seat from 1 to {last} (you are seat 0)").format(last=last)
            return self._run(lambda: party.kick(seat))
        # A request is answered by its number, never by a name: two may ask under names
        # alike, and only the number names one request and its key.
        asking = party.asking()
        number = int(arg) if arg.isdigit() else -1
        if all(n != number for n, _name, _fp in asking):
            waiting = ", ".join(f"{n} {who} ({fp})" for n, who, fp in asking) or _("nobody")
            return _("{command} N: N is the number of a join request (waiting: {waiting})"
                     ).format(command=name, waiting=printable(waiting))  # fmt: skip
        if name == "approve":
            return self._run(lambda: party.let_in(number))
        return self._run(lambda: party.turn_away(number))

    def _start(self) -> None:
        """(In trio) start the game with the players seated now, if it still may."""
        assert isinstance(self.party, Host)
        with suppress(LocalProtocolError):  # someone sat down meanwhile and filled the table
            self.party.start()
        self._poke()

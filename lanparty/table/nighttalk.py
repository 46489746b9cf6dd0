"""A person's seat between the games of a night (docs/app.md, "A night at one table"): the
host's ``again`` and ``next GAME`` at the end screen, a player's answer to the offer of the
next game (a spectator's, where a seat is free for it: take it?), and what the status line
says meanwhile. Mixed into
:class:`~lanparty.table.networked.NetSeat`, which owns every attribute used here.

The UI (asyncio) and the network side (trio) share one thread: what the person types is
handed to trio through the seat's token, what trio asks the person waits on a trio event
the UI sets the same way.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import trio

from lanparty.games import GAMES
from lanparty.i18n import _, ngettext
from lanparty.table.talk import Talk
from lanparty.text import printable
from protocol import Host, Offered, Peer, Watcher

__all__ = ["OFFER_TIME", "NightTalk", "offer_words"]

#: Seconds a person has to answer the offer of the next game (no answer: they leave). The
#: host waits a little longer (``lanparty.net.nightserve.ANSWER_TIME``).
OFFER_TIME = 60.0


def offer_words(offered: Offered) -> str:
    """The game offered and its options, in a few words: ``"unanimo (cards=3, timer=0)"``."""
    opening = offered.opening
    options = ", ".join(f"{k}={v}" for k, v in sorted(opening.options.items()))
    return printable(f"{opening.game} ({options})" if options else opening.game)


class NightTalk:
    """The night's part of a person's seat."""

    party: Host | Peer
    token: trio.lowlevel.TrioToken | None
    _lines: list[str | Talk]

    def over(self) -> bool:
        raise NotImplementedError

    def _changed(self) -> None:
        raise NotImplementedError

    def _init_night(self) -> None:
        """The first game of a night, with no offer standing."""
        #: This game's number in the night (1: the first).
        self.number = 1
        #: True while the night may go on after this game: the host may offer another
        #: (``on_next`` is set), or a player waits on a connection that stays open.
        self.night_open = False
        #: (The host) hands a choice typed at the end screen (``again``, ``next GAME …``)
        #: to the night: "" once it is on its way, else why not.
        self.on_next: Callable[[str], str] | None = None
        self._offer: tuple[Offered, str, float] | None = None  # (offer, host's name, until)
        self._answer = trio.Event()
        self._stays = False
        #: The question standing is a spectator's (a seat is free: take it?), not a
        #: player's (stay at the table?): its answer is no unless the person says yes.
        self.offer_sits = False

    # ------------------------------------------------------------------ the host

    def next_game(self, text: str) -> str:
        """As the host, once the game is over: ``again`` or ``next GAME [OPTION=VALUE …]``
        offers the next game to everyone at the table; "" if it is on its way, else why
        not."""
        if not isinstance(self.party, Host) or self.on_next is None:
            return _("only the host offers the next game")
        if not self.over():
            return _("the game is not over yet")
        return self.on_next(text)

    @property
    def offers_next(self) -> bool:
        """Does this seat choose the night's next game (the host's, while the night may go
        on)?"""
        return isinstance(self.party, Host) and self.on_next is not None and self.night_open

    def night_offers(self) -> list[tuple[str, str]]:
        """The host's commands at the end screen, with what each does (for Tab)."""
        if self.on_next is None or not self.over() or not isinstance(self.party, Host):
            return []
        out = [("again", _("the same game again, with the same options"))]
        for name in sorted(GAMES):
            out.append((f"next {name}", _("offer {game} to everyone at the table").format(
                game=name)))  # fmt: skip
        return out

    # ------------------------------------------------------------------ a player

    async def ask_offer(self, offered: Offered, host: str, *, sit: bool = False) -> bool:
        """(trio) Ask the person whether they stay for the game offered (``sit``: a
        spectator, whether they take the seat free for them): True if they say yes within
        :data:`OFFER_TIME` seconds; no, no answer, or leaving (for a spectator, Ctrl-C) is
        False."""
        self._answer = trio.Event()
        self._stays = False
        self.offer_sits = sit
        self._offer = (offered, host, time.monotonic() + OFFER_TIME)
        self._lines.append(_("{host} offers the next game: {game}").format(
            host=printable(host), game=offer_words(offered)))  # fmt: skip
        self._changed()
        with trio.move_on_after(OFFER_TIME):
            await self._answer.wait()
        self._offer = None
        if sit:
            self._lines.append(_("You ask for the seat…") if self._stays
                               else _("You keep watching."))  # fmt: skip
        elif not self._stays:
            self._lines.append(_("You leave the table."))
        self._changed()
        return self._stays

    def offer_question(self) -> str:
        """The question while the next game is offered ("" when none is)."""
        if self._offer is None:
            return ""
        offered, host, _until = self._offer
        if self.offer_sits:
            free = offered.free
            said = ngettext("{host} offers the next game: {game}. {n} seat is free: take it? "
                            "(y/N)> ",
                            "{host} offers the next game: {game}. {n} seats are free: take "
                            "one? (y/N)> ", free)  # fmt: skip
            return said.format(host=printable(host), game=offer_words(offered), n=free)
        said = _("{host} offers the next game: {game}. Stay at the table? (Y/n)> ")
        return said.format(host=printable(host), game=offer_words(offered))

    def answer_offer(self, stays: bool) -> None:
        """The person's answer to the offer (from the UI)."""
        if self._offer is None:
            return

        def answer() -> None:
            self._stays = stays
            self._answer.set()

        if self.token is not None:
            self.token.run_sync_soon(answer)

    def offer_deadline(self) -> float | None:
        """When (``time.monotonic()``) the offer standing now is taken as a no."""
        return self._offer[2] if self._offer is not None else None

    def night_ended(self, why: str = "") -> None:
        """The night is over for this seat (the host ended it, or we left): said once."""
        if self.night_open:
            self.night_open = False
            self._lines.append(why or _("The night is over: the host ended it."))
            self._changed()

    # ------------------------------------------------------------------ the status line

    def night_status(self) -> str:
        """What the status line says once the game is over, during a night ("" if the
        night does not go on)."""
        if not self.night_open:
            return ""
        if self._offer is not None:
            left = max(0, math.ceil(self._offer[2] - time.monotonic()))
            if self.offer_sits:
                return _("answer within {s} s (no answer: you keep watching)").format(s=left)
            return _("answer within {s} s (no answer: you leave)").format(s=left)
        if isinstance(self.party, Host):  # the keys at the left say what the host may do
            return _("game over")
        if isinstance(self.party, Watcher):
            return _("game over: watching on, if the host offers the next game")
        host = self.party.table.member_at(0)
        name = host.name if host is not None else _("the host")
        return _("game over: the table waits for {host} to offer the next game").format(
            host=name)  # fmt: skip

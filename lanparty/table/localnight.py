"""An offline night (``lanparty play GAME --offline``): once a game is over, ``again`` or
``next GAME [OPTION=VALUE ...]`` deals the next one at the same seat, against the same bots
(as many as the next game seats), through the same commands as a networked host's. It is a
:class:`~lanparty.table.local.TableSession` that hands every question to the game now
played (a :class:`~lanparty.table.local.LocalTable`).

No prompt-toolkit and no trio here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lanparty.games import get_game
from lanparty.games.screens import GameScreen
from lanparty.i18n import _
from lanparty.table.local import LocalTable, Offload
from lanparty.table.nightplan import NightGame, read_choice, seats_for
from protocol.contract import Move, Outcome, Plain, Seat

__all__ = ["LocalNight"]

#: Makes the table of a game: ``make(game, options, players, number)`` (the night's
#: ``number``-th game, for ``players`` seats, the person's first).
MakeTable = Callable[[str, dict[str, Plain], int, int], LocalTable]


class LocalNight:
    """Offline games one after another at one seat: the session of the game now played."""

    #: The player chooses the next game (``again``, ``next GAME``), as a host does.
    offers_next = True

    def __init__(self, make: MakeTable, game: str, options: dict[str, Plain], players: int) -> None:
        """The night's first game: ``game`` with ``options`` for ``players`` (see
        :data:`MakeTable`)."""
        self._make = make
        self.number = 1
        self.last = NightGame(game, dict(options))
        self.players = players
        self.table = make(game, dict(options), players, 1)
        self._listeners: list[Callable[[], None]] = []
        self._offload: Offload | None = None

    # ------------------------------------------------------------------ the night

    def next_game(self, text: str) -> str:
        """``again`` or ``next GAME [OPTION=VALUE ...]`` once the game is over: "" once the
        next game is dealt, else why not (in the reader's words)."""
        if not self.table.over():
            return _("the game is not over yet")
        try:
            choice = read_choice(text, self.last)
            game = get_game(choice.game)
            players = min(max(self.players, game.min_seats), game.max_seats)
            seats_for(choice.game, players, choice.options)
        except ValueError as exc:
            return str(exc)
        self.number += 1
        self.table = self._make(choice.game, dict(choice.options), players, self.number)
        self.table.think_with(self._offload)
        for callback in self._listeners:
            self.table.listen(callback)  # its bots' thoughts, as they come in
        self.last, self.players = choice, players
        for callback in self._listeners:
            callback()
        return ""

    def night_offers(self) -> list[tuple[str, str]]:
        """The commands at the end screen (for Tab), once the game is over."""
        if not self.table.over():
            return []
        from lanparty.games import GAMES

        out = [("again", _("the same game again, with the same options"))]
        out += [(f"next {name}", _("deal {game} next").format(game=name)) for name in sorted(GAMES)]
        return out

    def host_offers(self) -> list[tuple[str, str]]:
        """What may be typed besides moves: the night's commands once the game is over."""
        return self.night_offers()

    # ------------------------------------------------------------------ the game played now

    @property
    def game_name(self) -> str:
        """The game played now."""
        return self.table.game_name

    @property
    def seat(self) -> Seat:
        """The person's seat."""
        return self.table.seat

    @property
    def names(self) -> tuple[str, ...]:
        """The names at the table now."""
        return self.table.names

    @property
    def screen(self) -> GameScreen:
        """The screen of the game played now."""
        return self.table.screen

    def advance(self) -> None:
        """See :meth:`LocalTable.advance`."""
        self.table.advance()

    def view(self) -> dict[str, Plain]:
        """See :meth:`LocalTable.view`."""
        return self.table.view()

    def legal_moves(self) -> list[Move]:
        """See :meth:`LocalTable.legal_moves`."""
        return self.table.legal_moves()

    def can_decline(self) -> bool:
        """See :meth:`LocalTable.can_decline`."""
        return self.table.can_decline()

    def decline(self) -> None:
        """See :meth:`LocalTable.decline`."""
        self.table.decline()

    def submit(self, move: Move) -> None:
        """See :meth:`LocalTable.submit` (raises ``IllegalMove``)."""
        self.table.submit(move)

    def take_log(self) -> list[str]:
        """See :meth:`LocalTable.take_log`."""
        return self.table.take_log()

    def over(self) -> bool:
        """True once the game played now is over."""
        return self.table.over()

    def outcome(self) -> Outcome:
        """See :meth:`LocalTable.outcome`."""
        return self.table.outcome()

    def listen(self, callback: Callable[[], None]) -> None:
        """``callback()`` when the next game is dealt, and when a bot's thought comes in
        (:meth:`LocalTable.listen`)."""
        self._listeners.append(callback)
        self.table.listen(callback)

    def think_with(self, offload: Offload | None) -> None:
        """See :meth:`LocalTable.think_with`: for this game and the next ones."""
        self._offload = offload
        self.table.think_with(offload)

    def status_line(self) -> str:
        """Once the game is over, that it is (the keys say what may be done); else which
        bot is thinking, if one is."""
        return _("game over") if self.table.over() else self.table.status_line()

    def start_now(self) -> str:
        """See :meth:`LocalTable.start_now`."""
        return self.table.start_now()

    def may_move(self) -> bool:
        """See :meth:`LocalTable.may_move`."""
        return self.table.may_move()

    def host_command(self, name: str, arg: str) -> str:
        """See :meth:`LocalTable.host_command`."""
        return self.table.host_command(name, arg)

    def close_phase(self) -> str:
        """See :meth:`LocalTable.close_phase`."""
        return self.table.close_phase()

    def deadline(self) -> float | None:
        """See :meth:`LocalTable.deadline`."""
        return self.table.deadline()

    def __getattr__(self, name: str) -> Any:
        """Anything else a screen asks of a table, from the game played now."""
        if name == "table":  # not made yet
            raise AttributeError(name)
        return getattr(self.table, name)

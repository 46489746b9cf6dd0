"""One player's seat at a table, behind a small interface the UI drives.

``TableSession`` is what a user interface needs from a table: the seat's view, its legal
moves, a way to submit a move, a log of what happened in words, and whether the game is over.
``LocalTable`` implements it engine-locally: a seeded ``LocalDealer`` fulfils the table's
requests, every seat has its own state copy told only what that seat may know (as a peer's
copy would be), and bots play the other seats through the same path as the human (view →
choose → check/apply). A networked session implements the same protocol later.

No prompt-toolkit and no trio here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from copy import deepcopy
from functools import partial
from typing import Any, Protocol, TypeAlias

from lanparty.games import PLUGINS, get_game, narrator_for
from lanparty.games.bots import Bot, bot_label, forced_move
from lanparty.games.localdealer import LocalDealer, for_seat
from lanparty.games.screens import GameScreen
from lanparty.i18n import _
from lanparty.table.talk import Talk
from protocol.contract import (
    Commit,
    Committed,
    CommitTimeout,
    Game,
    GameOver,
    IllegalMove,
    Move,
    Open,
    Outcome,
    Plain,
    Seat,
    TableOps,
    Turn,
)

__all__ = ["BOT_NAMES", "LocalTable", "Offload", "TableSession"]

BOT_NAMES = ("Bea", "Carl", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Juno")
"""Names given to bot seats 1, 2, … in order."""

#: Runs ``job`` somewhere else (a worker thread) and then, back on the table's own thread,
#: ``done`` with ``(True, what job returned)`` or ``(False, the exception it raised)``.
Offload: TypeAlias = Callable[
    [Callable[[], "Move | None"], Callable[[tuple[bool, Any]], None]], None
]
#: What a bot's choice is while its thought is under way elsewhere.
_THINKING = object()


class TableSession(Protocol):
    """One seat's window on a table: what a user interface drives.

    ``advance`` lets the rest of the table act (bots, or moves arriving from peers) and
    returns without blocking once this seat must or may act, or nothing more can happen now.
    """

    @property
    def game_name(self) -> str:
        """The game at the table."""
        ...

    @property
    def seat(self) -> Seat:
        """This seat (``None`` for a spectator's)."""
        ...

    @property
    def names(self) -> tuple[str, ...]:
        """The names at the table, in seat order."""
        ...

    @property
    def screen(self) -> GameScreen:
        """The game's part of the screen (table, hand, prompt, commands)."""
        ...

    def advance(self) -> None:
        """Let the other seats act until this seat must or may act, or the game is over."""
        ...

    def view(self) -> dict[str, Plain]:
        """This seat's view of the game (``Game.view``): all it may know, nothing more."""
        ...

    def legal_moves(self) -> list[Move]:
        """Every legal move of this seat now (out-of-turn ones included); empty if none."""
        ...

    def can_decline(self) -> bool:
        """True while this seat is offered only out-of-turn moves it may let go."""
        ...

    def decline(self) -> None:
        """Let the current out-of-turn offer go: play goes on without this seat."""
        ...

    def submit(self, move: Move) -> None:
        """Check and apply ``move`` for this seat; raise ``IllegalMove`` (state unchanged)."""
        ...

    def take_log(self) -> Sequence[str | Talk]:
        """Log lines added since the last call, oldest first (a networked table's talk
        among them: :class:`~lanparty.table.talk.Talk`)."""
        ...

    def over(self) -> bool:
        """True once the game is over."""
        ...

    def outcome(self) -> Outcome:
        """Scores so far; winners once over."""
        ...

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` whenever the table changed on its own (moves from the network)."""
        ...

    def status_line(self) -> str:
        """What the table is doing now, in a few words ("" when there is nothing to say)."""
        ...

    def start_now(self) -> str:
        """Start the game with the players seated so far; "" if started, else why not."""
        ...

    def may_move(self) -> bool:
        """True when this seat is asked (a game of free text may list no move at all)."""
        ...

    def host_command(self, name: str, arg: str) -> str:
        """The host's ``kick N``, ``approve N`` or ``deny N`` (N: a join request's number);
        "" if done, else why not."""
        ...

    def close_phase(self) -> str:
        """End the sealed phase now, as its closer (the seats still missing hand in
        nothing); "" if done, else why not."""
        ...


class LocalTable:
    """A ``TableSession`` played engine-locally: one human seat, bots in the others.

    ``bots[s]`` plays seat ``s`` (``None`` for the human seat). The dealer and the bots draw
    from RNGs derived from ``seed``, so the same seed and the same human moves replay the
    same game.

    A timed sealed phase (``Commit.timer`` > 0) closes on its own: ``clock()`` seconds
    (``time.monotonic`` by default) are counted from when the phase began, and the first
    ``advance`` after ``deadline()`` closes it, as the closer's program would.
    """

    def __init__(
        self,
        game_name: str,
        names: Sequence[str],
        bots: Sequence[Bot | None],
        options: Mapping[str, Plain],
        seed: int,
        seat: Seat = 0,
        clock: Callable[[], float] = time.monotonic,
        levels: Sequence[str | None] = (),
    ) -> None:
        """The table of ``names`` with ``bots`` (see the class); ``levels``: per seat, the
        level of the bot there, for the players' list (:attr:`listed`; none given: the
        names alone). Raises ``ValueError`` for a name or a level too few or many, or a
        bot at ``seat``."""
        if len(names) != len(bots) or (levels and len(levels) != len(names)):
            raise ValueError("one name per seat is needed")
        if bots[seat] is not None:
            raise ValueError("the human seat has no bot")
        self.game_name = game_name
        self.game: Game[Any] = get_game(game_name)
        self.seat = seat
        self.names = tuple(names)
        #: The names as the players' list shows them: each bot with its level.
        self.listed = (
            tuple(bot_label(n, lv) for n, lv in zip(names, levels, strict=True))
            if levels
            else self.names
        )
        self.bots = list(bots)
        seats = len(names)
        # Separate streams: the deal does not depend on how many choices the bots made.
        self.dealer = LocalDealer(random.Random(f"{seed}:dealer"))
        self.bot_rng = random.Random(f"{seed}:bots")
        self.copies = [self.game.setup(seats, options) for _ in range(seats)]
        self.inputs = 0  # moves and results applied so far
        self.last_mover: Seat = -1
        self.screen = PLUGINS[game_name].screen()
        self.narrator = narrator_for(game_name, seat, self.names, lambda: self._state)
        self._sealed: dict[Seat, Move] = {}  # sealed moves, held until the phase opens
        self._taken = 0
        # The out-of-turn window being walked: (inputs when it opened, seats left to ask).
        self._window: tuple[int, list[Seat]] | None = None
        self.clock = clock
        self._closes: float | None = None  # when the timed sealed phase now closes
        self._listeners: list[Callable[[], None]] = []
        self._offload: Offload | None = None
        #: (inputs, seat) of the slow bot's choice under way elsewhere; its result, once in.
        self._thinking: tuple[int, Seat] | None = None
        self._thought: tuple[tuple[int, Seat], bool, Any] | None = None
        #: The person's sealed move, handed in while a bot was thinking: sealed after the
        #: bots', as when they chose in place (the same order, the same game).
        self._held: Move | None = None

    # ------------------------------------------------------------------ the protocol

    def view(self) -> dict[str, Plain]:
        """The human seat's view, from its own copy."""
        return self.game.view(self.copies[self.seat], self.seat)

    def legal_moves(self) -> list[Move]:
        """The human seat's legal moves now (empty while the table is busy or over)."""
        status = self.game.status(self._state)
        if isinstance(status, Commit) and self.seat in status.seats:
            return self.game.legal_moves(self.copies[self.seat], self.seat)
        if not isinstance(status, Turn):
            return []
        if status.seat != self.seat and not self._offered():
            return []
        return self.game.legal_moves(self.copies[self.seat], self.seat)

    def can_decline(self) -> bool:
        """True while the human is offered out-of-turn moves only (e.g. a KaTO call)."""
        status = self.game.status(self._state)
        return isinstance(status, Turn) and status.seat != self.seat and self._offered()

    def decline(self) -> None:
        """Pass on the out-of-turn offer; the next ``advance`` asks the others."""
        if self._window is not None and self._window[1][:1] == [self.seat]:
            self._window[1].pop(0)

    def may_move(self) -> bool:
        """True when the human is asked: its turn, an out-of-turn chance, or a sealed move
        to write (a game of free text may list no move at all)."""
        status = self.game.status(self._state)
        if isinstance(status, Commit):
            return self.seat in status.seats and self._held is None
        if isinstance(status, Turn):
            return status.seat == self.seat or self._offered()
        return False

    def submit(self, move: Move) -> None:
        """Check then apply the human's move (or seal it, in a sealed phase); ``IllegalMove``
        leaves every copy unchanged."""
        status = self.game.status(self._state)
        if isinstance(status, GameOver):
            raise IllegalMove(_("the game is over"))
        move = self.game.moves.read(move)
        if isinstance(status, Commit):
            if self.seat not in status.seats or self._held is not None:
                raise IllegalMove(_("you have handed in already"))
            if self._thinking is not None:  # checked now, sealed after the bots' own
                self.game.check(self.copies[self.seat], self.seat, move)
                self._held = move
                return
            self._seal(self.seat, move)
            return
        self._play(self.seat, move)

    def close_phase(self) -> str:
        """End the sealed phase now, as its closer; "" if done, else why not."""
        status = self.game.status(self._state)
        if not isinstance(status, Commit) or status.closer != self.seat:
            return _("you may not close this now")
        if self._seal_held():  # our own words first, then the rest hand in nothing
            status = self.game.status(self._state)
            if not isinstance(status, Commit):
                return ""
        self._feed(CommitTimeout(status.seats))
        return ""

    def deadline(self) -> float | None:
        """When (on ``clock``) the timed sealed phase now under way closes; ``None`` if none
        is."""
        return self._closes

    def take_log(self) -> list[str]:
        """Log lines since the last call."""
        lines = self.narrator.lines
        new = lines[self._taken :]
        self._taken = len(lines)
        return new

    def over(self) -> bool:
        """True once no input is due any more."""
        self._resolve()
        return isinstance(self.game.status(self._state), GameOver)

    def outcome(self) -> Outcome:
        """Scores so far (winners once over)."""
        return self.game.outcome(self._state)

    def listen(self, callback: Callable[[], None]) -> None:
        """``callback()`` when a bot's thought comes in from elsewhere (see
        :meth:`think_with`): the next ``advance`` plays it. Nothing else changes on its
        own here."""
        self._listeners.append(callback)

    def think_with(self, offload: Offload | None) -> None:
        """Let slow bots (a hard bot's search: their ``slow``) choose through ``offload``
        (a worker thread), so that whoever drives the table keeps answering while they
        think: ``advance`` then returns while a bot thinks, and the listeners are called
        when its move is ready. ``None``: every bot chooses in place (the default). The
        bots choose the same moves either way, from the same views and random numbers."""
        self._offload = offload

    def thinking(self) -> Seat | None:
        """The seat whose bot is thinking elsewhere now, if one is."""
        return self._thinking[1] if self._thinking is not None else None

    def status_line(self) -> str:
        """Which bot is thinking, if one is ("Bea is thinking…"); else nothing to wait for."""
        seat = self.thinking()
        if seat is None:
            return ""
        return _("{name} is thinking…").format(name=self.names[seat])

    def start_now(self) -> str:
        """A local table starts at once: nothing to start."""
        return _("the game has already started")

    def host_command(self, name: str, arg: str) -> str:
        """Nobody joins a local table: nothing to approve or remove."""
        return _("{command} is for a table on the network that you host").format(command=name)

    def advance(self) -> None:  # noqa: C901
        """Run bots, and every seat's forced moves (``forced_move``), until the human must or
        may act, or the game is over.

        Out-of-turn seats are asked first, in a seeded order with the seat that moved last
        at the front (it is the quickest to react to its own play), then the turn-holder.
        """
        game = self.game
        while self._thinking is None:  # (a bot thinking elsewhere: nothing moves until it is in)
            self._resolve()
            status = game.status(self._state)
            if isinstance(status, Commit):
                closes = self._closes
                if (closes is not None and status.closer is not None and self._thought is None
                        and self.clock() >= closes):  # fmt: skip
                    if self._seal_held():  # handed in while a bot thought: in time
                        continue
                    self._feed(CommitTimeout(status.seats))  # the time is up
                    continue
                bots = [s for s in status.seats if s != self.seat]
                for s in bots:  # every bot hands in at once; the human writes in its time
                    view, legal = game.view(self.copies[s], s), game.legal_moves(self.copies[s], s)
                    move = self._choose(s, view, legal)
                    if move is _THINKING:
                        return
                    if move is None:
                        raise RuntimeError(f"the bot of seat {s} wrote nothing")
                    self._seal(s, move)
                    break  # the phase as it is now: the next bot, or the person's move held
                if bots or self._seal_held():
                    continue
                return
            if isinstance(status, Open):
                for s in status.seats:  # the sealed moves, shown in the order asked
                    self._play(s, self._sealed.pop(s))
                continue
            if not isinstance(status, Turn):
                if isinstance(status, GameOver):
                    return
                raise NotImplementedError(f"local tables do not run {type(status).__name__}")
            if status.also:
                if self._window is None or self._window[0] != self.inputs:
                    order = list(status.also)
                    self.bot_rng.shuffle(order)
                    if self.last_mover in order:
                        order.remove(self.last_mover)
                        order.insert(0, self.last_mover)
                    self._window = (self.inputs, order)
                left = self._window[1]
                moved = False
                while left:
                    s = left[0]
                    if not game.legal_moves(self.copies[s], s):
                        left.pop(0)
                        continue
                    if s == self.seat:
                        return  # the human decides (or declines)
                    options: list[Move | None] = [*game.legal_moves(self.copies[s], s), None]
                    move = self._choose(s, game.view(self.copies[s], s), options)
                    if move is _THINKING:
                        return
                    left.pop(0)
                    if move is not None:
                        self._play(s, move)
                        moved = True
                        break
                if moved:
                    continue
            s = status.seat
            legal = game.legal_moves(self.copies[s], s)
            view = game.view(self.copies[s], s)
            # A move that decides nothing (the challenger's verdict) is made by the seat's
            # own program, for the human as for a bot: nobody is asked.
            move = forced_move(self.game_name, view, legal)
            if move is None:
                if s == self.seat:
                    return
                move = self._choose(s, view, legal)
                if move is _THINKING:
                    return
            if move is None:
                raise RuntimeError(f"the bot of seat {s} passed on its own turn")
            self._play(s, move)

    # ------------------------------------------------------------------ internals

    @property
    def _state(self) -> Any:
        # Every copy agrees on the public part (status, turn); the human's is as good as any.
        return self.copies[self.seat]

    def _offered(self) -> bool:
        """Is the human the seat being asked in the current out-of-turn window?"""
        w = self._window
        return w is not None and w[0] == self.inputs and w[1][:1] == [self.seat]

    def _choose(self, seat: Seat, view: dict[str, Plain], legal: Sequence[Move | None]) -> Any:
        """The bot of ``seat``'s move at this point of the game (``None``: it lets an
        out-of-turn chance go); :data:`_THINKING` while a slow bot's thought is under way
        elsewhere (:meth:`think_with`). Raises what the bot raised."""
        bot, at = self._bot(seat), (self.inputs, seat)
        thought, self._thought = self._thought, None
        if thought is not None and thought[0] == at:
            if not thought[1]:
                raise thought[2]
            return thought[2]
        if self._offload is None or not getattr(bot, "slow", False):
            return bot.choose(view, legal, self.bot_rng)
        # The thread gets its own copy of the view: the table may change meanwhile (the
        # person hands in a word), and nothing here draws from the bots' numbers until
        # the thought is in (``advance`` waits for it).
        self._thinking = at
        job = partial(bot.choose, deepcopy(view), list(legal), self.bot_rng)
        self._offload(job, partial(self._thought_in, at))
        return _THINKING

    def _thought_in(self, at: tuple[int, Seat], result: tuple[bool, Any]) -> None:
        """(On the table's thread) a bot's thought is in: kept for the next ``advance``
        if the table is still where the bot was asked (a closed phase drops it)."""
        self._thinking = None
        if at[0] == self.inputs:
            self._thought = (at, result[0], result[1])
        for callback in self._listeners:
            callback()

    def _seal_held(self) -> bool:
        """Seal the person's move held while a bot thought, if there is one; True if so."""
        move, self._held = self._held, None
        if move is None:
            return False
        self._seal(self.seat, move)
        return True

    def _bot(self, seat: Seat) -> Bot:
        bot = self.bots[seat]
        if bot is None:
            raise RuntimeError(f"seat {seat} has no bot")
        return bot

    def _play(self, seat: Seat, move: Move) -> None:
        """Check ``move`` in every copy, then apply it in every copy (all or nothing)."""
        game = self.game
        before = self.view()
        for copy in self.copies:
            game.check(copy, seat, move)
        for copy in self.copies:
            game.apply(copy, seat, move)
        self.inputs += 1
        self.last_mover = seat
        self._time_phase()
        self.narrator.narrate(seat, move, before, self.view())

    def _seal(self, seat: Seat, move: Move) -> None:
        """Check a sealed move and hold it; every copy learns only that ``seat`` handed in."""
        for copy in self.copies:
            self.game.check(copy, seat, move)
        self._sealed[seat] = move
        self._feed(Committed(seat))

    def _feed(self, result: Committed | CommitTimeout) -> None:
        """Feed every copy a result that answers no request (a hand-in, a closed phase)."""
        before = self.view()
        for copy in self.copies:
            self.game.resolve(copy, result)
        self.inputs += 1
        self._time_phase()
        self.narrator.narrate(None, result, before, self.view())

    def _time_phase(self) -> None:
        """After every input: start the clock of a timed sealed phase that just began, and
        stop it once the phase is over."""
        status = self.game.status(self._state)
        if not isinstance(status, Commit) or status.timer <= 0:
            self._closes = None
        elif self._closes is None:
            self._closes = self.clock() + status.timer

    def _resolve(self) -> None:
        """Fulfil table requests until a move (or nothing) is due; each copy gets only what
        its seat may know."""
        game = self.game
        while True:
            status = game.status(self._state)
            if not isinstance(status, TableOps):
                return
            result = self.dealer.fulfil(status.requests[0])
            before = self.view()
            for s, copy in enumerate(self.copies):
                game.resolve(copy, for_seat(result, s))
            self.inputs += 1
            self._time_phase()
            # Narrate from what the human's copy received, never from the dealer's result.
            self.narrator.narrate(None, for_seat(result, self.seat), before, self.view())

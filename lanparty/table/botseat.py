"""A bot at a networked seat: the driver that lets a :class:`lanparty.games.bots.Bot` play
the seat of a :class:`protocol.Peer` or :class:`protocol.Host` that a
:class:`lanparty.net.node.PeerClient` or :class:`lanparty.net.server.HostServer` carries.

The network layer drives whatever :class:`lanparty.net.node.Driver` it is given and knows no
bot; this is the one that plays by itself (the terminal's seat is the other).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

import trio

from lanparty.games.bots import Bot, bot_at, bot_label
from lanparty.games.search import Think
from lanparty.i18n import _
from lanparty.net.node import Driver
from lanparty.table.outcome import say
from lanparty.table.plan import TablePlan
from lanparty.trace import Tracer
from protocol import Event, Host, Peer
from protocol.contract import Commit, Move, Plain, Turn

if TYPE_CHECKING:
    from lanparty.table.networked import NetSeat

__all__ = ["REACTION", "BotDriver", "bot_driver"]

#: A bot's reaction time when others may move too, in seconds: drawn at random in this range
#: for every such moment, the same for every bot whoever started it, about a person's.
REACTION = (0.7, 2.0)


class BotDriver:
    """Plays a seat with a bot: at most one decision per table position, only from the view.

    While other seats may move too (a KaTO call or catch, racing the next player's move) the
    bot reacts like a person: it waits ``react`` seconds first, or, by default, a time drawn
    in :data:`REACTION`. ``react=0``: no waiting (tests). (A bot that calls KaTO does it with
    its play, so it has nothing to hurry.)

    A bot that thinks long (``slow``: a hard bot's search) thinks in a worker thread once the
    driver is attached, so the connection keeps running; its move is played when it is ready
    if the table is still where it was asked (else it is asked again).
    """

    def __init__(
        self, bot: Bot, seed: int, tracer: Tracer | None = None, react: float | None = None
    ) -> None:
        self._bot = bot
        self._rng = random.Random(seed)
        self._clock_rng = random.Random(f"{seed}/react")  # apart: choices stay as seeded
        self._tracer = tracer or Tracer(None)
        self._react = react
        self._decided_at = -1
        self._armed_at = -1
        self._ripe_at = -1
        self._nursery: trio.Nursery | None = None
        self._poke: Callable[[], None] = lambda: None
        self._thought: tuple[int, Move | None] | None = None  # (position, move) once ready
        self.position = 0

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Timers for the reaction time run in ``nursery``."""
        self._nursery, self._poke = nursery, poke

    def observe(self, event: Event) -> None:
        """Count events, so each position gets one decision."""
        self.position += 1

    def act(self, party: Host | Peer) -> bool:
        """Make a move if one is due for this seat (out-of-turn moves may be declined);
        returns True if a move was made."""
        if self._decided_at == self.position or party.busy or not party.may_move():
            return False
        status = party.status()
        if isinstance(status, Commit):
            return self._seal(party)
        if not isinstance(status, Turn):
            return False
        legal: list[Move | None] = list(party.legal_moves())
        if not legal:
            return False
        window = bool(status.also) and not status.free  # a race: react like a person
        if window and self._react != 0 and not self._ripe():
            return False
        if status.seat != party.seat:
            legal.append(None)
        move = self._decide(party, legal)
        if move is None:
            return False
        self._tracer.record("play", pos=len(party.table.log), seat=party.seat)
        party.play(move)
        return True

    def _seal(self, party: Host | Peer) -> bool:
        """Seal one move for this ``Commit`` phase (once a phase); the table checks it."""
        if party.table.sealed_now():
            return False
        move = self._decide(party, list(party.legal_moves()))
        if move is None:
            return False
        party.play(move)
        return True

    def _decide(self, party: Host | Peer, legal: list[Move | None]) -> Move | None:
        """The bot's move at this position (``None``: none, or not yet: a slow bot's
        thought is under way in a thread, and it pokes the driver when it is ready)."""
        thought, self._thought = self._thought, None
        if thought is not None and thought[0] == self.position:
            self._decided_at = self.position
            return thought[1]
        self._decided_at = self.position
        if self._nursery is None or not getattr(self._bot, "slow", False):
            return self._bot.choose(party.view(), legal, self._rng)
        self._nursery.start_soon(self._think, self.position, party.view(), legal)
        return None

    async def _think(self, position: int, view: dict[str, Plain], legal: list[Move | None]) -> None:
        """Let the bot choose in a worker thread; keep its move for ``position``."""
        move = await trio.to_thread.run_sync(self._bot.choose, view, legal, self._rng)
        if self.position == position:
            self._thought = (position, move)
            self._decided_at = -1  # ask again: the move is ready
            self._poke()

    def _ripe(self) -> bool:
        """Has the reaction time passed at this position? Starts the timer if not."""
        if self._ripe_at == self.position:
            return True
        if self._armed_at != self.position and self._nursery is not None:
            self._armed_at = self.position
            self._nursery.start_soon(self._timer, self.position)
        return self._nursery is None

    async def _timer(self, position: int) -> None:
        delay = self._react if self._react is not None else self._clock_rng.uniform(*REACTION)
        await trio.sleep(delay)
        if self.position == position:
            self._ripe_at = position
            self._poke()


def bot_driver(plan: TablePlan, game: str | None, seat: NetSeat | None, tracer: Tracer) -> Driver:
    """``seat`` (a person's) if given, else a bot of the plan's level for the table's game,
    built once the table is known (its game and options, learned from its opening entry):
    a bot sees the table's options, as everyone at it does, and its seat's view, nothing
    more. ``game`` is the game expected (unused: the table's own is played)."""
    if seat is not None:
        return seat
    think = Think.given(plan.think)

    def bot_for(party: Host | Peer) -> Driver:
        table = party.table
        name = table.game.name if table.game is not None else ""
        level = plan.own_level()
        bot = bot_at(name, level, table.options, think)
        say(plan.quiet, _("{name} plays {game}").format(name=bot_label(plan.nick, level),
                                                         game=name))  # fmt: skip
        return BotDriver(bot, plan.seed, tracer, react=plan.react)

    return _LaterBot(bot_for)


class _LaterBot:
    """A bot driver built once the table's game is known (a joiner learns it from the table's
    opening entry): until then it only passes the time."""

    def __init__(self, make: Callable[[Host | Peer], Driver]) -> None:
        self._make = make
        self._bot: Driver | None = None
        self._attached: tuple[trio.Nursery, Callable[[], None]] | None = None

    def attach(self, nursery: trio.Nursery, poke: Callable[[], None]) -> None:
        """Keep what the bot will be attached to."""
        self._attached = (nursery, poke)
        if self._bot is not None:
            self._bot.attach(nursery, poke)

    def observe(self, event: Event) -> None:
        """Pass the event to the bot, once there is one."""
        if self._bot is not None:
            self._bot.observe(event)

    def act(self, party: Host | Peer) -> bool:
        """Build the bot when the game is known; then let it act."""
        if self._bot is None:
            if party.table.game is None:
                return False
            self._bot = self._make(party)
            if self._attached is not None:
                self._bot.attach(*self._attached)
        return self._bot.act(party)

"""What a seat at a networked table was asked to be: the host's table, the address or name of
a table to join or watch, and how the seat plays (a person in the terminal or a headless
bot). The commands fill a :class:`TablePlan` from what was typed; the table layer reads only
this, never the command line.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from lanparty.games.bots import DEFAULT_LEVEL

if TYPE_CHECKING:
    from lanparty.store import SavedSeat

__all__ = ["BOT_KEY_BYTES", "DEFAULT_SPECTATORS", "TablePlan"]

#: The length of the key seed a bot the host starts reads from its ``--key-fd`` pipe.
BOT_KEY_BYTES = 32

#: How many people may watch a table at once unless its host says otherwise.
DEFAULT_SPECTATORS = 16


@dataclass(slots=True)
class TablePlan:
    """One seat's plan. Resuming a saved seat fills in what the saved seat says (its game,
    name, address), so the plan is mutable until the table is running."""

    # ------------------------------------------------------------------ every seat
    nick: str = ""
    """The name at the table."""
    bot: bool = False
    """A headless seat played by a bot (else a person in the terminal)."""
    quiet: bool = False
    """No progress lines on stderr."""
    json: bool = False
    """A headless seat's outcome (a spectator's states) as JSON."""
    plain: bool = False
    """One line per event instead of the full-screen table (also when not on a terminal)."""
    grace: float = 30.0
    """Seconds a lost connection may take to come back before the table stops."""
    seed: int = 0
    """Seed of the bots' choices."""
    react: float | None = None
    """The bots' reaction time in races (``None``: like a person, drawn each time)."""
    level: tuple[str, ...] = ()
    """The bots' levels (easy, normal, hard): none (every bot normal), one (every bot) or
    one per bot a host starts, in order, with a headless host's own first if one more is
    given (:meth:`own_level`, :meth:`started_level`)."""
    think: float | None = None
    """Seconds a hard bot may think about one move (``None``: the default)."""
    interface: str | None = None
    """The interface (name or IPv4 address) to use; ``None``: the default route's."""
    local: bool = False
    """Stay on loopback."""
    resume: str | None = None
    """``--resume``: the saved seat whose table id starts with this (``""``: the only one)."""
    resumed: SavedSeat | None = None
    """The saved seat being resumed, once it is loaded."""
    no_friends: bool = False
    """Record nobody at this table as a friend (``lanparty friends``)."""

    # ------------------------------------------------------------------ a host
    game: str | None = None
    name: str | None = None
    """The table's name in the lobby (``None``: "NICK's GAME")."""
    seats: int = 4
    bots: int = 0
    """Bot peers the host starts, one process each."""
    port: int = 0
    approve: bool = False
    """Each join waits for the host's yes."""
    spectators: int = DEFAULT_SPECTATORS
    spectators_talk: bool = False
    """Spectators may talk at the table (each under the name it gives)."""
    spectators_sit: bool = False
    """Spectators may take the seats a night's next game has free (after the players who
    stay, the one watching longest first)."""
    advertise: bool = True
    """Announce the table over mDNS."""
    then: str = ""
    """The night's next games after the first, played one after another over the same
    connections (``again``, ``GAME``, ``GAME:OPTION=VALUE``…, comma-separated)."""

    # ------------------------------------------------------------------ a joiner, a spectator
    table: str | None = None
    """The table's name to look for (``None``: any)."""
    connect: str | None = None
    """``HOST:PORT`` to dial without mDNS."""
    host_key: str | None = None
    """Only the table opened by this key fingerprint."""
    timeout: float = 10.0
    """Seconds to look for the table."""
    trust: str = ""
    """(Bots a command starts) keys, hex and comma-separated, whose proofs the host checks."""
    key_fd: int | None = None
    """(Bots a command starts) the pipe holding the bot's signing key."""
    no_transcript: bool = False
    """Keep no copy of the transcript."""
    games: int = 0
    """Leave the table after this many games of a night (0: stay for every game offered)."""
    sit: bool = False
    """(A spectator) take a free seat at the night's next game whenever one is offered,
    without asking (a person watching is asked)."""

    def own_level(self) -> str:
        """The level of this seat's own bot (``--bot``): the one level given, else (a
        headless host given one more level than the bots it starts) the list's first, else
        ``normal``."""
        if len(self.level) == 1:
            return self.level[0]
        if self.bot and self.bots and len(self.level) == self.bots + 1:
            return self.level[0]
        return DEFAULT_LEVEL

    def started_level(self, i: int) -> str:
        """The level of the ``i``-th bot this host starts (0: the first, Bea): the one
        level given, else the list's ``i``-th (after the host's own, given one more level
        than the bots), else ``normal``."""
        if len(self.level) == 1:
            return self.level[0]
        shift = 1 if len(self.level) == self.bots + 1 else 0
        k = i + shift
        return self.level[k] if 0 <= i < self.bots and k < len(self.level) else DEFAULT_LEVEL

    @classmethod
    def of(cls, given: object) -> TablePlan:
        """A plan from any object whose attributes are named like the plan's fields (an
        argparse namespace); fields it lacks keep their defaults."""
        return cls(
            **{f.name: getattr(given, f.name) for f in fields(cls) if hasattr(given, f.name)}
        )

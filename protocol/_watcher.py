"""A spectator as a sans-IO protocol object: it follows a table through its host and holds
no seat and no secret."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crypto import Identity

from ._errors import LocalProtocolError, RemoteProtocolError
from ._frames import frame
from ._messages import Challenge, Watch, encode_message
from ._peer import Peer, _Seat
from ._table import Table
from .contract import Game, Move

__all__ = ["Watcher"]


class Watcher(Peer):
    """A spectator: it answers the host's challenge with a ``watch`` (no key, no signature),
    then checks every relay exactly as a seated peer does (the host's signature, the chain,
    each author's signature, every proof and share, the game's rules) and applies it to a
    table copy that holds no secret. It therefore reads what every seat reads and nothing
    more, whatever it or the host does: no hidden card can be unmasked without the seats'
    own shares, and the host sends a spectator only the relays (the log every seat holds),
    a halt, or the refusal of its connection.

    Feed it like a :class:`Peer`; :meth:`view` is the game's view for no seat. After a lost
    connection, :meth:`reconnect` and a new stream: it asks for the log from where it is.
    """

    def __init__(
        self,
        games: Mapping[str, Game[Any]],
        *,
        host_key: bytes | None = None,
        identity: Identity | None = None,
        name: str = "",
    ) -> None:
        """``host_key`` pins the host's identity (e.g. from the lobby announcement); else the
        first entry relayed names it. With ``identity`` and ``name`` the spectator may talk
        where the host allows it (:meth:`say`): its lines are signed with that key and
        shown as said by that name, watching."""
        _Seat.__init__(self)
        self.name = name
        self.table = Table(games, None, host_key=host_key)
        self._follow(host_key)
        self._identity = identity

    def _talks_as(self) -> tuple[Identity, str] | None:
        """The key and name we were given to talk with, if both were."""
        return (self._identity, self.name) if self._identity is not None and self.name else None

    def _challenged(self, msg: Challenge) -> None:
        if self._nonce is not None:
            raise RemoteProtocolError("the host sent a second challenge on one connection")
        self._nonce = msg.nonce
        self._out += frame(encode_message(Watch(len(self.table.log))))

    def _act(self) -> None:
        """A spectator owes nothing and proposes nothing."""

    def play(self, move: Move) -> None:
        """Always raises :class:`LocalProtocolError`: a spectator makes no move."""
        raise LocalProtocolError("a spectator makes no move")

    def close_phase(self) -> None:
        """Always raises :class:`LocalProtocolError`: a spectator closes nothing."""
        raise LocalProtocolError("a spectator closes no phase")

    def leave(self) -> None:
        """Stop watching (nothing is sent: a spectator just hangs up)."""
        self._leaving = True

    def resume(self, table_id: bytes, held: bytes | None = None) -> None:
        """Always raises :class:`LocalProtocolError`: a spectator has no seat to take back."""
        raise LocalProtocolError("a spectator has no seat to take back")

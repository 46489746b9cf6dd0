"""A spectator as a sans-IO protocol object: it follows a table through its host and holds
no seat and no secret."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crypto import SYSTEM_RNG as _SYSTEM_RNG
from crypto import Identity, KeyShare, Rng, SealKey

from ._errors import LocalProtocolError, RemoteProtocolError
from ._frames import frame
from ._messages import Challenge, Hello, Watch, encode_message, hello_signature
from ._peer import Peer
from ._seat import _Seat
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
        self._welcomed(msg)
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

    def next_watcher(self) -> Watcher:
        """We follow the game offered (:attr:`offer`) to its table: a spectator of it, whose
        watch (holding no entry) is queued already; the table's opening entry must be the
        one offered. Feed it the same stream from here on. Raises
        :class:`LocalProtocolError` with no offer."""
        if self.offer is None or self._next_open is None:
            raise LocalProtocolError("no next game is offered")
        nxt = Watcher(self.table.games, host_key=self._host, identity=self._identity,
                      name=self.name)
        nxt._opening = self._next_open
        nxt._nonce = self.offer.nonce
        nxt.carry_talk(self)
        nxt._out += frame(encode_message(Watch(0)))
        return nxt

    def next_sitter(
        self,
        identity: Identity,
        name: str,
        *,
        key: KeyShare | None = None,
        seal: SealKey | None = None,
        rng: Rng = _SYSTEM_RNG,
    ) -> Peer:
        """We ask for one of the seats the offer says are free for spectators
        (:attr:`Offered.free`): a peer of the game offered, signing with ``identity`` and
        sitting down as ``name``, with fresh table secrets (``key``, ``seal``: these, to keep
        them first), whose hello — signing the offer's challenge — is queued already; its
        join follows once the table's opening entry comes (the host sends a spectator the
        relays from the offer on), which must be the one offered. Feed it the same stream
        from here on. Seated in its turn, it is a seat like any; refused, it says so
        (:class:`SitRefused`) and :meth:`after_refusal` gives the spectator we were.
        Raises :class:`LocalProtocolError` with no offer, or none with a seat free."""
        offer, opened = self.offer, self._next_open
        if offer is None or opened is None:
            raise LocalProtocolError("no next game is offered")
        if offer.free <= 0:
            raise LocalProtocolError("the offer has no seat free for spectators")
        nxt = Peer(identity, name, self.table.games, key=key, seal=seal, rng=rng,
                   host_key=self._host)  # fmt: skip
        nxt._opening = opened
        nxt._nonce = offer.nonce
        nxt._watched_as = (self._identity, self.name)
        nxt.carry_talk(self)
        sig = hello_signature(identity, offer.nonce, 0)
        nxt._out += frame(encode_message(Hello(identity.public.raw, 0, sig)))
        return nxt

    @classmethod
    def after_refusal(cls, sitter: Peer) -> Watcher:
        """The spectator ``sitter`` was (a peer made by :meth:`next_sitter`), once the host
        refused it the seat (:attr:`Peer.sit_refused`): a spectator of the same table,
        holding the log ``sitter`` holds (checked already) and talking with the key and name
        it watched with. Feed it the same stream from here on. Raises
        :class:`LocalProtocolError` if no refusal came."""
        if sitter.sit_refused is None or sitter._watched_as is None:
            raise LocalProtocolError("no request for a seat was refused")
        identity, name = sitter._watched_as
        w = cls(sitter.table.games, host_key=sitter._host, identity=identity, name=name)
        w.table.defer_checks = sitter.table.defer_checks
        log = sitter.table.log
        for se, seq in zip(log.entries, log.seqs, strict=True):
            w.table.apply(se, seq, sig_checked=True)  # entries ``sitter`` checked already
        w._nonce, w._opening = sitter._nonce, sitter._opening
        w.carry_talk(sitter)
        return w

    def decline(self) -> None:
        """Stop watching rather than follow the game offered (a spectator just hangs up)."""
        self._leaving = True

    def resume(self, table_id: bytes, held: bytes | None = None) -> None:
        """Always raises :class:`LocalProtocolError`: a spectator has no seat to take back."""
        raise LocalProtocolError("a spectator has no seat to take back")

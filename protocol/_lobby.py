"""The host's side of who comes in: its connections (:class:`Conn`), the joins it holds for
the person hosting to answer, removing a seat before the game, and spectators. Mixed into
:class:`~protocol._host.Host` (which owns every attribute used here)."""

from __future__ import annotations

from collections import deque

from crypto import fingerprint

from ._bodies import Kick
from ._errors import LocalProtocolError, RemoteProtocolError
from ._events import Event, JoinAsked
from ._frames import FrameReader, frame
from ._messages import Challenge, Propose, Refuse, SignedEntry, Watch, encode_message, read_head
from ._table import Table

__all__ = ["Conn", "LobbyControl"]


class Conn:
    """One connection as the protocol sees it: its reader, what waits to be sent (frames,
    often shared with other connections), the challenge it was sent, and whose it is (a
    seat's key, a newcomer's, or a spectator's: no key)."""

    __slots__ = ("closed", "key", "nonce", "out", "reader", "refusals", "watching")

    def __init__(self, nonce: bytes, pos: int) -> None:
        self.reader = FrameReader()
        self.out: list[bytes] = [frame(encode_message(Challenge(nonce, pos)))]
        self.nonce = nonce
        self.key: bytes | None = None  # set by a valid hello: the peer proved it holds it
        self.closed = False
        self.refusals = 0
        self.watching = False  # set by a watch: a spectator, sent the relays and nothing else


class LobbyControl:
    """Joins held for the host's answer, kicks, and spectators."""

    table: Table
    spectators: int
    _conns: dict[int, Conn]
    _relays: list[bytes]
    _held: dict[bytes, tuple[Conn, Propose]]
    _let_in: set[bytes]
    _banned: set[bytes]
    _events: deque[Event]

    def _sequence(self, se: SignedEntry, *, own: bool, sig_checked: bool = False) -> None:
        raise NotImplementedError

    def _proposal(self, c: Conn, msg: Propose) -> None:
        raise NotImplementedError

    def _fatal(self, c: Conn, err: RemoteProtocolError, pos: int) -> RemoteProtocolError:
        raise NotImplementedError

    def kick(self, seat: int) -> None:
        """Remove the player in ``seat`` before the game starts: every copy drops the seat
        (the later seats move up one), its connection is let go after it is told, and its key
        may not come back to this table. Raises :class:`LocalProtocolError` if not possible."""
        member = self.table.member_at(seat)
        try:
            self._sequence(self.table.entry(Kick(seat)), own=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(exc.reason) from None
        assert member is not None
        self._banned.add(member.key)
        for c in self._conns.values():
            if c.key == member.key:
                c.closed = True  # after the kick's relay, queued above

    def asking(self) -> list[tuple[str, str]]:
        """The joins waiting for :meth:`let_in`: ``(name, fingerprint)``, oldest first."""
        out = []
        for key, (_, msg) in self._held.items():
            body = read_head(msg.raw).body
            out.append((str(body.get("name")), fingerprint(key)))
        return out

    def awaiting(self, cid: int) -> bool:
        """True while connection ``cid`` waits for the host to answer its join."""
        c = self._conns[cid]
        return c.key is not None and c.key in self._held and self._held[c.key][0] is c

    def let_in(self, fp: str) -> None:
        """Take the held join of the key with fingerprint ``fp`` (see :attr:`approve_joins`).
        Raises :class:`LocalProtocolError` if no such join waits."""
        key = self._held_key(fp)
        c, msg = self._held.pop(key)
        self._let_in.add(key)
        if c.closed:
            return
        pos = read_head(msg.raw).pos
        if pos != len(self.table.log):  # the log moved on while it waited: propose again
            c.out.append(frame(encode_message(Refuse(pos, "let in: join again", False))))
            return
        try:
            self._proposal(c, msg)
        except RemoteProtocolError as exc:
            self._fatal(c, exc, -1)

    def turn_away(self, fp: str) -> None:
        """Refuse the held join of the key with fingerprint ``fp``, for good. Raises
        :class:`LocalProtocolError` if no such join waits."""
        key = self._held_key(fp)
        c, _ = self._held.pop(key)
        self._banned.add(key)
        c.out.append(frame(encode_message(Refuse(-1, "the host did not let you in", True))))
        c.closed = True

    def _held_key(self, fp: str) -> bytes:
        for key in self._held:
            if fingerprint(key) == fp:
                return key
        raise LocalProtocolError(f"no join from key {fp} is waiting")

    def _hold(self, c: Conn, key: bytes, msg: Propose, body: dict[str, object]) -> None:
        """Keep a join for the host to answer (the first of a key tells the driver)."""
        first = key not in self._held
        self._held[key] = (c, msg)
        if first:
            self._events.append(JoinAsked(str(body.get("name")), fingerprint(key)))

    @property
    def watchers(self) -> int:
        """How many spectators are connected now."""
        return sum(1 for c in self._conns.values() if c.watching and not c.closed)

    def watching(self, cid: int) -> bool:
        """True if connection ``cid`` is a spectator's."""
        return self._conns[cid].watching

    def _watch(self, c: Conn, msg: Watch) -> None:
        """A spectator's answer to the challenge: it is sent the log from ``msg.pos`` on and
        every relay after, unless the table takes no more spectators (a refusal that says
        why, and the connection is let go). Raises :class:`RemoteProtocolError` for a watch
        after a hello or a position past the log."""
        if c.key is not None or c.watching:
            raise RemoteProtocolError("a watch after the connection's hello")
        if msg.pos > len(self._relays):
            raise RemoteProtocolError(f"watches holding {msg.pos} entries of {len(self._relays)}")
        if self.watchers >= self.spectators:
            why = ("this table takes no spectators" if self.spectators <= 0 else
                   f"{self.watchers} spectators are watching already (the most this table "
                   "takes)")  # fmt: skip
            c.out.append(frame(encode_message(Refuse(-1, why, True))))
            c.closed = True
            return
        c.watching = True
        c.out.extend(self._relays[msg.pos :])

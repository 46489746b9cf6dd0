"""Joining a table: find it (:mod:`.locate`), dial it, take a seat (or, ``--resume``, the
saved seat back) and play until the table closes or stops, keeping what a restarted
program needs to resume (:mod:`.keeping`).

The commands (``lanparty join``, the lobby) fill a :class:`~lanparty.table.plan.TablePlan`
and call :func:`open_seat`, then :func:`play_join` headless or under the terminal UI.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from crypto import CryptoError, Identity, KeyShare, SealKey, fingerprint
from lanparty.errors import NetError
from lanparty.games import GAMES
from lanparty.i18n import _
from lanparty.net.node import InternalError, PeerClient, PeerVanished, Stalled
from lanparty.store import SavedSeat, forget_seat
from lanparty.table.botseat import bot_driver
from lanparty.table.keeping import keeping_seat, saved_peer
from lanparty.table.locate import dial, first_dial, locate
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import Outcome, event_sink, finish, leave_on_ctrl_c, teller
from lanparty.table.plan import BOT_KEY_BYTES, TablePlan
from lanparty.table.stopwords import said
from lanparty.table.whoami import my_identity
from lanparty.trace import Tracer
from protocol import Applied, Event, Peer, RemoteProtocolError

__all__ = ["open_seat", "pinned", "play_join", "run_client"]


async def play_join(plan: TablePlan, peer: Peer, seat: NetSeat | None, out: Outcome) -> Outcome:
    """Play at the table until it closes or stops; with ``seat``, a person plays, else a
    bot (``plan.bot``). Returns ``out``, filled in; raises :class:`NetError` if the table
    cannot be found or reached."""
    tell = teller(seat.note if seat is not None else None, plan.quiet)
    addr, port, announced = await locate(plan, tell)

    async def connect() -> trio.abc.Stream:
        return await dial(addr, port)

    stream = await first_dial(addr, port)
    if seat is not None:
        seat.note(_("Connected to {endpoint}; waiting for the table…").format(
            endpoint=f"{addr}:{port}"))  # fmt: skip
        seat.on_ready()
    tracer = Tracer.from_env(plan.nick)
    quiet = plan.quiet or seat is not None
    driver = bot_driver(plan, None, seat, tracer)
    sink = event_sink(out, quiet, tracer)
    if announced is not None:
        sink = pinned(sink, peer, announced, f"{addr}:{port}")
    resumed: SavedSeat | None = plan.resumed
    if resumed is not None:  # the peer resumes it (``saved_peer``)
        tell(_("resuming seat at table {table}…").format(table=resumed.table_hex[:12]))
    sink = keeping_seat(sink, peer, f"{addr}:{port}", tell)
    client = PeerClient(peer, stream, driver, sink, connect=connect, grace=plan.grace,
                        notice=tell, trusted=_trusted(plan))  # fmt: skip
    if seat is not None:
        seat.on_leave = client.leave
    else:  # headless: Ctrl-C leaves as a person's quit does
        leave_on_ctrl_c(out, client.leave)
    try:
        await run_client(client, out)
    finally:
        tracer.close()
        me = peer.table.me
        if peer.table.table_id is not None and me is not None:
            # We end here: there is nothing to come back to.
            forget_seat(peer.table.table_id, me.identity.public.raw)
        if peer.seat is None and not out.stopped:
            # We watched a table we never sat at (it filled or closed as we came): its result
            # is not ours to report.
            out.stopped, out.audit_ok = "the table was full or closed before we got a seat", False
        game = peer.table.game.name if peer.table.game is not None else "table"
        if len(peer.table.log) and not plan.no_transcript:
            finish(peer, out, game, f"joined-{plan.nick}")
        if seat is not None and out.stopped:
            seat.lost(_("The table stopped: {error}").format(error=said(out.stopped)))
    return out


async def run_client(client: PeerClient, out: Outcome) -> None:
    """Run ``client`` until the table closes or stops; how it stopped, if it did not close,
    goes to ``out.stopped`` in one line."""
    try:
        await client.run()
    except PeerVanished as exc:
        out.stopped = str(exc)
    except Stalled as exc:
        out.stopped = f"the table stalled: {exc}"
    except RemoteProtocolError as exc:
        out.stopped = f"the host broke the protocol: {exc}"
    except InternalError as exc:
        out.stopped = str(exc)


def pinned(sink: Any, peer: Peer, announced: str, where: str) -> Any:
    """``sink``, after checking that the table is opened by the key that was announced
    (checked on the opening entry, before our join proposal leaves)."""

    def pinned(event: Event) -> None:
        if isinstance(event, Applied) and event.pos == 0:
            opener = fingerprint(peer.table.log.entries[0].entry.author)
            if opener != announced:
                raise RemoteProtocolError(
                    f"the table at {where} is opened by key {opener}, but key {announced} "
                    "was announced: not joining",
                    culprit=opener, seat=0,
                )  # fmt: skip
        sink(event)

    return pinned


def _bot_identity(key_fd: int | None) -> Identity:
    """A bot's key: the one its spawner wrote to the descriptor ``key_fd`` (read to its end
    and closed at once), else a fresh one. Raises :class:`NetError` if that fails."""
    if key_fd is None:
        return Identity()
    try:
        with os.fdopen(key_fd, "rb") as pipe:
            seed = pipe.read(BOT_KEY_BYTES + 1)
    except OSError as exc:
        raise NetError(f"--key-fd {key_fd}: {exc.strerror or exc}") from None
    try:
        if len(seed) != BOT_KEY_BYTES:
            raise ValueError
        return Identity(seed)
    except (ValueError, CryptoError):
        raise NetError(f"--key-fd {key_fd}: expected a {BOT_KEY_BYTES}-byte key") from None


def _trusted(plan: TablePlan) -> frozenset[bytes]:
    """The keys of ``--trust`` (empty without it); raises :class:`NetError` if malformed."""
    text = plan.trust or ""
    try:
        keys = frozenset(bytes.fromhex(k) for k in text.split(",") if k)
    except ValueError:
        raise NetError("--trust: expected hex keys separated by commas") from None
    if any(len(k) != 32 for k in keys):
        raise NetError("--trust: each key is 32 bytes (64 hex digits)")
    return keys if plan.bot else frozenset()  # a person's program checks everything


def _seat_for(plan: TablePlan) -> tuple[Peer, SavedSeat | None]:
    """A new peer with fresh table secrets, or (``--resume``) the saved seat's own."""
    if plan.resume is None:
        identity = _bot_identity(plan.key_fd) if plan.bot else my_identity()
        return Peer(identity, plan.nick, GAMES, key=KeyShare(), seal=SealKey()), None
    peer, saved = saved_peer(plan.resume or None)
    plan.connect, plan.nick = saved.endpoint, saved.nick
    return peer, saved


def open_seat(plan: TablePlan) -> tuple[Peer, Outcome]:
    """A peer for ``plan`` with fresh table secrets (``plan.resume``: the saved seat's own,
    ``plan`` taking its address and name), and the outcome its play fills in. Raises
    :class:`NetError` (one line) if the key or the saved seat cannot be used."""
    peer, plan.resumed = _seat_for(plan)
    return peer, Outcome()

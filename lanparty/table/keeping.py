"""What a seat keeps so that a restarted process can take it back (``--resume``): its
secrets, the sealed move it has not opened yet, and at the host the relays it sent.

Kept in the user's data directory (``store``); forgotten when the game ends.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio

from crypto import Identity
from lanparty.errors import NetError
from lanparty.games import GAMES
from lanparty.i18n import _
from lanparty.store import (
    SavedSeat,
    append_journal,
    forget_seat,
    held_path,
    journal_path,
    load_seat,
    save_seat,
    write_private,
)
from lanparty.table.locate import dial, split_endpoint
from lanparty.table.plan import TablePlan
from protocol import Event, Holding, Host, LocalProtocolError, Peer, SealedMove

__all__ = [
    "PROBE_S",
    "forget_saved",
    "keep_host",
    "keeping_sealed",
    "keeping_seat",
    "restore_host",
    "saved_peer",
    "seat_gone",
]

#: Seconds a kept seat's host has to take a connection (the lobby's look): no answer in that
#: time is no evidence at all (a slow network, a host busy proving), only a refusal is.
PROBE_S = 5.0


def keep_host(host: Host, nick: str, endpoint: str, tell: Any) -> tuple[Any, SavedSeat]:
    """Save the host's secrets and its relays so far; return the callback that appends the
    later ones (``None``, and a word, if they cannot be saved: the game goes on without), so
    a restarted host can restore the table (``lanparty host --resume``), and the seat kept."""
    me = host.table.me
    assert me is not None
    seat = SavedSeat.of(host.table_id, nick, endpoint, (me.identity, me.key, me.seal),
                        host=True)  # fmt: skip
    path = journal_path(seat)
    failed = False

    def journal(frames: list[bytes]) -> None:
        nonlocal failed
        if failed:
            return
        try:
            append_journal(path, frames)
        except OSError as exc:
            failed = True
            tell(_("cannot keep the table for --resume: {error}").format(error=exc.strerror or exc))

    try:
        save_seat(seat)
        if not path.exists():  # a restored host's journal already holds the past
            append_journal(path, host.relays_since(0))
    except OSError as exc:
        tell(_("cannot keep the table for --resume: {error}").format(error=exc.strerror or exc))
        return None, seat
    return journal, seat


def keeping_sealed(sink: Any, seat: Callable[[], SavedSeat | None], tell: Any) -> Any:
    """``sink``, saving each move we seal with our seat (``seat()``, once we have one)
    before it is committed, so that a restarted process can still open it."""

    def keeping(event: Event) -> None:
        kept = seat()
        if isinstance(event, SealedMove) and kept is not None:
            try:
                save_seat(replace(kept, sealed=event.blob))
            except OSError as exc:  # only --resume needs it: play on without
                tell(_("cannot keep the sealed move for --resume: {error}").format(
                    error=exc.strerror or exc))  # fmt: skip
        sink(event)

    return keeping


def keeping_seat(
    sink: Any, peer: Peer, endpoint: str, tell: Any, kept: SavedSeat | None = None
) -> Any:
    """``sink``, saving our seat's secrets once we are seated (and each move we seal), so
    that a restarted process can take the seat back (``lanparty join --resume``) while the
    host waits for it; ``kept``: saved already (a night's next table: before our answer to
    its offer left)."""
    held: Path | None = None  # named once: its name is made from the seat's public key

    def keeping(event: Event) -> None:
        nonlocal kept, held
        t = peer.table
        if kept is None and peer.seat is not None and t.table_id is not None and t.me is not None:
            me = t.me
            kept = SavedSeat.of(t.table_id, peer.name, endpoint, (me.identity, me.key, me.seal))
            try:
                save_seat(kept)
                held = held_path(kept)
            except OSError as exc:  # only --resume needs it: play on without
                tell(_("cannot keep this seat for --resume: {error}").format(
                    error=exc.strerror or exc))  # fmt: skip
        if isinstance(event, Holding) and kept is not None:
            try:  # before what we signed leaves: a resumed seat must not be rolled back
                write_private(held or held_path(kept), event.blob)
            except OSError as exc:
                tell(_("cannot keep this seat for --resume: {error}").format(
                    error=exc.strerror or exc))  # fmt: skip
        sealing(event)

    sealing = keeping_sealed(sink, lambda: kept, tell)
    return keeping


def restore_host(plan: TablePlan) -> Host:
    """``--resume``: the table this host ran before its process ended, from its saved
    secrets and journal; ``plan`` takes the table's game, name and address. Raises
    :class:`NetError` (one line) if there is no such table or it cannot be restored."""
    try:
        saved = load_seat(plan.resume or None, host=True)
        frames = journal_path(saved).read_bytes()
        identity, key, seal = saved.secrets()
        host = Host.restore(identity, GAMES, [frames], key=key, seal=seal,
                            sealed=saved.sealed or None)  # fmt: skip
    except (OSError, ValueError, LocalProtocolError) as exc:
        raise NetError(_("cannot resume the table: {error}").format(error=exc)) from None
    game = host.table.game
    assert game is not None
    plan.game, plan.nick, plan.resumed = game.name, saved.nick, saved
    plan.seats, plan.bots, plan.advertise = len(host.table.members), 0, False
    return host


def saved_peer(prefix: str | None, base: Path | None = None) -> tuple[Peer, SavedSeat]:
    """The peer of the saved seat whose table id starts with ``prefix`` (the only one when
    ``None``), with its secrets and its unopened sealed move, ready to ``resume``.

    Raises :class:`NetError` (one line) if there is no such seat or it is damaged.
    """
    try:
        saved = load_seat(prefix, base)
        identity, key, seal = saved.secrets()
        peer = Peer(identity, saved.nick, GAMES, key=key, seal=seal, sealed=saved.sealed or None)
    except ValueError as exc:
        raise NetError(str(exc)) from None
    except LocalProtocolError as exc:
        raise NetError(_("cannot resume the seat: {error}").format(error=exc)) from None
    try:
        peer.resume(saved.table, held=saved.held or None)
    except LocalProtocolError as exc:
        raise NetError(_("cannot resume the seat: {error}").format(error=exc)) from None
    return peer, saved


async def seat_gone(seat: SavedSeat, announced: Callable[[str], bool]) -> bool:
    """True if the table of the kept seat ``seat`` is over; False if it may still be waiting
    for us (then the seat is kept).

    The rule, on evidence only: the table is over when nobody listens at its host's address
    any more (the connection is *refused*: the host's program has ended, and a host that
    comes back with ``--resume`` comes back there) and no table is announced at that
    address now (``announced(endpoint)``). A connection taken, a host slow to answer, a
    network that does not answer within :data:`PROBE_S`, an address that cannot be reached:
    none of these is evidence, and the seat is kept. (A host that answers but no longer
    holds the table says so when the seat is taken back, and the seat is forgotten then.) A
    table we hosted is never judged so: nobody listens at our own address while we are
    away, yet our players may be waiting for us."""
    if seat.host:
        return False
    try:
        host, port = split_endpoint(seat.endpoint)
    except ValueError:
        return False
    with trio.move_on_after(PROBE_S):
        try:
            stream = await dial(host, port)
        except OSError as exc:
            return _refused(exc) and not announced(seat.endpoint)
        await stream.aclose()
    return False


def _refused(exc: BaseException) -> bool:
    """True if every attempt ``exc`` reports was a refused connection (trio's
    ``open_tcp_stream`` gathers one error per address tried in its ``__cause__``)."""
    tried = getattr(exc.__cause__, "exceptions", None)
    if tried:
        return all(_refused(one) for one in tried)
    return isinstance(exc, ConnectionRefusedError) or getattr(exc, "errno", None) == (
        errno.ECONNREFUSED)  # fmt: skip


def forget_saved(seat: SavedSeat) -> None:
    """Forget the kept seat ``seat`` (its secrets and what it held); nothing if it is gone
    already."""
    forget_seat(seat.table, Identity(seat.identity).public.raw)

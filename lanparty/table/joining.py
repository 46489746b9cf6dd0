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
from lanparty.friends import load as load_friends
from lanparty.games import GAMES
from lanparty.i18n import _
from lanparty.net.node import InternalError, PeerClient, PeerVanished, Stalled
from lanparty.store import SavedSeat, forget_seat
from lanparty.table.admitting import Admission
from lanparty.table.botseat import bot_driver
from lanparty.table.friendly import marking
from lanparty.table.keeping import forget_saved, keeping_seat, saved_peer
from lanparty.table.locate import dial, first_dial, key_text, locate
from lanparty.table.networked import NetSeat
from lanparty.table.nightjoin import JoinNight, abandoned
from lanparty.table.outcome import Outcome, event_sink, leave_on_ctrl_c, name_at
from lanparty.table.plan import BOT_KEY_BYTES, TablePlan
from lanparty.table.stopwords import blamed, said
from lanparty.table.whoami import my_identity
from lanparty.trace import Tracer
from protocol import Applied, Event, Peer, RemoteProtocolError

__all__ = ["WrongHost", "open_seat", "pinned", "play_join", "run_client"]


async def play_join(plan: TablePlan, peer: Peer, seat: NetSeat | None, out: Outcome) -> Outcome:
    """Play at the table until it closes or stops; with ``seat``, a person plays (their
    table screen opens once they hold a seat: :mod:`.admitting`), else a bot
    (``plan.bot``). Returns ``out``, filled in (``out.refused`` says why a join got no seat:
    it keeps no transcript); raises :class:`NetError` if the table cannot be found or
    reached."""
    admission = Admission(peer, seat, plan.quiet, resumed=plan.resumed is not None)
    tell = admission.tell
    addr, port, announced = await locate(plan, tell)
    out.where = f"{addr}:{port}"

    async def connect() -> trio.abc.Stream:
        return await dial(addr, port)

    stream = await first_dial(addr, port)
    tell(_("Connected to {endpoint}; waiting for the table…").format(endpoint=out.where))
    admission.connected()
    tracer = Tracer.from_env(plan.nick)
    quiet = plan.quiet or seat is not None
    driver = bot_driver(plan, None, seat, tracer)
    me = peer.table.me
    if plan.bot and plan.level and me is not None:  # the summary says this bot's level
        out.bot_levels[me.identity.public.fingerprint] = plan.own_level()
    sink = _opener(event_sink(out, quiet, tracer, peer), peer, out)
    if announced is not None:
        sink = pinned(sink, peer, announced, out.where, given=plan.host_key is not None)
    resumed: SavedSeat | None = plan.resumed
    if resumed is not None:  # the peer resumes it (``saved_peer``)
        tell(_("resuming seat at table {table}…").format(table=resumed.table_hex[:12]))
    sink = marking(keeping_seat(sink, peer, out.where, tell), peer, tell, load_friends())
    sink = admission.sink(sink)
    night = JoinNight(plan, seat, out, tracer=tracer, tell=tell, label=f"joined-{plan.nick}")
    client = PeerClient(peer, stream, admission.driver(driver), sink, connect=connect,
                        grace=plan.grace, notice=tell, trusted=_trusted(plan),
                        night=night)  # fmt: skip
    night.client = client
    if seat is not None:
        seat.on_leave = client.leave
    else:  # headless: Ctrl-C leaves as a person's quit does
        leave_on_ctrl_c(out, client.leave)
    try:
        await run_client(client, out)
    finally:
        tracer.close()
        now = client.peer  # the night's last table (the first, but for a night)
        me = now.table.me
        if now.table.table_id is not None and me is not None:
            # We end here: there is nothing to come back to.
            forget_seat(now.table.table_id, me.identity.public.raw)
        if resumed is not None:  # and the seat we took back (the host may hold another table)
            forget_saved(resumed)
        out.connections = client.connects
        if not admission.seated:
            # Refused, or the table filled or closed as we came: no game of ours to keep.
            out.refused = out.refused or peer.refused or out.stopped or (
                "the table was full or closed before we got a seat")  # fmt: skip
            out.stopped, out.audit_ok = out.stopped or out.refused, False
        elif len(now.table.log):
            night.keep(now)
            if abandoned(now):  # a next game too few stayed for: it counts for nothing
                out.stopped = out.stopped or "the night ended before its next game began"
        if seat is not None:
            seat.night_ended()
        if seat is not None and out.stopped and admission.seated:
            seat.lost(_("The table stopped: {error}").format(error=said(out.stopped)))
    return out


#: How another version of the protocol (or of the log's entries) is said: not a fault.
_OTHER_VERSION = ("incompatible protocol: ", "incompatible log entries: ")


async def run_client(client: PeerClient, out: Outcome) -> None:
    """Run ``client`` until the table closes or stops; how it stopped, if it did not close,
    goes to ``out.stopped`` in one line (English, the words first)."""
    try:
        await client.run()
    except PeerVanished as exc:
        out.stopped = str(exc)
    except Stalled as exc:
        out.stopped = f"the table stalled: {exc}"
    except RemoteProtocolError as exc:
        if isinstance(exc, WrongHost):  # not the table we meant: said before any refusal
            out.stopped = out.refused = exc.reason
            return
        if exc.reason.startswith(_OTHER_VERSION):
            out.stopped = exc.reason  # nothing broken: not the program we meant
            return
        out.stopped = f"the host broke the protocol: {blamed(exc, name_at(client.peer))}"
    except InternalError as exc:
        out.stopped = str(exc)


class WrongHost(RemoteProtocolError):  # noqa: N818 - names what it is, like PeerVanished
    """The table at the address dialled is opened by another key than the one asked for:
    not the table we meant (a wrong key, or someone else answering there), not a fault."""


def pinned(sink: Any, peer: Peer, expected: str, where: str, *, given: bool = True) -> Any:
    """``sink``, after checking that the table is opened by the key ``expected``: first on
    the key the host's challenge claims, before any event of the table is told (so a wrong
    key is said before anything else the host answers: a full table, a game started), then
    on the opening entry, which proves it, before our join proposal leaves. ``given``: the
    person gave that key (``--host-key``), else the table was announced with it. Raises
    :class:`WrongHost`."""

    def wrong(other: str) -> WrongHost:
        """The error for a table opened (or said to be) by the key ``other``."""
        why = (f"this table's host key is not the one you gave: the table at {where} is "
               f"opened by {other}, not {expected} (a wrong key, or someone else answers at "
               f"that address)") if given else (
               f"the table at {where} is not opened by the key it was announced with "
               f"({expected}): someone else answers at that address (its key is "
               f"{other})")  # fmt: skip
        return WrongHost(why)

    def pinned(event: Event) -> None:
        claim = peer.host_claim
        if claim is not None and key_text(fingerprint(claim)) != key_text(expected):
            raise wrong(fingerprint(claim))
        if isinstance(event, Applied) and event.pos == 0:
            opener = fingerprint(peer.table.log.entries[0].entry.author)
            if key_text(opener) != key_text(expected):
                raise wrong(opener)
        sink(event)

    return pinned


def _opener(sink: Any, peer: Peer, out: Outcome) -> Any:
    """``sink``, noting in ``out`` the key that opened the table (from its opening entry)."""

    def noting(event: Event) -> None:
        if isinstance(event, Applied) and event.pos == 0:
            out.opener = fingerprint(peer.table.log.entries[0].entry.author)
        sink(event)

    return noting


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

"""``lanparty host`` and ``join``: tables across processes and machines.

Each command parses its arguments in :mod:`lanparty.commands.main` (one ``Subcommand``
entry), then runs a trio program built from :mod:`lanparty.net` (TCP, mDNS) around the sans-IO
protocol. A ``--bot`` peer plays headless with its own fresh keys and exits when the table
closes: 0 if the audit passed, 1 if the game stopped or the audit found a broken rule. A
person signs with their persistent key unless another process of theirs holds it
(:mod:`lanparty.commands.whoami`); Ctrl-C at a table ends it in one line
(:mod:`lanparty.interrupt`).
"""

from __future__ import annotations

import argparse
import math
import os
import secrets
import subprocess
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import trio

from crypto import CryptoError, Identity, KeyShare, SealKey, fingerprint
from lanparty.commands.locate import dial, first_dial, locate
from lanparty.commands.netargs import DEFAULT_SPECTATORS
from lanparty.commands.whoami import claim_identity
from lanparty.errors import NetError
from lanparty.games import GAMES, PLUGINS, get_game
from lanparty.games.bots import bots_for
from lanparty.i18n import _
from lanparty.interrupt import call_on_ctrl_c, end_all, lanparty_command, on_interrupt, spawn
from lanparty.net.discovery import Advertisement, TableAd, advertise, bad_table_name
from lanparty.net.interfaces import Interface, InterfaceError, choose_interface
from lanparty.net.node import (
    Driver,
    InternalError,
    PeerClient,
    PeerVanished,
    Stalled,
)
from lanparty.net.server import HostServer
from lanparty.store import (
    SavedSeat,
    forget_seat,
    open_log,
    save_transcript,
)
from lanparty.table.botseat import BotDriver
from lanparty.table.keeping import keep_host, keeping_sealed, keeping_seat, restore_host, saved_peer
from lanparty.table.local import BOT_NAMES
from lanparty.table.networked import NetSeat
from lanparty.table.outcome import Outcome, event_sink, report, say, teller
from lanparty.table.stopwords import said
from lanparty.table.terminal import LeftTable, play_in_terminal
from lanparty.trace import Tracer
from protocol import (
    PROTOCOL_VERSION,
    Applied,
    Event,
    Host,
    Joined,
    LocalProtocolError,
    Peer,
    Phase,
    RemoteProtocolError,
    SeatsFixed,
)
from protocol._names import looks_alike

#: Seconds between two announcements of a playing table's spectator count.
AD_PAUSE = 2.0


def finish(party: Host | Peer, out: Outcome, game: str, label: str) -> None:
    """Save ``party``'s transcript; its path goes to ``out``."""
    out.transcript = str(save_transcript(party.transcript(), game, label))


# --------------------------------------------------------------------------- host


def _driver(
    args: argparse.Namespace, game: str | None, seat: NetSeat | None, tracer: Tracer
) -> Driver:
    """A person's seat, or a bot for ``game`` (``None``: the game the table turns out to be,
    learned from its opening entry before the bot is built)."""
    if seat is not None:
        return seat

    def bot_for(name: str) -> Driver:
        bot = bots_for(name)["heuristic"]()
        return BotDriver(bot, args.seed, tracer, react=getattr(args, "react", None))

    return bot_for(game) if game is not None else _LaterBot(bot_for)


class _LaterBot:
    """A bot driver built once the table's game is known (a joiner learns it from the table's
    opening entry): until then it only passes the time."""

    def __init__(self, make: Callable[[str], Driver]) -> None:
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
            game = party.table.game
            if game is None:
                return False
            self._bot = self._make(game.name)
            if self._attached is not None:
                self._bot.attach(*self._attached)
        return self._bot.act(party)


def table_language(game: str, options: dict[str, Any]) -> str:
    """The table's writing language as its options hold it (its game's
    ``language_option``), for the lobby; ``""`` for a game without one."""
    option = PLUGINS[game].language_option if game in PLUGINS else None
    value = options.get(option) if option is not None else None
    return value if isinstance(value, str) else ""


async def _host(
    args: argparse.Namespace, host: Host, seat: NetSeat | None, out: Outcome
) -> Outcome:
    """Serve the table until it closes or stops; with ``seat``, a person plays seat 0."""
    resumed: SavedSeat | None = getattr(args, "resumed", None)
    if resumed is not None:  # the same address: the peers are trying to reconnect to it
        ip, _colon, saved_port = resumed.endpoint.rpartition(":")
        iface, args.port = Interface("saved", ip), int(saved_port)
    else:
        iface = choose_interface(args.interface, local=args.local)
    tracer = Tracer.from_env(args.nick)
    quiet = args.quiet or seat is not None  # the terminal UI tells the story itself
    tell = teller(seat.note if seat is not None else None, args.quiet)
    name = args.name or f"{args.nick}'s {args.game}"
    problem = bad_table_name(name)
    if problem:
        raise NetError(f"{problem}: {name!r}")
    try:
        listeners = await trio.open_tcp_listeners(args.port, host=iface.ip)
    except OSError as exc:
        raise NetError(_("cannot listen on {endpoint}: {error}").format(
            endpoint=f"{iface.ip}:{args.port}", error=exc.strerror or exc)) from None  # fmt: skip
    port = listeners[0].socket.getsockname()[1]
    journal, kept = keep_host(host, args.nick, f"{iface.ip}:{port}", tell)
    driver = _driver(args, args.game, seat, tracer)
    # Every seat taken is a word on this channel, closed once the seats are fixed.
    seat_taken, seats_taken = trio.open_memory_channel[int](math.inf)
    sink = _counting_seats(event_sink(out, quiet, tracer), seat_taken)
    sink = keeping_sealed(sink, lambda: kept, tell)
    server = HostServer(host, driver, sink, grace=args.grace, notice=tell, journal=journal)
    server.journaled = len(host.relays_since(0))  # those are kept already
    ad = TableAd(name, args.game, args.seats, args.seats - 1, PROTOCOL_VERSION,
                 host.identity.public.fingerprint, args.nick, port=port,
                 spectators=host.spectators,
                 lang=table_language(args.game, host.table.options))  # fmt: skip
    say(quiet, _("table {name} on {endpoint} ({interface}); host key {key}").format(
        name=repr(name), endpoint=f"{iface.ip}:{port}", interface=iface.name,
        key=host.identity.public.fingerprint))  # fmt: skip
    if seat is not None:
        seat.note(_("Table {name} is open on {endpoint}; your key {key}").format(
            name=repr(name), endpoint=f"{iface.ip}:{port}",
            key=host.identity.public.fingerprint))  # fmt: skip
        seat.on_ready()
    procs: list[subprocess.Popen[bytes]] = []
    # A bot named like the host would be refused its seat.
    bot_names = [n for n in BOT_NAMES if not looks_alike(n, args.nick)]
    bot_names += [f"Bot {i}" for i in range(len(bot_names) + 1, args.bots + 1)]
    try:
        async with trio.open_nursery() as nursery:
            reason = f"{args.nick} (the host) left the table"
            if seat is not None:
                seat.on_leave = lambda: _soon(nursery, server.halt, reason, 0)
            else:  # headless: Ctrl-C leaves as a person's quit does
                leave_on_ctrl_c(out, lambda: _soon(nursery, server.halt, reason, 0))
            nursery.start_soon(server.serve, listeners)
            # Our bots sign with keys made here, so each knows its fellows: while every
            # seat is ours, they leave the proofs to us (we check every one for the table).
            bot_ids = [Identity() for _ in range(args.bots)]
            trust = ",".join(
                k.hex() for k in [host.identity.public.raw, *(b.public.raw for b in bot_ids)]
            )
            for i in range(args.bots):
                # A bot waits for a restarted host as long as the host waits for its players.
                procs.append(_spawn_join(["--connect", f"{iface.ip}:{port}", "--nick",
                                          bot_names[i], "--seed", str(args.seed + 1 + i),
                                          "--host-key", host.identity.public.fingerprint,
                                          "--grace", str(args.grace), "--trust", trust,
                                          *_react_args(args)], bot_ids[i]))  # fmt: skip
            if getattr(args, "advertise", True):
                async with advertise(iface.ip, ad) as adv, trio.open_nursery() as heard:
                    first = adv.name_taken  # heard before we began: the name was taken
                    heard.start_soon(_tell_namesakes, adv, first, tell, host.identity)
                    with trio.CancelScope() as scope:
                        nursery.start_soon(_cancel_when, server.done, scope)
                        async for _seated in seats_taken:  # until the seats are fixed
                            free = args.seats - len(host.table.members)
                            if host.phase is Phase.LOBBY and free != adv.ad.free:
                                await adv.update(free=free, watchers=server.watchers)
                        # A table that takes spectators stays announced while it plays.
                        while host.spectators > 0:
                            if not adv.ad.playing or adv.ad.watchers != server.watchers:
                                await adv.update(free=0, playing=True, watchers=server.watchers)
                                # Each update is a multicast announcement: at most one per
                                # AD_PAUSE seconds, however often spectators come and go.
                                await trio.sleep(AD_PAUSE)
                                continue
                            await server.watchers_changed.wait()
                    # Withdraw the advertisement once the seats are fixed or the table ends.
                    await adv.withdraw()
                    heard.cancel_scope.cancel()
    finally:
        leaving = not server.done.is_set()
        if leaving:  # we are leaving (Ctrl-C, quit): tell everyone
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await server.halt(f"{args.nick} (the host) left the table", 0)
        tracer.close()
        # Our bots stop when the table does; ones that do not (told nothing) are ended.
        end_all(procs, wait=5 if leaving else 30)
        if server.vanished and not out.audit_ok:
            out.stopped = out.stopped or "a peer vanished: " + ", ".join(server.vanished)
        forget_seat(host.table_id, host.identity.public.raw)  # we end here
        finish(host, out, args.game, name)
    return out


def _counting_seats(sink: Any, seat_taken: trio.MemorySendChannel[int]) -> Any:
    """``sink``, also sending each seat taken on ``seat_taken`` and closing it once the
    seats are fixed (the advertisement follows the seat count until then)."""

    def counting(event: Event) -> None:
        sink(event)
        if isinstance(event, Joined):
            with suppress(trio.ClosedResourceError):
                seat_taken.send_nowait(event.seat)
        elif isinstance(event, SeatsFixed):
            seat_taken.close()

    return counting


def _react_args(args: argparse.Namespace) -> list[str]:
    """``--react S`` for a spawned bot, if this command was given one."""
    react = getattr(args, "react", None)
    return [] if react is None else ["--react", str(react)]


def leave_on_ctrl_c(out: Outcome, leave: Any) -> None:
    """(trio) At the first Ctrl-C, note it in ``out`` and ``leave()`` the table (the host
    halts it for everyone, naming who left), instead of dropping every connection."""

    def interrupted() -> None:
        out.interrupted = True
        leave()

    trio.lowlevel.spawn_system_task(call_on_ctrl_c, interrupted)


def _soon(nursery: trio.Nursery, fn: Any, *args: Any) -> None:
    """Start ``fn(*args)`` in ``nursery`` unless the nursery is already winding down."""
    with suppress(RuntimeError):  # "closed to new arrivals": the table is ending anyway
        nursery.start_soon(fn, *args)


async def _tell_namesakes(adv: Advertisement, taken: bool, tell: Any, me: Identity) -> None:
    """Say each table whose name reads like ours as it is heard, for as long as ours is
    announced: one there before us (``taken``: the name was taken), or one that came after
    (a friend's, or a stranger's squatting it). Players see both, each with its host's key."""
    while True:
        other = await adv.next_namesake()
        if taken:
            tell(_("another table on this network is already called {name}: players will see "
                   "both, each with its host's key; yours is {key}").format(
                       name=repr(other.name), key=me.public.fingerprint))  # fmt: skip
            taken = False
        else:
            tell(_("a table named {name} (key {other}) was just opened on this network: "
                   "players will see both, each with its host's key; yours is {key}").format(
                       name=repr(other.name), other=other.fingerprint,
                       key=me.public.fingerprint))  # fmt: skip


async def _cancel_when(event: trio.Event, scope: trio.CancelScope) -> None:
    await event.wait()
    scope.cancel()


#: The length of the key seed a spawned bot reads from its ``--key-fd``.
_SEED_BYTES = 32


def _spawn_join(extra: list[str], identity: Identity) -> subprocess.Popen[bytes]:
    """Start a bot process that joins with ``identity``; raises :class:`OSError` if it
    cannot be started."""
    # Our bots keep no transcript: the host keeps the table's (one copy, not one per bot).
    cmd = lanparty_command("join", "--bot", "--no-transcript", *extra)
    # The bot's signing key goes through a pipe it inherits and reads once: never on its
    # command line nor in its environment, which /proc keeps readable for the process's
    # whole life. 32 bytes fit in any pipe's buffer (and are written at once, being under
    # PIPE_BUF), so they are written before the bot starts, and the bot reads to the end.
    read_end, write_end = os.pipe()
    try:
        try:
            os.write(write_end, identity.seed())
        finally:
            os.close(write_end)
        # The bot's own words would mix into ours (and into a terminal UI): they go to its
        # log file; it reports to us by its exit code. It runs in a session of its own:
        # Ctrl-C is ours to handle (we halt the table, and it stops).
        log = open_log(f"bot-{secrets.token_hex(3)}")
        with log:
            return spawn([*cmd, "--key-fd", str(read_end)], stdout=log, stderr=log,
                         pass_fds=(read_end,))  # fmt: skip
    finally:
        os.close(read_end)


def _bot_identity(key_fd: int | None) -> Identity:
    """A bot's key: the one its spawner wrote to the descriptor ``key_fd`` (read to its end
    and closed at once), else a fresh one. Raises :class:`NetError` if that fails."""
    if key_fd is None:
        return Identity()
    try:
        with os.fdopen(key_fd, "rb") as pipe:
            seed = pipe.read(_SEED_BYTES + 1)
    except OSError as exc:
        raise NetError(f"--key-fd {key_fd}: {exc.strerror or exc}") from None
    try:
        if len(seed) != _SEED_BYTES:
            raise ValueError
        return Identity(seed)
    except (ValueError, CryptoError):
        raise NetError(f"--key-fd {key_fd}: expected a {_SEED_BYTES}-byte key") from None


def _trusted(args: argparse.Namespace) -> frozenset[bytes]:
    """The keys of ``--trust`` (empty without it); raises :class:`NetError` if malformed."""
    text = getattr(args, "trust", "") or ""
    try:
        keys = frozenset(bytes.fromhex(k) for k in text.split(",") if k)
    except ValueError:
        raise NetError("--trust: expected hex keys separated by commas") from None
    if any(len(k) != 32 for k in keys):
        raise NetError("--trust: each key is 32 bytes (64 hex digits)")
    return keys if args.bot else frozenset()  # a person's program checks everything


def _identity() -> Identity:
    """Our persistent identity, or a one-off one if another process of ours uses it."""
    try:
        identity, persistent = claim_identity()
    except ValueError as exc:  # a damaged key file: never replaced silently
        raise NetError(str(exc)) from None
    if not persistent:
        say(False, _("another lanparty of yours (same data directory) is using your key: this "
                     "one signs with a one-off key, {key}").format(key=identity.public.fingerprint))
    return identity


# --------------------------------------------------------------------------- join


async def _join(
    args: argparse.Namespace, peer: Peer, seat: NetSeat | None, out: Outcome
) -> Outcome:
    """Play at the table until it closes or stops; with ``seat``, a person plays."""
    tell = teller(seat.note if seat is not None else None, args.quiet)
    addr, port, announced = await locate(args, tell)

    async def connect() -> trio.abc.Stream:
        return await dial(addr, port)

    stream = await first_dial(addr, port)
    if seat is not None:
        seat.note(_("Connected to {endpoint}; waiting for the table…").format(
            endpoint=f"{addr}:{port}"))  # fmt: skip
        seat.on_ready()
    tracer = Tracer.from_env(args.nick)
    quiet = args.quiet or seat is not None
    driver = _driver(args, None, seat, tracer)
    sink = event_sink(out, quiet, tracer)
    if announced is not None:
        sink = pinned(sink, peer, announced, f"{addr}:{port}")
    resumed: SavedSeat | None = getattr(args, "resumed", None)
    if resumed is not None:  # the peer resumes it (``saved_peer``)
        tell(_("resuming seat at table {table}…").format(table=resumed.table_hex[:12]))
    sink = keeping_seat(sink, peer, f"{addr}:{port}", tell)
    client = PeerClient(peer, stream, driver, sink, connect=connect, grace=args.grace,
                        notice=tell, trusted=_trusted(args))  # fmt: skip
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
        if len(peer.table.log) and not getattr(args, "no_transcript", False):
            finish(peer, out, game, f"joined-{args.nick}")
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


# --------------------------------------------------------------------------- wiring


def _outcome_of(host: Host) -> Outcome:
    """An outcome that already knows the seats of a restored table."""
    return Outcome(names=tuple(m.name for m in host.table.members))


def run_host(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``lanparty host`` (and ``lanparty play``: a host on loopback with bot processes);
    ``--resume``: restore the table this host ran before its process ended."""
    if getattr(args, "resume", None) is not None:
        host = restore_host(args)
    else:
        get_game(args.game)
        identity = Identity() if args.bot else _identity()
        try:
            host = Host(identity, args.nick, GAMES, args.game, options, args.seats)
        except LocalProtocolError as exc:
            raise NetError(str(exc)) from None
    host.approve_joins = bool(getattr(args, "approve", False))
    host.spectators = getattr(args, "spectators", DEFAULT_SPECTATORS)
    out = _outcome_of(host) if getattr(args, "resumed", None) else Outcome()
    return _seated(args, host, _host, out, _("the table stopped for everyone"))


def _seat_for(args: argparse.Namespace) -> tuple[Peer, SavedSeat | None]:
    """A new peer with fresh table secrets, or (``--resume``) the saved seat's own."""
    if getattr(args, "resume", None) is None:
        identity = _bot_identity(getattr(args, "key_fd", None)) if args.bot else _identity()
        return Peer(identity, args.nick, GAMES, key=KeyShare(), seal=SealKey()), None
    peer, saved = saved_peer(args.resume or None)
    args.connect, args.nick = saved.endpoint, saved.nick
    return peer, saved


def run_join(args: argparse.Namespace) -> int:
    """``lanparty join`` (``--resume``: take a saved seat back after a restart)."""
    peer, resumed = _seat_for(args)
    args.resumed = resumed
    return _seated(args, peer, _join, Outcome(), _("you left the table"))


def _seated(args: argparse.Namespace, party: Any, play: Any, out: Outcome, leaving: str) -> int:
    """Play ``party``'s seat with ``play(args, party, seat, out)``: headless (``--bot``,
    ``seat`` ``None``) or in the terminal; Ctrl-C ends it saying ``leaving``. The exit
    status; ``NetError`` for an interface or socket that cannot be used."""
    try:
        with on_interrupt(lambda: _left(out, leaving)):
            if args.bot:
                return _report(args, trio.run(play, args, party, None, out))
            seat = NetSeat(party)
            play_in_terminal(lambda: play(args, party, seat, out), seat, terminal_screen())
    except LeftTable:
        pass
    except (InterfaceError, OSError) as exc:
        raise NetError(str(exc)) from None
    return _farewell(out)


def terminal_screen() -> Any:
    """The terminal UI for a seat at a networked table."""
    from lanparty.ui.app import run_async

    return run_async


def _report(args: argparse.Namespace, out: Outcome) -> int:
    """A headless peer's outcome (see :func:`report`); ``KeyboardInterrupt`` if it left the
    table on Ctrl-C."""
    if out.interrupted:
        raise KeyboardInterrupt
    return report(args, out)


def _left(out: Outcome, what: str) -> str:
    """The one line for Ctrl-C at a table: what happened, and where the transcript is."""
    if not out.transcript:  # not at a table yet (looking for it, connecting)
        return _("interrupted")
    return _("interrupted: {what}; transcript saved: {path}").format(what=what, path=out.transcript)


def _farewell(out: Outcome) -> int:
    """After the terminal UI: where the transcript is; 0 (leaving is not an error)."""
    if out.transcript:
        print(_("transcript saved: {path}  (check it: lanparty audit FILE)").format(
            path=out.transcript))  # fmt: skip
    return 0


__all__ = [
    "NetError",
    "finish",
    "leave_on_ctrl_c",
    "pinned",
    "run_client",
    "run_host",
    "run_join",
    "terminal_screen",
]

"""Hosting a table across processes and machines: listen, announce the table over mDNS,
start the bot peers (one process each, keys passed through a pipe), serve until the table
closes or stops, and keep what a restarted host needs (:mod:`.keeping`).

The commands (``lanparty host``, ``play``) fill a :class:`~lanparty.table.plan.TablePlan` and
call :func:`open_host`, then :func:`play_host` headless or under the terminal UI.
"""

from __future__ import annotations

import math
import os
import secrets
import subprocess
from contextlib import suppress
from typing import Any

import trio

from crypto import Identity
from lanparty.errors import NetError
from lanparty.friends import load as load_friends
from lanparty.games import GAMES, PLUGINS, get_game
from lanparty.i18n import _
from lanparty.interrupt import end_all, lanparty_command, spawn
from lanparty.net.discovery import Advertisement, TableAd, advertise, bad_table_name
from lanparty.net.interfaces import Interface, choose_interface
from lanparty.net.server import HostServer
from lanparty.store import SavedSeat, open_log
from lanparty.table.botseat import bot_driver
from lanparty.table.friendly import marking
from lanparty.table.keeping import keep_host, keeping_sealed, restore_host
from lanparty.table.local import BOT_NAMES
from lanparty.table.networked import NetSeat
from lanparty.table.nighthost import HostNight
from lanparty.table.nightplan import NightGame
from lanparty.table.outcome import Outcome, event_sink, leave_on_ctrl_c, say, teller
from lanparty.table.plan import TablePlan
from lanparty.table.whoami import bot_identity, my_identity
from lanparty.trace import Tracer
from protocol import PROTOCOL_VERSION, Event, Host, Joined, LocalProtocolError, Phase, SeatsFixed
from protocol._names import looks_alike

__all__ = ["open_host", "play_host", "table_language"]

#: Seconds between two announcements of a playing table's spectator count.
AD_PAUSE = 2.0


def table_language(game: str, options: dict[str, Any]) -> str:
    """The table's writing language as its options hold it (its game's
    ``language_option``), for the lobby; ``""`` for a game without one."""
    option = PLUGINS[game].language_option if game in PLUGINS else None
    value = options.get(option) if option is not None else None
    return value if isinstance(value, str) else ""


async def play_host(plan: TablePlan, host: Host, seat: NetSeat | None, out: Outcome) -> Outcome:
    """Serve the table until it closes or stops; with ``seat``, a person plays seat 0, else
    the host is headless (``plan.bot``: a bot plays seat 0). Returns ``out``, filled in;
    raises :class:`NetError` if the table cannot be opened."""
    resumed: SavedSeat | None = plan.resumed
    if resumed is not None:  # the same address: the peers are trying to reconnect to it
        ip, _colon, saved_port = resumed.endpoint.rpartition(":")
        iface, plan.port = Interface("saved", ip), int(saved_port)
    else:
        iface = choose_interface(plan.interface, local=plan.local)
    tracer = Tracer.from_env(plan.nick)
    quiet = plan.quiet or seat is not None  # the terminal UI tells the story itself
    tell = teller(seat.note if seat is not None else None, plan.quiet)
    assert host.table.game is not None  # a host knows its game from the start
    game = host.table.game.name
    name = plan.name or f"{plan.nick}'s {game}"
    problem = bad_table_name(name)
    if problem:
        raise NetError(f"{problem}: {name!r}")
    try:
        listeners = await trio.open_tcp_listeners(plan.port, host=iface.ip)
    except OSError as exc:
        raise NetError(_("cannot listen on {endpoint}: {error}").format(
            endpoint=f"{iface.ip}:{plan.port}", error=exc.strerror or exc)) from None  # fmt: skip
    port = listeners[0].socket.getsockname()[1]
    journal, kept = keep_host(host, plan.nick, f"{iface.ip}:{port}", tell)
    driver = bot_driver(plan, game, seat, tracer)
    # Every seat taken is a word on this channel, closed once the seats are fixed.
    seat_taken, seats_taken = trio.open_memory_channel[int](math.inf)
    sink = _counting_seats(event_sink(out, quiet, tracer, host), seat_taken)
    sink = keeping_sealed(sink, lambda: kept, tell)
    sink = marking(sink, host, tell, load_friends())
    server = HostServer(host, driver, sink, grace=plan.grace, notice=tell, journal=journal)
    server.journaled = len(host.relays_since(0))  # those are kept already
    night = HostNight(plan, server, seat, out, first=NightGame(game, dict(host.table.options)),
                      name=name,
                      endpoint=f"{iface.ip}:{port}", tracer=tracer, tell=tell)  # fmt: skip
    ad = TableAd(name, game, plan.seats, plan.seats - 1, PROTOCOL_VERSION,
                 host.identity.public.fingerprint, plan.nick, port=port,
                 spectators=host.spectators,
                 lang=table_language(game, host.table.options))  # fmt: skip
    say(quiet, _("table {name} on {endpoint} ({interface}); host key {key}").format(
        name=repr(name), endpoint=f"{iface.ip}:{port}", interface=iface.name,
        key=host.identity.public.fingerprint))  # fmt: skip
    host.table_name = name  # every connection's challenge says it (a joiner's header)
    if seat is not None:
        seat.note(_("Table {name} is open on {endpoint}; your key {key}").format(
            name=repr(name), endpoint=f"{iface.ip}:{port}",
            key=host.identity.public.fingerprint))  # fmt: skip
        seat.on_ready()
    procs: list[subprocess.Popen[bytes]] = []
    # A bot named like the host would be refused its seat.
    bot_names = [n for n in BOT_NAMES if not looks_alike(n, plan.nick)]
    bot_names += [f"Bot {i}" for i in range(len(bot_names) + 1, plan.bots + 1)]
    try:
        async with trio.open_nursery() as nursery:
            reason = f"{plan.nick} (the host) left the table"

            def leave() -> None:  # the night ends; a table still playing stops for everyone
                night.end()
                _soon(nursery, server.halt, reason, 0)

            if seat is not None:
                seat.on_leave = leave
            else:  # headless: Ctrl-C leaves as a person's quit does
                leave_on_ctrl_c(out, leave)
            night.start(nursery)
            nursery.start_soon(server.serve, listeners)
            # Our bots sign with keys made here, so each knows its fellows: while every
            # seat is ours, they leave the proofs to us (we check every one for the table).
            # Each bot's key is the same at every table of ours (see ``bot_identity``).
            bot_ids = [bot_identity(host.identity, bot_names[i]) for i in range(plan.bots)]
            _note_levels(plan, host, bot_ids, out, seat)
            trust = ",".join(
                k.hex() for k in [host.identity.public.raw, *(b.public.raw for b in bot_ids)]
            )
            for i in range(plan.bots):
                # A bot waits for a restarted host as long as the host waits for its players.
                procs.append(_spawn_join(["--connect", f"{iface.ip}:{port}", "--nick",
                                          bot_names[i], "--seed", str(plan.seed + 1 + i),
                                          "--host-key", host.identity.public.fingerprint,
                                          "--grace", str(plan.grace), "--trust", trust,
                                          *_bot_args(plan, i)], bot_ids[i]))  # fmt: skip
            if plan.advertise:
                async with advertise(iface.ip, ad) as adv, trio.open_nursery() as heard:
                    first = adv.name_taken  # heard before we began: the name was taken
                    heard.start_soon(_tell_namesakes, adv, first, tell, host.identity)
                    with trio.CancelScope() as scope:
                        nursery.start_soon(_cancel_when, server.done, scope)
                        async for _seated in seats_taken:  # until the seats are fixed
                            free = plan.seats - len(host.table.members)
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
                await server.halt(f"{plan.nick} (the host) left the table", 0)
        tracer.close()
        # Our bots stop when the table does; ones that do not (told nothing) are ended.
        end_all(procs, wait=5 if leaving else 30)
        if server.vanished and not out.audit_ok:
            out.stopped = out.stopped or "a peer vanished: " + ", ".join(server.vanished)
        night.keep_last(host)
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


def _note_levels(
    plan: TablePlan, host: Host, bot_ids: list[Identity], out: Outcome, seat: NetSeat | None
) -> None:
    """Note in ``out`` (and on the person's ``seat``) the level of each bot this host plays:
    its own seat's (headless, ``plan.bot``) and those it starts (``bot_ids``, in order), by
    key fingerprint: the players' lists and the summary show them (none if no level was
    chosen: every bot is normal)."""
    if not plan.level:
        return
    if plan.bot:
        out.bot_levels[host.identity.public.fingerprint] = plan.own_level()
    for i, bot in enumerate(bot_ids):
        out.bot_levels[bot.public.fingerprint] = plan.started_level(i)
    if seat is not None:
        seat.bot_levels = out.bot_levels


def _bot_args(plan: TablePlan, i: int) -> list[str]:
    """``--react S``, ``--level LEVEL`` and ``--think S`` for the ``i``-th bot this host
    starts (0: the first), as this command was given them: its own level of a list."""
    react = plan.react
    out = [] if react is None else ["--react", str(react)]
    if plan.level:
        out += ["--level", plan.started_level(i)]
    if plan.think is not None:
        out += ["--think", str(plan.think)]
    return out


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


def _outcome_of(host: Host) -> Outcome:
    """An outcome that already knows the seats of a restored table."""
    return Outcome(names=tuple(m.name for m in host.table.members))


def open_host(plan: TablePlan, options: dict[str, Any]) -> tuple[Host, Outcome]:
    """The host of a new table for ``plan`` with ``options`` (``plan.resume``: the table
    this host ran before its process ended, restored), and the outcome its play fills in.
    Raises :class:`NetError` (one line) if the table cannot be opened or restored."""
    if plan.resume is not None:
        host = restore_host(plan)
    else:
        assert plan.game is not None
        get_game(plan.game)
        identity = Identity() if plan.bot else my_identity()
        try:
            host = Host(identity, plan.nick, GAMES, plan.game, options, plan.seats)
        except LocalProtocolError as exc:
            raise NetError(str(exc)) from None
    host.approve_joins = plan.approve
    host.spectators = plan.spectators
    host.spectators_talk = plan.spectators_talk
    host.spectators_sit = plan.spectators_sit
    return host, (_outcome_of(host) if plan.resumed else Outcome())

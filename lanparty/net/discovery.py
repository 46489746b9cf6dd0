"""The mDNS lobby: hosts advertise tables, everyone browses them live (DNS-SD).

python-zeroconf runs its own thread. This module is its only adapter: blocking calls go through
``trio.to_thread``, and its callbacks come back into trio through ``trio.from_thread`` as
events on a memory channel. Zeroconf is always bound to one chosen interface.

A table is a service of type ``_lanparty._tcp.local.``. Its TXT record carries short keys (at
most 9 characters): ``txtvers``, ``name`` (the table's name), ``game``, ``seats``, ``free``,
``proto``, ``fp`` (the host's key fingerprint), ``host`` (the host's nick), and for spectators
``spect`` (how many may watch at once; 0: none), ``watch`` (how many watch now) and
``state`` (``open`` while seats are taken, ``playing`` once they are fixed: a table that takes
spectators stays announced while it plays).

Table names are not unique: two friends may both open "Dup", and a stranger may announce
"Ana's kato" before Ana does. So a table is known by its DNS-SD *instance* name, which mDNS
keeps unique (a host whose name is taken is renamed, ``Dup-2``), and shown by the name in its
TXT record, always with its host's fingerprint; nothing here chooses between two tables of one
name. ``name``, ``spect``, ``watch`` and ``state`` were added to version 1 of the record
without changing ``txtvers`` (a reader ignores keys it does not know, RFC 6763 §6.7); a
record without ``name`` is shown by its instance, one without the others as an open table
that takes no spectators.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, replace
from typing import Any

import trio
from zeroconf import (
    DNSQuestionType,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)

from protocol._names import skeleton

SERVICE_TYPE = "_lanparty._tcp.local."
TXT_VERSION = "1"
_MAX_TEXT = 63  # one DNS label; also keeps a TXT entry short
#: The most spectators a host may take at once (``--spectators``).
MAX_SPECTATORS = 64
_STATES = ("open", "playing")
#: Bytes of a table's name kept in its instance name: a DNS label holds 63, and room is left
#: for the ``-N`` mDNS appends when the name is taken.
_INSTANCE_BYTES = 56


class AdError(ValueError):
    """A TXT record that is not a valid lanparty table advertisement."""


@dataclass(frozen=True, slots=True)
class TableAd:
    """What a host advertises about its table. ``name`` is what people read; ``instance``,
    the DNS-SD instance name, is what tells two tables of one name apart ("" until the table
    is announced or heard)."""

    name: str
    game: str
    seats: int
    free: int
    proto: int
    fingerprint: str
    host: str
    address: str = ""
    port: int = 0
    instance: str = ""
    spectators: int = 0
    watchers: int = 0
    playing: bool = False

    @property
    def endpoint(self) -> str:
        """``HOST:PORT`` for ``--connect``."""
        return f"{self.address}:{self.port}"

    def txt(self) -> dict[str, str]:
        """The TXT record (keys of at most 9 characters)."""
        return {
            "txtvers": TXT_VERSION,
            "name": self.name,
            "game": self.game,
            "seats": str(self.seats),
            "free": str(self.free),
            "proto": str(self.proto),
            "fp": self.fingerprint,
            "host": self.host,
            "spect": str(self.spectators),
            "watch": str(self.watchers),
            "state": "playing" if self.playing else "open",
        }

    @classmethod
    def from_service(cls, info: ServiceInfo) -> TableAd:
        """Parse a resolved service strictly; raises :class:`AdError` for anything odd."""
        props: dict[str, str] = {}
        for k, v in (info.properties or {}).items():
            if not isinstance(k, bytes) or not isinstance(v, bytes):
                raise AdError("TXT entries must have values")
            try:
                props[k.decode()] = v.decode()
            except UnicodeDecodeError:
                raise AdError("TXT entries must be UTF-8") from None
        if props.get("txtvers") != TXT_VERSION:
            raise AdError(f"unknown txtvers {props.get('txtvers')!r}")
        try:
            seats, free, proto = int(props["seats"]), int(props["free"]), int(props["proto"])
            game, fp, host = props["game"], props["fp"], props["host"]
        except (KeyError, ValueError) as exc:
            raise AdError(f"missing or bad TXT key: {exc}") from None
        if not (1 <= seats <= 16 and 0 <= free <= seats and 0 <= proto < 1000):
            raise AdError("seat counts or protocol version out of range")
        try:
            spect, watch = int(props.get("spect", "0")), int(props.get("watch", "0"))
        except ValueError:
            raise AdError("bad spectator counts") from None
        state = props.get("state", "open")
        if not (0 <= spect <= MAX_SPECTATORS and 0 <= watch <= spect) or state not in _STATES:
            raise AdError("spectator counts or state out of range")
        if any(len(s) > _MAX_TEXT or not s.isprintable() for s in (game, fp, host)):
            raise AdError("TXT text too long or not printable")
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or not info.port:
            raise AdError("no IPv4 address or port")
        instance = info.name.removesuffix("." + SERVICE_TYPE)
        name = props.get("name", instance)  # a host from before the ``name`` key
        if not all(0 < len(s) <= _MAX_TEXT and s.isprintable() for s in (name, instance)):
            raise AdError("table name empty, too long or not printable")
        return cls(name, game, seats, free, proto, fp, host, addresses[0], info.port, instance,
                   spect, watch, state == "playing")  # fmt: skip


def bad_table_name(name: str) -> str | None:
    """Why ``name`` cannot name a table (empty, too long, unprintable), or None if it can."""
    if not name.strip() or not name.isprintable():
        return "a table name is printable text, not empty"
    if len(name) > _MAX_TEXT or len(f"name={name}".encode()) > 255:  # one TXT entry
        return f"a table name is at most {_MAX_TEXT} characters"
    return None


def same_name(a: str, b: str) -> bool:
    """Whether table names ``a`` and ``b`` read alike (case, accents, look-alike letters):
    a person who means one could be shown the other."""
    return skeleton(a) == skeleton(b)


def _instance_for(name: str) -> str:
    """The instance name a host asks for: its table's name, cut to fit a DNS label."""
    return name.encode()[:_INSTANCE_BYTES].decode(errors="ignore").strip() or "table"


def _service_name(instance: str) -> str:
    return f"{instance}.{SERVICE_TYPE}"


def _new_zeroconf(ip: str) -> Zeroconf:
    return Zeroconf(interfaces=[ip], ip_version=IPVersion.V4Only)


class Advertisement:
    """A table announced on the network; update it, or withdraw it with a goodbye.

    ``renamed`` says that mDNS gave the table another instance name (``ad.instance``) because
    another service on the network already had the one asked for: another table of that
    name, most likely, which players will see beside this one."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, ad: TableAd, renamed: bool) -> None:
        self._zc = zc
        self._info = info
        self.ad = ad
        self.renamed = renamed
        self._live = True

    async def update(self, **changes: Any) -> None:
        """Announce changed fields (e.g. ``free=2``)."""
        if not self._live:
            return
        self.ad = replace(self.ad, **changes)
        self._info = _info_for(self.ad, self.ad.address, self._info.server or "")
        await trio.to_thread.run_sync(self._zc.update_service, self._info)

    async def withdraw(self) -> None:
        """Send the goodbye (the table is full or closed); idempotent."""
        if self._live:
            self._live = False
            await trio.to_thread.run_sync(self._zc.unregister_service, self._info)


def _info_for(ad: TableAd, ip: str, server: str) -> ServiceInfo:
    return ServiceInfo(
        SERVICE_TYPE,
        _service_name(ad.instance),
        addresses=[socket.inet_aton(ip)],
        port=ad.port,
        properties=ad.txt(),
        server=server,
    )


@asynccontextmanager
async def advertise(ip: str, ad: TableAd) -> AsyncIterator[Advertisement]:
    """Announce ``ad`` on the interface with address ``ip`` until the block exits.

    The instance name is the table's name (cut to fit a DNS label), unless another service
    already has it: then mDNS picks another (``name-2``), ``ad.instance`` holds the one used
    and ``renamed`` is true. Players still see ``ad.name``.
    """
    zc = await trio.to_thread.run_sync(_new_zeroconf, ip)
    try:
        host_label = "lanparty-" + ad.fingerprint.replace("-", "").lower()[:12]
        wanted = _instance_for(ad.name)
        info = _info_for(replace(ad, address=ip, instance=wanted), ip, f"{host_label}.local.")
        await trio.to_thread.run_sync(lambda: zc.register_service(info, allow_name_change=True))
        instance = info.name.removesuffix("." + SERVICE_TYPE)
        adv = Advertisement(zc, info, replace(ad, instance=instance, address=ip),
                            renamed=instance != wanted)  # fmt: skip
        try:
            yield adv
        finally:
            with trio.CancelScope(shield=True):
                await adv.withdraw()
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)


@dataclass(frozen=True, slots=True)
class TableSeen:
    """A table appeared or changed."""

    ad: TableAd


@dataclass(frozen=True, slots=True)
class TableGone:
    """The table of DNS-SD instance name ``instance`` withdrew (or its record expired)."""

    instance: str


LobbyEvent = TableSeen | TableGone


class Lobby:
    """The tables currently seen on the network, by instance name, updated live by
    :func:`browse`."""

    def __init__(self, receive: trio.MemoryReceiveChannel[LobbyEvent]) -> None:
        self._receive = receive
        self.tables: dict[str, TableAd] = {}

    async def next_event(self) -> LobbyEvent:
        """Wait for the next appearance, change or withdrawal (and apply it to ``tables``)."""
        event = await self._receive.receive()
        if isinstance(event, TableSeen):
            self.tables[event.ad.instance] = event.ad
        else:
            self.tables.pop(event.instance, None)
        return event

    async def wait_for(self, predicate: Callable[[dict[str, TableAd]], bool]) -> None:
        """Return once ``predicate(tables)`` holds (checked now and after every event)."""
        while not predicate(self.tables):
            await self.next_event()


@asynccontextmanager
async def browse(ip: str) -> AsyncIterator[Lobby]:
    """Browse tables on the interface with address ``ip`` while the block runs."""
    send, receive = trio.open_memory_channel[LobbyEvent](256)
    token = trio.lowlevel.current_trio_token()
    zc = await trio.to_thread.run_sync(_new_zeroconf, ip)

    def resolve_and_send(name: str) -> None:
        # Runs in a worker thread: resolving blocks, and must not run on zeroconf's loop.
        info = zc.get_service_info(
            SERVICE_TYPE, name, timeout=1500, question_type=DNSQuestionType.QM
        )
        if info is None:
            return
        try:
            ad = TableAd.from_service(info)
        except AdError:
            return  # not a table we can show; a hostile or foreign record is ignored
        _post(TableSeen(ad))

    def _post(event: LobbyEvent) -> None:
        # If the lobby is closing, or nobody reads and the buffer is full, drop the event.
        with suppress(trio.RunFinishedError, trio.WouldBlock, trio.ClosedResourceError):
            trio.from_thread.run_sync(send.send_nowait, event, trio_token=token)

    async def _resolve_in_thread(name: str) -> None:
        await trio.to_thread.run_sync(resolve_and_send, name, abandon_on_cancel=True)

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change is ServiceStateChange.Removed:
            _post(TableGone(name.removesuffix("." + SERVICE_TYPE)))
        else:
            # Hand the blocking resolve to a trio worker thread.
            with suppress(trio.RunFinishedError):
                trio.from_thread.run_sync(
                    lambda: nursery.start_soon(_resolve_in_thread, name),
                    trio_token=token,
                )

    try:
        async with trio.open_nursery() as nursery:
            browser = ServiceBrowser(
                zc, SERVICE_TYPE, handlers=[on_change], question_type=DNSQuestionType.QM
            )
            try:
                yield Lobby(receive)
            finally:
                nursery.cancel_scope.cancel()
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(browser.cancel)
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)
        send.close()

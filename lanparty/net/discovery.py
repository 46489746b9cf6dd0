"""The mDNS lobby: hosts advertise tables, everyone browses them live (DNS-SD).

python-zeroconf runs its own thread. This module is its only adapter: blocking calls go through
``trio.to_thread``, and its callbacks come back into trio through ``trio.from_thread`` as
events on a memory channel. Zeroconf is always bound to one chosen interface.

A table is a service of type ``_lanparty._tcp.local.``; its instance name is the table's name,
and its TXT record carries short keys (at most 9 characters): ``txtvers``, ``game``, ``seats``,
``free``, ``proto``, ``fp`` (the host's key fingerprint) and ``host`` (the host's nick).
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

SERVICE_TYPE = "_lanparty._tcp.local."
TXT_VERSION = "1"
_MAX_TEXT = 63  # one DNS label; also keeps a TXT entry short


class AdError(ValueError):
    """A TXT record that is not a valid lanparty table advertisement."""


@dataclass(frozen=True, slots=True)
class TableAd:
    """What a host advertises about its table."""

    name: str
    game: str
    seats: int
    free: int
    proto: int
    fingerprint: str
    host: str
    address: str = ""
    port: int = 0

    @property
    def endpoint(self) -> str:
        """``HOST:PORT`` for ``--connect``."""
        return f"{self.address}:{self.port}"

    def txt(self) -> dict[str, str]:
        """The TXT record (keys of at most 9 characters)."""
        return {
            "txtvers": TXT_VERSION,
            "game": self.game,
            "seats": str(self.seats),
            "free": str(self.free),
            "proto": str(self.proto),
            "fp": self.fingerprint,
            "host": self.host,
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
        if any(len(s) > _MAX_TEXT or not s.isprintable() for s in (game, fp, host)):
            raise AdError("TXT text too long or not printable")
        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or not info.port:
            raise AdError("no IPv4 address or port")
        name = info.name.removesuffix("." + SERVICE_TYPE)
        if not name or len(name) > 63 or not name.isprintable():
            raise AdError("table name empty, too long or not printable")
        return cls(name, game, seats, free, proto, fp, host, addresses[0], info.port)


def _service_name(name: str) -> str:
    return f"{name}.{SERVICE_TYPE}"


def _new_zeroconf(ip: str) -> Zeroconf:
    return Zeroconf(interfaces=[ip], ip_version=IPVersion.V4Only)


class Advertisement:
    """A table announced on the network; update it, or withdraw it with a goodbye."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, ad: TableAd) -> None:
        self._zc = zc
        self._info = info
        self.ad = ad
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
        _service_name(ad.name),
        addresses=[socket.inet_aton(ip)],
        port=ad.port,
        properties=ad.txt(),
        server=server,
    )


@asynccontextmanager
async def advertise(ip: str, ad: TableAd) -> AsyncIterator[Advertisement]:
    """Announce ``ad`` on the interface with address ``ip`` until the block exits.

    The instance name may be changed by zeroconf if another table has it (``name (2)``);
    the advertisement's ``ad.name`` holds the name actually used.
    """
    zc = await trio.to_thread.run_sync(_new_zeroconf, ip)
    try:
        host_label = "lanparty-" + ad.fingerprint.replace("-", "").lower()[:12]
        info = _info_for(replace(ad, address=ip), ip, f"{host_label}.local.")
        await trio.to_thread.run_sync(lambda: zc.register_service(info, allow_name_change=True))
        name = info.name.removesuffix("." + SERVICE_TYPE)
        adv = Advertisement(zc, info, replace(ad, name=name, address=ip))
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
    """A table withdrew (or its record expired)."""

    name: str


LobbyEvent = TableSeen | TableGone


class Lobby:
    """The tables currently seen on the network, updated live by :func:`browse`."""

    def __init__(self, receive: trio.MemoryReceiveChannel[LobbyEvent]) -> None:
        self._receive = receive
        self.tables: dict[str, TableAd] = {}

    async def next_event(self) -> LobbyEvent:
        """Wait for the next appearance, change or withdrawal (and apply it to ``tables``)."""
        event = await self._receive.receive()
        if isinstance(event, TableSeen):
            self.tables[event.ad.name] = event.ad
        else:
            self.tables.pop(event.name, None)
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

"""The mDNS lobby: hosts advertise tables, everyone browses them live (DNS-SD).

python-zeroconf runs its own thread. This module is its only adapter: blocking calls go through
``trio.to_thread``, and its callbacks come back into trio through ``trio.from_thread`` as
events on a memory channel. Zeroconf is always bound to one chosen interface.

A table is a service of type ``_lanparty._tcp.local.``. Its TXT record carries short keys (at
most 9 characters): ``txtvers``, ``name`` (the table's name), ``game``, ``seats``, ``free``,
``proto``, ``fp`` (the host's key fingerprint), ``host`` (the host's nick), and for spectators
``spect`` (how many may watch at once; 0: none), ``watch`` (how many watch now) and
``state`` (``open`` while seats are taken, ``playing`` once they are fixed: a table that takes
spectators stays announced while it plays), and ``lang`` (the table's writing language, a
language code, for a game whose words must all be in one: Unanimo's ``words`` option).

Table names are not unique: two friends may both open "Dup", and a stranger may announce
"Ana's kato" before Ana does. So a table is known by its DNS-SD *instance* name, which is
unique from the start: the table's name (cut) followed by its host's key fingerprint,
``Dup [7QXM-K2PA-93TD-HB0R]``. mDNS probing is not what keeps two tables apart: python-zeroconf
probes with QU questions, and on one machine the defending answer is unicast to port 5353,
where the kernel hands it to one of the many sockets bound there (the defender's own, when
tried), so a second host on one machine was not renamed; nor does python-zeroconf break the
tie of simultaneous probes (RFC 6762 §8.2) or rename after a late conflict (§9); probes are
asked QM here (:func:`_new_zeroconf`), for the one case they still serve: one key announcing one
name twice. A table is shown by the name in its
TXT record, always with its host's fingerprint; nothing here chooses between two tables of one
name. A host listens for tables whose names read like its own while it announces, and says
which it heard (:attr:`Advertisement.namesakes`). ``name``, ``spect``, ``watch`` and
``state`` and ``lang`` were added to version 1 of the record without changing ``txtvers`` (a
reader ignores keys it does not know, RFC 6763 §6.7); a record without ``name`` is shown by
its instance, one without the others as an open table that takes no spectators and has no
writing language (a ``lang`` that is not two or three small letters is ignored).
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import trio

from lanparty.errors import NetError
from protocol import MAX_TABLE_NAME, table_name_problem
from protocol._names import skeleton

if TYPE_CHECKING:
    from zeroconf import ServiceInfo, ServiceStateChange, Zeroconf
    from zeroconf._protocol.outgoing import DNSOutgoing

SERVICE_TYPE = "_lanparty._tcp.local."
TXT_VERSION = "1"
_MAX_TEXT = MAX_TABLE_NAME  # 63: one DNS label; also keeps a TXT entry short
#: The most spectators a host may take at once (``--spectators``).
MAX_SPECTATORS = 64
_STATES = ("open", "playing")
#: Bytes of an instance name (the table's name, then its host's fingerprint): a DNS label
#: holds 63, and room is left for the ``-N`` that probing appends to an instance taken.
_INSTANCE_BYTES = 59
#: A new table says whether it heard another of its name (:attr:`Advertisement.name_taken`)
#: once one is heard, or else NAME_CHECK seconds after it began to listen and NAME_SETTLE
#: seconds after its own announcement, whichever is later. A live host answers a browse
#: question within 20-120 ms (about 1 s later if it multicast the answer in the last
#: second), and the browser asks again after 1 s; a host that registers meanwhile announces
#: itself. So of two tables of one name, the one announced second always hears the first,
#: with half a second to spare: registering (probes, then announcements) takes 1.6 s.
NAME_CHECK = 1.5
NAME_SETTLE = 0.5
#: Tables of a name like ours kept in an advertisement's queue until someone reads them.
_MAX_NAMESAKES = 64


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
    lang: str = ""

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
            **({"lang": self.lang} if self.lang else {}),
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
        from zeroconf import IPVersion  # loaded: ``info`` is one of its records

        addresses = info.parsed_addresses(IPVersion.V4Only)
        if not addresses or not info.port:
            raise AdError("no IPv4 address or port")
        instance = info.name.removesuffix("." + SERVICE_TYPE)
        name = props.get("name", instance)  # a host from before the ``name`` key
        if not all(0 < len(s) <= _MAX_TEXT and s.isprintable() for s in (name, instance)):
            raise AdError("table name empty, too long or not printable")
        lang = props.get("lang", "")
        if not (2 <= len(lang) <= 3 and lang.isascii() and lang.isalpha() and lang.islower()):
            lang = ""  # none, or not a language code: shown without one
        return cls(name, game, seats, free, proto, fp, host, addresses[0], info.port, instance,
                   spect, watch, state == "playing", lang)  # fmt: skip


def bad_table_name(name: str) -> str | None:
    """Why ``name`` cannot name a table (empty, too long, unprintable: the protocol's
    :func:`~protocol.table_name_problem`, the host's challenge carries it too; or longer
    than one TXT entry holds), or None if it can."""
    problem = table_name_problem(name)
    if problem is None and len(f"name={name}".encode()) > 255:  # one TXT entry
        problem = f"a table name is at most {_MAX_TEXT} characters"
    return problem


def same_name(a: str, b: str) -> bool:
    """Whether table names ``a`` and ``b`` read alike (case, accents, look-alike letters):
    a person who means one could be shown the other."""
    return skeleton(a) == skeleton(b)


def _instance_for(name: str, fingerprint: str) -> str:
    """The instance name a host asks for: its table's name, cut, then its host's key
    fingerprint (``Dup [7QXM-K2PA-93TD-HB0R]``). A key is used by one process at a time, so
    two tables of one name ask for two instances, with no probing needed to tell them
    apart; and a host that restarts its table announces the instance browsers remember."""
    tag = f" [{fingerprint}]"
    room = max(0, _INSTANCE_BYTES - len(tag.encode()))
    cut = name.encode()[:room].decode(errors="ignore").strip() or "table"
    return (cut + tag).encode()[:_INSTANCE_BYTES].decode(errors="ignore").strip()


def _service_name(instance: str) -> str:
    return f"{instance}.{SERVICE_TYPE}"


def _new_zeroconf(ip: str) -> Zeroconf:
    """A zeroconf bound to the interface with address ``ip`` alone, IPv4, whose probes ask
    for multicast answers (QM).

    python-zeroconf probes with QU questions (RFC 6762 §8.1 suggests it), and a responder
    that multicast its records recently answers a QU probe by unicast to the prober's
    address and port 5353. On one machine every responder's sockets share that port
    (SO_REUSEPORT), and the kernel gives a unicast datagram to one socket of the group, the
    same one every time: the defender's own, in the runs tried here, so the prober never
    hears the defence (the "unicast response problem", RFC 6762 §15.1). Asked QM, a
    defender multicasts its answer at once, and every socket on the port receives it.

    zeroconf is imported here, not with this module: a peer that never browses nor
    announces (``join --connect``, ``watch``) does without it and starts sooner.
    """
    from zeroconf import IPVersion
    from zeroconf import Zeroconf as _Base

    class _Zeroconf(_Base):
        def generate_service_query(self, info: ServiceInfo) -> DNSOutgoing:
            """The probe for ``info``'s instance, with its question asked QM."""
            probe = super().generate_service_query(info)
            for question in probe.questions:  # made for this probe alone: ours to change
                question.unique = False  # the unicast-response bit
            return probe

    return _Zeroconf(interfaces=[ip], ip_version=IPVersion.V4Only)


class Advertisement:
    """A table announced on the network; update it, or withdraw it with a goodbye.

    While it is announced it listens for other tables whose names read like its own (a
    friend's "Dup", a stranger's "Ana's kato"): :attr:`namesakes` holds those heard and
    still announced, by instance, and :meth:`next_namesake` reports each as it is first
    heard. :attr:`name_taken` says whether one was heard (or the instance asked for was
    taken) by the time :func:`advertise` returned it: players will see both tables."""

    def __init__(self, zc: Zeroconf, info: ServiceInfo, ad: TableAd) -> None:
        self._zc = zc
        self._info = info
        self.ad = ad
        self.name_taken = False
        self.namesakes: dict[str, TableAd] = {}
        self._heard, self._reports = trio.open_memory_channel[TableAd](_MAX_NAMESAKES)
        self._first = trio.Event()
        self._live = True

    @property
    def renamed(self) -> bool:
        """The former spelling of :attr:`name_taken` (once, mDNS renaming was relied on)."""
        return self.name_taken

    async def next_namesake(self) -> TableAd:
        """Wait for the next table heard whose name reads like this one's: each is reported
        once, when first heard, from the first on (beyond 64 unread, later ones are only in
        :attr:`namesakes`)."""
        return await self._reports.receive()

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

    async def _listen(self, lobby: Lobby) -> None:
        """Keep :attr:`namesakes` up to date from ``lobby`` (heard on our own zeroconf)."""
        while True:
            event = await lobby.next_event()
            if isinstance(event, TableGone):
                self.namesakes.pop(event.instance, None)
                continue
            seen = event.ad
            if seen.instance == self.ad.instance or not same_name(seen.name, self.ad.name):
                continue
            new = seen.instance not in self.namesakes
            self.namesakes[seen.instance] = seen
            if new:
                self._first.set()
                with suppress(trio.WouldBlock):
                    self._heard.send_nowait(seen)


def _info_for(ad: TableAd, ip: str, server: str) -> ServiceInfo:
    from zeroconf import ServiceInfo

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

    The instance name is the table's name and its host's fingerprint (see
    :func:`_instance_for`), so another table of the same name never takes it; should the
    same key announce the same name twice, probing appends ``-2``. Players see ``ad.name``.
    Before returning, the advertisement listens for other tables of a name like ``ad.name``
    until one is heard or its time is up (see :data:`NAME_CHECK`): then
    :attr:`Advertisement.name_taken` says whether one was. Raises :class:`NetError` if the
    table cannot be announced (a network that answers for every name probed, say).
    """
    from zeroconf import EventLoopBlocked, NonUniqueNameException

    zc = await trio.to_thread.run_sync(_new_zeroconf, ip)
    try:
        async with _lobby_on(zc) as lobby:  # listening before our own probes go out
            listening = trio.current_time()
            wanted = _instance_for(ad.name, ad.fingerprint)
            server = "lanparty-" + ad.fingerprint.replace("-", "").lower()[:12] + ".local."
            info = _info_for(replace(ad, address=ip, instance=wanted), ip, server)
            try:
                await trio.to_thread.run_sync(
                    lambda: zc.register_service(info, allow_name_change=True)
                )
            except (EventLoopBlocked, NonUniqueNameException):
                raise NetError(f"the table could not be announced as {wanted!r} on {ip}: "
                               "mDNS probing never ended") from None  # fmt: skip
            instance = info.name.removesuffix("." + SERVICE_TYPE)
            adv = Advertisement(zc, info, replace(ad, instance=instance, address=ip))
            async with trio.open_nursery() as nursery:
                nursery.start_soon(adv._listen, lobby)
                deadline = max(listening + NAME_CHECK, trio.current_time() + NAME_SETTLE)
                with trio.move_on_at(deadline):
                    await adv._first.wait()
                adv.name_taken = bool(adv.namesakes) or instance != wanted
                try:
                    yield adv
                finally:
                    nursery.cancel_scope.cancel()
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
        #: Tables heard of (by name) whose records are still being asked for.
        self.resolving = 0
        self._resolved = trio.Event()

    def _apply(self, event: LobbyEvent) -> LobbyEvent:
        if isinstance(event, TableSeen):
            self.tables[event.ad.instance] = event.ad
        else:
            self.tables.pop(event.instance, None)
        return event

    async def next_event(self) -> LobbyEvent:
        """Wait for the next appearance, change or withdrawal (and apply it to ``tables``)."""
        return self._apply(await self._receive.receive())

    def _done_resolving(self) -> None:
        self.resolving -= 1
        self._resolved.set()
        self._resolved = trio.Event()

    async def settle(self) -> None:
        """Return once every table heard of so far is resolved (or given up, after its
        records' timeout) and applied to ``tables``: a table whose name was heard is not
        missed for being slow to describe itself."""
        while True:
            try:
                self._apply(self._receive.receive_nowait())
                continue
            except trio.WouldBlock:
                pass
            if not self.resolving:
                return
            await self._resolved.wait()

    async def wait_for(self, predicate: Callable[[dict[str, TableAd]], bool]) -> None:
        """Return once ``predicate(tables)`` holds (checked now and after every event)."""
        while not predicate(self.tables):
            await self.next_event()


@asynccontextmanager
async def browse(ip: str) -> AsyncIterator[Lobby]:
    """Browse tables on the interface with address ``ip`` while the block runs."""
    zc = await trio.to_thread.run_sync(_new_zeroconf, ip)
    try:
        async with _lobby_on(zc) as lobby:
            yield lobby
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(zc.close)


@asynccontextmanager
async def _lobby_on(zc: Zeroconf) -> AsyncIterator[Lobby]:
    """Browse tables with ``zc`` (QM questions: answers are multicast, so every process on
    the machine hears them) while the block runs; ``zc`` stays open."""
    from zeroconf import DNSQuestionType, ServiceBrowser, ServiceStateChange

    send, receive = trio.open_memory_channel[LobbyEvent](256)
    token = trio.lowlevel.current_trio_token()
    #: How often each service was withdrawn: a resolve begun before a withdrawal must not
    #: put the table back once it ends (it would stay listed, a ghost, for good).
    withdrawals: dict[str, int] = {}

    def resolve(name: str) -> TableAd | None:
        # Runs in a worker thread: resolving blocks, and must not run on zeroconf's loop.
        info = zc.get_service_info(
            SERVICE_TYPE, name, timeout=1500, question_type=DNSQuestionType.QM
        )
        if info is None:
            return None
        try:
            return TableAd.from_service(info)
        except AdError:
            return None  # not a table we can show; a hostile or foreign record is ignored

    def _post(event: LobbyEvent) -> None:
        # In trio. If the lobby is closing, or nobody reads and the buffer is full, drop it.
        with suppress(trio.WouldBlock, trio.ClosedResourceError):
            send.send_nowait(event)

    async def _resolve_in_thread(name: str) -> None:
        begun = withdrawals.get(name, 0)
        lobby.resolving += 1
        try:
            ad = await trio.to_thread.run_sync(resolve, name, abandon_on_cancel=True)
            if ad is not None and withdrawals.get(name, 0) == begun:
                _post(TableSeen(ad))
        finally:
            lobby._done_resolving()

    def _withdrawn(name: str) -> None:
        withdrawals[name] = withdrawals.get(name, 0) + 1
        _post(TableGone(name.removesuffix("." + SERVICE_TYPE)))

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        # On zeroconf's thread: each change is handed to trio in the order it came.
        with suppress(trio.RunFinishedError):
            if state_change is ServiceStateChange.Removed:
                trio.from_thread.run_sync(_withdrawn, name, trio_token=token)
            else:  # the blocking resolve goes to a trio worker thread
                trio.from_thread.run_sync(
                    lambda: nursery.start_soon(_resolve_in_thread, name),
                    trio_token=token,
                )

    lobby = Lobby(receive)
    try:
        async with trio.open_nursery() as nursery:
            browser = ServiceBrowser(
                zc, SERVICE_TYPE, handlers=[on_change], question_type=DNSQuestionType.QM
            )
            try:
                yield lobby
            finally:
                nursery.cancel_scope.cancel()
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(browser.cancel)
    finally:
        send.close()

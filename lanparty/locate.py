"""Finding a table to join or watch: by ``--connect HOST:PORT``, or over mDNS by its name
and/or its host's key; and dialling it. Never picks between two tables silently: several
that match are named, each with its host key, and the command says how to pick one."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import trio

from lanparty.errors import NetError
from lanparty.i18n import _
from lanparty.listcmd import by_name
from lanparty.net.discovery import TableAd, browse, same_name
from lanparty.net.interfaces import choose_interface
from lanparty.net.node import keepalive
from lanparty.netargs import split_endpoint
from lanparty.outcome import say
from protocol import PROTOCOL_VERSION

__all__ = ["dial", "find_table", "first_dial", "key_text", "locate"]

#: Seconds to keep listening after the first table answers, to learn whether it is alone
#: (a browser hears of a second table about 1 s after the first, measured on loopback).
_MORE_ANSWERS = 1.5


def _parse_endpoint(text: str) -> tuple[str, int]:
    try:
        return split_endpoint(text)
    except ValueError as exc:
        raise NetError(str(exc)) from None


def key_text(fp: str) -> str:
    """A fingerprint as typed (any case, with or without dashes), for comparison."""
    return fp.replace("-", "").replace(" ", "").upper()


async def find_table(
    ip: str, name: str | None, timeout: float, host_key: str | None = None, *, watch: bool = False
) -> TableAd:
    """The one table called ``name`` (or reading like it), or any table when ``None``, that
    has a free seat (``watch``: that takes spectators); with ``host_key``, the one announced
    with that key fingerprint.

    Never chooses between tables silently: raises :class:`NetError` naming each one (name,
    host key, host, address) and how to pick one when several match, and when none is found
    within ``timeout`` seconds.
    """

    def wanted(t: TableAd) -> bool:
        room = t.spectators > 0 if watch else t.free > 0
        named = name is None or same_name(t.name, name)
        keyed = host_key is None or key_text(t.fingerprint) == key_text(host_key)
        return room and named and keyed

    async with browse(ip) as lobby:
        with trio.move_on_after(timeout):
            await lobby.wait_for(lambda tables: any(map(wanted, tables.values())))
            if host_key is None:  # another table of that name may answer a moment later
                with trio.move_on_after(_MORE_ANSWERS):
                    while True:
                        await lobby.next_event()
        found = sorted(filter(wanted, lobby.tables.values()), key=by_name)
    if len(found) == 1:
        return found[0]
    command = "watch" if watch else "join"
    what = f"table {name!r}" if name else "table"
    if host_key:
        what += f" announced with host key {host_key}"
    if not found:
        kind = f"{what} that takes spectators" if watch else f"open {what}"
        raise NetError(f"no {kind} found within {timeout:g} s")
    listing = "; ".join(f"{t.name!r} [{t.fingerprint}] host {t.host} at {t.endpoint}"
                        for t in found)  # fmt: skip
    if len({t.fingerprint for t in found}) < len(found):  # a key announced twice: one lies
        pick = f"lanparty {command} --connect HOST:PORT --host-key FINGERPRINT"
    elif name:
        pick = f"lanparty {command} {name!r} --host-key FINGERPRINT"
    else:
        pick = f"lanparty {command} NAME (and --host-key FINGERPRINT if names repeat)"
    kind = "tables" if watch else "open tables"
    several = f"{len(found)} {kind} are called {name!r}" if name else f"several {kind}"
    raise NetError(f"{several}: {listing}; pick one: {pick}")


async def locate(
    args: argparse.Namespace, tell: Callable[[str], None], *, watch: bool = False
) -> tuple[str, int, str | None]:
    """The address to join (``watch``: to watch) and the host key fingerprint announced for
    it: ``--connect`` (``--host-key`` if given), or the table found over mDNS (by name and/or
    ``--host-key``). Raises :class:`NetError` (see :func:`find_table`)."""
    host_key = getattr(args, "host_key", None)
    if args.connect:
        addr, port = _parse_endpoint(args.connect)
        return addr, port, host_key
    iface = choose_interface(args.interface, local=args.local)
    what = f"table {args.table!r}" if args.table else ("a table" if watch else "an open table")
    if host_key:
        what += f" with host key {host_key}"
    say(args.quiet, f"looking for {what} on {iface.name} ({iface.ip})…")
    ad = await find_table(iface.ip, args.table, args.timeout, host_key, watch=watch)
    if ad.proto != PROTOCOL_VERSION:
        raise NetError(f"table {ad.name!r} speaks protocol {ad.proto}; "
                       f"this lanparty speaks {PROTOCOL_VERSION}")  # fmt: skip
    line = _("watching {name} at {endpoint} (host key {key})") if watch else _(
        "joining {name} at {endpoint} (host key {key})")  # fmt: skip
    tell(line.format(name=repr(ad.name), endpoint=ad.endpoint, key=ad.fingerprint))
    return ad.address, ad.port, ad.fingerprint


async def dial(addr: str, port: int) -> trio.SocketStream:
    """A TCP connection to ``addr:port`` with keepalive; raises ``OSError``."""
    stream = await trio.open_tcp_stream(addr, port)
    sock = stream.socket
    if sock.getsockname() == sock.getpeername():
        # With nobody listening any more, Linux may connect a socket to itself (its port
        # picked equal to the one it dials): that is no host.
        await stream.aclose()
        raise ConnectionRefusedError(f"nobody listens on {addr}:{port}")
    keepalive(stream)
    return stream


async def first_dial(addr: str, port: int) -> trio.SocketStream:
    """:func:`dial`, with a failure said in one line: raises :class:`NetError`."""
    try:
        return await dial(addr, port)
    except OSError as exc:
        raise NetError(f"cannot connect to {addr}:{port}: {exc.strerror or exc}") from None

"""Finding a table to join or watch: by ``--connect HOST:PORT``, or over mDNS by its name
and/or its host's key; and dialling it. Never picks between two tables silently: several
that match are named, each with its host key, and the command says how to pick one."""

from __future__ import annotations

from collections.abc import Callable

import trio

from lanparty.errors import NetError
from lanparty.i18n import _
from lanparty.net.discovery import TableAd, browse, same_name
from lanparty.net.interfaces import choose_interface
from lanparty.net.node import keepalive
from lanparty.table.outcome import say
from lanparty.table.plan import TablePlan
from protocol import PROTOCOL_VERSION
from protocol._names import skeleton

__all__ = [
    "by_name",
    "dial",
    "find_table",
    "first_dial",
    "key_text",
    "locate",
    "split_endpoint",
]

#: Seconds to keep listening after the first table answers, to learn whether it is alone
#: (a browser hears of a second table about 1 s after the first, measured on loopback); or
#: as long as the first took to answer, if longer (a busy machine answers late, the second
#: table as late as the first).
_MORE_ANSWERS = 1.5


def split_endpoint(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[IPv6]:PORT`` too) as host and port, the port 1 to 65535; raises
    :class:`ValueError` with a one-line reason."""
    host, sep, number = text.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not number.isdigit() or not 0 < int(number) <= 65535:
        wants = _("wants HOST:PORT with a port from 1 to 65535, got {text}")
        raise ValueError(f"--connect {wants.format(text=repr(text))}")
    return host, int(number)


def by_name(t: TableAd) -> tuple[str, str, str]:
    """Sort key of tables: by name, look-alike names side by side, then by host key."""
    return skeleton(t.name), t.name, t.fingerprint


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
            asked = trio.current_time()
            await lobby.wait_for(lambda tables: any(map(wanted, tables.values())))
            if host_key is None:  # another table of that name may answer a moment later:
                # as late again as the first did, on a machine or network slow to answer
                with trio.move_on_after(max(_MORE_ANSWERS, trio.current_time() - asked)):
                    while True:
                        await lobby.next_event()
                await lobby.settle()  # the tables heard of meanwhile, however slow to resolve
        found = sorted(filter(wanted, lobby.tables.values()), key=by_name)
    if len(found) == 1:
        return found[0]
    command = "watch" if watch else "join"
    if not found:
        missing = {  # (watch, by name, by key)
            (True, True, True): _(
                "no table {name} that takes spectators announced with host "
                "key {key} found within {timeout:g} s"
            ),
            (True, True, False): _(
                "no table {name} that takes spectators found within {timeout:g} s"
            ),
            (True, False, True): _(
                "no table that takes spectators announced with host key "
                "{key} found within {timeout:g} s"
            ),
            (True, False, False): _("no table that takes spectators found within {timeout:g} s"),
            (False, True, True): _(
                "no open table {name} announced with host key {key} found within {timeout:g} s"
            ),
            (False, True, False): _("no open table {name} found within {timeout:g} s"),
            (False, False, True): _(
                "no open table announced with host key {key} found within {timeout:g} s"
            ),
            (False, False, False): _("no open table found within {timeout:g} s"),
        }[(watch, bool(name), bool(host_key))]
        raise NetError(missing.format(name=repr(name), key=host_key, timeout=timeout))
    listing = "; ".join(_("{name} [{key}] host {host} at {endpoint}").format(
        name=repr(t.name), key=t.fingerprint, host=t.host, endpoint=t.endpoint)
        for t in found)  # fmt: skip
    if len({t.fingerprint for t in found}) < len(found):  # a key announced twice: one lies
        pick = f"lanparty {command} --connect HOST:PORT --host-key FINGERPRINT"
    elif name:
        pick = f"lanparty {command} {name!r} --host-key FINGERPRINT"
    elif watch:
        pick = _("lanparty watch NAME (and --host-key FINGERPRINT if names repeat)")
    else:
        pick = _("lanparty join NAME (and --host-key FINGERPRINT if names repeat)")
    if watch:
        several = (_("{n} tables that take spectators are called {name}").format(
            n=len(found), name=repr(name)) if name
            else _("several tables take spectators"))  # fmt: skip
    else:
        several = (_("{n} open tables are called {name}").format(n=len(found), name=repr(name))
                   if name else _("several open tables"))  # fmt: skip
    raise NetError(_("{several}: {listing}; pick one: {pick}").format(
        several=several, listing=listing, pick=pick))  # fmt: skip


async def locate(
    plan: TablePlan, tell: Callable[[str], None], *, watch: bool = False
) -> tuple[str, int, str | None]:
    """The address to join (``watch``: to watch) and the host key fingerprint announced for
    it: ``--connect`` (``--host-key`` if given), or the table found over mDNS (by name and/or
    ``--host-key``). Raises :class:`NetError` (see :func:`find_table`)."""
    host_key = plan.host_key
    if plan.connect:
        addr, port = _parse_endpoint(plan.connect)
        return addr, port, host_key
    iface = choose_interface(plan.interface, local=plan.local)
    if plan.table:
        what = _("table {name}").format(name=repr(plan.table))
    else:
        what = _("a table") if watch else _("an open table")
    if host_key:
        what = _("{what} with host key {key}").format(what=what, key=host_key)
    say(plan.quiet, _("looking for {what} on {interface} ({ip})…").format(
        what=what, interface=iface.name, ip=iface.ip))  # fmt: skip
    ad = await find_table(iface.ip, plan.table, plan.timeout, host_key, watch=watch)
    if ad.proto != PROTOCOL_VERSION:
        raise NetError(_("table {name} speaks protocol {theirs}; this lanparty speaks "
                         "{ours}").format(name=repr(ad.name), theirs=ad.proto,
                                          ours=PROTOCOL_VERSION))  # fmt: skip
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
        raise NetError(_("cannot connect to {endpoint}: {error}").format(
            endpoint=f"{addr}:{port}", error=exc.strerror or exc)) from None  # fmt: skip

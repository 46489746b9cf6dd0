"""Choosing the network interface to bind to (zeroconf and the table's TCP listener).

The default is the interface of the default route; local play uses loopback. We never bind
zeroconf to every interface: announcing a table on a VPN or a docker bridge is a leak.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

LOOPBACK = "127.0.0.1"


class InterfaceError(ValueError):
    """The requested interface does not exist or has no IPv4 address."""


@dataclass(frozen=True, slots=True)
class Interface:
    """An interface name and the IPv4 address we bind to on it."""

    name: str
    ip: str

    @property
    def is_loopback(self) -> bool:
        """True for 127.0.0.0/8."""
        return ipaddress.ip_address(self.ip).is_loopback


def _ipv4_by_name() -> dict[str, str]:
    """Each interface's first IPv4 address, by name. (ifaddr is imported here: it runs
    ``ldconfig`` as it loads, which a table on loopback never needs.)"""
    import ifaddr

    out: dict[str, str] = {}
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and adapter.nice_name not in out:
                out[adapter.nice_name] = ip.ip
    return out


def default_route_interface(route_file: Path = Path("/proc/net/route")) -> str | None:
    """The name of the interface of the IPv4 default route, or ``None`` if there is none."""
    try:
        lines = route_file.read_text().splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 2 and fields[1] == "00000000":
            return fields[0]
    return None


#: Interfaces that are never the LAN of a game night: containers, VMs, VPNs.
_VIRTUAL = ("docker", "br-", "veth", "virbr", "vnet", "lxc", "tun", "tap", "wg", "zt",
            "tailscale", "utun")  # fmt: skip


def choose_interface(
    spec: str | None,
    local: bool = False,
    *,
    addrs: dict[str, str] | None = None,
    route: str | None = "",
) -> Interface:
    """Resolve ``--interface``: a name (``eth0``), an IPv4 address, or ``None`` for the
    default: loopback when ``local``; else the default route's interface; else (a LAN with
    no router, say) the one interface that can be the LAN.

    ``addrs`` (name → IPv4) and ``route`` (the default route's interface) are read from the
    system unless given. Raises :class:`InterfaceError` naming the known interfaces when
    ``spec`` matches none, or when there is no default route and not exactly one candidate.
    """
    if spec is None and local:
        return Interface("lo", LOOPBACK)
    if addrs is None:
        addrs = _ipv4_by_name()
    if spec is None:
        name = default_route_interface() if route == "" else route
        if name and name in addrs:
            return Interface(name, addrs[name])
        lan = [
            n for n, ip in sorted(addrs.items())
            if not ipaddress.ip_address(ip).is_loopback and not n.startswith(_VIRTUAL)
        ]  # fmt: skip
        if len(lan) == 1:
            return Interface(lan[0], addrs[lan[0]])
        if not lan:
            raise InterfaceError("no network interface but loopback has an IPv4 address; "
                                 "use --local to play on this machine")  # fmt: skip
        known = ", ".join(f"{n} ({addrs[n]})" for n in lan)
        raise InterfaceError(f"no default route, and several interfaces could be the LAN: "
                             f"{known}; pick one with --interface NAME")  # fmt: skip
    if spec in addrs:
        return Interface(spec, addrs[spec])
    try:
        ipaddress.IPv4Address(spec)
    except ValueError:
        known = ", ".join(f"{n} ({a})" for n, a in sorted(addrs.items()))
        raise InterfaceError(
            f"no interface {spec!r} with an IPv4 address; known: {known}"
        ) from None
    for name, ip in addrs.items():
        if ip == spec:
            return Interface(name, ip)
    raise InterfaceError(f"no interface has the address {spec}")

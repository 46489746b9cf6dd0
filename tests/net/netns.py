"""Network namespaces for tests: N hosts on one Ethernet segment, away from the machine's network.

:func:`bridged_lan` builds this and always tears it down (processes killed, namespaces deleted)::

    <prefix>h1   lan1 10.77.213.1/24 ── veth ──┐
    <prefix>h2   lan2 10.77.213.2/24 ── veth ──┼── br0 (in <prefix>br, mcast_snooping 0)
    <prefix>h3   lan3 10.77.213.3/24 ── veth ──┘

The bridge lives in a namespace of its own and every ``ip`` command names its namespace, so the
root namespace (the machine's own interfaces and routes) is never changed. Each host has ``lo``
up and one interface with the connected /24 route; no default route and no multicast route are
needed, because a socket bound to one interface (``IP_MULTICAST_IF``) sends its multicast out of
that interface. Namespace names carry the pid and a counter, so runs never collide.

Needs root and iproute2; :func:`unavailable` says why a test should skip.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

_serial = itertools.count(1)


class NetnsError(RuntimeError):
    """An ``ip`` command failed while building or tearing down a topology."""


def unavailable() -> str | None:
    """Why namespace tests cannot run here (not root, no ``ip``), or ``None`` if they can."""
    if os.geteuid() != 0:
        return "network namespace tests need root (ip netns add)"
    if shutil.which("ip") is None:
        return "network namespace tests need the `ip` command (iproute2)"
    return None


def _ip(*args: str) -> str:
    """Run ``ip ARGS`` and return its stdout; raise :class:`NetnsError` on failure."""
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=False)
    if proc.returncode != 0:
        raise NetnsError(f"ip {' '.join(args)}: {proc.stderr.strip() or proc.returncode}")
    return proc.stdout


@dataclass(frozen=True, slots=True)
class NetHost:
    """One host of the LAN: its namespace, its interface there and that interface's address."""

    netns: str
    interface: str
    ip: str

    def command(self, argv: Sequence[str]) -> list[str]:
        """``argv`` wrapped to run inside this host's namespace."""
        return ["ip", "netns", "exec", self.netns, *argv]


class Lan:
    """A bridged LAN of hosts; starts processes in them and remembers them for teardown."""

    def __init__(self, bridge_netns: str, hosts: Sequence[NetHost]) -> None:
        self.bridge_netns = bridge_netns
        self.hosts = tuple(hosts)
        self._procs: list[subprocess.Popen[Any]] = []

    @property
    def namespaces(self) -> list[str]:
        """Every namespace of the topology (hosts first, the bridge last)."""
        return [h.netns for h in self.hosts] + [self.bridge_netns]

    def popen(self, host: NetHost, argv: Sequence[str], **kwargs: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` in ``host``'s namespace (``subprocess.Popen`` keywords pass through);
        it is killed at teardown if still running."""
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        proc: subprocess.Popen[Any] = subprocess.Popen(host.command(argv), **kwargs)
        self._procs.append(proc)
        return proc

    def run(
        self, host: NetHost, argv: Sequence[str], timeout: float, **kwargs: Any
    ) -> subprocess.CompletedProcess[Any]:
        """Run ``argv`` in ``host``'s namespace to completion (killed after ``timeout`` s)."""
        kwargs.setdefault("stdin", subprocess.DEVNULL)
        return subprocess.run(host.command(argv), timeout=timeout, check=False, **kwargs)

    def _stop_processes(self) -> None:
        """Kill and reap what we started, then anything else still inside our namespaces."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        for ns in self.namespaces:
            with suppress(NetnsError):
                for pid in _ip("netns", "pids", ns).split():
                    with suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)


@contextmanager
def bridged_lan(n: int, subnet: str = "10.77.213", prefix: str = "lpt") -> Iterator[Lan]:
    """``n`` hosts, each in its own namespace, on one bridge in a namespace of its own.

    Host ``i`` (1-based) is ``<prefix><pid>x<k>h<i>`` with interface ``lan<i>`` and address
    ``<subnet>.<i>/24``. On exit every process started through the :class:`Lan` (and any other
    process left in its namespaces) is killed and every namespace is deleted, also when the
    block raises or the setup fails halfway.
    """
    if not 1 <= n <= 250:
        raise ValueError("between 1 and 250 hosts")
    base = f"{prefix}{os.getpid()}x{next(_serial)}"
    bridge = f"{base}br"
    hosts = [NetHost(f"{base}h{i}", f"lan{i}", f"{subnet}.{i}") for i in range(1, n + 1)]
    lan = Lan(bridge, hosts)
    created: list[str] = []
    try:
        _ip("netns", "add", bridge)
        created.append(bridge)
        _ip("-n", bridge, "link", "set", "lo", "up")
        # Snooping off: the bridge floods every multicast frame to every port, querier or not.
        _ip("-n", bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", bridge, "link", "set", "br0", "up")
        for i, host in enumerate(hosts, start=1):
            _ip("netns", "add", host.netns)
            created.append(host.netns)
            _ip("-n", host.netns, "link", "set", "lo", "up")
            # Created inside the bridge namespace, the far end moved straight into the host's.
            port = f"vb{i}"
            _ip("-n", bridge, "link", "add", port, "type", "veth",
                "peer", "name", host.interface, "netns", host.netns)  # fmt: skip
            _ip("-n", bridge, "link", "set", port, "master", "br0")
            _ip("-n", bridge, "link", "set", port, "up")
            _ip("-n", host.netns, "addr", "add", f"{host.ip}/24", "dev", host.interface)
            _ip("-n", host.netns, "link", "set", host.interface, "up")
        yield lan
    finally:
        lan._stop_processes()
        errors: list[str] = []
        for ns in reversed(created):
            try:
                _ip("netns", "del", ns)
            except NetnsError as exc:
                errors.append(str(exc))
        if errors:
            raise NetnsError("teardown left namespaces behind: " + "; ".join(errors))

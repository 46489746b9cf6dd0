"""The mDNS lobby on loopback: a table appears, changes and disappears live."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from lanparty.net.discovery import TableAd, advertise, browse
from lanparty.net.interfaces import (
    Interface,
    InterfaceError,
    choose_interface,
    default_route_interface,
)
from protocol import PROTOCOL_VERSION

AD = TableAd("Friday KaTO", "kato", seats=4, free=3, proto=1, fingerprint="7QXM-K2PA-93TD-HB0R",
             host="ana", port=45678)  # fmt: skip


async def test_table_appears_updates_and_disappears() -> None:
    with trio.fail_after(20):
        async with browse("127.0.0.1") as lobby, advertise("127.0.0.1", AD) as adv:
            await lobby.wait_for(lambda t: adv.ad.name in t)
            seen = lobby.tables[adv.ad.name]
            assert (seen.game, seen.seats, seen.free, seen.host) == ("kato", 4, 3, "ana")
            assert seen.fingerprint == AD.fingerprint
            assert seen.endpoint == "127.0.0.1:45678"

            await adv.update(free=1)
            await lobby.wait_for(lambda t: t.get(adv.ad.name, seen).free == 1)

            await adv.withdraw()  # the goodbye: browsers drop it at once
            await lobby.wait_for(lambda t: adv.ad.name not in t)


async def test_two_tables_with_one_name_both_visible() -> None:
    with trio.fail_after(20):
        async with (
            browse("127.0.0.1") as lobby,
            advertise("127.0.0.1", AD) as a,
            advertise("127.0.0.1", AD) as b,
        ):
            assert a.ad.name != b.ad.name  # zeroconf renamed the second one
            await lobby.wait_for(lambda t: a.ad.name in t and b.ad.name in t)


def test_choose_interface() -> None:
    assert choose_interface(None, local=True).ip == "127.0.0.1"
    assert choose_interface("127.0.0.1").is_loopback
    assert choose_interface("lo").ip == "127.0.0.1"
    with pytest.raises(InterfaceError, match="known"):
        choose_interface("nonexistent0")
    with pytest.raises(InterfaceError):
        choose_interface("203.0.113.77")


def test_default_route_parsing(tmp_path: Path) -> None:
    route = tmp_path / "route"
    route.write_text(
        "Iface\tDestination\tGateway\tFlags\n"
        "eth7\t0000A8C0\t00000000\t0001\n"
        "wlan3\t00000000\t0102A8C0\t0003\n"
    )
    assert default_route_interface(route) == "wlan3"
    route.write_text("Iface\tDestination\n")
    assert default_route_interface(route) is None
    assert default_route_interface(tmp_path / "missing") is None


def test_default_interface_without_a_default_route() -> None:
    """A game-night LAN with no router: the one interface that can be the LAN is taken;
    containers and VPNs never are; several candidates or none are an error that says why."""
    lan = {"lo": "127.0.0.1", "eth0": "169.254.10.2", "docker0": "172.17.0.1", "wg0": "10.9.0.2"}
    assert choose_interface(None, addrs=lan, route=None) == Interface("eth0", "169.254.10.2")
    assert choose_interface(None, addrs=lan, route="wg0").name == "wg0"  # the route decides
    assert choose_interface(None, local=True, addrs=lan, route=None).is_loopback
    two = {**lan, "wlan0": "192.168.4.7"}
    with pytest.raises(InterfaceError, match=r"several interfaces .* eth0 .* wlan0 .*--interface"):
        choose_interface(None, addrs=two, route=None)
    with pytest.raises(InterfaceError, match="use --local"):
        choose_interface(None, addrs={"lo": "127.0.0.1", "docker0": "172.17.0.1"}, route=None)


async def test_joining_a_table_of_another_protocol_version_is_refused_by_name(
    tmp_path: Path,
) -> None:
    """Found over mDNS, a table that announces a later protocol is not joined: one line."""
    later = PROTOCOL_VERSION + 1
    future = replace(AD, name=f"future-{os.getpid()}", proto=later)
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "join", future.name, "--bot", "--local"]
    with trio.fail_after(60):
        async with advertise("127.0.0.1", future):
            proc = await trio.run_process(cmd, env=env, capture_stdout=True,
                                          capture_stderr=True, check=False)  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    mine = PROTOCOL_VERSION
    assert f"table '{future.name}' speaks protocol {later}; this lanparty speaks {mine}" in err
    assert "Traceback" not in err


async def test_joining_without_a_name_when_several_tables_are_open_asks_which(
    tmp_path: Path,
) -> None:
    one = replace(AD, name=f"one-{os.getpid()}")
    two = replace(AD, name=f"two-{os.getpid()}", fingerprint="8QXM-K2PA-93TD-HB0R")
    env = {**os.environ, "LANPARTY_HOME": str(tmp_path)}
    cmd = [sys.executable, "-m", "lanparty", "join", "--bot", "--local", "--timeout", "10"]
    with trio.fail_after(60):
        async with advertise("127.0.0.1", one), advertise("127.0.0.1", two):
            proc = await trio.run_process(cmd, env=env, capture_stdout=True,
                                          capture_stderr=True, check=False)  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "several open tables:" in err and repr(one.name) in err and repr(two.name) in err
    assert "lanparty join NAME" in err and "Traceback" not in err

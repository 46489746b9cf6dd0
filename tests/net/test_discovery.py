"""The mDNS lobby on loopback: a table appears, changes and disappears live."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from lanparty.errors import NetError
from lanparty.net.discovery import Advertisement, Lobby, TableAd, advertise, browse
from lanparty.net.interfaces import (
    Interface,
    InterfaceError,
    choose_interface,
    default_route_interface,
)
from lanparty.table.locate import find_table
from protocol import PROTOCOL_VERSION

AD = TableAd("Friday KaTO", "kato", seats=4, free=3, proto=1, fingerprint="7QXM-K2PA-93TD-HB0R",
             host="ana", port=45678, spectators=16)  # fmt: skip


def _unique(ad: TableAd, name: str) -> TableAd:
    """``ad`` under a name no other test run on this machine announces."""
    return replace(ad, name=f"{name} {os.getpid()}-{secrets.token_hex(2)}")


async def test_table_appears_updates_and_disappears() -> None:
    ad = _unique(AD, "Friday KaTO")
    with trio.fail_after(20):
        async with browse("127.0.0.1") as lobby, advertise("127.0.0.1", ad) as adv:
            key = adv.ad.instance
            assert key == f"{ad.name} [{ad.fingerprint}]" and not adv.name_taken
            await lobby.wait_for(lambda t: key in t)
            seen = lobby.tables[key]
            assert (seen.name, seen.game, seen.seats, seen.free) == (ad.name, "kato", 4, 3)
            assert (seen.host, seen.fingerprint) == ("ana", AD.fingerprint)
            assert seen.endpoint == "127.0.0.1:45678"

            assert (seen.spectators, seen.watchers, seen.playing) == (16, 0, False)

            await adv.update(free=1)
            await lobby.wait_for(lambda t: t.get(key, seen).free == 1)
            # Playing, with spectators: still announced, with how many watch.
            await adv.update(free=0, playing=True, watchers=2)
            await lobby.wait_for(lambda t: t.get(key, seen).playing)
            assert lobby.tables[key].watchers == 2

            await adv.withdraw()  # the goodbye: browsers drop it at once
            await lobby.wait_for(lambda t: key not in t)


class _Watch:
    """One browser that many tasks wait on: a pump applies every event, and each waiter
    wakes on every change (two waiters on one :class:`Lobby` would steal its events)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._changed = trio.Event()

    async def pump(self) -> None:
        while True:
            await self.lobby.next_event()
            self._changed.set()
            self._changed = trio.Event()

    async def until(self, predicate: Callable[[dict[str, TableAd]], bool]) -> None:
        while not predicate(self.lobby.tables):
            await self._changed.wait()


async def _announce(nursery: trio.Nursery, *ads: TableAd) -> list[Advertisement]:
    """``ads`` announced all at once on loopback (each held until ``nursery`` is cancelled);
    their advertisements, once every one is announced."""
    held: dict[int, Advertisement] = {}
    ready = trio.Event()

    async def hold(i: int, ad: TableAd) -> None:
        async with advertise("127.0.0.1", ad) as adv:
            held[i] = adv
            if len(held) == len(ads):
                ready.set()
            await trio.sleep_forever()  # announced until the nursery is cancelled

    for i, ad in enumerate(ads):
        nursery.start_soon(hold, i, ad)
    await ready.wait()
    return [held[i] for i in range(len(ads))]


#: Every scenario of two tables of one name is played this many times, BATCH pairs at once
#: (each pair its own name): more responders at once on the port than a LAN party has.
REPEATS, BATCH = 20, 10


async def _two_of_one_name(watch: _Watch, name: str, at_once: bool) -> None:
    """Two hosts (two keys) announce ``name``: two instances, both seen by that name, the
    second told at once, the first as soon as it hears, ``join NAME`` asks which."""
    a_ad = replace(AD, name=name, port=40001)
    b_ad = replace(AD, name=name, port=40002, fingerprint="8QXM-K2PA-93TD-HB0R")
    async with trio.open_nursery() as nursery:
        if at_once:
            # Announced together, neither may have heard the other before it announced (on
            # a busy machine both probes go out first): each is told as soon as it hears.
            a, b = await _announce(nursery, a_ad, b_ad)
        else:
            [a] = await _announce(nursery, a_ad)
            [b] = await _announce(nursery, b_ad)
            assert b.name_taken and list(b.namesakes) == [a.ad.instance]
            assert b.namesakes[a.ad.instance].fingerprint == a_ad.fingerprint
        assert a.ad.instance != b.ad.instance
        assert (await a.next_namesake()).fingerprint == b_ad.fingerprint
        assert (await b.next_namesake()).fingerprint == a_ad.fingerprint

        def both(tables: dict[str, TableAd]) -> bool:
            return {(t.instance, t.fingerprint) for t in tables.values() if t.name == name} == {
                (a.ad.instance, a_ad.fingerprint), (b.ad.instance, b_ad.fingerprint)}  # fmt: skip

        await watch.until(both)
        found: list[TableAd | str] = []

        async def join(host_key: str | None) -> None:  # what `lanparty join NAME` finds
            try:
                found.append(await find_table("127.0.0.1", name, 10, host_key))
            except NetError as exc:
                found.append(str(exc))

        async with trio.open_nursery() as joins:
            joins.start_soon(join, None)
            joins.start_soon(join, b_ad.fingerprint.lower())  # as typed, in any case
        [asked] = [f for f in found if isinstance(f, str)]
        [picked] = [f for f in found if isinstance(f, TableAd)]
        assert asked.startswith(f"2 open tables are called {name!r}: "), asked
        assert a_ad.fingerprint in asked and b_ad.fingerprint in asked
        assert (picked.fingerprint, picked.port) == (b_ad.fingerprint, b_ad.port)
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("at_once", [False, True], ids=["one-after-the-other", "at-once"])
async def test_two_tables_with_one_name_are_both_seen_by_that_name(at_once: bool) -> None:
    """On one machine, where mDNS probing alone left the second host with the first's
    instance (its defence went by unicast to another socket on port 5353)."""
    base = f"Dup {os.getpid()}-{secrets.token_hex(2)}"
    with trio.fail_after(30 * REPEATS // BATCH):
        async with browse("127.0.0.1") as lobby, trio.open_nursery() as nursery:
            watch = _Watch(lobby)
            nursery.start_soon(watch.pump)
            for first in range(0, REPEATS, BATCH):
                async with trio.open_nursery() as pairs:
                    for k in range(first, first + BATCH):
                        pairs.start_soon(_two_of_one_name, watch, f"{base}-{k}", at_once)
            nursery.cancel_scope.cancel()


async def test_one_key_announcing_one_name_twice_is_two_instances() -> None:
    """The same key (a key file copied to a second machine, say) and the same name: the
    instance is taken, and probing (asked QM, so heard on one machine too) renames it."""
    ad = _unique(AD, "Twice")
    with trio.fail_after(30):
        async with browse("127.0.0.1") as lobby, trio.open_nursery() as nursery:
            [a] = await _announce(nursery, ad)
            [b] = await _announce(nursery, replace(ad, port=ad.port + 1))
            assert b.ad.instance == a.ad.instance + "-2" and b.name_taken
            await lobby.wait_for(lambda t: a.ad.instance in t and b.ad.instance in t)
            assert lobby.tables[b.ad.instance].port == ad.port + 1
            nursery.cancel_scope.cancel()


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


class _Lines:
    """A running ``lanparty`` process whose stderr is read line by line."""

    def __init__(self, proc: trio.Process) -> None:
        self.proc = proc
        self._buffer = b""

    async def until(self, text: str) -> str:
        """Read lines until one contains ``text``; that line (fails if the process ends)."""
        assert self.proc.stderr is not None
        while True:
            line, newline, rest = self._buffer.partition(b"\n")
            if newline:
                self._buffer = rest
                if text in line.decode():
                    return line.decode()
                continue
            chunk = await self.proc.stderr.receive_some()
            if not chunk:
                raise AssertionError(f"the process ended without saying {text!r}")
            self._buffer += chunk


@asynccontextmanager
async def _lanparty(home: Path, *args: str) -> AsyncIterator[_Lines]:
    """``lanparty ARGS`` with its own data directory, killed when the block ends."""
    env = {**os.environ, "LANPARTY_HOME": str(home)}
    proc = await trio.lowlevel.open_process([sys.executable, "-m", "lanparty", *args], env=env,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.PIPE)  # fmt: skip
    try:
        yield _Lines(proc)
    finally:
        with trio.CancelScope(shield=True):
            proc.kill()
            await proc.wait()


async def _run(home: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "LANPARTY_HOME": str(home)}
    cmd = [sys.executable, "-m", "lanparty", *args]
    proc = await trio.run_process(cmd, env=env, capture_stdout=True, capture_stderr=True,
                                  check=False)  # fmt: skip
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


async def test_a_squatted_table_name_is_never_chosen_silently(tmp_path: Path) -> None:
    """A stranger announces "Ana's kato" first. Ana's host says so, with her key; both tables
    are listed; ``join NAME`` names both and picks neither; ``--host-key`` (as typed, in any
    case) picks hers, and her advertisement follows the seats taken."""
    name = f"Ana's kato {os.getpid()}-{secrets.token_hex(2)}"
    squat = replace(AD, name=name, fingerprint="MALL-ORY0-93TD-HB0R", host="ana")
    with trio.fail_after(90):
        async with browse("127.0.0.1") as lobby, advertise("127.0.0.1", squat):
            await lobby.wait_for(lambda t: any(a.name == name for a in t.values()))
            host = ["host", "kato", "--bot", "--local", "--seats", "3", "--name", name]
            async with _lanparty(tmp_path / "ana", *host, "--nick", "ana") as ana:
                opened = await ana.until(f"table {name!r} on ")
                key = opened.split("host key ")[1].strip()
                endpoint = opened.split(" on ")[1].split(" ")[0]
                line = await ana.until("another table")
                assert line == (f"another table on this network is already called {name!r}: "
                                "players will see both, each with its host's key; yours is "
                                f"{key}")  # fmt: skip

                def both(tables: dict[str, TableAd]) -> set[str]:
                    return {t.fingerprint for t in tables.values() if t.name == name}

                await lobby.wait_for(lambda t: both(t) == {key, squat.fingerprint})
                listed: list[tuple[int, str, str]] = []
                async with trio.open_nursery() as nursery:  # both listings listen at once
                    for extra in ([], ["--json"]):
                        nursery.start_soon(_listing, tmp_path, extra, listed)
                for code, out, err in listed:
                    assert code == 0, err
                    if out.startswith("["):
                        fps = {t["fingerprint"] for t in json.loads(out) if t["name"] == name}
                        assert fps == {key, squat.fingerprint}
                    else:
                        assert key in out and squat.fingerprint in out
                        assert f"(2 tables are called {name!r}: tell them apart" in out

                code, _, err = await _run(tmp_path / "bo", "join", name, "--bot", "--local")
                assert code == 2 and "Traceback" not in err, err
                assert f"2 open tables are called {name!r}: " in err
                assert f"{name!r} [{key}] host ana at {endpoint}" in err
                assert f"{name!r} [{squat.fingerprint}] host ana at 127.0.0.1:{squat.port}" in err
                assert f"pick one: lanparty join {name!r} --host-key FINGERPRINT" in err

                async with _lanparty(tmp_path / "bo", "join", name, "--bot", "--local",
                                     "--host-key", key.lower(), "--nick", "bo"):  # fmt: skip
                    await ana.until("seat 1: bo joined")
                    # 2 of 3 seated: the advertisement says so (it said 1 of 3 before).
                    await lobby.wait_for(
                        lambda t: any(a.fingerprint == key and a.free == 1 for a in t.values())
                    )
                    # A third table of that name, opened after hers: Ana is told of it too.
                    late = replace(squat, fingerprint="LATE-0PEN-93TD-HB0R", port=squat.port + 1)
                    async with advertise("127.0.0.1", late):
                        line = await ana.until("was just opened")
                        assert line == (f"a table named {name!r} (key {late.fingerprint}) was "
                                        "just opened on this network: players will see both, "
                                        f"each with its host's key; yours is {key}")  # fmt: skip


async def _listing(home: Path, extra: list[str], into: list[tuple[int, str, str]]) -> None:
    into.append(await _run(home, "list", "--local", "--timeout", "3", *extra))


def test_the_writing_language_rides_in_the_txt_record_and_junk_is_ignored() -> None:
    """A Unanimo table advertises its writing language (``lang``); a reader takes a language
    code and ignores anything else, and a record without it has none."""
    import socket

    from zeroconf import ServiceInfo

    from lanparty.net.discovery import SERVICE_TYPE
    from lanparty.table.hosting import table_language

    def seen(**txt: str) -> TableAd:
        props = {**AD.txt(), **txt}
        info = ServiceInfo(SERVICE_TYPE, f"x [{AD.fingerprint}].{SERVICE_TYPE}",
                           addresses=[socket.inet_aton("10.0.0.2")], port=4000,
                           properties=props)  # fmt: skip
        return TableAd.from_service(info)

    assert seen().lang == "" and seen(lang="pl").lang == "pl"
    assert seen(lang="Polish!").lang == "" and seen(lang="x" * 40).lang == ""
    assert table_language("unanimo", {"words": "es"}) == "es"
    assert table_language("kato", {"rounds": 1}) == ""

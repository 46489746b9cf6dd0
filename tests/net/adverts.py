"""A process that announces tables and browses them on one interface, driven by JSON lines:
what a test runs inside a network namespace (``python -m tests.net.adverts IP [--browse]``),
so that each host of a :mod:`tests.net.netns` LAN announces through lanparty's own discovery
code, bound to its own interface.

Standard input, one JSON object a line (the end of input withdraws everything and exits):

- ``{"announce": {TableAd fields}}``: announce that table, beside any others;
- ``{"withdraw": NAME}``: withdraw the tables of that name announced here.

Standard output, one JSON object a line:

- ``{"announced": NAME, "fingerprint": FP, "instance": ..., "name_taken": ...,
  "namesakes": [FP, ...]}`` once a table is announced (what :func:`advertise` returned);
- ``{"heard": NAME, "fingerprint": FP, "other": FP}`` for every table of a name like one
  announced here, as that table hears it (the first ones included);
- ``{"withdrawn": NAME, "fingerprint": FP}``;
- with ``--browse``: ``{"seen": {TableAd fields}}`` and ``{"gone": INSTANCE}`` for every
  table on the interface, as a lobby sees them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any

import trio

from lanparty.net.discovery import Advertisement, TableAd, TableSeen, advertise, browse


def _emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


async def _hold(ip: str, ad: TableAd, stop: trio.Event) -> None:
    """Announce ``ad`` until ``stop`` is set, reporting what it hears."""
    async with advertise(ip, ad) as adv:
        _emit({"announced": ad.name, "fingerprint": ad.fingerprint, "instance": adv.ad.instance,
               "name_taken": adv.name_taken,
               "namesakes": sorted(t.fingerprint for t in adv.namesakes.values())})  # fmt: skip
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_report_heard, adv)
            await stop.wait()
            nursery.cancel_scope.cancel()
    _emit({"withdrawn": ad.name, "fingerprint": ad.fingerprint})


async def _report_heard(adv: Advertisement) -> None:
    while True:
        other = await adv.next_namesake()
        _emit({"heard": adv.ad.name, "fingerprint": adv.ad.fingerprint,
               "other": other.fingerprint})  # fmt: skip


async def _browse(ip: str) -> None:
    async with browse(ip) as lobby:
        while True:
            event = await lobby.next_event()
            if isinstance(event, TableSeen):
                _emit({"seen": asdict(event.ad)})
            else:
                _emit({"gone": event.instance})


async def _main(ip: str, browsing: bool) -> None:
    stops: dict[str, list[trio.Event]] = {}
    async with trio.open_nursery() as nursery:
        if browsing:
            nursery.start_soon(_browse, ip)
        buffer = b""
        async with trio.lowlevel.FdStream(sys.stdin.fileno()) as stdin:
            async for chunk in stdin:
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    command = json.loads(line)
                    if "announce" in command:
                        stop = trio.Event()
                        ad = TableAd(**command["announce"])
                        stops.setdefault(ad.name, []).append(stop)
                        nursery.start_soon(_hold, ip, ad, stop)
                    else:
                        for stop in stops.pop(command["withdraw"], []):
                            stop.set()
        for events in stops.values():  # end of input: withdraw everything
            for stop in events:
                stop.set()
        if browsing:
            nursery.cancel_scope.cancel()


def main() -> None:
    """Run the driver on the interface address given on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ip")
    parser.add_argument("--browse", action="store_true")
    args = parser.parse_args()
    trio.run(_main, args.ip, args.browse)


if __name__ == "__main__":
    main()

"""Every test reads English, whatever the machine's locale: the child processes the tests
start (tmux panes, peers) inherit ``LANGUAGE=en``; a test of another language sets its own.

They also run this checkout's code: ``PYTHONPATH`` starts with it, so a peer process tests
the tree under test even when the installed ``lanparty`` points at another (a second
worktree, a stale editable install).

And every process of the run (the workers, the peers, the panes) keeps the bytecode it
compiles. A machine that sets ``PYTHONDONTWRITEBYTECODE`` (to keep ``__pycache__`` out of
source trees) would make each of the suite's few hundred peer processes compile the whole
program again, a third of its start; the bytecode goes under ``.pytest_cache`` instead."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import crypto
from lanparty import i18n

os.environ["LANGUAGE"] = "en"
# A table's peers in one process (protocol.harness) verify each shuffle proof once between
# them; every peer process the tests start verifies on its own, as a player's does.
crypto.remember_verified(True)
_CHECKOUT = str(Path(__file__).resolve().parents[1])
os.environ["PYTHONPATH"] = os.pathsep.join(
    [_CHECKOUT, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
)

if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) or sys.dont_write_bytecode:
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(_CHECKOUT, ".pytest_cache", "pyc")))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every test module, its imports, the parameters) lives as long
    as the run: out of the cyclic collector's sight once collected (``gc.freeze``), so that
    its full collections do not walk it again and again while the tests run."""
    gc.collect()
    gc.freeze()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Three workers a core for ``-n auto``: most tests wait on processes, sockets and timers
    rather than compute (on 2 cores the suite used 60 % of them with one worker each, and
    77 % with two; beside a busy neighbour, three a core took 7:01 where two took 7:57)."""
    return 3 * (os.cpu_count() or 1)


_ONE_WORKER_PER_FILE = ("net", "ui")
"""Folders whose files each run in one worker (``--dist loadgroup``): their tests start
processes, tables announced over mDNS on loopback and module fixtures (one host for a
file's attacks), and may count on no sibling running beside them. Elsewhere (games,
protocol, crypto: in-process and independent) single tests spread over the workers, so a
file of long playouts is nobody's tail."""


_ONE_WORKER_TOGETHER = {
    "net/test_discovery.py": "mdns on loopback",
    "net/test_hostile_lobby.py": "mdns on loopback",
    "ui/test_tmux_lobby.py": "mdns on loopback",
    "ui/test_tmux_lobby_screen.py": "mdns on loopback",
}
"""Files that run one after another in one worker: the discovery tests announce twenty
tables at once on loopback (and the hostile lobby's odd ones), which fill a lobby's 80x24
screen in the tmux tests beside them (its own table's row pushed out, "join N" filling
the menu)."""

_LONGEST_FIRST = (
    "mdns on loopback",
    "net/test_churn.py",
    "net/test_spectator_flood.py",
    "net/test_replay.py",
    "net/test_failures.py",
    "net/test_audit_cmd.py",
    "net/test_netns.py",
    "net/test_rejoin_net.py",
    "ui/test_tmux_net.py",
    "net/test_demo.py",
    "net/test_night_net.py",
    "ui/test_tmux_screen.py",
    "net/test_friends_net.py",
)
"""The groups that keep one worker longest, longest first (a timeline of the suite at ``-n 8``
on 2 cores: the churn's file took 140 s and the spectator flood 67 s, mostly waiting for
their attackers, which run at the lowest priority). They are handed out first: started last,
as xdist's own order (the files with most tests first) had them, they were the run's tail."""


def _group(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return str(marker.args[0]) if marker is not None and marker.args else None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test of :data:`_ONE_WORKER_PER_FILE` with the rest of its file, and order
    the work xdist hands out (``--no-loadscope-reorder`` keeps this order): the files of
    :data:`_LONGEST_FIRST`, then the other groups, most tests first (xdist's own order),
    then the single tests, which fill the workers' gaps at the end."""
    tests = Path(__file__).parent
    for item in items:
        where = item.path.relative_to(tests)
        if where.as_posix() in _ONE_WORKER_TOGETHER:
            item.add_marker(pytest.mark.xdist_group(_ONE_WORKER_TOGETHER[where.as_posix()]))
        elif where.parts[0] in _ONE_WORKER_PER_FILE:
            item.add_marker(pytest.mark.xdist_group(where.as_posix()))
    sizes: dict[str, int] = {}
    for item in items:
        group = _group(item)
        if group is not None:
            sizes[group] = sizes.get(group, 0) + 1
    longest = {name: rank for rank, name in enumerate(_LONGEST_FIRST)}

    def order(item: pytest.Item) -> tuple[int, int]:
        group = _group(item)
        if group is None:
            return (2, 0)
        if group in longest:
            return (0, longest[group])
        return (1, -sizes[group])

    items.sort(key=order)  # stable: a file's tests keep their order

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

from lanparty import i18n

os.environ["LANGUAGE"] = "en"
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


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test of :data:`_ONE_WORKER_PER_FILE` with the rest of its file."""
    tests = Path(__file__).parent
    for item in items:
        where = item.path.relative_to(tests)
        if where.parts[0] in _ONE_WORKER_PER_FILE:
            item.add_marker(pytest.mark.xdist_group(where.as_posix()))

"""Every test reads English, whatever the machine's locale: the child processes the tests
start (tmux panes, peers) inherit ``LANGUAGE=en``; a test of another language sets its own."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from lanparty import i18n

os.environ["LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Two workers a core for ``-n auto``: most tests wait on processes, sockets and timers
    rather than compute (on 2 cores the suite used 60 % of them with one worker each)."""
    return 2 * (os.cpu_count() or 1)

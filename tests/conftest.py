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

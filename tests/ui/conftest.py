"""Fixtures of the terminal tests: programs in tmux panes, every one killed at the end."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .tmux import Pane, lanparty_pane


@pytest.fixture
def panes() -> Iterator[dict[str, Pane]]:
    """The test's panes by name (the test fills it); every one killed at the end."""
    made: dict[str, Pane] = {}
    yield made
    for pane in made.values():
        pane.kill()


@pytest.fixture
def start(tmp_path: Path, panes: dict[str, Pane]) -> Callable[..., Pane]:
    """Start ``lanparty ARGS`` in a pane of its own, its data folder ``tmp_path/NAME``
    (``p0``, ``p1``… unless named)."""

    def run(*args: str, name: str | None = None) -> Pane:
        name = name or f"p{len(panes)}"
        pane = panes[name] = lanparty_pane(tmp_path / name, *args)
        return pane

    return run

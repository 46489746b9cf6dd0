"""What the host's challenge tells every connection, as people at their terminals see it: a
joiner and a spectator who dialled the table's address (``--connect``, no announcement
heard) have its name in their header, as the host has; and a spectator is offered ``say``
(Tab, help) only where the host lets spectators talk."""

from __future__ import annotations

import os
import re
import shlex
import shutil
from pathlib import Path

import pytest

from .tmux import Pane, lanparty_pane

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

SETUP_DEADLINE = 60.0
SAY = "say something to the table"


def _host(panes: dict[str, Pane], tmp_path: Path, name: str, *extra: str) -> str:
    """A person hosting KaTO for 3 in a pane, the table called ``name``: its address."""
    host = panes["host"] = lanparty_pane(
        tmp_path / "host", "host", "kato", "--local", "--seats", "3", "--nick", "Hugo",
        "--name", shlex.quote(name), *extra,
    )  # fmt: skip
    host.wait(lambda: "is open on 127.0.0.1:" in host.story(), "the table open", SETUP_DEADLINE)
    found = re.search(r"is open on (127\.0\.0\.1:\d+)", host.story())
    assert found is not None
    return found[1]


def _header(pane: Pane) -> str:
    return pane.screen().splitlines()[0]


def test_a_joiner_and_a_spectator_by_address_see_the_tables_name(
    panes: dict[str, Pane], tmp_path: Path
) -> None:
    name = f"Hugo's night {os.getpid()}"
    where = _host(panes, tmp_path, name)
    host = panes["host"]
    host.wait(lambda: name in _header(host), "the host's header")
    bo = panes["bo"] = lanparty_pane(tmp_path / "bo", "join", "--connect", where, "--nick", "Bo")
    bo.wait(lambda: name in _header(bo), "the joiner's header", SETUP_DEADLINE)
    zed = panes["zed"] = lanparty_pane(
        tmp_path / "zed", "watch", "--connect", where, "--nick", "Zed"
    )
    zed.wait(lambda: name in _header(zed), "the spectator's header", SETUP_DEADLINE)
    assert _header(bo).startswith(" KaTO · " + name) and _header(zed).startswith(" KaTO · ")
    # Spectators may not talk at this table: ``say`` is offered nowhere to the spectator.
    zed.wait_text("watching>")
    zed.keys("Tab")
    zed.still(lambda s: "list the commands" in s, "the spectator's menu")
    assert SAY not in zed.screen()
    zed.keys("Escape")
    zed.type("help")
    help_page = zed.page()
    assert "say TEXT" not in help_page, help_page
    assert "rules" in help_page
    zed.keys("Escape")
    zed.type("say hello")  # typed anyway: refused here, in words, and nothing is sent
    zed.wait(lambda: "Not said: spectators may not talk at this table" in zed.story(), "why")
    # A seat may talk, as ever.
    bo.keys("Tab")
    bo.wait(lambda: SAY in bo.screen(), "the joiner's say")
    bo.keys("Escape")


def test_a_spectator_is_offered_say_where_spectators_may_talk(
    panes: dict[str, Pane], tmp_path: Path
) -> None:
    where = _host(panes, tmp_path, f"talkers {os.getpid()}", "--spectators-talk")
    zed = panes["zed"] = lanparty_pane(
        tmp_path / "zed", "watch", "--connect", where, "--nick", "Zed"
    )
    zed.wait(lambda: "watching>" in zed.screen(), "the spectator's table", SETUP_DEADLINE)
    zed.keys("Tab")
    zed.wait(lambda: SAY in zed.screen(), "say in the spectator's menu")
    zed.keys("Escape")
    zed.type("help")
    assert "say TEXT" in zed.page()
    zed.keys("Escape")
    zed.type("say hello all")
    host = panes["host"]
    host.wait(lambda: "hello all" in host.story(), "the line at the host")

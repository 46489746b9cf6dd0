"""The processes lanparty starts (issue 20, item 8): a module planted in the folder where
``lanparty host --bots 1`` runs never runs inside the bot, and the bot's signing key is
neither on its command line nor in its environment (both readable in /proc for its whole
life): it comes through a pipe the bot reads once and closes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from crypto import Identity
from lanparty.interrupt import child_env, lanparty_command

from .procs import children, table

#: Modules a bot imports (rbcl tries ``_sodium`` first; ``crypto``, ``protocol`` and ``trio``
#: are ours and trio). Each planted copy leaves a marker, then hands over to the real module,
#: so that on code that imports it the game still completes and the marker tells.
PLANTED = ("_sodium", "crypto", "protocol", "trio")
_SHIM = """\
import importlib, os, pathlib, sys
pathlib.Path(__file__).with_suffix(".ran").write_text("ran")
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
if __name__ != "_sodium":  # rbcl falls back from a _sodium without the _sodium it wants
    del sys.modules[__name__]
    sys.modules[__name__] = importlib.import_module(__name__)
"""
_HEX_KEY = re.compile(rb"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])")


def _trusted(cmdline: list[bytes]) -> set[bytes]:
    """The public keys a bot's ``--trust`` lists: the host's and the bots' own."""
    keys = cmdline[cmdline.index(b"--trust") + 1].decode()
    return {bytes.fromhex(k) for k in keys.split(",")}


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs Linux's /proc")
async def test_a_planted_module_never_runs_in_a_bot_and_its_key_is_nowhere_in_proc(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    for name in PLANTED:
        (folder / f"{name}.py").write_text(_SHIM)
    async with table(tmp_path) as t:
        host = await t.start("host", "host", "kato", "--bot", "--local", "--nick", "hugo",
                             "--json", "--react", "0", "--seats", "3", "--bots", "1",
                             "--option", "rounds=1", cwd=folder)  # fmt: skip
        line = await t.until("host", "table ")
        endpoint = line.split(" on ")[1].split(" ")[0]
        await t.until("host", "seat 1: ")  # the bot holds its key now, and waits for seat 2
        [bot] = [p for p in children(host.pid)
                 if b"join" in Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")]  # fmt: skip
        cmdline = Path(f"/proc/{bot}/cmdline").read_bytes().split(b"\0")
        environ = Path(f"/proc/{bot}/environ").read_bytes()
        ours = _trusted(cmdline)
        assert len(ours) == 2
        for text in (b"\0".join(cmdline), environ):
            # No 32-byte secret written in hex makes a key of this table.
            for found in _HEX_KEY.findall(text):
                assert Identity(bytes.fromhex(found.decode())).public.raw not in ours
            assert b"LANPARTY_BOT_KEY" not in text
        if b"--key-fd" in cmdline:  # the pipe the key came through is closed once read
            pipe = Path(f"/proc/{bot}/fd/{cmdline[cmdline.index(b'--key-fd') + 1].decode()}")
            assert not pipe.exists() or not os.readlink(pipe).startswith("pipe:")
        await t.start("cleo", "join", "--bot", "--connect", endpoint, "--nick", "cleo",
                      "--json", "--react", "0")  # fmt: skip
        hugo = await t.result("host")
        cleo = await t.result("cleo")
    assert hugo["audit_ok"] and cleo["audit_ok"] and not hugo["stopped"], hugo
    assert len(hugo["names"]) == 3  # type: ignore[arg-type]
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.py" for n in PLANTED)


def test_children_run_safe_and_keep_pythonpath(monkeypatch: pytest.MonkeyPatch) -> None:
    """``-P`` and ``PYTHONSAFEPATH`` keep the current folder off a child's path; the
    ``PYTHONPATH`` developers and tests set still counts, its relative entries made
    absolute and its empty ones (the current folder) dropped."""
    monkeypatch.chdir("/tmp")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["", "/opt/x", "rel", ""]))
    env = child_env({"EXTRA": "1"})
    assert env["PYTHONPATH"] == os.pathsep.join(["/opt/x", "/tmp/rel"])
    assert env["PYTHONSAFEPATH"] == "1" and env["EXTRA"] == "1"
    assert lanparty_command("join")[1:] == ["-P", "-m", "lanparty", "join"]

"""Shared fixtures of the network tests: a table of real ``lanparty`` processes."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from . import forkserver

LANPARTY = [sys.executable, "-m", "lanparty"]


class Table:
    """Processes of one table, each with its own data directory; all killed at the end."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.procs: dict[str, subprocess.Popen[str] | forkserver.SyncForked] = {}

    def start(
        self, who: str, *args: str, home_of: str | None = None
    ) -> subprocess.Popen[str] | forkserver.SyncForked:
        home = self.tmp / (home_of or who)
        home.mkdir(exist_ok=home_of is not None)
        env = {**os.environ, "LANPARTY_HOME": str(home)}
        proc: subprocess.Popen[str] | forkserver.SyncForked
        if forkserver.can_fork(env, cwd=None, netns=None):
            proc = forkserver.start_sync(list(args), env)
        else:
            proc = subprocess.Popen([*LANPARTY, *args], env=env, text=True,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)  # fmt: skip
        self.procs[who] = proc
        return proc

    def host(self, *args: str) -> str:
        """Start a bot host; return its HOST:PORT once it listens."""
        self.start("host", "host", "kato", "--bot", "--local", "--nick", "hugo", *args)
        line = self.until("host", "table ")
        return line.split(" on ")[1].split(" ")[0]

    def until(self, who: str, text: str) -> str:
        """Read ``who``'s stderr line by line until one contains ``text``; that line."""
        stream = self.procs[who].stderr
        assert stream is not None
        for line in stream:
            if text in line:
                return line
        raise AssertionError(f"{who} ended without saying {text!r}")

    def finish(self, who: str) -> tuple[int, str, str]:
        out, err = self.procs[who].communicate(timeout=120)
        return self.procs[who].wait(), out, err

    def transcripts(self, who: str) -> list[Path]:
        return sorted((self.tmp / who / "transcripts").glob("*.lptx"))

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.communicate()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()

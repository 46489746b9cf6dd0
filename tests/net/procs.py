"""A table of real lanparty processes for a test: started with their own data directories,
their stderr lines followed (wait for one with :meth:`Procs.until`), their JSON results
read, and every one of them killed when the test's block ends. A person's process in the
plain mode may be typed to (``stdin=True``: :meth:`Procs.type`) and its stdout followed
(``follow=True``: :meth:`Procs.until_out`)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from . import forkserver

LANPARTY = [sys.executable, "-m", "lanparty"]


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:  # gone meanwhile
                continue
            if f"\nPPid:\t{pid}\n" in status:
                kids.append(int(entry.name))
    return kids


class Procs:
    """The table's processes (each with its own data directory) and their stderr lines."""

    def __init__(self, tmp: Path, nursery: trio.Nursery) -> None:
        self.tmp = tmp
        self.nursery = nursery
        self.procs: dict[str, trio.Process | forkserver.Forked] = {}
        self.err: dict[str, list[str]] = {}
        self.out: dict[str, list[str]] = {}
        self._said: dict[str, trio.Event] = {}

    async def start(
        self,
        who: str,
        *args: str,
        home: str | None = None,
        cwd: Path | None = None,
        netns: str | None = None,
        stdin: bool = False,
        follow: bool = False,
    ) -> trio.Process | forkserver.Forked:
        """Start ``lanparty ARGS`` as ``who``; in the folder ``cwd`` if given, and then as the
        ``lanparty`` script runs (``-P``: that folder is not on its path); inside network
        namespace ``netns`` if given; with a pipe to its stdin (``stdin``) and its stdout
        read line by line as it comes (``follow``: :meth:`result` then reads none)."""
        path = self.tmp / (home or who)
        path.mkdir(exist_ok=True)
        env = {**os.environ, "LANPARTY_HOME": str(path)}
        proc: trio.Process | forkserver.Forked
        if forkserver.can_fork(env, cwd=cwd, netns=netns):
            proc = await forkserver.start(list(args), env, stdin=stdin)
        else:
            cmd = (
                [*LANPARTY, *args] if cwd is None else [sys.executable, "-P", *LANPARTY[1:], *args]
            )
            inside = ["ip", "netns", "exec", netns] if netns else []
            proc = await trio.lowlevel.open_process(
                [*inside, *cmd], env=env, cwd=cwd, stdout=-1, stderr=-1,
                stdin=-1 if stdin else None,
            )  # fmt: skip
        self.procs[who] = proc
        self.err[who] = []
        self.nursery.start_soon(self._read, who, proc)
        if follow:
            self.out[who] = []
            self.nursery.start_soon(self._read, who, proc, True)
        return proc

    async def _read(
        self, who: str, proc: trio.Process | forkserver.Forked, out: bool = False
    ) -> None:
        stream = proc.stdout if out else proc.stderr
        assert stream is not None
        lines, tag = (self.out, "out:") if out else (self.err, "")
        buffer = b""
        async for chunk in stream:
            buffer += chunk
            *done, buffer = buffer.split(b"\n")
            for line in done:
                lines[who].append(line.decode())
                for key, event in list(self._said.items()):
                    if key.startswith(tag + who + "\0") and key.split("\0", 1)[1] in line.decode():
                        event.set()

    async def type(self, who: str, line: str) -> None:
        """Type ``line`` (and Enter) to ``who``'s stdin (started with ``stdin=True``)."""
        proc = self.procs[who]
        assert proc.stdin is not None
        await proc.stdin.send_all(line.encode() + b"\n")

    async def until_out(self, who: str, text: str) -> str:
        """Wait until ``who`` (started with ``follow=True``) prints a line containing
        ``text`` on stdout; that line."""
        key = f"out:{who}\0{text}"
        self._said.setdefault(key, trio.Event())
        if not any(text in x for x in self.out[who]):
            await self._said[key].wait()
        return next(x for x in self.out[who] if text in x)

    async def until(self, who: str, text: str) -> str:
        """Wait until ``who`` writes a line containing ``text``; that line."""
        key = f"{who}\0{text}"
        self._said.setdefault(key, trio.Event())
        if not any(text in x for x in self.err[who]):
            await self._said[key].wait()
        return next(x for x in self.err[who] if text in x)

    async def host(self, *args: str, game: str = "kato") -> str:
        """A bot host (hugo) of ``game`` (KaTO: one round); its HOST:PORT once it listens."""
        short = ("--option", "rounds=1") if game == "kato" else ()
        await self.start("host", "host", game, "--bot", "--local", "--nick", "hugo", "--json",
                         *short, *args)  # fmt: skip
        line = await self.until("host", "table ")
        return line.split(" on ")[1].split(" ")[0]

    async def restart(self, who: str) -> str:
        """Kill the seated bot ``who`` (its program dies) and start it again from its saved
        seat, as ``who2``; return once the host says it is back. The new one's name."""
        self.procs[who].send_signal(signal.SIGKILL)
        await self.procs[who].wait()
        again = f"{who}2"
        await self.start(again, "join", "--bot", "--resume", "--json", home=who)
        await self.until("host", f"{who} is back")
        return again

    async def _ended(self, who: str, code: int) -> bytes:
        """``who``'s stdout once it ended with exit status ``code`` and no traceback."""
        proc = self.procs[who]
        assert proc.stdout is not None
        data = b""
        async for chunk in proc.stdout:
            data += chunk
        await proc.wait()
        text = "\n".join(self.err[who])
        assert proc.returncode == code and "Traceback" not in text, (who, data, text)
        return data

    async def result(self, who: str, code: int = 0) -> dict[str, object]:
        """``who``'s JSON summary once it ended (exit ``code``, 0 unless told: the audit
        passed; and no traceback required)."""
        result: dict[str, object] = json.loads(await self._ended(who, code))
        return result

    async def results(self, who: str, code: int = 0) -> list[dict[str, object]]:
        """``who``'s JSON lines (a night: one per game) once it ended, as :meth:`result`."""
        data = await self._ended(who, code)
        return [json.loads(line) for line in data.decode().splitlines() if line.strip()]

    async def kill(self) -> None:
        """End every process still running, and reap it."""
        for proc in self.procs.values():
            if proc.returncode is None:
                proc.kill()
        with trio.CancelScope(shield=True):
            for proc in self.procs.values():
                await proc.wait()


@asynccontextmanager
async def table(tmp: Path, timeout: float = 150) -> AsyncIterator[Procs]:
    """A table of processes for the test's block; if the block fails, what each process
    said is printed (pytest shows it with the failure)."""
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            procs = Procs(tmp, nursery)
            try:
                yield procs
            except BaseException:
                for who, lines in procs.err.items():
                    print(f"--- {who}:", *lines[-40:], sep="\n")
                for who, lines in procs.out.items():
                    print(f"--- {who} (stdout):", *lines[-40:], sep="\n")
                raise
            finally:  # nothing outlives the test
                await procs.kill()
                nursery.cancel_scope.cancel()

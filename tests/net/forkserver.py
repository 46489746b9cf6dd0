"""A fork server for the tests' peer processes: ``lanparty ARGS`` without paying Python's
start each time.

A peer process spends about a third of a second of CPU importing the program before it does
anything, and the network tests start hundreds of them on two cores. So each test worker
keeps one server process (started on first use, ended with the worker) that has imported
the program once, and forks it for every peer a test starts. Each child is a process of its
own that runs exactly what ``python -m lanparty ARGS`` runs (the package's ``__main__``, with
the test's arguments, environment, working folder and standard streams), and exits as that
command would: its status comes back to the test as a :class:`trio.Process`'s would, and the
test signals it through a pidfd (never a pid that may have been reused).

What the interpreter reads once, as it starts, is the server's: a start that needs other
``PYTHON*`` variables, another folder as the script runs (``-P``) or a network namespace
runs a fresh interpreter instead (:func:`can_fork`), as does every start when
``LANPARTY_TEST_EXEC=1`` is set (to compare, or to rule the server out).

The wire, over a Unix socket pair per child: the test sends the server (on its control
socket) a JSON request and four descriptors: the child's socket and its stdin, stdout and
stderr; the server answers on the child's socket with ``{"pid": N}`` and a pidfd, then with
``{"exit": CODE}`` once the child has ended (CODE as :attr:`subprocess.Popen.returncode`:
negative for a signal).
"""

from __future__ import annotations

import array
import atexit
import contextlib
import gc
import importlib
import json
import os
import pkgutil
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[2]
_MAX_MESSAGE = 1 << 20


def _send(sock: socket.socket, message: dict[str, Any], fds: list[int]) -> None:
    data = json.dumps(message).encode()
    sock.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])


def _received_fds(ancdata: list[tuple[int, int, bytes]]) -> list[int]:
    fds = array.array("i")
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    return list(fds)


# --- the server ------------------------------------------------------------------------


class _Job:
    """What a child runs: its arguments, environment and folder."""

    def __init__(self, request: dict[str, Any]) -> None:
        self.args: list[str] = request["args"]
        self.env: dict[str, str] = request["env"]
        self.cwd: str = request["cwd"]


def _import_the_program() -> None:
    """Import every module of the program a peer may load (all but the benchmarks, and its
    ``__main__``, which each child runs), and zeroconf: once here, not in every child."""
    import lanparty

    for module in pkgutil.walk_packages(lanparty.__path__, "lanparty."):
        if not module.name.startswith(("lanparty.bench", "lanparty.__main__")):
            importlib.import_module(module.name)
    importlib.import_module("zeroconf")


def _serve(control: socket.socket) -> _Job:
    """Fork a child for every request on ``control`` and report its end; return only in a
    child, with its job (its streams and folder set). Exits when the test worker closes
    ``control`` (its children are killed then)."""
    _import_the_program()
    assert threading.active_count() == 1, "forking a process with threads"
    gc.collect()
    gc.freeze()  # the imported objects stay shared with the children, untouched by their GC
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, the child's socket)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is control:
                data, ancdata, _flags, _addr = control.recvmsg(_MAX_MESSAGE, socket.CMSG_SPACE(64))
                fds = _received_fds(ancdata)
                if not data:  # the worker is gone: so are its children
                    for pidfd, (_pid, _sock) in children.items():
                        signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                    raise SystemExit(0)
                job = _Job(json.loads(data))
                reply, stdio = socket.socket(fileno=fds[0]), fds[1:]
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    selector.close()
                    control.close()
                    reply.close()
                    for pidfd, (_pid, sock) in children.items():
                        os.close(pidfd)
                        sock.close()
                    for target, fd in enumerate(stdio):
                        os.dup2(fd, target)
                        os.close(fd)
                    return job
                for fd in stdio:
                    os.close(fd)
                pidfd = os.pidfd_open(pid)
                _send(reply, {"pid": pid}, [pidfd])
                children[pidfd] = (pid, reply)
                selector.register(pidfd, selectors.EVENT_READ)
            else:
                pidfd = int(key.fd)
                pid, reply = children.pop(pidfd)
                selector.unregister(pidfd)
                _, status = os.waitpid(pid, 0)
                with contextlib.suppress(OSError):  # else the test is gone: nobody waits
                    _send(reply, {"exit": os.waitstatus_to_exitcode(status)}, [])
                reply.close()
                os.close(pidfd)


def _run(job: _Job) -> None:
    """In a child: run ``python -m lanparty ARGS`` as the job says (this process's exit is
    that command's)."""
    os.chdir(job.cwd)
    os.environ.clear()
    os.environ.update(job.env)
    sys.argv = ["lanparty", *job.args]  # runpy sets argv[0] to the module's file
    runpy.run_module("lanparty", run_name="__main__", alter_sys=True)
    raise SystemExit(0)


def main() -> None:
    """The server's process: its control socket's descriptor is its one argument."""
    job = _serve(socket.socket(fileno=int(sys.argv[1])))
    _run(job)


# --- the test's side ---------------------------------------------------------------------


class Forked:
    """A child of the fork server, as much of :class:`trio.Process` as the tests use: its
    ``pid``, its ``stdin``/``stdout``/``stderr`` streams (those asked for), ``returncode``,
    :meth:`wait`, :meth:`send_signal` and :meth:`kill`."""

    def __init__(
        self,
        pid: int,
        pidfd: int,
        reply: trio.socket.SocketType,
        streams: tuple[trio.lowlevel.FdStream | None, ...],
    ) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self._reply = reply
        self.stdin, self.stdout, self.stderr = streams
        self.returncode: int | None = None

    async def wait(self) -> int:
        """Wait until the child has ended (and been reaped); its exit code."""
        if self.returncode is None:
            data = await self._reply.recv(_MAX_MESSAGE)
            self.returncode = int(json.loads(data)["exit"]) if data else -signal.SIGKILL
            self._reply.close()
            os.close(self._pidfd)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` unless the child is known to have ended (a pidfd: never another
        process that took its pid)."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # ended, not yet reaped
                signal.pidfd_send_signal(self._pidfd, sig)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)


class _Server:
    """This worker's fork server, started on first use and ended with the worker."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.env = {k: v for k, v in os.environ.items() if k.startswith("PYTHON")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.net.forkserver", str(theirs.fileno())], cwd=ROOT,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, pass_fds=[theirs.fileno()],
        )  # fmt: skip
        theirs.close()
        self.control = mine
        atexit.register(self.close)

    def close(self) -> None:
        """End the server (it kills any child left) and reap it."""
        self.control.close()
        self.proc.wait(timeout=30)


_server: _Server | None = None


def can_fork(env: dict[str, str], *, cwd: Path | None, netns: str | None) -> bool:
    """Whether a start may be forked: same ``PYTHON*`` variables as the server's, no folder
    of its own as the script runs, no network namespace, and not ``LANPARTY_TEST_EXEC=1``."""
    if cwd is not None or netns or os.environ.get("LANPARTY_TEST_EXEC") == "1":
        return False
    if not hasattr(os, "pidfd_open") or not hasattr(signal, "pidfd_send_signal"):
        return False
    python = {k: v for k, v in env.items() if k.startswith("PYTHON")}
    return _server is None or python == _server.env


def _request(args: list[str], env: dict[str, str], stdin: bool) -> tuple[socket.socket, list[int]]:
    """Ask this worker's server for a child; the child's socket (its pid comes on it) and
    our ends of its pipes: stdin's (if ``stdin``; else it reads /dev/null), stdout's and
    stderr's."""
    global _server
    if _server is None:
        _server = _Server()
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pipes = [os.pipe() if stdin else None, os.pipe(), os.pipe()]
    null = os.open(os.devnull, os.O_RDONLY)
    child = [null if p is None else p[0] if i == 0 else p[1] for i, p in enumerate(pipes)]
    try:
        request = {"args": args, "env": env, "cwd": os.getcwd()}
        _send(_server.control, request, [theirs.fileno(), *child])
    finally:
        theirs.close()
        for fd in child:
            os.close(fd)
    return mine, [p[1] if i == 0 else p[0] for i, p in enumerate(pipes) if p is not None]


def _started(data: bytes, ancdata: list[tuple[int, int, bytes]]) -> tuple[int, int]:
    (pidfd,) = _received_fds(ancdata)
    return int(json.loads(data)["pid"]), pidfd


async def start(args: list[str], env: dict[str, str], *, stdin: bool) -> Forked:
    """Fork ``lanparty ARGS`` with ``env`` in this worker's folder, its stdout and stderr
    piped to the test (and its stdin too if ``stdin``, else /dev/null)."""
    mine, ours = _request(args, env, stdin)
    reply = trio.socket.from_stdlib_socket(mine)
    data, ancdata, _flags, _addr = await reply.recvmsg(_MAX_MESSAGE, socket.CMSG_SPACE(16))
    streams: list[trio.lowlevel.FdStream | None] = [trio.lowlevel.FdStream(fd) for fd in ours]
    if not stdin:
        streams.insert(0, None)
    return Forked(*_started(data, ancdata), reply, tuple(streams))


class SyncForked:
    """A child of the fork server, as much of :class:`subprocess.Popen` (text mode, stdin
    from /dev/null) as the tests use: ``pid``, ``stdout``/``stderr`` files, ``returncode``,
    :meth:`poll`, :meth:`wait`, :meth:`communicate`, :meth:`send_signal`, :meth:`kill`."""

    def __init__(self, pid: int, pidfd: int, reply: socket.socket, out: int, err: int) -> None:
        self.pid = pid
        self._pidfd = pidfd
        self._reply = reply
        self.stdin = None
        self.stdout = os.fdopen(out, encoding="utf-8")
        self.stderr = os.fdopen(err, encoding="utf-8")
        self.returncode: int | None = None

    def _ended(self, data: bytes) -> int:
        self.returncode = int(json.loads(data)["exit"]) if data else -signal.SIGKILL
        self._reply.close()
        os.close(self._pidfd)
        return self.returncode

    def poll(self) -> int | None:
        """The exit code if the child has ended, else None."""
        if self.returncode is None:
            try:
                data = self._reply.recv(_MAX_MESSAGE, socket.MSG_DONTWAIT)
            except BlockingIOError:
                return None
            self._ended(data)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait (up to ``timeout`` seconds) until the child has ended; its exit code.
        Raises :class:`subprocess.TimeoutExpired` if it has not by then."""
        if self.returncode is None:
            self._reply.settimeout(timeout)
            try:
                data = self._reply.recv(_MAX_MESSAGE)
            except TimeoutError:
                raise subprocess.TimeoutExpired(["lanparty"], timeout or 0) from None
            self._ended(data)
        return self.returncode  # type: ignore[return-value]

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Read stdout and stderr to their ends, then wait; both texts. Raises
        :class:`subprocess.TimeoutExpired` past ``timeout`` seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        texts: dict[int, list[bytes]] = {}
        with selectors.DefaultSelector() as selector:
            for stream in (self.stdout, self.stderr):
                if not stream.closed:
                    selector.register(stream.fileno(), selectors.EVENT_READ)
                    texts[stream.fileno()] = []
            while selector.get_map():
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise subprocess.TimeoutExpired(["lanparty"], timeout or 0)
                for key, _ in selector.select(left):
                    chunk = os.read(int(key.fd), 65536)
                    if chunk:
                        texts[int(key.fd)].append(chunk)
                    else:
                        selector.unregister(key.fd)
        out, err = (b"".join(texts.get(s.fileno(), [])).decode() if not s.closed else ""
                    for s in (self.stdout, self.stderr))  # fmt: skip
        self.stdout.close()
        self.stderr.close()
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        self.wait(left)
        return out, err

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` unless the child is known to have ended."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # ended, not yet reaped
                signal.pidfd_send_signal(self._pidfd, sig)

    def kill(self) -> None:
        """SIGKILL."""
        self.send_signal(signal.SIGKILL)


def start_sync(args: list[str], env: dict[str, str]) -> SyncForked:
    """Fork ``lanparty ARGS`` as :func:`start` does, for a test without trio (stdin from
    /dev/null, stdout and stderr as text files)."""
    mine, (out, err) = _request(args, env, False)
    data, ancdata, _flags, _addr = mine.recvmsg(_MAX_MESSAGE, socket.CMSG_SPACE(16))
    return SyncForked(*_started(data, ancdata), mine, out, err)


if __name__ == "__main__":
    main()

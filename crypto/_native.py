"""Loading the libsodium that ``rbcl`` bundles, from a file no other user can reach.

rbcl ships libsodium as a hex string inside ``rbcl/_sodium.py``. Imported as it is, that module
writes the library to ``tempfile.NamedTemporaryFile`` and loads it again by its path: with
``TMPDIR`` set to a folder that others may write to and that lacks the sticky bit, another
local user can rename or replace the file (or a folder on its path) between the write and the
load, and run code in this process. So the library is read out of rbcl's module here, without
running it, and loaded

1. from an anonymous in-memory file (Linux ``memfd_create``), sealed against writes and opened
   through ``/proc/self/fd``: it has no name in any folder, so there is nothing to race for;
2. else from a fresh private folder (``mkdtemp``: mode 0700, ours) made in
   ``$XDG_RUNTIME_DIR`` or the user's cache folder, never in ``TMPDIR``, and only where no
   folder on the way lets another user rename what it holds (one writable by others without
   the sticky bit would let them move our folder away and put theirs in its place). The file
   is created exclusively, loaded by its path (which nobody else can change) and removed with
   its folder right after.

Then rbcl itself is imported with that copy registered as its ``_sodium`` module (as
``rbcl._sodium``, and, while rbcl loads, as ``_sodium``, the name rbcl tries first): it
initialises libsodium, and any ``import rbcl`` in the process uses this copy and writes
nothing.
"""

from __future__ import annotations

import binascii
import contextlib
import ctypes
import importlib
import importlib.util
import os
import stat
import sys
import tempfile
import types
from pathlib import Path

__all__ = ["bundled_library", "load", "load_from_folder", "load_from_memory", "load_library"]

_NAME = "lanparty-libsodium"
_FILE = "libsodium.dll" if sys.platform == "win32" else "libsodium.so"
_HEX_START = b"bytes.fromhex('"
_PROC_FD = "/proc/self/fd"


def bundled_library() -> bytes:
    """The libsodium binary that rbcl bundles, read from ``rbcl/_sodium.py`` without running
    it. Raises ``ImportError`` if rbcl is missing or its module holds no library."""
    spec = importlib.util.find_spec("rbcl")  # finds the package without importing it
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    sources = [Path(f) / "_sodium.py" for f in folders if (Path(f) / "_sodium.py").is_file()]
    if not sources:
        raise ImportError("rbcl is not installed (pip install rbcl): it bundles libsodium")
    text = sources[0].read_bytes()
    start = text.find(_HEX_START)
    end = text.find(b"'", start + len(_HEX_START)) if start >= 0 else -1
    try:
        if end < 0:
            raise ValueError("no bundled library in it")
        data = binascii.unhexlify(memoryview(text)[start + len(_HEX_START) : end])
    except (ValueError, binascii.Error) as exc:
        raise ImportError(f"cannot read the libsodium bundled in {sources[0]}: {exc}") from None
    if sys.platform.startswith("linux") and not data.startswith(b"\x7fELF"):
        raise ImportError(f"the libsodium bundled in {sources[0]} is not a Linux library")
    return data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _mapped_from(lib: ctypes.CDLL, fd: int) -> bool:
    """True if ``lib``'s code is mapped from the file open as ``fd``. (dlopen hands back a
    library loaded earlier under the same name without opening the file, and a descriptor's
    number, and so its ``/proc/self/fd`` name, is used again once closed.)"""
    st = os.fstat(fd)
    addr = ctypes.cast(lib.sodium_init, ctypes.c_void_p).value or 0
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split(maxsplit=5)
            lo, hi = (int(x, 16) for x in fields[0].split("-"))
            if lo <= addr < hi:
                major, minor = (int(x, 16) for x in fields[3].split(":"))
                return int(fields[4]) == st.st_ino and os.makedev(major, minor) == st.st_dev
    return False


def load_from_memory(data: bytes) -> ctypes.CDLL:
    """Load ``data`` from an anonymous memory file, sealed before it is loaded (so the mapped
    library is exactly ``data``). Raises ``OSError`` where that is not possible."""
    if not hasattr(os, "memfd_create") or not os.path.isdir(_PROC_FD):
        raise OSError("no anonymous memory files here")
    fd = os.memfd_create(_NAME, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    try:
        _write_all(fd, data)
        import fcntl  # POSIX only: imported where memfd_create exists

        seals = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
        lib = ctypes.CDLL(f"{_PROC_FD}/{fd}")
        if not _mapped_from(lib, fd):
            raise OSError(f"{_PROC_FD}/{fd} names a library loaded before")
        return lib
    finally:
        os.close(fd)  # the mapping keeps the file alive


def _others_can_rename_in(path: Path) -> bool:
    """True if a user other than us (and root) could rename entries of ``path`` or of a folder
    above it: one not owned by us or root, or writable by group or others without the sticky
    bit."""
    if not hasattr(os, "getuid"):
        return False  # no POSIX owners: the user's own folders are taken as private
    uid = os.getuid()
    for folder in [path, *path.parents]:
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid not in (uid, 0):
            return True
        if st.st_mode & 0o022 and not st.st_mode & stat.S_ISVTX:
            return True
    return False


def load_from_folder(data: bytes, parent: Path) -> ctypes.CDLL:
    """Load ``data`` from a fresh private folder (mode 0700) made in ``parent``, removed again
    before this returns. Raises ``OSError`` if ``parent`` or a folder above it lets another
    user rename its entries, or if the library cannot be written or loaded there."""
    parent = Path(os.path.realpath(parent))
    if _others_can_rename_in(parent):
        raise OSError(f"{parent} is not private: another user could rename what it holds")
    # Nobody else can add, rename or replace an entry of this folder (ours, 0700), nor move
    # it (no folder above lets them): the path names the file we write until we remove it.
    folder = tempfile.mkdtemp(prefix=_NAME + "-", dir=parent)
    path = os.path.join(folder, _FILE)
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o700)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        return ctypes.CDLL(path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.rmdir(folder)


def _private_parents() -> list[Path]:
    """Where a private folder may be made: ``$XDG_RUNTIME_DIR``, then the user's cache folder
    (``$XDG_CACHE_HOME``, else ``~/.cache``, made if missing). Never ``TMPDIR``."""
    out = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        out.append(Path(runtime))
    cache = os.environ.get("XDG_CACHE_HOME")
    cache_path = Path(cache) if cache and os.path.isabs(cache) else Path.home() / ".cache"
    with contextlib.suppress(OSError):
        cache_path.mkdir(mode=0o700, parents=True, exist_ok=True)
    out.append(cache_path)
    return out


def _register(lib: ctypes.CDLL) -> None:
    """Make ``lib`` rbcl's ``_sodium`` module, then import rbcl (it initialises libsodium)."""
    module = types.ModuleType("rbcl._sodium", "libsodium as bundled by rbcl, loaded by crypto")
    module._sodium = lib  # type: ignore[attr-defined]
    sys.modules["rbcl._sodium"] = module
    # rbcl tries a top-level ``_sodium`` first (a file of that name in the current folder would
    # run): it finds this copy instead, and the name is given back once rbcl is loaded.
    before = sys.modules.get("_sodium")
    sys.modules["_sodium"] = module
    try:
        importlib.import_module("rbcl")
    finally:
        if before is None:
            del sys.modules["_sodium"]
        else:
            sys.modules["_sodium"] = before


def load_library(data: bytes, *, memory: bool = True) -> ctypes.CDLL:
    """Load ``data`` from memory (unless ``memory`` is false: tests) or else from a private
    folder (see the module docstring). Raises ``ImportError`` saying what to do if neither
    works."""
    failures = []
    if memory:
        try:
            return load_from_memory(data)
        except OSError as exc:
            failures.append(f"from memory: {exc}")
    for parent in _private_parents():
        try:
            return load_from_folder(data, parent)
        except OSError as exc:
            failures.append(f"in {parent}: {exc}")
    raise ImportError(
        "cannot load libsodium's ristretto255 (bundled by rbcl): "
        + "; ".join(failures)
        + ". It is loaded from memory where the system allows it, else from a private folder "
        "made in $XDG_RUNTIME_DIR or the user's cache folder (never TMPDIR): set "
        "XDG_RUNTIME_DIR to a folder of yours (mode 0700) on a file system that allows "
        "programs to run (not mounted noexec)"
    )


def load() -> ctypes.CDLL:
    """rbcl's libsodium, loaded without a temporary file (:func:`load_library`) and
    initialised; rbcl is imported with it. Raises ``ImportError`` saying what to do if it
    cannot be loaded."""
    rbcl = sys.modules.get("rbcl.rbcl")
    if rbcl is not None:  # imported before us: its copy is loaded and initialised already
        lib: ctypes.CDLL = rbcl._sodium
        return lib
    lib = load_library(bundled_library())
    _register(lib)
    return lib

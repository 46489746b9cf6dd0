"""rbcl's libsodium is never written to, nor loaded from, the folder ``TMPDIR`` names: it is
loaded from memory, or else from a fresh private folder, and nothing is left behind.

Where the library was loaded from is read in ``/proc/self/maps`` (the mapping that holds
libsodium's code); that nothing was ever created in a folder is read from its modification
time, set to zero first: creating or removing an entry sets it to the present."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from crypto import G, _native

#: Run in a child: where the libsodium that crypto uses is mapped from, and what the child
#: sees of its TMPDIR. (``rbcl.rbcl._sodium`` is the library crypto uses, then and now.)
CHILD = r"""
import ctypes, json, os, sys
import crypto
assert (crypto.G * 3) == crypto.base_mul(3)
fn = sys.modules["rbcl.rbcl"]._sodium.crypto_core_ristretto255_add
addr = ctypes.cast(fn, ctypes.c_void_p).value
lib = None
for line in open("/proc/self/maps"):
    fields = line.split(maxsplit=5)
    lo, hi = (int(x, 16) for x in fields[0].split("-"))
    if lo <= addr < hi:
        lib = fields[5].strip() if len(fields) > 5 else ""
tmp = os.environ["TMPDIR"]  # (tempfile.gettempdir() would write a file there to try it)
print(json.dumps({"lib": lib, "in_tmp": sorted(os.listdir(tmp))}))
"""


def _mapped_path(fn: object) -> str:
    """The file ``/proc/self/maps`` names for the mapping that holds function ``fn``."""
    addr = ctypes.cast(fn, ctypes.c_void_p).value
    assert addr is not None
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        lo, hi = (int(x, 16) for x in fields[0].split("-"))
        if lo <= addr < hi:
            return fields[5] if len(fields) > 5 else ""
    raise AssertionError("the function is in no mapping")


def _shared(path: Path, mode: int = 0o777) -> Path:
    """A folder every user may write in (without the sticky bit unless ``mode`` says so),
    its modification time set to zero."""
    path.mkdir()
    path.chmod(mode)
    os.utime(path, ns=(0, 0))
    return path


def _untouched(path: Path) -> bool:
    return list(path.iterdir()) == [] and path.stat().st_mtime_ns == 0


def test_the_library_is_never_written_or_loaded_where_tmpdir_points(tmp_path: Path) -> None:
    shared = _shared(tmp_path / "shared")
    env = {**os.environ, "TMPDIR": str(shared)}
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True,
                         text=True, timeout=60, check=True)  # fmt: skip
    got = json.loads(out.stdout)
    assert got["lib"].startswith("/memfd:lanparty-libsodium"), got["lib"]
    assert got["in_tmp"] == [] and _untouched(shared)


def test_the_fallback_loads_from_a_fresh_private_folder_and_removes_it(tmp_path: Path) -> None:
    parent = tmp_path / "private"
    parent.mkdir(mode=0o700)
    lib = _native.load_from_folder(_native.bundled_library(), parent)
    where = Path(_mapped_path(lib.crypto_core_ristretto255_add).removesuffix(" (deleted)"))
    assert where.parent.parent == parent.resolve()  # <parent>/<its own folder>/libsodium.so
    assert where.parent.name.startswith("lanparty-libsodium-") and where.name == "libsodium.so"
    assert list(parent.iterdir()) == []


def test_a_library_loaded_before_under_the_same_name_is_told_apart(tmp_path: Path) -> None:
    # dlopen returns a library already loaded under the name it is given without opening the
    # file, and /proc/self/fd/N names whatever N is now: the memory loader checks that the
    # library's code is mapped from the file it wrote.
    path = tmp_path / "libsodium-copy.so"
    path.write_bytes(_native.bundled_library())
    lib = ctypes.CDLL(str(path))
    mine, other = os.open(path, os.O_RDONLY), os.memfd_create("other")
    try:
        assert _native._mapped_from(lib, mine)
        assert not _native._mapped_from(lib, other)
    finally:
        os.close(mine)
        os.close(other)


@pytest.mark.parametrize(
    ("mode", "private"),
    [(0o777, False), (0o770, False), (0o757, False), (0o1777, True), (0o755, True)],
)
def test_no_folder_is_used_inside_one_where_others_could_rename_it(
    tmp_path: Path, mode: int, private: bool
) -> None:
    # Our own 0700 folder inside a folder others may write to without the sticky bit can be
    # renamed away and replaced by theirs: it is not used. With the sticky bit it is safe.
    outer = _shared(tmp_path / "outer", mode)
    mine = outer / "mine"
    mine.mkdir(mode=0o700)
    os.utime(mine, ns=(0, 0))
    os.utime(outer, ns=(0, 0))
    if private:
        _native.load_from_folder(_native.bundled_library(), mine)
        assert list(mine.iterdir()) == []
    else:
        with pytest.raises(OSError, match="not private"):
            _native.load_from_folder(_native.bundled_library(), mine)
        assert _untouched(mine)
    assert list(outer.iterdir()) == [mine]


def test_an_import_of_rbcl_after_crypto_uses_the_same_copy() -> None:
    import rbcl  # type: ignore[import-untyped]

    from crypto._group import _lib

    assert sys.modules["rbcl.rbcl"]._sodium is _lib
    assert rbcl.crypto_core_ristretto255_is_valid_point(G.encode())
    # the top-level name rbcl looks for first was only lent while rbcl loaded
    assert sys.modules.get("_sodium") is not sys.modules["rbcl._sodium"]


NOEXEC = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="mounting a noexec folder needs root and unshare",
)


def _in_noexec_mount(
    mnt: Path, mode: str, script: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a child whose mount namespace has a noexec tmpfs (root mode ``mode``)
    at ``mnt``; gone with the child."""
    mnt.mkdir()
    shell = f'mount -t tmpfs -o noexec,mode={mode} none "{mnt}" && exec "{sys.executable}" -c "$0"'
    return subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", shell, script],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@NOEXEC
def test_a_noexec_world_writable_tmpdir_does_not_matter(tmp_path: Path) -> None:
    mnt = tmp_path / "noexec"
    run = _in_noexec_mount(mnt, "0777", CHILD, TMPDIR=str(mnt))
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["in_tmp"] == []
    assert got["lib"].startswith("/memfd:lanparty-libsodium")


@NOEXEC
def test_when_no_private_folder_allows_programs_the_error_says_what_to_do(
    tmp_path: Path,
) -> None:
    mnt = tmp_path / "noexec"
    script = (
        "from crypto import _native\n"
        "try:\n"
        "    _native.load_library(_native.bundled_library(), memory=False)\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    run = _in_noexec_mount(mnt, "0700", script, XDG_RUNTIME_DIR=str(mnt),
                           XDG_CACHE_HOME=str(mnt))  # fmt: skip
    assert run.returncode == 0, run.stderr
    message = run.stdout
    assert f"in {mnt}:" in message  # what was tried, and why it failed
    assert "set XDG_RUNTIME_DIR to a folder of yours (mode 0700)" in message
    assert "not mounted noexec" in message and "never TMPDIR" in message

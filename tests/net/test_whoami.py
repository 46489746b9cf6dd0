"""Who a process is: one live process of a data directory signs with the persistent key, the
others with one-off keys; default names are the login name, then ``NAME 2``, … while the
first process lives (a person's process named with ``--nick`` counts too); a number comes
free when its process ends."""

from __future__ import annotations

import getpass
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanparty.store import load_identity
from lanparty.table import whoami

# A second process of the same data directory (a person's, named argv[2] if given): takes
# its key and name, says them, waits.
_OTHER = """
import sys
from pathlib import Path
from lanparty.table.whoami import claim_identity, nick_for
identity, persistent = claim_identity(Path(sys.argv[1]))
nick = nick_for(sys.argv[2] or None, base=Path(sys.argv[1]))
print(identity.public.fingerprint, persistent, nick, flush=True)
sys.stdin.readline()
"""


@pytest.fixture(params=["", "Bo"], ids=["default name", "named Bo"])
def other(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, str, str]]:
    """Another live process of ``tmp_path``'s data directory, and what it was given."""
    proc = subprocess.Popen([sys.executable, "-c", _OTHER, str(tmp_path), request.param],
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    fingerprint, persistent, nick = proc.stdout.readline().split(" ", 2)
    assert persistent == "True"
    yield fingerprint, persistent, nick.strip()
    proc.communicate("\n", timeout=10)


def test_a_second_process_gets_a_one_off_key_and_a_numbered_name(
    tmp_path: Path, other: tuple[str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(whoami, "_identities", {})
    monkeypatch.setattr(whoami, "_slots", {})
    fingerprint, _, nick = other
    assert fingerprint == load_identity(tmp_path).public.fingerprint  # the persistent key
    assert nick in (whoami.login_name(), "Bo")
    identity, persistent = whoami.claim_identity(tmp_path)
    assert not persistent and identity.public.fingerprint != fingerprint
    assert whoami.default_nick(tmp_path) == f"{whoami.login_name()} 2"
    # One process keeps one key and one name.
    assert whoami.claim_identity(tmp_path) == (identity, False)
    assert whoami.default_nick(tmp_path) == f"{whoami.login_name()} 2"


def test_the_key_and_the_first_name_come_free_when_their_process_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proc = subprocess.run([sys.executable, "-c", _OTHER, str(tmp_path), ""], input="\n",
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    fingerprint = proc.stdout.split()[0]
    monkeypatch.setattr(whoami, "_identities", {})
    monkeypatch.setattr(whoami, "_slots", {})
    identity, persistent = whoami.claim_identity(tmp_path)
    assert persistent and identity.public.fingerprint == fingerprint
    assert whoami.default_nick(tmp_path) == whoami.login_name()


@pytest.mark.parametrize(
    ("login", "name"),
    [("ana", "ana"), ("  ana\tb  ", "ana b"), ("x" * 40, "x" * 24), ("\x1b", "player")],
)
def test_the_login_name_is_made_a_player_name(
    monkeypatch: pytest.MonkeyPatch, login: str, name: str
) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: login)
    assert whoami.login_name() == name


def test_no_login_name_at_all_reads_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def unknown() -> str:
        raise KeyError("getpwuid(): uid not found: 4242")

    monkeypatch.setattr(getpass, "getuser", unknown)
    assert whoami.login_name() == "player"


def test_a_bot_with_a_name_takes_no_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(whoami, "_slots", {})
    assert whoami.nick_for("Bea", bot=True, base=tmp_path) == "Bea"
    assert not whoami._slots  # the bots a command starts leave the numbers to people
    assert whoami.nick_for(None, bot=True, base=tmp_path) == whoami.login_name()

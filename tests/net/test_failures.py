"""Things going wrong at a table of real processes on loopback: a full table, a host that
speaks another protocol version, the host vanishing mid-game, a bot killed mid-game. Each
ends in a clear message naming what happened, no traceback, and the transcript saved."""

from __future__ import annotations

import json
import re
import signal
import socket
import struct
import threading

import pytest

from lanparty.commands.main import main
from protocol import PROTOCOL_VERSION
from protocol._codec import pack

from .conftest import Table


def test_joining_a_full_table_is_refused_clearly(table: Table) -> None:
    endpoint = table.host("--seats", "2")  # a whole game to 500: still running when late comes
    table.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann")
    table.until("host", "seats fixed")
    table.start("late", "join", "--bot", "--connect", endpoint, "--nick", "late")
    code, _, err = table.finish("late")
    assert code == 1
    assert "could not join: the table is full (2 of 2 seats taken)" in err
    assert "Traceback" not in err and table.transcripts("late") == []  # no game of ours
    # The game itself goes on undisturbed.
    assert table.procs["host"].poll() is None and table.procs["ann"].poll() is None


def _foreign_host(reply: dict[str, object]) -> tuple[int, threading.Thread]:
    """A TCP server on loopback that answers one connection with ``reply`` as a frame."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        with server:
            conn, _ = server.accept()
            with conn:
                payload = pack(reply)
                conn.sendall(struct.pack(">I", len(payload)) + payload)
                conn.recv(1024)  # until the peer hangs up

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return port, thread


def test_a_host_speaking_another_protocol_version_is_named(table: Table) -> None:
    port, thread = _foreign_host({"v": PROTOCOL_VERSION + 1, "type": "challenge"})
    table.start("ann", "join", "--bot", "--connect", f"127.0.0.1:{port}", "--nick", "ann")
    code, _, err = table.finish("ann")
    thread.join(timeout=10)
    assert code == 1
    other = PROTOCOL_VERSION + 1
    assert (f"could not join: incompatible protocol: the peer speaks lanparty protocol version "
            f"{other}, this program speaks version {PROTOCOL_VERSION}") in err  # fmt: skip
    assert "Traceback" not in err and table.transcripts("ann") == []


def test_the_host_vanishing_mid_game_stops_every_peer(table: Table) -> None:
    endpoint = table.host("--seats", "3")
    for nick in ("ann", "bob"):
        table.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick, "--json",
                    "--grace", "1")  # fmt: skip
    for who in ("host", "ann", "bob"):  # every peer seated
        table.until(who, "seats fixed")
    table.procs["host"].send_signal(signal.SIGKILL)
    for nick in ("ann", "bob"):
        code, out, err = table.finish(nick)
        assert code == 1 and "Traceback" not in err
        assert "Lost the connection to the host; reconnecting (up to 1 s)" in err, out + err
        result = json.loads(out)
        assert not result["audit_ok"]
        assert result["stopped"] == "the host vanished and did not come back within 1 s"
        assert [str(p) for p in table.transcripts(nick)] == [result["transcript"]]


@pytest.mark.parametrize(
    ("grace", "what"),
    [("0", "left the table"), ("1.5", "lost the connection and did not come back within 1.5 s")],
)
def test_a_bot_killed_mid_game_is_named_to_everyone(
    table: Table, grace: str, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint = table.host("--seats", "3", "--json", "--grace", grace)
    for nick in ("ann", "bob"):
        table.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick, "--json")
    table.until("host", "seats fixed")
    table.procs["bob"].send_signal(signal.SIGKILL)
    code, out, err = table.finish("host")
    assert code == 1 and "Traceback" not in err
    host = json.loads(out)
    bob = f"bob (seat {host['names'].index('bob')}) {what}"  # seats go by arrival
    assert bob in host["stopped"]
    assert table.transcripts("host")
    # Its audit: incomplete, not failed; where it stopped, and whose entry was due (exit 3).
    assert main(["audit", host["transcript"]]) == 3
    lines = capsys.readouterr().out.strip().splitlines()
    n = int(next(line for line in lines if line.startswith("entries ")).split()[1])
    names = "|".join(host["names"])
    assert re.fullmatch(
        rf"incomplete: stopped at entry {n}, waiting for ({names}) \(seat \d\)'s "
        r"[a-z -]+; everything up to there verified",
        lines[-1],
    ), lines[-1]
    code, out, err = table.finish("ann")
    assert code == 1 and "Traceback" not in err
    ann = json.loads(out)
    assert f"the host stopped the table: {bob}" in ann["stopped"]
    assert [str(p) for p in table.transcripts("ann")] == [ann["transcript"]]


def test_a_table_opened_by_another_key_than_announced_is_not_joined(table: Table) -> None:
    endpoint = table.host("--seats", "2", "--option", "rounds=1")
    table.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann",
                "--host-key", "0000-0000-0000-0000")  # fmt: skip
    code, _, err = table.finish("ann")
    assert code == 1 and "Traceback" not in err and table.transcripts("ann") == []
    # Said as what happened, not as the host's fault: it broke nothing.
    assert (f"could not join: this table's host key is not the one you gave: the table at "
            f"{endpoint} is opened by ") in err  # fmt: skip
    assert ", not 0000-0000-0000-0000 (a wrong key, or someone else answers at that address)" in err
    assert "broke the protocol" not in err
    # We left before our join went out: the host still waits, for someone else.
    table.start("bo", "join", "--bot", "--connect", endpoint, "--nick", "bo", "--json")
    code, out, _ = table.finish("bo")
    assert code == 0 and json.loads(out)["names"] == ["hugo", "bo"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--connect", "127.0.0.1:1"], "cannot connect to 127.0.0.1:1"),
        (["nosuchtable", "--local", "--timeout", "1"], "no open table 'nosuchtable' found"),
    ],
)
def test_a_person_joining_nowhere_gets_one_line_and_no_table_screen(
    table: Table, args: list[str], message: str
) -> None:
    table.start("ann", "join", "--nick", "ann", *args)
    code, out, err = table.finish("ann")
    assert code == 2 and message in err and "Traceback" not in err
    assert "lanparty · kato" not in out + err  # the table screen never opened


def test_a_restarted_bot_takes_its_seat_back_and_the_game_completes(table: Table) -> None:
    endpoint = table.host("--seats", "3", "--json", "--grace", "60", "--option", "rounds=2")
    for nick in ("ann", "bob"):
        table.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick, "--json")
    for who in ("host", "bob"):
        table.until(who, "seats fixed")
    table.procs["bob"].send_signal(signal.SIGKILL)
    table.procs["bob"].communicate()
    table.until("host", "bob lost the connection; waiting up to 60 s")
    saved = list((table.tmp / "bob" / "seats").glob("*.json"))
    assert len(saved) == 1 and saved[0].stat().st_mode & 0o777 == 0o600
    table.start("bob2", "join", "--bot", "--resume", "--json", home_of="bob")
    table.until("host", "bob is back")
    results = {}
    for who in ("host", "ann", "bob2"):
        code, out, err = table.finish(who)
        assert code == 0 and "Traceback" not in err, out + err
        results[who] = json.loads(out)
    assert all(r["audit_ok"] and not r["stopped"] for r in results.values()), results
    assert results["bob2"]["names"] == results["host"]["names"]
    assert not list((table.tmp / "bob" / "seats").glob("*.*"))  # forgotten at the end
    kept = [p.read_bytes() for who in ("host", "ann") for p in table.transcripts(who)]
    resumed = [p.read_bytes() for p in table.transcripts("bob")]
    assert len(set(kept)) == 1 and resumed == kept[:1]


def test_resume_without_a_saved_seat_says_so(table: Table) -> None:
    table.start("ann", "join", "--bot", "--resume")
    code, _, err = table.finish("ann")
    assert code == 2 and "no saved seat to resume" in err and "Traceback" not in err


def test_a_restarted_host_restores_the_table_and_the_game_completes(table: Table) -> None:
    endpoint = table.host("--seats", "3", "--json", "--option", "rounds=2")
    for nick in ("ann", "bob"):
        table.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick, "--json",
                    "--grace", "60")  # fmt: skip
    for who in ("host", "ann", "bob"):
        table.until(who, "seats fixed")
    table.procs["host"].send_signal(signal.SIGKILL)
    table.procs["host"].communicate()
    journals = list((table.tmp / "host" / "seats").glob("*.journal"))
    assert len(journals) == 1 and journals[0].stat().st_mode & 0o777 == 0o600
    table.start("host2", "host", "--bot", "--resume", "--json", home_of="host")
    results = {}
    for who in ("host2", "ann", "bob"):
        code, out, err = table.finish(who)
        assert code == 0 and "Traceback" not in err, out + err
        results[who] = json.loads(out)
    assert all(r["audit_ok"] and not r["stopped"] for r in results.values()), results
    assert results["host2"]["names"] == results["ann"]["names"]
    assert results["host2"]["names"][0] == "hugo" and len(results["host2"]["names"]) == 3
    assert not list((table.tmp / "host" / "seats").iterdir())  # forgotten at the end
    saved = [p.read_bytes() for who in ("host", "ann", "bob") for p in table.transcripts(who)]
    assert len(saved) == 3 and len(set(saved)) == 1

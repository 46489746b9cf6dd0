"""A join the table refuses, as real ``lanparty join`` processes on loopback meet it: each
refusal is said in one line that begins with what happened (no key's fingerprint first), the
program ends with a clear status, and no transcript is kept (there was no game of ours). A
join the host holds for its yes (``--approve``) is told that it waits, and for whom.

The hosts are real ``lanparty host`` processes, but for ``--approve`` (a person's yes): that
host is the real ``HostServer`` and protocol ``Host`` in this process, answering as the
host's ``approve N`` / ``deny N`` do."""

from __future__ import annotations

import re
from pathlib import Path

import trio

from crypto import Identity
from lanparty.games import GAMES
from lanparty.games.bots import bots_for
from lanparty.net.server import HostServer
from lanparty.table.botseat import BotDriver
from protocol import Host

from .conftest import Table
from .procs import table as processes

FINGERPRINT = re.compile(r"^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}\b")


def _no_transcript(home: Path) -> None:
    """Nothing kept in ``home``: no transcript, no seat to resume."""
    assert not list(home.glob("transcripts/*")), list(home.glob("transcripts/*"))
    assert not list(home.glob("seats/*"))


def test_a_name_taken_at_the_table_is_refused_in_one_line_and_nothing_is_kept(
    table: Table,
) -> None:
    endpoint = table.host("--seats", "3")  # hugo
    table.start("bo", "join", "--bot", "--connect", endpoint, "--nick", "Hugo")
    code, out, err = table.finish("bo")
    assert code == 1 and "Traceback" not in err and out == ""
    assert err.splitlines()[-1] == "could not join: the name 'Hugo' is already taken at this table"
    _no_transcript(table.tmp / "bo")
    # With --json, the summary says it too, for scripts (in English), with no transcript.
    table.start("cy", "join", "--bot", "--connect", endpoint, "--nick", "HUGO", "--json")
    code, out, err = table.finish("cy")
    assert code == 1 and '"refused": "the name \'HUGO\' is already taken at this table"' in out
    assert '"transcript": ""' in out
    _no_transcript(table.tmp / "cy")


def test_a_person_refused_gets_one_line_and_no_table_screen(table: Table) -> None:
    """Not a terminal to ask another name at: the refusal is the one line, status 2."""
    endpoint = table.host("--seats", "3")
    table.start("bo", "join", "--connect", endpoint, "--nick", "hugo")
    code, out, err = table.finish("bo")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1] == ("lanparty join: error: could not join: the name 'hugo' is "
                                    "already taken at this table")  # fmt: skip
    assert "lanparty · kato" not in out + err and "waiting>" not in out  # no table screen
    _no_transcript(table.tmp / "bo")


def test_a_wrong_host_key_is_said_as_what_happened_not_as_the_hosts_fault(table: Table) -> None:
    endpoint = table.host("--seats", "2")
    table.start("bo", "join", "--bot", "--connect", endpoint, "--nick", "bo",
                "--host-key", "AAAA-BBBB-CCCC-DDDD")  # fmt: skip
    code, _, err = table.finish("bo")
    assert code == 1 and "Traceback" not in err
    line = err.splitlines()[-1]
    assert line.startswith(f"could not join: this table's host key is not the one you gave: "
                           f"the table at {endpoint} is opened by ")  # fmt: skip
    assert line.endswith(", not AAAA-BBBB-CCCC-DDDD (a wrong key, or someone else answers at "
                         "that address)")  # fmt: skip
    assert "broke the protocol" not in err and "announced" not in err
    _no_transcript(table.tmp / "bo")


def test_every_refusal_leaves_nothing_behind_and_begins_with_words(table: Table) -> None:
    """A full table, a game already started, another protocol version: each one line,
    "could not join: …", and no file."""
    endpoint = table.host("--seats", "2")
    table.start("ann", "join", "--bot", "--connect", endpoint, "--nick", "ann")
    table.until("host", "seats fixed")
    table.start("late", "join", "--bot", "--connect", endpoint, "--nick", "late")
    code, _, err = table.finish("late")
    assert code == 1 and err.splitlines()[-1] in (
        "could not join: the table is full (2 of 2 seats taken)",
        "could not join: the game has started; the table takes no more players",
    )
    _no_transcript(table.tmp / "late")
    # A wrong key is said first, whatever else is wrong with the table (it is full, and its
    # game has started): the host's challenge says whose table it is.
    table.start("lost", "join", "--bot", "--connect", endpoint, "--nick", "lost",
                "--host-key", "AAAA-BBBB-CCCC-DDDD")  # fmt: skip
    code, _, err = table.finish("lost")
    assert code == 1 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(
        f"could not join: this table's host key is not the one you gave: the table at "
        f"{endpoint} is opened by ")  # fmt: skip
    assert "full" not in err and "started" not in err
    _no_transcript(table.tmp / "lost")


def test_a_wrong_key_is_said_before_a_watch_refused(table: Table) -> None:
    endpoint = table.host("--seats", "3", "--no-spectators")
    table.start("eve", "watch", "--connect", endpoint, "--host-key", "AAAA-BBBB-CCCC-DDDD")
    code, _, err = table.finish("eve")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(
        "lanparty watch: error: could not watch: this table's host key is not the one you "
        f"gave: the table at {endpoint} is opened by ")  # fmt: skip
    assert "spectators" not in err
    _no_transcript(table.tmp / "eve")


async def test_a_join_held_for_the_hosts_yes_is_told_so_and_then_told_no(tmp_path: Path) -> None:
    """A host with --approve: the joiner is told it waits for Ann to let it in; Ann's
    ``deny`` is told as such (no transcript), Ann's ``approve`` seats the next one."""
    host = Host(Identity(), "Ann", GAMES, "kato", {"rounds": 1}, 3)
    host.approve_joins = True
    server = HostServer(host, BotDriver(bots_for("kato")["heuristic"](), 0, react=0),
                        lambda event: None)  # fmt: skip
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    endpoint = f"127.0.0.1:{listeners[0].socket.getsockname()[1]}"
    async with processes(tmp_path) as t:
        t.nursery.start_soon(server.serve, listeners)
        await t.start("bo", "join", "--bot", "--connect", endpoint, "--nick", "Bo")
        await t.until("bo", "waiting for Ann to let you in… (Ctrl-C gives up)")
        [(number, name, _key)] = host.asking()
        assert name == "Bo"
        host.turn_away(number)  # as the host's ``deny N``
        server.poke()
        await t.procs["bo"].wait()
        assert t.procs["bo"].returncode == 1
        assert t.err["bo"][-1] == "could not join: the host did not let you in"
        _no_transcript(tmp_path / "bo")
        await t.start("cy", "join", "--bot", "--connect", endpoint, "--nick", "Cy")
        await t.until("cy", "waiting for Ann to let you in…")
        [(number, name, _key)] = host.asking()
        host.let_in(number)  # as the host's ``approve N``
        server.poke()
        await t.until("cy", "seat 1: Cy joined")
    assert not any(FINGERPRINT.match(line) for who in ("bo", "cy") for line in t.err[who])


def test_a_stop_says_who_did_what_first(table: Table) -> None:
    """A seat that leaves stops the table: every other peer says so beginning with the
    words ("the host stopped the table: bob (seat 2) left the table"), not a key."""
    endpoint = table.host("--seats", "3", "--json", "--grace", "0")
    for nick in ("ann", "bob"):
        table.start(nick, "join", "--bot", "--connect", endpoint, "--nick", nick)
    for who in ("host", "ann", "bob"):
        table.until(who, "seats fixed")
    table.procs["bob"].kill()
    code, _, err = table.finish("ann")
    assert code == 1 and "Traceback" not in err
    line = err.splitlines()[-1]
    # (While bob owed a protocol entry, the host may be the one withholding it: both named.)
    assert re.fullmatch(r"the game stopped: the host stopped the table: bob \(seat \d\) left "
                        r"the table(; either bob \(seat \d\) or the host withheld it)? "
                        r"\(transcript: .+\.lptx\)", line), line  # fmt: skip
    code, out, err = table.finish("host")
    assert code == 1 and re.search(r'"stopped": "bob \(seat \d\) left the table"', out), out


def test_a_watch_refused_is_one_line_with_no_screen_and_no_transcript(table: Table) -> None:
    endpoint = table.host("--seats", "3", "--no-spectators")
    table.start("eve", "watch", "--connect", endpoint)
    code, out, err = table.finish("eve")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1] == ("lanparty watch: error: could not watch: this table takes "
                                    "no spectators")  # fmt: skip
    assert "lanparty · kato" not in out + err  # no table screen
    _no_transcript(table.tmp / "eve")
    # Another key than the one asked for: said as such; nothing of that table is kept.
    table.start("open", "host", "kato", "--bot", "--local", "--nick", "olga", "--seats", "3")
    endpoint = table.until("open", "table ").split(" on ")[1].split(" ")[0]
    table.start("ivy", "watch", "--connect", endpoint, "--host-key", "AAAA-BBBB-CCCC-DDDD",
                "--json")  # fmt: skip
    code, out, err = table.finish("ivy")
    assert code == 1 and "Traceback" not in err
    assert "this table's host key is not the one you gave: " in out
    assert ", not AAAA-BBBB-CCCC-DDDD (a wrong key" in out
    _no_transcript(table.tmp / "ivy")


def test_a_seat_taken_back_from_a_host_that_is_gone_is_one_line_and_stays_kept(
    table: Table,
) -> None:
    """``join --resume`` when nobody listens at the table's address: one line, no table
    screen; the seat is kept (a host restarted with --resume comes back there; the lobby
    forgets the seat once it sees the table is over)."""
    import socket

    from crypto import KeyShare, SealKey
    from lanparty.store import SavedSeat, save_seat

    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead = f"127.0.0.1:{closed.getsockname()[1]}"
    closed.close()
    home = table.tmp / "bo"
    home.mkdir()
    save_seat(SavedSeat.of(b"\x07" * 16, "Bo", dead, (Identity(), KeyShare(), SealKey())),
              base=home)  # fmt: skip
    table.start("bo", "join", "--resume", home_of="bo")
    code, out, err = table.finish("bo")
    assert code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"lanparty join: error: cannot connect to {dead}")
    assert "lanparty · kato" not in out and "waiting>" not in out  # no table screen
    assert len(list((home / "seats").glob("*.json"))) == 1

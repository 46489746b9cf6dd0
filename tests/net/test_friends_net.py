"""Friends known by their keys, as real ``lanparty`` processes on loopback meet them: after one
game each program's friends file lists the other player; at a second table the host's name
with a new key is flagged in ``lanparty list``, and both seats flag each other's known name
with another key at the table and record neither; a host's own bot is never a friend;
``lanparty friends`` lists, renames and forgets, and a forgotten friend is no longer marked.

Each program has its own data directory (:mod:`tests.net.procs`); the headless peers sign
with a fresh key each run, so the second game is played by the same names with new keys."""

from __future__ import annotations

import datetime
import json
import os
import re
import secrets
from pathlib import Path
from typing import Any

import trio

from lanparty.i18n import long_date
from lanparty.net.discovery import TableAd, advertise
from protocol import PROTOCOL_VERSION

from .procs import LANPARTY, Procs
from .procs import table as processes

KEY = r"[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}"


async def _cli(tmp: Path, home: str, *args: str) -> tuple[int, str, str]:
    """``lanparty ARGS`` run to its end with the data directory ``home``: status, out, err."""
    env = {**os.environ, "LANPARTY_HOME": str(tmp / home)}
    done = await trio.run_process([*LANPARTY, *args], env=env, capture_stdout=True,
                                  capture_stderr=True, check=False)  # fmt: skip
    return done.returncode, done.stdout.decode(), done.stderr.decode()


async def _friends(tmp: Path, home: str) -> list[dict[str, Any]]:
    code, out, err = await _cli(tmp, home, "friends", "--json")
    assert code == 0 and err == "", err
    listed: list[dict[str, Any]] = json.loads(out)
    return listed


async def _listed(tmp: Path, home: str, tag: str) -> dict[str, dict[str, Any]]:
    """The tables of this test that ``lanparty list --local --json`` finds, by name."""
    code, out, err = await _cli(tmp, home, "list", "--local", "--json", "--timeout", "3")
    assert code == 0 and "Traceback" not in err, err
    return {t["name"]: t for t in json.loads(out) if t["name"].endswith(tag)}


async def _key_of(t: Procs, who: str, text: str) -> str:
    line = await t.until(who, text)
    found = re.search(KEY, line.split(text, 1)[1])
    assert found, line
    return found.group(0)


async def test_friends_over_two_games_the_list_and_the_command(tmp_path: Path) -> None:
    tag = "-" + secrets.token_hex(3)  # other tests' tables on loopback are not ours
    today = long_date(datetime.date.today().isoformat())  # as the programs write it
    async with processes(tmp_path, timeout=170) as t:
        # Game 1: hugo hosts, Bea joins; beside it a host playing against its own bot.
        endpoint = await t.host("--seats", "2", "--name", "first" + tag)
        hugo1 = await _key_of(t, "host", "host key ")
        await t.start("solo", "host", "kato", "--bot", "--bots", "1", "--seats", "2", "--local",
                      "--nick", "ann", "--json", "--option", "rounds=1",
                      "--name", "solo" + tag)  # fmt: skip
        await t.start("bea", "join", "--bot", "--connect", endpoint, "--nick", "Bea", "--json")
        bea1 = await _key_of(t, "host", "seat 1: Bea joined")
        for who in ("host", "bea", "solo"):
            assert (await t.result(who))["audit_ok"] is True
        (bea,) = await _friends(tmp_path, "host")
        assert (bea["name"], bea["fingerprint"], bea["games"]) == ("Bea", bea1, 1)
        (hugo,) = await _friends(tmp_path, "bea")
        assert (hugo["name"], hugo["fingerprint"], hugo["games"]) == ("hugo", hugo1, 1)
        assert not (tmp_path / "solo" / "friends.json").exists()  # its own bot is no friend

        async with trio.open_nursery() as held:
            # A table announced with the key Bea knows as hugo's, and game 2: hugo hosts
            # again (a new key), seen from Bea's data directory.
            ad = TableAd("known" + tag, "kato", 2, 1, PROTOCOL_VERSION, hugo1, "hugo", port=9)
            held.start_soon(_hold, ad)
            await t.start("host2", "host", "kato", "--bot", "--local", "--nick", "hugo", "--json",
                          "--option", "rounds=1", "--seats", "2", "--name", "second" + tag,
                          home="host")  # fmt: skip
            line = await t.until("host2", "table ")
            endpoint2 = line.split(" on ")[1].split(" ")[0]
            hugo2 = await _key_of(t, "host2", "host key ")
            tables = await _listed(tmp_path, "bea", tag)
            assert tables["known" + tag]["friend"] == "hugo"
            assert tables["known" + tag]["not_friend"] is None
            assert tables["second" + tag]["friend"] is None
            assert tables["second" + tag]["not_friend"] == {"name": "hugo", "key": hugo1,
                                                            "last": hugo["last"]}  # fmt: skip
            code, out, _err = await _cli(tmp_path, "bea", "list", "--local", "--timeout", "3")
            assert re.search(
                rf"^second{tag} .*host hugo \[{hugo2}\]  ⚠ not the hugo you "
                rf"played with on {hugo['last']}  --connect",
                out,
                re.M,
            ), out
            # Bea joins game 2 with a new key: each flags the other as they sit down.
            await t.start("bea2", "join", "--bot", "--connect", endpoint2, "--nick", "Bea",
                          "--json", home="bea")  # fmt: skip
            bea2 = await _key_of(t, "host2", "seat 1: Bea joined")
            await t.until("host2", f"⚠ Bea (seat 1) is not the Bea you played with on {today}: "
                                   f"another key ({bea2})")  # fmt: skip
            await t.until("bea2", f"⚠ hugo (seat 0) is not the hugo you played with on {today}: "
                                  f"another key ({hugo2})")  # fmt: skip
            for who in ("host2", "bea2"):
                assert (await t.result(who))["audit_ok"] is True
            # Neither is recorded: a friend's name under another key makes no friend.
            assert (
                f"Bea ({bea2}) is not recorded as a friend: you know another Bea ({bea1}); "
                f"if their key changed, lanparty friends forget {bea1} first"
            ) in t.err["host2"]
            assert [(f["fingerprint"], f["games"]) for f in await _friends(tmp_path, "host")] == [
                (bea1, 1)]  # fmt: skip
            assert [f["fingerprint"] for f in await _friends(tmp_path, "bea")] == [hugo1]

            # The command: the list, a rename, a forget; the forgotten friend is not marked.
            code, out, err = await _cli(tmp_path, "host", "friends")
            assert code == 0 and re.search(rf"^Bea +{bea1} +1  ", out.splitlines()[1]), out
            code, out, err = await _cli(tmp_path, "host", "friends", "rename", "bea", "Beatrice")
            assert (code, out) == (0, f"Bea ({bea1}) is called Beatrice from now on\n"), err
            assert (await _friends(tmp_path, "host"))[0]["label"] == "Beatrice"
            code, out, err = await _cli(tmp_path, "bea", "friends", "forget", hugo1[:7])
            assert code == 0 and out.startswith(f"forgot hugo ({hugo1})"), err
            tables = await _listed(tmp_path, "bea", tag)
            assert tables["known" + tag]["friend"] is None
            assert tables["known" + tag]["not_friend"] is None
            held.cancel_scope.cancel()


async def _hold(ad: TableAd) -> None:
    """Announce ``ad`` on loopback until cancelled."""
    async with advertise("127.0.0.1", ad):
        await trio.sleep_forever()

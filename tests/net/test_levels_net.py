"""A level for each bot over the network (issue 25): ``host --bots 2 --level hard,easy``
starts Bea as a hard bot and Carl as an easy one, each a process of its own. Seen from
outside: each bot process's own arguments and the line it writes once it built its bot, the
host's lines as they join, and the host's ``--json`` summary (each seat's level)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .procs import children, table


def _nick_and_level(pid: int) -> tuple[str, str]:
    """A bot process's ``--nick`` and ``--level``, read from its command line in /proc."""
    args = [a.decode() for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
    return args[args.index("--nick") + 1], args[args.index("--level") + 1]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
async def test_each_bot_process_plays_the_level_asked_for_it(tmp_path: Path) -> None:
    async with table(tmp_path) as t:
        host = await t.start("host", "host", "kato", "--bot", "--local", "--nick", "hugo",
                             "--json", "--react", "0", "--seats", "3", "--bots", "2",
                             "--level", "hard,easy", "--think", "0.05",
                             "--option", "rounds=1")  # fmt: skip
        bea = await t.until("host", "Bea (bot, hard) joined")
        carl = await t.until("host", "Carl (bot, easy) joined")
        assert bea.startswith("seat ") and carl.startswith("seat ")
        # Both seated: both bot processes are alive until the table closes.
        bots = [p for p in children(host.pid)
                if b"join" in Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0")]  # fmt: skip
        assert sorted(map(_nick_and_level, bots)) == [("Bea", "hard"), ("Carl", "easy")]
        hugo = await t.result("host")
    assert hugo["audit_ok"] and not hugo["stopped"], hugo
    names, levels = hugo["names"], hugo["levels"]
    assert isinstance(names, list) and isinstance(levels, list)
    # The host's own seat was given no level of the list (two levels, two bots): normal.
    assert dict(zip(names, levels, strict=True)) == {"hugo": "normal", "Bea": "hard",
                                                     "Carl": "easy"}  # fmt: skip
    # Each bot says, in its own log, the level of the bot it built for the table's game.
    said = "\n".join(p.read_text() for p in (tmp_path / "host" / "logs").glob("*bot-*.log"))
    assert "Bea (bot, hard) plays kato" in said and "Carl (bot, easy) plays kato" in said
    assert "(bot, normal)" not in said

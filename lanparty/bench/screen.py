"""How quick the full-screen table is: ``python -m lanparty.bench.screen``.

An offline table of the default game (``--game``; bots in this process) in the real
application, on a pipe for its keys and a terminal of 80×24 that writes to memory, with a
story of 1,000 lines: keys are
typed one at a time (a command, then Ctrl-U, again and again: the completion menu opens and
closes), and each key's time is measured from the moment it is sent to the end of the
redraw it caused. Then the table is left alone for a while and the CPU time the process
spent is compared with the time that passed. Prints p50 and p99 of key → screen per run, the
idle CPU, and the median of the runs. Measures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import statistics
import time
from collections.abc import Sequence

__all__ = ["main", "measure"]

KEYS = [*"play 1", "\x15"]  # a command typed, then Ctrl-U
"""The keys typed, over and over."""


class _Screen(io.StringIO):
    """A terminal that keeps nothing (what the application writes is dropped)."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        return len(text)

    def isatty(self) -> bool:
        return True


async def _run(
    game: str, keys: int, story: int, idle: float, columns: int, rows: int
) -> dict[str, float]:
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from lanparty.games.bots import bots_for
    from lanparty.games.screens import log_line
    from lanparty.table.local import BOT_NAMES, LocalTable
    from lanparty.ui.app import TableApp

    bot = bots_for(game)["heuristic"]
    table = LocalTable(game, ["Ann", *BOT_NAMES[:3]], [None, bot(), bot(), bot()], {}, 1)
    output = Vt100_Output(_Screen(), lambda: Size(rows=rows, columns=columns),
                          term="xterm-256color")  # fmt: skip
    rendered = asyncio.Event()
    with create_pipe_input() as pipe:
        app = TableApp(table, input=pipe, output=output)
        for n in range(story):
            app.story.add(log_line(f"Line {n + 1} of the story: Bea plays Red 7, Carl draws"))
        app.app.after_render += lambda _app: rendered.set()
        playing = asyncio.ensure_future(app.run())
        await asyncio.wait_for(rendered.wait(), 10)
        await asyncio.sleep(0.2)
        times: list[float] = []
        for n in range(keys):
            rendered.clear()
            sent = time.perf_counter()
            pipe.send_text(KEYS[n % len(KEYS)])
            await asyncio.wait_for(rendered.wait(), 10)
            times.append((time.perf_counter() - sent) * 1000)
        pipe.send_text("\x15")
        await asyncio.sleep(0.5)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(idle)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        pipe.send_text("\x03\x03")  # Ctrl-C twice: leave
        await asyncio.wait_for(playing, 10)
    times.sort()
    return {
        "p50_ms": statistics.median(times),
        "p99_ms": times[min(len(times) - 1, round(0.99 * (len(times) - 1)))],
        "idle_cpu_pct": 100 * cpu / wall,
    }


def measure(game: str, keys: int = 300, story: int = 1000, idle: float = 10.0,
            columns: int = 80, rows: int = 24) -> dict[str, float]:  # fmt: skip
    """One run at a table of ``game``: key → screen p50 and p99 in milliseconds, idle CPU
    in percent."""
    return asyncio.run(_run(game, keys, story, idle, columns, rows))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark ``--runs`` times and print each run and the medians."""
    p = argparse.ArgumentParser(prog="python -m lanparty.bench.screen", description=__doc__)
    from lanparty.games import DEFAULT_GAME

    p.add_argument("--game", default=DEFAULT_GAME, help="the game at the table")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keys", type=int, default=300, help="keys typed per run")
    p.add_argument("--story", type=int, default=1000, help="lines in the story")
    p.add_argument("--idle", type=float, default=10.0, help="seconds left alone per run")
    p.add_argument("--size", default="80x24", help="the terminal, COLUMNSxROWS")
    args = p.parse_args(argv)
    columns, rows = (int(n) for n in args.size.split("x"))
    runs = []
    for n in range(args.runs):
        run = measure(args.game, args.keys, args.story, args.idle, columns, rows)
        runs.append(run)
        print(f"run {n + 1}: key → screen p50 {run['p50_ms']:.1f} ms, p99 {run['p99_ms']:.1f} "
              f"ms; idle CPU {run['idle_cpu_pct']:.2f} %", flush=True)  # fmt: skip
    median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print(f"median of {len(runs)}: key → screen p50 {median['p50_ms']:.1f} ms, p99 "
          f"{median['p99_ms']:.1f} ms; idle CPU {median['idle_cpu_pct']:.2f} % "
          f"({args.game}, {args.story} story lines, {columns}x{rows})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

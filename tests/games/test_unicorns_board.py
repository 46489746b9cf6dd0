"""Kill the Unicorns' board (issue 21): each player's unicorns keep a column of their own (a
second row never wraps under the names), the points show how they are made (each unicorn's
coins, tokens and scheme, every colour collection, rainbow and Pâté), and the black market
shows its prices when it opens."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from unicorns_rig import G, Rig

from lanparty.games.bots import RandomBot
from lanparty.games.screens import Fragments
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.screen import table
from protocol.contract import Commit, GameOver, Turn

NAMES = ["Ann", "Bea", "Carl", "Dora"]
_SECTIONS = ("Row", "Black market", "Characters")


def text(fragments: Fragments) -> str:
    return "".join(t for _, t in fragments)


def blocks(shown: str) -> list[tuple[str, list[str]]]:
    """The players' part of a board: each player's line and the lines under it."""
    out: list[tuple[str, list[str]]] = []
    for line in shown.splitlines()[1:]:
        if line.startswith(_SECTIONS):
            break
        if re.match(r"^[▶ ] \S", line):
            out.append((line, []))
        else:
            out[-1][1].append(line)
    return out


def states(seeds: range, players: int = 4) -> list[dict[str, Any]]:
    """Seat 0's view at every turn of a few bot games (characters chosen by the bots)."""
    views = []
    for seed in seeds:
        rng = random.Random(seed)
        rig = Rig(players, rng=rng, pick=False, copies=False, check_views=False)
        bots = [HeuristicBot() if s % 2 else RandomBot() for s in range(players)]
        while not isinstance(G.status(rig.state), GameOver):
            status = G.status(rig.state)
            seat = status.seat if isinstance(status, Turn) else status.seats[0]  # type: ignore[union-attr]
            views.append(G.view(rig.state, 0))
            move = bots[seat].choose(G.view(rig.state, seat), G.legal_moves(rig.state, seat), rng)
            (rig.seal if isinstance(status, Commit) else rig.move)(seat, *move)
        views.append(G.view(rig.state, 0))
    return views


def test_a_second_row_of_unicorns_stays_in_the_unicorns_column_at_80_columns() -> None:
    """At 80 columns the unicorns go under the player's line, every row of them after a bar
    one column right of the names, so the names column holds nothing else; on a wide
    terminal they stand beside the line and a second row starts under the first, at the
    same bar (it wrapped under the names before)."""
    wrapped = beside = 0
    for view in states(range(2)):
        shown = text(table(view, NAMES, 80))
        width = max(len(f"{n} (you)" if s == 0 else n) for s, n in enumerate(NAMES))
        block = 2 + width + 1
        for line, rows in blocks(shown):
            assert rows or (view["phase"] == "character" and " │ " in line), line
            for row in rows:
                assert row.startswith(" " * block + "│ "), (line, row)
                assert not row[block + 2 :].startswith(" "), row
            wrapped += len(rows) > 1
        shown = text(table(view, NAMES, 140))
        for line, rows in blocks(shown):
            if " │ " not in line:
                continue
            bar = line.index(" │ ")
            for row in rows:
                assert row.startswith(" " * bar + " │ ") and row[bar + 3] != " ", (line, row)
            beside += len(rows) > 0
    assert wrapped > 20 and beside > 20


def _numbers(rows: list[str]) -> int:
    """What a player's unicorns and bonuses add up to, as the board writes them: each
    unicorn's and the Pâtés' ``=N``, each bonus's ``+N`` (inside ``[…]``, what a token or a
    scheme adds is already in the unicorn's worth)."""
    said = re.sub(r"\[[^\]]*\]", "", " ".join(rows)).replace("−", "-")
    worth = sum(int(n) for n in re.findall(r"=(-?\d+)", said))
    return worth + sum(int(n) for n in re.findall(r" \+(\d+)", said))


def test_the_points_add_up_from_what_the_board_shows() -> None:
    """In every state of a few games, each player's unicorns' worths, bonuses and Pâtés add
    up to the points on the player's line, and every kind of part is met: tokens, schemes
    for and against, pairs, larger collections, rainbows, Pâtés."""
    seen: set[str] = set()
    for view in states(range(2, 4)):
        shown = text(table(view, NAMES, 220))
        for line, under in blocks(shown):
            rows = [line.split(" │ ", 1)[1]] if " │ " in line else []
            rows += [r.split("│ ", 1)[1] for r in under]
            points = int(re.search(r"(-?\d+) pts?\b", line)[1])  # type: ignore[index]
            assert _numbers(rows) == points, (line, rows)
            said = " ".join(rows)
            for part in ("pair +", "×3 +", "rainbow (arcoíris) +", "Pâté ×", "Fake Horn +2",
                         "Fairy Dust +2", "Cotton Candy]", "Unicorn +2", "Unicorn −"):  # fmt: skip
                if part in said:
                    seen.add(part)
    assert len(seen) == 9, seen


def test_a_pair_is_shown_beside_the_unicorns_that_make_it() -> None:
    """Issue 21's case: a Green 1 worth 3 (a Fake Horn on it) and a Green 1 (starter) worth
    1 make 6 points; the board says the other 2 are the green pair's."""
    rig = Rig(3, unicorns=["green-1", "blue-2", "legendary"], initiation="no_schemes",
              powers=False, start=["green", "blue", "pink"])  # fmt: skip
    rig.hunt(0, 4)
    rig.pass_(1, 2)  # Ann takes the Green 1
    rig.pass_(0, 1, 2, 0, 1, 2)  # the other two escape
    rig.move(0, "buy", "horn", rig.unicorn("green-1"), "", (3,))
    shown = text(table(rig.view(0), NAMES[:3], 80))
    [(line, rows)] = [b for b in blocks(shown) if b[0].startswith("  Ann")]
    assert line.endswith(" 6 pts")
    assert rows == ["            │ 1:Green 1 (starter) =1 · 2:Green 1 [Fake Horn +2] =3",
                    "            │ green pair +2"]  # fmt: skip


def test_a_rainbow_and_a_collection_of_three_are_named() -> None:
    """Coins, scheme values and tokens stay on each unicorn; a rainbow (one of each colour)
    and the larger collections are told apart as the table arranges them."""
    from lanparty.games.unicorns.board import bonus_cells

    def colours(*names: str) -> list[dict[str, Any]]:
        return [{"colour": c} for c in names]

    said = [text(c) for c in bonus_cells(colours("pink", "blue", "green", "yellow"), 0)]
    assert said == ["1 rainbow (arcoíris) +8"]
    said = [text(c) for c in bonus_cells(colours(*["pink"] * 3, "blue", "blue", None), 2)]
    assert said == ["pink ×3 +5", "blue pair +2", "Pâté ×2 =6"]
    said = [text(c) for c in bonus_cells(colours(*["green"] * 7), 0)]
    assert said == ["green ×5 +12", "green pair +2"]


# ----------------------------------------------------------------------------- the market


@pytest.mark.parametrize("width", [80, 60])
def test_the_black_market_shows_its_prices_when_it_opens(width: int) -> None:
    """When the market opens, the board lists every item with its price, its name, what it
    does and the tokens left (a sold-out item says so), for every seat."""
    rig = Rig(3, unicorns=["pink-4", "blue-2", "legendary"], initiation="no_schemes",
              powers=False)  # fmt: skip
    rig.hunt(0, 0)
    rig.pass_(1, 2)
    rig.pass_(0, 1, 2, 0, 1, 2)
    rig.state.market[0] = 0  # every Unicorn Butcher sold (as after earlier days)
    for seat in range(3):
        shown = text(table(rig.view(seat), NAMES[:3], width))
        market = shown[shown.index("Black market (mercado negro)") :]
        prices = [("butcher", 2, "Unicorn Butcher"), ("horn", 3, "Fake Horn"),
                  ("candy", 3, "Cotton Candy"), ("dust", 6, "Fairy Dust")]  # fmt: skip
        for item, price, name in prices:
            assert re.search(rf"^  {item} \${price} · {name}", market, re.M), market
        assert re.search(r"^  butcher \$2 · Unicorn Butcher \(Carnicero Unicornio\)\s+· sold out",
                         market, re.M) or "\n      sold out\n" in market  # fmt: skip
        assert "Fake Horn (Cuerno falso) · 4 left" in market
        assert "the buyer's unicorn takes a new colour and is worth 2" in market
        assert "Row" not in shown.split("\n", 1)[1]  # the day's row is over
        assert max(len(line) for line in shown.splitlines()) <= width

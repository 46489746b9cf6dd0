"""Unikato: a tile keeps its number for as long as it is in the hand (issue 21). A placement,
an exchange and a draw leave every other tile's number alone; a tile that comes in takes the
lowest number free. The number is the same on the screen, in the completions and in the
commands typed (in every language), and a seat resumed on the real protocol numbers its
hand as before."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from unikato_rig import Rig

from lanparty import i18n
from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable
from lanparty.games.screens import ParseError
from lanparty.games.unikato import UNIKATO
from lanparty.games.unikato.bots import HeuristicBot
from lanparty.games.unikato.glyphs import glyph_text
from lanparty.games.unikato.screen import command_for, hand_lines, numbered, parse, selected
from lanparty.games.unikato.tiles import CODE
from protocol import Peer, Phase
from protocol.contract import GameOver, TableOps
from protocol.harness import Harness

G = UNIKATO


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _numbers(rig: Rig, seat: int) -> dict[str, int]:
    """Seat ``seat``'s tiles by label → the number its view gives each."""
    return {label: k for k, _h, label in numbered(rig.view(seat))}


def _text(fragments: list[tuple[str, str]]) -> str:
    return "".join(text for _style, text in fragments)


def test_the_first_deal_is_numbered_1_to_10_in_the_order_of_the_tiles() -> None:
    rig = Rig([["xBsW", "cOmW", "sPlK"], []])
    numbers = _numbers(rig, 0)
    assert sorted(numbers.values()) == list(range(1, 11))
    assert sorted(numbers, key=numbers.__getitem__) == sorted(numbers, key=CODE.__getitem__)


def test_numbers_stay_put_across_a_placement_an_exchange_and_a_draw() -> None:
    rig = Rig([["cOmW", "sOsW", "cPmW"], []], display=("xBlK", "xPlK", "xOlK"),
              bag=["xBsG", "xPsG"])  # fmt: skip
    before = _numbers(rig, 0)
    # A placement: the tile leaves, every other keeps its number.
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    after = _numbers(rig, 0)
    assert "cOmW" not in after
    assert {t: k for t, k in before.items() if t != "cOmW"} == after
    freed = before["cOmW"]
    # The end-of-turn draw from the bag: the new tile takes the number freed.
    rig.draw(0, "bag")
    drawn = _numbers(rig, 0)
    assert drawn["xBsG"] == freed and {t: drawn[t] for t in after} == after
    # Seat 1's turn leaves seat 0's numbers alone.
    rig.exchange(1, rig.hand(1)[0], "xOlK")
    assert _numbers(rig, 0) == drawn
    # An exchange with the display: the tile given away frees its number, the tile taken
    # takes it; the others stay.
    given = "sOsW"
    taken = rig.display()[0]
    rig.exchange(0, given, taken)
    swapped = _numbers(rig, 0)
    assert swapped[taken] == drawn[given]
    assert {t: k for t, k in swapped.items() if t != taken} == {
        t: k for t, k in drawn.items() if t != given
    }


def test_a_new_tile_takes_the_lowest_free_number() -> None:
    rig = Rig([["cOmW", "cOlW", "cPlW"], []], bag=["xBsG"])
    numbers = _numbers(rig, 0)
    assert numbers["cOmW"] < numbers["cOlW"]
    rig.place(0, "cOmW", 1, 0)
    rig.place(0, "cOlW", 2, 0)  # two numbers free now
    rig.move(0, "done")
    rig.draw(0, "bag")
    assert _numbers(rig, 0)["xBsG"] == numbers["cOmW"]  # the lower of the two
    assert max(_numbers(rig, 0).values()) == 10  # the hand shows 1…10 less one: a gap


def test_the_screen_the_completions_and_the_commands_agree_on_a_number() -> None:
    rig = Rig([["cOmW", "sOsW", "cPmW"], []], display=("xPlK", "xOlK", "xPlG"), bag=["xBlK"])
    view = rig.view(0)
    five = next(label for k, _h, label in numbered(view) if k == 5)
    rig.place(0, "cOmW", 1, 0)  # numbers shifted here before: "tile 5" named another tile
    rig.move(0, "done")
    rig.draw(0, "bag")  # the last tile of all in the order of the tiles
    rig.exchange(1, rig.hand(1)[0], "bag")
    view = rig.view(0)
    [(handle, label)] = [(h, t) for k, h, t in numbered(view) if k == 5]
    assert label == five
    # The screen shows it as 5.
    assert f"5:{glyph_text(five)}" in _text(hand_lines(view, 200))
    # Typed: "place 5 …" selects it; every completion of a move of it says 5.
    assert selected("place 5", view)[0] == handle
    legal = rig.legal(0)
    for move in legal:
        if move[0] in ("place", "exchange") and move[1] == handle:
            command = command_for(move, view)[0]
            assert command.split()[1] == "5", command
            assert parse(command.split()[0], command.split()[1:], command, view) == move


@pytest.mark.parametrize("lang", ["en", "pl", "es"])
def test_a_tile_is_named_by_its_number_in_every_language(lang: str) -> None:
    """What a player types to name a tile (its number, in English commands) means the same
    tile whatever language they read, and the completions are the same text."""
    rig = Rig([["cOmW", "sOsW"], []])
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    rig.draw(0, "bag")
    rig.exchange(1, rig.hand(1)[0], "bag")
    view = rig.view(0)
    legal = rig.legal(0)
    i18n.set_language("en")
    english = [command_for(m, view)[0] for m in legal]
    i18n.set_language(lang)
    assert [command_for(m, view)[0] for m in legal] == english
    for move, command in zip(legal, english, strict=True):
        head, *args = command.split()
        assert parse(head, args, command, view) == move
    with pytest.raises(ParseError) as exc:
        parse("place", ["99"], "place 99", view)
    yours = ", ".join(str(k) for k, _h, _label in numbered(view))
    assert yours in str(exc.value) and "'99'" in str(exc.value)


def test_a_resumed_seat_numbers_its_hand_as_before() -> None:
    """On the real protocol (mental poker, one process per seat in the harness): seat 1's
    program restarts mid-game, replays the log from its secrets, and shows the same numbers;
    the game then completes."""
    games: dict[str, Any] = {"unikato": UNIKATO}
    h = Harness(games, "unikato", 2, {"first": "host"}, [HeuristicBot(), HeuristicBot()],
                seed=4)  # fmt: skip
    h.pump()
    for _ in range(11):  # seat 1 lays a chain of five, draws; seat 0 goes on
        assert h.step()
        h.pump()
    old = h.peers[0]
    seat = old.seat
    assert seat == 1
    shown = old.view()
    hand, numbers = shown["hand"], shown["numbers"]
    assert isinstance(hand, list) and isinstance(numbers, list)
    assert numbers != list(range(1, len(hand) + 1))  # gaps: numbers that mean something
    me = old.table.me
    assert me is not None
    h.host.data_to_send(h.conns[0])  # lost with the process
    h.host.close(h.conns[0])
    new = Peer(me.identity, old.name, games, key=me.key, seal=me.seal)
    new.resume(h.host.table_id)
    h.peers[0] = new
    h.conns[0] = h.host.connect()
    h.pump()
    assert new.seat == seat and len(new.table.log) == len(old.table.log)
    again = new.view()
    assert (again["hand"], again["numbers"]) == (shown["hand"], shown["numbers"])
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)


def test_numbers_survive_the_state_encoding() -> None:
    rig = Rig([["cOmW", "sOsW"], []])
    rig.place(0, "cOmW", 1, 0)
    rig.move(0, "done")
    rig.draw(0, "bag")
    for st, seat in [(rig.state, 0), (rig.state, 1), *zip(rig.copies, (0, 1), strict=True)]:
        again = G.decode_state(G.encode_state(st))
        assert again.numbers == st.numbers
        assert G.view(again, seat) == G.view(st, seat)


def _seen(table: LocalTable) -> list[dict[int, int]]:
    """Each seat's tiles, handle → number, from its own copy's view."""
    views = [G.view(copy, s) for s, copy in enumerate(table.copies)]
    return [{h: k for k, h, _label in numbered(v)} for v in views]


def test_whole_games_keep_every_number_while_the_tile_is_held() -> None:
    """Bots play whole games of 2 to 4 seats: after every input, each seat's tiles that
    stayed in its hand keep their numbers, and the tiles that came in take the lowest
    numbers free (a deal of several: as many of the lowest)."""
    for seed in range(4):
        n = 2 + seed % 3
        table = LocalTable(G, n, {"rounds": 2}, random.Random(seed), copies=True)
        kinds = bots_for("unikato")
        bots = [kinds["heuristic" if s % 2 else "random"]() for s in range(n)]

        last = _seen(table)
        inputs = 0
        while not isinstance(status := G.status(table.state), GameOver):
            if isinstance(status, TableOps):
                table.resolve_one()
            else:
                table.step(bots)
            inputs += 1
            now = _seen(table)
            for s in range(n):
                kept = {h: k for h, k in now[s].items() if h in last[s]}
                assert kept == {h: last[s][h] for h in kept}, (seed, s)
                new = sorted(now[s][h] for h in now[s].keys() - last[s].keys())
                free = [k for k in range(1, 11) if k not in kept.values()]
                assert new == free[: len(new)], (seed, s, new, free)
            last = now
        assert inputs > 100

"""Unikato's hidden tiles: what each move reveals, how copies with partial knowledge treat a
label, and that no view ever shows a tile its seat may not know."""

from __future__ import annotations

import json
import random

import pytest
from unikato_rig import G, Rig

from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable
from lanparty.games.unikato import UNIKATO
from lanparty.games.unikato.tiles import CODE
from protocol.contract import IllegalMove
from protocol.shapes import ShapeError

# ----------------------------------------------------------------------------- reveals


def test_placing_and_exchanging_reveal_the_tile_leaving_the_hand() -> None:
    assert UNIKATO.reveals(("place", 17, "cOsW", 0, 1)) == {17: "cOsW"}
    assert UNIKATO.reveals(("exchange", 17, "cOsW", 4)) == {17: "cOsW"}
    assert UNIKATO.reveals(("exchange", 17, "cOsW", "bag")) == {17: "cOsW"}
    # A tile drawn, a tile taken from the display: those are public or dealt, not shown.
    for move in [("draw", 4), ("draw", "bag"), ("done",), ("pass",)]:
        assert UNIKATO.reveals(move) == {}


@pytest.mark.parametrize(
    "move",
    [("place", 17, "cOsW", 0), ("place", True, "cOsW", 0, 1), ("exchange", "17", "cOsW", 4),
     ("exchange", 17, None, 4), ("fly", 17, "cOsW"), ()],
)  # fmt: skip
def test_malformed_moves_never_reach_reveals(move: tuple[object, ...]) -> None:
    # ``reveals`` sees only moves of their declared shape: these are refused before it.
    with pytest.raises(ShapeError):
        UNIKATO.moves.read(move)


def test_every_listed_revealing_move_names_its_tile() -> None:
    rig = Rig([["cOmW"], []])
    for move in rig.legal(0):
        if move[0] in ("place", "exchange"):
            assert UNIKATO.reveals(move) == {move[1]: move[2]}
            assert rig.cards[move[1]] == move[2]


# ----------------------------------------------------------------------------- labels


def test_a_copy_that_does_not_know_the_tile_takes_the_label() -> None:
    rig = Rig([["cOmW"], []])
    h = rig.handle_of("cOmW")
    assert h not in rig.copies[1].card_of
    rig.place(0, "cOmW", 1, 0)
    assert rig.copies[1].card_of[h] == CODE["cOmW"]
    assert rig.view(1)["grid"][-1] == [1, 0, "cOmW"]


def test_a_copy_that_knows_the_tile_refuses_another_label() -> None:
    # Seat 0 claims its cOmW is sOsW (which would fit too). Its own copy knows better.
    rig = Rig([["cOmW"], []])
    lie = ("place", rig.handle_of("cOmW"), "sOsW", -1, 0)
    for st in (rig.state, rig.copies[0]):
        with pytest.raises(IllegalMove, match="is not sOsW"):
            G.check(st, 0, lie)  # type: ignore[arg-type]
    # Seat 1's copy cannot tell: the protocol's reveal proof is what stops this lie.
    G.check(rig.copies[1], 0, lie)  # type: ignore[arg-type]
    lie = ("exchange", rig.handle_of("cOmW"), "sOsW", "bag")
    with pytest.raises(IllegalMove, match="is not sOsW"):
        G.check(rig.copies[0], 0, lie)  # type: ignore[arg-type]
    G.check(rig.copies[1], 0, lie)  # type: ignore[arg-type]


def test_a_tile_taken_from_the_display_is_known_to_every_copy() -> None:
    rig = Rig([["xBsW"], []], display=("cOmW", "xPlK", "xOlK"))
    rig.exchange(0, "xBsW", "cOmW")
    rig.exchange(1, rig.hand(1)[0], "xPlK")
    h = rig.handle_of("cOmW")
    for st in rig.states:  # everyone saw it: nobody takes another label for it
        with pytest.raises(IllegalMove, match="is not cOmG"):
            G.check(st, 0, ("place", h, "cOmG", 1, 0))
    rig.place(0, "cOmW", 1, 0)
    assert rig.view()["open"] == [[], [[rig.handle_of("xPlK"), "xPlK"]]]


# ----------------------------------------------------------------------------- views


def secrets(table: LocalTable, seat: int) -> set[str]:
    """Labels of the tiles ``seat`` may not know now: other hands (but for tiles everyone
    saw taken from the display) and the bag."""
    st = table.state
    hidden = {h for s, hand in enumerate(st.hands) if s != seat for h in hand} - st.open
    hidden |= set(st.bag)
    return {table.dealer.cards[h] for h in hidden}


def test_views_never_show_another_seats_hand_or_the_bag() -> None:
    factories = bots_for("unikato")
    for seed in range(8):
        rng = random.Random(seed)
        table = LocalTable(UNIKATO, 4, {"rounds": 1}, rng, copies=True)
        players = [factories["heuristic" if s % 2 else "random"]() for s in range(4)]
        while True:
            table.resolve_pending()
            st = table.state
            public = json.dumps(UNIKATO.view(st, None))
            assert '"hand"' not in public
            for seat in range(4):
                view = UNIKATO.view(st, seat)
                # Each tile exists once, so a hidden tile's label appears nowhere it may be seen.
                text = json.dumps(view)
                assert not [t for t in secrets(table, seat) if f'"{t}"' in text]
                assert view == UNIKATO.view(table.copies[seat], seat)
                assert len(view["hand"]) == view["counts"][seat]  # type: ignore[arg-type,index]
            if not table.step(players):
                break

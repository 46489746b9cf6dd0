"""KaTO: a refused move says why in words, and what the player can do instead, under every
stacking option (a representative set of situations and move kinds)."""

from __future__ import annotations

from typing import Any

import pytest
from kato_rig import Rig

from lanparty.games.kato import KATO
from lanparty.games.kato.screen import humanize
from protocol.contract import IllegalMove


def reason(rig: Rig, seat: int, move: tuple[Any, ...]) -> str:
    with pytest.raises(IllegalMove) as refused:
        KATO.check(rig.state, seat, move)  # type: ignore[arg-type]
    for copy in rig.copies:  # every copy gives the same reason: it uses public state only
        with pytest.raises(IllegalMove) as again:
            KATO.check(copy, seat, move)  # type: ignore[arg-type]
        assert again.value.reason == refused.value.reason
    return refused.value.reason


def draw_four(stacking: str, **options: Any) -> Rig:
    """Seat 0 has just played a Wild Draw Four (naming green) at seat 1."""
    rig = Rig(
        [["W+4", "r1", "r2"], ["b+2", "r7", "W"], ["y+2", "g6", "y1"]],
        ["r5"],
        stacking=stacking,
        **options,
    )
    rig.play(0, "W+4", colour="g")
    return rig


W4_SEED = (
    "a Wild Draw Four is waiting for you (4 cards): play a Draw Two or a Wild Draw Four on it, "
    "challenge it, or accept to draw the 4 cards"
)


@pytest.mark.parametrize(
    ("stacking", "facing"),
    [
        ("seed", W4_SEED),
        ("full", W4_SEED),
        ("off", "a Wild Draw Four is waiting for you (4 cards): challenge it, or accept to draw "
                "the 4 cards"),
    ],
)  # fmt: skip
def test_facing_a_draw_four(stacking: str, facing: str) -> None:
    rig = draw_four(stacking)
    assert reason(rig, 1, rig.play_move(1, "r7")) == f"r7 cannot answer it; {facing}"
    assert reason(rig, 1, ("draw",)) == facing
    if stacking == "off":
        assert reason(rig, 1, rig.play_move(1, "b+2")) == f"b+2 cannot answer it; {facing}"
    assert humanize(reason(rig, 1, rig.play_move(1, "r7"))).startswith("Red 7 cannot answer it")


def test_a_draw_two_on_a_draw_four_under_the_seeds_rule() -> None:
    rig = draw_four("seed")
    rig.play(1, "b+2")
    facing = (
        "a Draw Two on a Wild Draw Four is waiting for you (6 cards): only a Wild Draw Four can "
        "go on it, or accept to draw the 6 cards"
    )
    assert reason(rig, 2, rig.play_move(2, "y+2")) == f"y+2 cannot answer it; {facing}"
    assert reason(rig, 2, ("challenge",)) == (
        f"a Draw Two on a Wild Draw Four makes it unchallengeable; {facing}"
    )


def test_a_draw_two_under_full_stacking() -> None:
    rig = Rig(
        [["r+2", "r1", "r2"], ["b+2", "W", "b3"], ["y1", "y2", "y3"]], ["r5"], stacking="full"
    )
    rig.play(0, "r+2")
    facing = (
        "a Draw Two is waiting for you (2 cards): play a Draw Two or a Wild Draw Four on it, "
        "or accept to draw the 2 cards"
    )
    assert reason(rig, 1, rig.play_move(1, "W", colour="r")) == f"W cannot answer it; {facing}"
    assert reason(rig, 1, ("challenge",)) == (
        f"only a Wild Draw Four can be challenged, not a Draw Two; {facing}"
    )


def test_what_a_reflecting_cone_may_answer() -> None:
    rig = Rig([["r+2", "rS", "r2"], ["b+2", "cone", "b3"], ["y1", "y2", "y3"]], ["r5"], cones=1)
    rig.play(0, "r+2")  # the seed's rule: no Draw Two on it, but a cone can send it back
    assert reason(rig, 1, rig.play_move(1, "b+2")) == (
        "b+2 cannot answer it; a Draw Two is waiting for you (2 cards): send it back with a "
        "cone, or accept to draw the 2 cards"
    )
    rig.move(1, "accept")
    rig.move(2, "draw")
    rig.move(2, "pass")
    rig.play(0, "rS")
    assert reason(rig, 1, ("draw",)) == (
        "you are being skipped: send it back with a cone, or accept to miss your turn"
    )


def test_nothing_aimed_at_you() -> None:
    rig = Rig([["W", "b7", "g1"], ["r3", "r4", "r6"]], ["g5"], draws=["y9"])
    rig.play(0, "W", colour="r")
    rig.play(1, "r3")
    assert reason(rig, 0, rig.play_move(0, "b7")) == (
        "b7 does not match r3: play a red card, a 3 or a wild, or draw"
    )
    rig.move(0, "draw")
    assert reason(rig, 0, ("accept",)) == (
        "nothing is aimed at you to accept: play the card you drew or pass"
    )
    assert reason(rig, 0, rig.play_move(0, "y9")) == (
        "y9 does not match r3: play a red card, a 3 or a wild, or pass"
    )
    eight = Rig([["b7", "r1"], ["r3", "r4"]], ["g8"])
    assert reason(eight, 0, eight.play_move(0, "b7")).startswith(
        "b7 does not match g8: play a green card, an 8 or a wild"
    )
    on_wild = Rig([["b7", "r1"], ["r3", "r4"]], ["W"], first=0)
    on_wild.move(0, "colour", "r")
    assert reason(on_wild, 0, on_wild.play_move(0, "b7")) == (
        "b7 does not match: the colour in play is red; play a red card or a wild, or draw"
    )


def test_moves_out_of_place() -> None:
    rig = Rig([["r1", "r2", "r3"], ["b1", "b2", "b3"]], ["r5"])
    assert reason(rig, 0, ("colour", "g")) == (
        "a colour is named with the wild you play, or when a round starts on one"
    )
    assert reason(rig, 0, ("verdict", "guilty")) == "there is no challenge to judge"
    assert reason(rig, 0, ("kato",)).endswith("; you hold 3 cards")
    assert reason(rig, 1, ("draw",)) == "it is not your turn"

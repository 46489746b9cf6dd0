"""KaTO: matching, drawing, action cards, stacking, multi-play, reshuffles, round ends, scores."""

from __future__ import annotations

import pytest
from kato_rig import Rig

from lanparty.games.kato import KATO
from protocol.contract import GameOver, IllegalMove, OptionError, Shuffle, TableOps


def points(label: str) -> int:
    if label in ("W", "W+4", "cone"):
        return 50
    return int(label[1:]) if label[1:].isdigit() else 20


def illegal(rig: Rig, seat: int, move: tuple[object, ...], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        KATO.check(rig.state, seat, move)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- matching


def test_match_by_colour_number_or_symbol() -> None:
    rig = Rig([["r1", "g5", "b7", "yS"], ["g9", "gS", "y2", "b2"]], ["r5"])
    illegal(rig, 0, rig.play_move(0, "b7"), "b7 does not match r5: play a red card, a 5 or a wild")
    plays = {m[2][0] for m in rig.legal(0) if m[0] == "play"}
    assert plays == {"r1", "g5"}
    rig.play(0, "g5")  # same number
    assert rig.view()["colour"] == "g" and rig.turn().seat == 1
    rig.play(1, "gS")  # same colour; skips seat 0 (two players): seat 1 again
    assert rig.turn().seat == 1
    rig.move(1, "draw")
    rig.move(1, "pass")
    rig.play(0, "yS")  # same symbol, other colour
    assert rig.view()["colour"] == "y"


def test_wild_is_always_playable_and_names_the_colour() -> None:
    rig = Rig([["W", "g1"], ["b7", "b8"]], ["g5"])
    illegal(rig, 0, rig.play_move(0, "W"), "a wild names the next colour")
    illegal(rig, 0, rig.play_move(0, "W", colour="x"), "a wild names the next colour")
    illegal(rig, 0, rig.play_move(0, "g1", colour="g"), "only a wild names a colour")
    rig.play(0, "W", colour="b")
    assert rig.view()["colour"] == "b" and rig.view()["top"] == "W"
    rig.play(1, "b7")


def test_not_your_turn_and_not_your_card() -> None:
    rig = Rig([["r1", "r2"], ["r3", "r4"]], ["r5"])
    illegal(rig, 1, rig.play_move(1, "r3"), "it is not your turn")
    illegal(rig, 0, ("play", (rig.handle(1, "r3"),), ("r3",), ""), "not in your hand")
    illegal(rig, 0, ("play", (rig.handle(0, "r1"),), ("r2",), ""), "is not 'r2'")
    illegal(rig, 0, ("accept",), "nothing is aimed at you to accept: play a card or draw")
    illegal(rig, 0, ("challenge",), "no Wild Draw Four aimed at you to challenge")
    illegal(rig, 0, ("pass",), "you pass only after drawing a card; play a card or draw")
    illegal(rig, 0, ("fly",), "unknown move 'fly'")


def test_a_copy_without_the_card_takes_the_revealed_label() -> None:
    rig = Rig([["r1", "r2"], ["r3", "r4"]], ["r5"])
    other = rig.copies[1]
    h = rig.handle(0, "r1")
    assert h not in other.card_of  # seat 1 does not know seat 0's cards
    move = ("play", (h,), ("r1",), "")
    KATO.check(other, 0, move)
    KATO.apply(other, 0, move)
    assert other.card_of[h] == rig.state.card_of[h]


# ----------------------------------------------------------------------------- drawing


def test_draw_then_play_the_drawn_card() -> None:
    rig = Rig([["b1", "b2"], ["y3", "y4"]], ["r5"], draws=["r7"])
    rig.move(0, "draw")
    assert rig.view()["phase"] == "drawn" and rig.turn().seat == 0
    drawn = rig.handle(0, "r7")
    assert rig.legal(0) == [("pass",), ("play", (drawn,), ("r7",), "")]
    illegal(rig, 0, ("draw",), "you have drawn already: play the card you drew or pass")
    rig.move(0, "play", (drawn,), ("r7",), "")
    assert rig.turn().seat == 1 and rig.view()["top"] == "r7"


def test_draw_keep_a_playable_card_and_pass() -> None:
    rig = Rig([["b1", "b2"], ["y3", "y4"]], ["r5"], draws=["r7"])
    rig.move(0, "draw")
    rig.move(0, "pass")
    assert rig.turn().seat == 1 and rig.hand(0) == ["b1", "b2", "r7"]


def test_after_drawing_only_the_drawn_card_may_be_played() -> None:
    rig = Rig([["r1", "b2"], ["y3", "y4"]], ["r5"], draws=["g7"])
    rig.move(0, "draw")
    assert rig.legal(0) == [("pass",)]  # g7 does not fit
    illegal(rig, 0, rig.play_move(0, "r1"), "only the card you drew may be played now, or pass")


def test_without_play_after_draw_the_turn_passes() -> None:
    rig = Rig([["b1", "b2"], ["y3", "y4"]], ["r5"], draws=["r7"], play_after_draw=False)
    rig.move(0, "draw")
    assert rig.turn().seat == 1 and rig.view()["phase"] == "play"


# ----------------------------------------------------------------------------- skip, reverse


def test_skip_with_three_players() -> None:
    rig = Rig([["rS", "r1"], ["r2", "r3"], ["r4", "r6"]], ["r5"])
    rig.play(0, "rS")
    assert rig.turn().seat == 2


def test_reverse_with_three_players_and_with_two() -> None:
    rig = Rig([["rR", "r1"], ["r2", "r3"], ["r4", "r6"]], ["r5"])
    rig.play(0, "rR")
    assert rig.turn().seat == 2 and rig.state.direction == -1
    two = Rig([["rR", "r1"], ["r2", "r3"]], ["r5"])
    two.play(0, "rR")
    assert two.turn().seat == 0  # acts as a Skip


# ----------------------------------------------------------------------------- draw two, stacking


def answers(rig: Rig, seat: int) -> set[str]:
    """What ``seat`` may do about the card aimed at it: the labels it may put on, and the
    simple moves (accept, challenge)."""
    return {m[2][0] if m[0] == "play" else m[0] for m in rig.legal(seat)}


def test_default_stacking_is_the_seeds() -> None:
    assert KATO.validate_options({})["stacking"] == "seed"
    # The command line reads "off" as False: that spelling means "off".
    assert KATO.validate_options({"stacking": False})["stacking"] == "off"
    with pytest.raises(OptionError, match="seed, off, full"):
        KATO.validate_options({"stacking": True})


@pytest.mark.parametrize("stacking", ["seed", "off"])
def test_a_draw_twos_victim_draws_at_once_and_cannot_answer(stacking: str) -> None:
    rig = Rig(
        [["r+2", "r1"], ["b+2", "W+4"], ["g4", "g6"]], ["r5"], draws=["y1", "y2"],
        stacking=stacking,
    )  # fmt: skip
    rig.play(0, "r+2")
    assert rig.hand(1) == ["W+4", "b+2", "y1", "y2"]  # no chance to put anything on it
    assert rig.turn().seat == 2 and rig.view()["pending"] is None


def test_full_stacking_a_draw_two_takes_any_draw_two_or_a_draw_four() -> None:
    rig = Rig(
        [["r+2", "r1", "r2"], ["b+2", "b3", "W+4"], ["W+4", "g6", "g7"], ["y7", "y8", "y9"]],
        ["r5"],
        draws=[f"g{i}" for i in range(1, 9)],
        stacking="full",
    )
    rig.play(0, "r+2")
    assert rig.view()["pending"] == {"kind": "draw", "total": 2, "from": 0}
    assert answers(rig, 1) == {"accept", "b+2", "W+4"}  # no challenge of a Draw Two
    rig.play(1, "b+2")
    rig.play(2, "W+4", colour="y")
    assert rig.view()["pending"] == {"kind": "wild-draw-four", "total": 8, "from": 2}
    rig.move(3, "accept")
    assert len(rig.hand(3)) == 11 and rig.turn().seat == 0


@pytest.mark.parametrize("stacking", ["seed", "full"])
def test_on_a_draw_four_a_draw_two_of_any_colour_or_a_draw_four(stacking: str) -> None:
    rig = Rig(
        [["W+4", "r1", "r2"], ["b+2", "W+4", "y3"], ["y+2", "W+4", "g6"], ["y7", "y8", "y9"]],
        ["r5"],
        draws=[f"g{i}" for i in range(1, 9)],
        stacking=stacking,
    )
    rig.play(0, "W+4", colour="g")
    assert answers(rig, 1) == {"accept", "challenge", "b+2", "W+4"}  # blue on a green call
    rig.play(1, "b+2")
    assert rig.view()["pending"] == {"kind": "draw", "total": 6, "from": 1}
    # The seed: a Draw Two on a Draw Four takes only a Draw Four; the house rule: either.
    expected = {"accept", "W+4"} | ({"y+2"} if stacking == "full" else set())
    assert answers(rig, 2) == expected
    rig.play(2, "W+4", colour="r")
    rig.move(3, "accept")
    assert len(rig.hand(3)) == 3 + 10 and rig.turn().seat == 0


def test_without_stacking_a_draw_four_can_only_be_accepted_or_challenged() -> None:
    rig = Rig([["W+4", "r1", "r2"], ["W+4", "g+2", "r3"]], ["r5"], stacking="off")
    rig.play(0, "W+4", colour="g")
    assert rig.legal(1) == [("accept",), ("challenge",)]


# ----------------------------------------------------------------------------- multi-play


def test_multi_play_of_one_number() -> None:
    rig = Rig([["r5", "g5", "b5", "r1"], ["y2", "y3", "y4", "y6"]], ["r9"], multi_play=True)
    illegal(rig, 0, rig.play_move(0, "g5", "r5"), "g5 does not match")  # first must fit
    illegal(rig, 0, rig.play_move(0, "r5", "r1"), "one number")
    rig.play(0, "r5", "b5", "g5")
    assert rig.view()["top"] == "g5" and rig.view()["colour"] == "g" and rig.hand(0) == ["r1"]
    listed = [m for m in rig.legal(0) if m[0] == "play"]
    assert listed == []  # not seat 0's turn any more


def test_multi_play_listing_and_limits() -> None:
    rig = Rig([["r5", "g5", "b5", "rS"], ["y2", "y3", "y4", "yS"]], ["r9"], multi_play=True)
    firsts = {(m[1][0], m[1][-1], len(m[1])) for m in rig.legal(0) if m[0] == "play"}
    r5, g5, b5 = (rig.handle(0, x) for x in ("r5", "g5", "b5"))
    assert {(r5, r5, 1), (r5, g5, 2), (r5, b5, 2), (r5, g5, 3), (r5, b5, 3)} <= firsts
    plain = Rig([["r5", "g5"], ["y2", "y3"]], ["r9"])
    illegal(plain, 0, plain.play_move(0, "r5", "g5"), "option multi_play is off")
    actions = Rig([["rS", "gS", "r1"], ["y2", "y3", "y4"]], ["r9"], multi_play=True)
    illegal(actions, 0, actions.play_move(0, "rS", "gS"), "number cards")


# ----------------------------------------------------------------------------- reshuffle


def test_reshuffle_the_discard_pile_into_a_new_draw_pile() -> None:
    rig = Rig([["r1", "r2", "r3"], ["r4", "r6", "r7"]], ["r5"], hand_size=3)
    st = rig.state
    # Empty the draw pile into seat 1's hand (a catch-free way: keep drawing and passing).
    keep = len(st.deck)
    st_hands_before = len(st.hands[1])
    for _ in range(keep):
        seat = rig.turn().seat
        rig.move(seat, "draw")
        if rig.view()["phase"] == "drawn":
            rig.move(seat, "pass")
    assert len(st.deck) == 0 and st_hands_before < len(st.hands[1])
    # Play a card so the discard pile holds more than its top card.
    mover = rig.turn().seat
    card = next(c for c in rig.hand(mover) if c.startswith("r") and c[1:].isdigit())
    rig.play(mover, card)
    top_handle = st.discard[-1]
    rest = [rig.cards[h] for h in st.discard[:-1]]
    nxt = rig.turn().seat
    KATO.apply(st, nxt, ("draw",))
    status = KATO.status(st)
    assert isinstance(status, TableOps)
    shuffle = status.requests[0]
    assert isinstance(shuffle, Shuffle) and sorted(shuffle.cards) == sorted(rest)
    assert min(shuffle.handles) >= max(rig.cards)  # fresh handles
    rig.copies = []
    rig.settle()
    assert st.discard == [top_handle] and len(st.deck) == len(rest) - 1
    assert rig.view(nxt)["drawn"] is not None


def test_nothing_to_draw_means_no_draw() -> None:
    rig = Rig([["y1", "y2"], ["y3", "y4"]], ["r5"], hand_size=2)
    st = rig.state
    while st.deck:
        seat = rig.turn().seat
        rig.move(seat, "draw")
        if rig.view()["phase"] == "drawn":
            rig.move(seat, "pass")
    assert st.discard and len(st.discard) == 1
    seat = rig.turn().seat
    count = len(st.hands[seat])
    rig.move(seat, "draw")
    assert len(st.hands[seat]) == count and rig.turn().seat == 1 - seat
    assert rig.view()["phase"] == "play"


# ----------------------------------------------------------------------------- round end, scoring


def test_round_scoring_counts_card_values() -> None:
    rig = Rig([["r1", "r2"], ["b9", "gS"], ["W", "y+2"], ["cone", "bR"]], ["r5"], cones=1, rounds=1)
    rig.play(0, "r1")
    rig.move(0, "kato")
    # The others draw and pass, then seat 0 goes out.
    st = rig.state
    for seat in (1, 2, 3):
        rig.move(seat, "draw")
        if rig.view()["phase"] == "drawn":
            rig.move(seat, "pass")
    held = sum(points(c) for s in (1, 2, 3) for c in rig.hand(s))
    rig.play(0, "r2")
    status = KATO.status(st)
    assert isinstance(status, GameOver)
    assert status.outcome.totals == (held, 0, 0, 0) and status.outcome.winners == (0,)
    assert status.outcome.rounds == ((held, 0, 0, 0),)
    assert held >= 9 + 20 + 50 + 20 + 50 + 20


def test_a_round_ending_on_a_draw_two_makes_the_next_player_draw_first() -> None:
    rig = Rig([["r+2"], ["b9"], ["g1"]], ["r5"], draws=["g7", "y8"], hand_size=1, rounds=1)
    rig.play(0, "r+2")
    assert rig.hand(1) == ["b9", "g7", "y8"]
    assert KATO.outcome(rig.state).totals == (9 + 7 + 8 + 1, 0, 0)


def test_a_round_ending_on_a_stacked_draw_four_counts_the_whole_total() -> None:
    rig = Rig(
        [["W+4", "b1", "r9"], ["b3", "b4", "W+4"]],
        ["b5"],
        draws=["y7", *(f"g{i}" for i in range(1, 9))],
        rounds=1,
    )
    rig.play(0, "b1")
    rig.play(1, "b3")
    rig.move(0, "draw")
    rig.move(0, "pass")
    rig.play(1, "b4")
    rig.move(1, "kato")
    rig.play(0, "W+4", colour="r")
    rig.play(1, "W+4", colour="r")  # stacked, and seat 1's last card
    assert rig.hand(0) == [*(f"g{i}" for i in range(1, 9)), "r9", "y7"]
    out = KATO.outcome(rig.state)
    assert out.finished and out.totals == (0, 9 + 7 + sum(range(1, 9)))


def test_target_ends_the_game_or_a_new_round_begins() -> None:
    rig = Rig([["r1"], ["b9"]], ["r5"], hand_size=1, target=9)
    rig.play(0, "r1")
    status = KATO.status(rig.state)
    assert isinstance(status, GameOver) and status.outcome.winners == (0,)
    go_on = Rig([["r1"], ["b8"]], ["r5"], hand_size=1, target=9)
    go_on.play(0, "r1")
    assert not isinstance(KATO.status(go_on.state), GameOver)
    assert go_on.state.scores == [8, 0] and go_on.view()["round"] == 2


def test_fixed_rounds_highest_total_wins_and_ties_share() -> None:
    rig = Rig([["r1"], ["b9"]], ["r5"], hand_size=1, rounds=2)
    rig.play(0, "r1")
    assert not isinstance(KATO.status(rig.state), GameOver)
    # Round 2 starts with seat 1 and a fresh shuffle.
    seat = rig.turn().seat
    assert seat == 1
    while not isinstance(KATO.status(rig.state), GameOver):
        seat = rig.turn().seat
        moves = [m for m in rig.legal(seat) if m[0] == "play"] or [("draw",)]
        rig.move(seat, *moves[0])
        if rig.view()["phase"] == "drawn":
            rig.move(seat, "pass")
    out = KATO.outcome(rig.state)
    best = max(out.totals)
    assert out.finished and len(out.rounds) == 2
    assert out.winners == tuple(s for s in range(2) if out.totals[s] == best)

"""KaTO: the Wild Draw Four challenge, the audit, calling and catching KaTO, cones."""

from __future__ import annotations

import pytest
from kato_rig import Rig

from lanparty.games.kato import KATO
from lanparty.games.kato.bots import forced_move
from protocol.contract import IllegalMove, ShowToSeat, TableOps, Turn


def illegal(rig: Rig, seat: int, move: tuple[object, ...], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        KATO.check(rig.state, seat, move)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- challenge


def challenge(rig: Rig, seat: int) -> ShowToSeat:
    KATO.check(rig.state, seat, ("challenge",))
    for st in [rig.state, *rig.copies]:
        KATO.apply(st, seat, ("challenge",))
    status = KATO.status(rig.state)
    assert isinstance(status, TableOps)
    request = status.requests[0]
    assert isinstance(request, ShowToSeat)
    rig.settle()
    return request


def test_guilty_challenge() -> None:
    rig = Rig(
        [["W+4", "r1", "g2"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]],
        ["r5"],
        draws=["g4", "g5", "g6", "g7"],
    )
    rig.play(0, "W+4", colour="b")  # a bluff: seat 0 holds r1 and red is in play
    request = challenge(rig, 1)
    assert request == ShowToSeat(0, 1, (rig.handle(0, "r1"), rig.handle(0, "g2")))
    # Only the challenger's copy learned the hand; the third seat's did not.
    assert rig.view(1)["known"] == [(rig.handle(0, "r1"), "r1"), (rig.handle(0, "g2"), "g2")]
    assert "known" not in rig.view(2) and rig.handle(0, "r1") not in rig.copies[2].card_of
    assert rig.view()["challenge"] == {"by": 1, "of": 0, "colour": "r", "verdict": None}
    assert rig.legal(1) == [("verdict", "guilty")]
    # A false verdict is refused by every copy that knows the hand (the challenger's, the
    # challenged player's), and only the others have to take it on trust.
    for copy in (rig.state, rig.copies[0], rig.copies[1]):
        with pytest.raises(IllegalMove, match="verdict is false"):
            KATO.check(copy, 1, ("verdict", "innocent"))
    KATO.check(rig.copies[2], 1, ("verdict", "innocent"))
    rig.move(1, "verdict", "guilty")
    assert rig.hand(0) == ["g2", "g4", "g5", "g6", "g7", "r1"]
    assert rig.turn().seat == 1 and rig.view()["pending"] is None  # a normal turn
    assert rig.view()["colour"] == "b"
    rig.play(1, "b1")
    assert KATO.audit(rig.state, rig.cards) == []  # caught live: nothing left to flag


def test_the_challenge_is_on_show_until_play_moves_on_and_its_verdict_is_forced() -> None:
    rig = Rig(
        [["W+4", "r1", "g2"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]],
        ["r5"],
        draws=["g4", "g5", "g6", "g7"],
    )
    rig.play(0, "W+4", colour="b")
    for st in [rig.state, *rig.copies]:
        KATO.apply(st, 1, ("challenge",))
    # The hand is not shown yet (the table has the request to fulfil): nothing to read.
    assert "shown" not in rig.view(1)["challenge"]
    assert forced_move(rig.view(1), [("verdict", "guilty"), ("verdict", "innocent")]) is None
    rig.settle()
    views = [KATO.view(rig.copies[s], s) for s in range(3)]
    assert views[1]["challenge"]["shown"] == ["r1", "g2"]  # in the hand's order
    assert all("shown" not in v["challenge"] for v in (views[0], views[2]))
    # The challenger's program reads the verdict off the shown hand: red was in play.
    assert forced_move(views[1], rig.legal(1)) == ("verdict", "guilty")
    assert forced_move(views[0], rig.legal(0)) is None and forced_move(views[2], []) is None
    rig.move(1, "verdict", "guilty")
    assert rig.view(2)["challenge"] == {"by": 1, "of": 0, "colour": "r", "verdict": "guilty"}
    rig.play(1, "b1")  # play moves on: the challenge leaves the screen
    assert all("challenge" not in rig.view(s) for s in (None, 0, 1, 2))


def test_a_pass_or_an_accept_that_is_the_only_move_is_forced() -> None:
    rig = Rig([["b1", "b2"], ["y3", "y4"]], ["r5"], draws=["g7", "r7"])
    assert forced_move(rig.view(0), rig.legal(0)) is None  # draw or play: a choice
    rig.move(0, "draw")  # g7 does not fit
    assert forced_move(rig.view(0), rig.legal(0)) == ("pass",)
    assert forced_move(rig.view(1), [("pass",)]) is None  # not seat 1's turn
    cones = Rig([["rS", "r1", "r2"], ["b9", "b1", "b2"], ["y1", "y2", "y3"]], ["r5"], cones=1)
    cones.play(0, "rS")  # seat 1 holds no cone to send the Skip back
    assert forced_move(cones.view(1), cones.legal(1)) == ("accept",)


def test_innocent_challenge() -> None:
    rig = Rig(
        [["W+4", "g1", "g2"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]],
        ["r5"],
        draws=["g4", "g5", "g6", "g7", "g8", "g9"],
    )
    rig.play(0, "W+4", colour="b")
    challenge(rig, 1)
    assert rig.legal(1) == [("verdict", "innocent")]
    rig.move(1, "verdict", "innocent")
    assert len(rig.hand(1)) == 3 + 6 and rig.turn().seat == 2


def test_stacking_into_a_challenge_only_the_last_draw_four() -> None:
    rig = Rig(
        [["W+4", "r1", "r2"], ["W+4", "b1", "y2"], ["y1", "y3", "y4"]],
        ["r5"],
        draws=[f"g{i}" for i in range(1, 9)] + ["r3", "r4"],
    )
    rig.play(0, "W+4", colour="b")  # seat 0 bluffs (holds red)
    rig.play(1, "W+4", colour="y")  # seat 1 holds b1: it had blue, so this one is a bluff too
    request = challenge(rig, 2)
    assert request.from_seat == 1  # the last Draw Four only
    rig.move(2, "verdict", "guilty")
    assert len(rig.hand(1)) == 2 + 8  # the whole total
    assert rig.turn().seat == 2
    # Seat 0's bluff went unchallenged: the audit names it, with its step.
    violations = KATO.audit(rig.state, rig.cards)
    assert [(v.seat, v.rule) for v in violations] == [(0, "illegal-wild-draw-four")]
    assert violations[0].step == rig.state.wd4[0][0]
    assert "r1" in violations[0].detail


def test_a_draw_two_stacked_on_a_draw_four_cannot_be_challenged() -> None:
    rig = Rig([["W+4", "r1", "r2"], ["b+2", "b1", "y2"], ["y1", "y3", "y4"]], ["r5"])
    rig.play(0, "W+4", colour="b")
    rig.play(1, "b+2")
    illegal(rig, 2, ("challenge",), "a Draw Two on a Wild Draw Four makes it unchallengeable")
    assert ("challenge",) not in rig.legal(2)


def test_audit_flags_an_unchallenged_bluff_and_not_a_legal_draw_four() -> None:
    rig = Rig(
        [["W+4", "r1", "g2"], ["W+4", "g1", "y2"], ["y1", "y3", "y4"]],
        ["r5"],
        draws=[f"g{i}" for i in range(3, 9)] + ["b1"] * 2,
    )
    rig.play(0, "W+4", colour="b")  # bluff (holds r1)
    rig.move(1, "accept")
    step_of_bluff = rig.state.wd4[0][0]
    rig.move(2, "draw")
    if rig.view()["phase"] == "drawn":
        rig.move(2, "pass")
    violations = KATO.audit(rig.state, rig.cards)
    assert [(v.step, v.seat, v.rule) for v in violations] == [
        (step_of_bluff, 0, "illegal-wild-draw-four")
    ]
    with pytest.raises(Exception, match="identity"):
        KATO.audit(rig.state, {})


def test_audit_flags_a_false_verdict_taken_on_trust() -> None:
    rig = Rig(
        [["W+4", "g1", "g2"], ["b1", "b2", "b3"], ["y1", "y2", "y3"]],
        ["r5"],
        draws=[f"g{i}" for i in range(3, 9)],
    )
    rig.play(0, "W+4", colour="b")
    challenge(rig, 1)
    # Seat 2's copy cannot tell; it takes seat 1's (false) word, as a peer would.
    bystander = rig.copies[2]
    KATO.check(bystander, 1, ("verdict", "guilty"))
    KATO.apply(bystander, 1, ("verdict", "guilty"))
    violations = KATO.audit(bystander, rig.cards)
    assert [(v.seat, v.rule) for v in violations] == [(1, "false-verdict")]
    assert violations[0].step == bystander.wd4[0][5]


# ----------------------------------------------------------------------------- KaTO call


def kato_table() -> Rig:
    return Rig([["r1", "r2"], ["b1", "b2"], ["y1", "y2"]], ["r5"], draws=["g1", "g2", "g3", "g4"])


def test_one_card_opens_the_window_and_a_call_closes_it() -> None:
    rig = kato_table()
    rig.play(0, "r1")
    assert rig.turn() == Turn(1, (0, 2)) and rig.view()["kato"] == 0
    assert rig.legal(0) == [("kato",)] and rig.legal(2) == [("catch",)]
    illegal(rig, 0, ("catch",), "you cannot catch yourself: call kato instead")
    illegal(rig, 2, ("kato",), "no KaTO call is due: .*; you hold 2 cards")
    rig.move(0, "kato")
    assert rig.turn() == Turn(1) and rig.view()["kato"] is None
    illegal(rig, 2, ("catch",), "nobody to catch")


def test_a_call_made_with_the_play_cannot_be_caught() -> None:
    rig = kato_table()
    called = (*rig.play_move(0, "r1"), "kato")
    assert called in rig.legal(0) and rig.play_move(0, "r1") in rig.legal(0)
    assert KATO.moves.read(list(called)) == called
    rig.move(0, *called)
    assert rig.turn() == Turn(1) and rig.view()["kato"] is None  # no window to catch in
    illegal(rig, 2, ("catch",), "nobody")
    assert rig.hand(0) == ["r2"]


def test_the_call_goes_only_with_a_play_that_leaves_one_card() -> None:
    rig = Rig([["r1", "r2", "r3"], ["b1", "b2", "b3"]], ["r5"])
    assert not any(m[4:] for m in rig.legal(0))  # three cards: no play leaves one
    illegal(rig, 0, (*rig.play_move(0, "r1"), "kato"), "leaves you one card; this one leaves 2")
    illegal(rig, 0, (*rig.play_move(0, "r1"), "uno"), "only 'kato' may follow")


def test_catch_before_the_next_player_acts() -> None:
    rig = kato_table()
    rig.play(0, "r1")
    rig.move(2, "catch")
    assert rig.hand(0) == ["g1", "g2", "r2"] and rig.turn() == Turn(1)


def test_the_next_player_may_catch_too() -> None:
    rig = kato_table()
    rig.play(0, "r1")
    assert ("catch",) in rig.legal(1)
    rig.move(1, "catch")
    assert len(rig.hand(0)) == 3 and rig.turn() == Turn(1)


def test_too_late_to_catch_after_the_next_player_acted() -> None:
    rig = kato_table()
    rig.play(0, "r1")
    rig.play(1, "b1")  # seat 1 acted: seat 0 is safe (now seat 1 is the one to catch)
    assert rig.view()["kato"] == 1
    illegal(
        rig, 0, ("kato",), "^no KaTO call is due: it goes with the play that leaves you one card"
    )
    rig.move(2, "catch")
    assert rig.hand(0) == ["r2"] and len(rig.hand(1)) == 3


def test_a_late_call_before_anyone_acts_is_fine() -> None:
    rig = kato_table()
    rig.play(0, "r1")
    assert rig.turn().also == (0, 2)  # nothing happened yet: still in time
    rig.move(0, "kato")
    rig.play(1, "b1")
    assert rig.hand(0) == ["r2"]


def test_a_forced_draw_is_not_the_next_players_action() -> None:
    rig = Rig(
        [["r+2", "r1"], ["b1", "b2"], ["y1", "y2"]],
        ["r5"],
        draws=["g1", "g2", "g3", "g4"],
        stacking="off",
    )
    rig.play(0, "r+2")
    assert rig.hand(1) == ["b1", "b2", "g1", "g2"]  # seat 1 drew 2 and lost the turn
    assert rig.turn() == Turn(2, (0, 1))  # seat 0 can still be caught
    rig.move(1, "catch")
    assert rig.hand(0) == ["g3", "g4", "r1"]


# ----------------------------------------------------------------------------- cones


def test_reflecting_cone_sends_a_draw_two_back() -> None:
    rig = Rig(
        [["r+2", "r1", "r2"], ["cone", "b1", "b2"], ["y1", "y2", "y3"]],
        ["r5"],
        draws=["g1", "g2"],
        cones=1,
    )
    rig.play(0, "r+2")
    assert rig.legal(1)[0] == ("accept",)
    rig.play(1, "cone", colour="b")
    assert rig.hand(0) == ["g1", "g2", "r1", "r2"]
    assert rig.turn().seat == 2 and rig.view()["skips"] == [1, 0, 0]
    rig.move(2, "draw")
    rig.move(2, "pass")
    assert rig.turn().seat == 1  # seat 0 sits out the turn it owed
    assert rig.view()["skips"] == [0, 0, 0]


def test_reflecting_cone_answers_a_two_player_skip() -> None:
    rig = Rig([["rS", "r1", "r2"], ["cone", "b1", "b2"]], ["r5"], cones=1)
    rig.play(0, "rS")
    assert rig.turn().seat == 1 and rig.view()["pending"]["kind"] == "skip"
    assert rig.legal(1) == [("accept",)] + [
        ("play", (rig.handle(1, "cone"),), ("cone",), c) for c in "rygb"
    ]
    rig.play(1, "cone", colour="b")
    assert rig.turn().seat == 1  # seat 0 is skipped instead


def test_a_skip_is_accepted_when_there_is_no_cone() -> None:
    rig = Rig([["rS", "r1", "r2"], ["b9", "b1", "b2"], ["y1", "y2", "y3"]], ["r5"], cones=1)
    rig.play(0, "rS")
    rig.move(1, "accept")
    assert rig.turn().seat == 2


def test_reflecting_cone_is_a_plain_wild_otherwise() -> None:
    rig = Rig([["cone", "r1", "r2"], ["b9", "b1", "b2"]], ["g5"], cones=1)
    rig.play(0, "cone", colour="b")
    assert rig.turn().seat == 1 and rig.view()["colour"] == "b"


def test_reverse_cone() -> None:
    rig = Rig(
        [["cone", "r1", "r2"], ["b9", "b1", "b2"], ["y1", "y2", "y3"]],
        ["g5"],
        cones=1,
        cone_mode="reverse",
    )
    rig.play(0, "cone", colour="y")
    assert rig.state.direction == -1 and rig.turn().seat == 2 and rig.view()["colour"] == "y"


def test_draw_ten_cone() -> None:
    rig = Rig(
        [["cone", "r1", "r2"], ["b9", "b1", "b2"], ["y1", "y2", "y3"]],
        ["g5"],
        draws=[f"g{i}" for i in range(10)],
        cones=1,
        cone_mode="draw10",
    )
    rig.play(0, "cone", colour="y")
    assert len(rig.hand(1)) == 13 and rig.turn().seat == 2

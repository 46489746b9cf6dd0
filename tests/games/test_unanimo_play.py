"""Unanimo in play: scoring (the rulebook's way, with our own worked examples), bonus
thresholds for 3-8 players, leader rotation, closing the writing, a seat that handed in
nothing, the objection vote, views, options, the encoding and the rules text."""

from __future__ import annotations

import re

import msgpack
import pytest
from unanimo_rig import Rig

from lanparty.games import rules_text
from lanparty.games.unanimo import PLUGIN, UNANIMO
from lanparty.games.unanimo.reading import THRESHOLDS
from lanparty.games.unanimo.subjects import SUBJECTS
from protocol.contract import (
    BadResult,
    CoinResult,
    Commit,
    Committed,
    CommitTimeout,
    GameError,
    GameOver,
    IllegalMove,
    JointCoin,
    Open,
    OptionError,
    Revealed,
    TableOps,
    Turn,
)

G = UNANIMO

# ----------------------------------------------------------------------------- scoring


def test_rules_example_four_players_beach() -> None:
    """The worked example of lanparty/games/rules/unanimo.md."""
    rig = Rig(4)
    rig.play_card(
        "Beach",
        {
            0: ("sand", "sea", "sun", "towel"),
            1: ("sand", "sea", "sun", "waves"),
            2: ("sand", "sea", "shells"),
            3: ("sand", "Sand", "beaches", "42"),
        },
    )
    assert rig.reading() == [
        ("sand", (0, 1, 2, 3), 4, None),
        ("sea", (0, 1, 2), 3, None),
        ("sun", (0, 1), 2, None),
        ("towel", (0,), 0, None),
        ("waves", (1,), 0, None),
        ("shells", (2,), 0, None),
        ("beaches", (3,), 0, "root"),
        ("42", (3,), 0, "symbols"),
    ]
    [row] = G.view(rig.state, None)["sheet"]
    assert row["points"] == [9, 9, 7, 4] and row["bonus"] == [0, 0, 0, 0]
    assert rig.state.scores == [9, 9, 7, 4]


def test_seed_example_four_hands_up_for_red() -> None:
    """As in the seed's example: four players wrote "Red", so each of them scores 4; the
    fifth, who did not, scores nothing for it; a word one player alone wrote gives 0."""
    rig = Rig(5)
    rig.play_card(
        "Strawberry",
        {0: ("Red", "jam"), 1: ("red", "cream"), 2: ("RED",), 3: (" red ", "cream"),
         4: ("seeds",)},
    )  # fmt: skip
    assert rig.reading() == [
        ("Red", (0, 1, 2, 3), 4, None),
        ("jam", (0,), 0, None),
        ("cream", (1, 3), 2, None),
        ("seeds", (4,), 0, None),
    ]
    assert rig.state.scores == [4, 6, 4, 6, 0]


def test_reading_goes_round_from_the_leader_and_announces_each_word_once() -> None:
    rig = Rig(3)
    rig.play_card("Winter", {0: ("snow",), 1: ("cold",), 2: ("ice",)})  # card 1: leader 0
    rig.draw("Summer")  # card 2: leader 1
    rig.hand_in(0, "sun", "beach")
    rig.hand_in(1, "beach", "sea")
    rig.hand_in(2, "sea", "sun", "sun")
    assert rig.open_all() == [1, 2, 0]
    view = G.view(rig.state, 2)
    assert [(a["word"], a["by"], a["writers"]) for a in view["reading"]] == [
        ("beach", 1, [0, 1]),
        ("sea", 1, [1, 2]),
        ("sun", 2, [0, 2]),  # seat 2's repeated "sun" counts once
    ]
    # Each player's words in the order written, with the announcement each one joined.
    assert view["columns"] == [
        (("sun", 2), ("beach", 0)),
        (("beach", 0), ("sea", 1)),
        (("sea", 1), ("sun", 2), ("sun", 2)),
    ]
    rig.all_done()
    assert [row["points"] for row in G.view(rig.state, None)["sheet"]] == [[0, 0, 0], [4, 4, 4]]


def _words_for(points: int, n: int) -> dict[int, tuple[str, ...]]:
    """Words giving seat 0 exactly ``points``: each word written by seat 0 and k-1 others."""
    sizes = []
    while points:
        k = min(n, points)
        if points - k == 1:
            k -= 1
        sizes.append(k)
        points -= k
    words: dict[int, tuple[str, ...]] = {s: () for s in range(n)}
    for i, k in enumerate(sizes):
        for s in range(k):
            words[s] += (("sand", "sea", "sun", "waves", "towel", "shells", "summer", "swim")[i],)
    return words


@pytest.mark.parametrize("n", range(3, 9))
def test_bonus_threshold_by_player_count(n: int) -> None:
    need = THRESHOLDS[n]
    assert need == {3: 12, 4: 15, 5: 18, 6: 20, 7: 22, 8: 24}[n]
    rig = Rig(n, cards=2)
    rig.play_card("Beach", _words_for(need, n))
    rig.play_card("Ocean", _words_for(need - 1, n))
    first, second = G.view(rig.state, None)["sheet"]
    assert (first["points"][0], first["bonus"][0], first["total"][0]) == (need, 5, need + 5)
    assert (second["points"][0], second["bonus"][0]) == (need - 1, 0)
    assert G.outcome(rig.state).rounds[0][0] == need + 5
    assert G.view(rig.state, None)["threshold"] == need


def test_the_game_ends_after_the_cards_and_ties_share_the_win() -> None:
    rig = Rig(3, cards=2)
    rig.play_card("Cat", {0: ("milk",), 1: ("milk",), 2: ("mouse",)})
    rig.play_card("Dog", {0: ("bone",), 1: ("walk",), 2: ("bone",)})
    st = G.status(rig.state)
    assert isinstance(st, GameOver) and st.outcome.finished
    assert st.outcome.totals == (4, 2, 2) and st.outcome.winners == (0,)
    assert st.outcome.rounds == ((2, 2, 0), (2, 0, 2))
    tie = Rig(3, cards=1)
    tie.play_card("Cat", {0: ("milk",), 1: ("milk",), 2: ("fur",)})
    assert G.outcome(tie.state).winners == (0, 1)
    assert G.view(tie.state, None)["phase"] == "over"


def test_subjects_are_drawn_by_coin_among_unused_cards_in_card_order() -> None:
    st = G.setup(3, {"cards": 3})
    status = G.status(st)
    assert status == TableOps((JointCoin(len(SUBJECTS), "subject"),))
    G.resolve(st, CoinResult(5))
    assert st.used == [5] and G.view(st, 0)["subject"]["en"] == SUBJECTS[5][0]
    assert G.view(st, 0)["subject"] == {"card": 5, "en": SUBJECTS[5][0], "pl": SUBJECTS[5][1],
                                        "es": SUBJECTS[5][2]}  # fmt: skip
    for seat in range(3):
        G.resolve(st, Committed(seat))
    for seat in (0, 1, 2):
        G.apply(st, seat, ("words", ()))
    assert G.status(st) == TableOps((JointCoin(len(SUBJECTS) - 1, "subject"),))
    G.resolve(st, CoinResult(5))  # the 6th unused card is now card 6
    assert st.used == [5, 6]


# ----------------------------------------------------------------------------- writing


def test_leader_rotates_clockwise_from_the_host() -> None:
    rig = Rig(4, cards=6)
    leaders = []
    for name in ("Cat", "Dog", "Cow", "Owl", "Bee", "Sun"):
        rig.draw(name)
        leaders.append(rig.state.leader)
        st = G.status(rig.state)
        assert isinstance(st, Commit) and st.seats == tuple((rig.state.leader + i) % 4
                                                            for i in range(4))  # fmt: skip
        for seat in range(4):
            rig.hand_in(seat, "x")
        assert rig.open_all() == [(leaders[-1] + i) % 4 for i in range(4)]
        rig.all_done()
    assert leaders == [0, 1, 2, 3, 0, 1]


def test_without_timer_only_the_leader_closes_and_only_once_half_handed_in() -> None:
    rig = Rig(5, cards=2)
    rig.play_card("Cat", {s: ("milk",) for s in range(5)})  # card 2 is led by seat 1
    rig.draw("Dog")
    assert G.status(rig.state) == Commit((1, 2, 3, 4, 0), 0, None)
    with pytest.raises(BadResult, match="cannot be closed"):
        rig.feed(CommitTimeout((1, 2, 3, 4, 0)))
    rig.hand_in(3, "bone")
    rig.hand_in(0, "bone")
    assert G.status(rig.state) == Commit((1, 2, 4), 0, None)  # 2 of 5: not half yet
    assert G.view(rig.state, 1)["closer"] is None
    rig.hand_in(4, "walk")
    assert G.status(rig.state) == Commit((1, 2), 0, 1)  # 3 of 5: the leader may close
    assert G.view(rig.state, 1)["closer"] == 1
    with pytest.raises(BadResult, match="still writing are"):
        rig.feed(CommitTimeout((1,)))  # it must name exactly the seats still missing
    rig.close()
    assert G.status(rig.state) == Open((3, 4, 0))
    assert rig.state.absent == [False, True, True, False, False]


def test_with_a_timer_too_the_leader_closes_only_once_half_handed_in() -> None:
    """Rules, "A round" 2: "With a timer too, writing closes early only when everyone has
    handed in, or by the leader's ``close`` once at least half the table has handed in:
    never by ``close`` before that." (issue 21: with ``timer=60`` the leader could close in
    the first second and everyone scored 0)."""
    rig = Rig(4, timer=60)
    rig.draw("Cat")
    assert G.status(rig.state) == Commit((0, 1, 2, 3), 60, None)  # nobody may close yet
    assert G.view(rig.state, 0)["closer"] is None
    with pytest.raises(BadResult, match="cannot be closed"):
        rig.feed(CommitTimeout((0, 1, 2, 3)))
    rig.hand_in(2, "milk")
    assert G.status(rig.state) == Commit((0, 1, 3), 60, None)  # 1 of 4: not half
    rig.hand_in(3, "milk")
    assert G.status(rig.state) == Commit((0, 1), 60, 0)  # 2 of 4: the leader may close
    rig.close()
    rig.open_all()
    rig.all_done()
    assert G.view(rig.state, None)["sheet"][0]["points"] == [0, 0, 2, 2]


def test_a_seat_that_handed_in_nothing_writes_nothing_and_scores_zero() -> None:
    rig = Rig(4)
    rig.draw("Dog")
    for seat in (0, 1, 3):
        rig.hand_in(seat, "bone", "bark")
    rig.close()
    view = G.view(rig.state, 2)
    assert view["absent"] == [False, False, True, False] and view["writing"] == []
    with pytest.raises(IllegalMove, match="the writing is over"):
        G.check(rig.state, 2, ("words", ("bone", "bark")))  # too late
    assert rig.open_all() == [0, 1, 3]
    assert [a["writers"] for a in G.view(rig.state, None)["reading"]] == [[0, 1, 3], [0, 1, 3]]
    rig.all_done()
    view = G.view(rig.state, None)
    row = view["sheet"][0]
    assert row["points"] == [6, 6, 0, 6] and row["absent"] == [2]
    assert view["columns"][2] is None and view["reading_card"] == 0


def test_handing_in_twice_or_out_of_phase_is_refused() -> None:
    rig = Rig(3)
    with pytest.raises(IllegalMove, match="drawing the subject"):
        G.check(rig.state, 0, ("words", ("x",)))
    rig.draw("Cat")
    rig.hand_in(0, "milk")
    with pytest.raises(IllegalMove, match="handed in your words already"):
        G.check(rig.state, 0, ("words", ("fur",)))
    with pytest.raises(BadResult, match="no words to hand in"):
        rig.feed(Committed(0))
    with pytest.raises(BadResult):
        rig.feed(Revealed((1,), ("x",)))
    with pytest.raises(BadResult, match="no coin"):
        rig.feed(CoinResult(0))
    for move, reason in [
        (("object", "milk"), "objections and appeals come after the reading"),
        (("vote", "keep"), "no vote now"),
        (("done",), "objections and appeals come after the reading"),
        (("shout",), "unknown move"),
        (("words",), r"hand in \('words'"),
    ]:
        with pytest.raises(IllegalMove, match=reason):
            G.check(rig.state, 1, move)


def test_legal_moves_while_writing_is_the_empty_template() -> None:
    rig = Rig(3)
    rig.draw("Cat")
    rig.hand_in(0, "milk")
    assert G.legal_moves(rig.state, 0) == []
    assert G.legal_moves(rig.state, 1) == [("words", ())]


# ----------------------------------------------------------------------------- objections


def _objections_table() -> Rig:
    rig = Rig(4)
    rig.draw("Dog")
    rig.hand_in(0, "bone", "bark", "cat")
    rig.hand_in(1, "bone", "bark")
    rig.hand_in(2, "bone", "walk")
    rig.hand_in(3, "walk", "cat")
    rig.open_all()
    return rig


def test_objections_phase_asks_everyone_and_lists_what_can_be_objected() -> None:
    rig = _objections_table()
    assert G.status(rig.state) == Turn(0, (1, 2, 3), free=True)
    assert G.legal_moves(rig.state, 2) == [
        ("done",), ("object", "bone"), ("object", "bark"), ("object", "cat"), ("object", "walk"),
    ]  # fmt: skip
    with pytest.raises(IllegalMove, match="'zzz' is not a scoring word"):
        G.check(rig.state, 2, ("object", "zzz"))
    rig.move(0, ("done",))
    assert G.status(rig.state) == Turn(1, (2, 3), free=True)
    with pytest.raises(IllegalMove, match="done with objections"):
        G.check(rig.state, 0, ("object", "cat"))


def test_a_majority_of_the_other_players_rejects_a_word() -> None:
    rig = _objections_table()
    rig.move(3, ("object", "bark"))
    view = G.view(rig.state, 3)
    assert view["phase"] == "vote" and view["vote"]["key"] == "bark"
    assert view["vote"]["needed"] == 2  # of the 3 other players
    assert G.status(rig.state) == Turn(0, (1, 2), free=True)
    with pytest.raises(IllegalMove, match="does not vote"):
        G.check(rig.state, 3, ("vote", "reject"))
    with pytest.raises(IllegalMove, match="vote is under way"):
        G.check(rig.state, 2, ("object", "cat"))
    rig.move(1, ("vote", "reject"))
    with pytest.raises(IllegalMove, match="voted already"):
        G.check(rig.state, 1, ("vote", "keep"))
    rig.move(2, ("vote", "reject"))  # 2 of 3: settled, seat 0 is not asked
    assert rig.state.phase == 3 and G.status(rig.state) == Turn(0, (1, 2, 3), free=True)
    bark = next(a for a in G.view(rig.state, None)["reading"] if a["key"] == "bark")
    assert (bark["points"], bark["rejected"]) == (0, "vote")
    assert G.view(rig.state, None)["verdicts"] == [
        {"key": "bark", "by": 3, "rejected": True, "appeal": False}
    ]
    with pytest.raises(IllegalMove, match="not a scoring word"):
        G.check(rig.state, 0, ("object", "bark"))  # once per word
    for seat in range(4):
        rig.move(seat, ("done",))
    assert rig.state.scores == [5, 3, 5, 4]  # bone 3, cat 2, walk 2; bark 0


def test_a_word_is_kept_once_rejection_cannot_win() -> None:
    rig = _objections_table()
    rig.move(0, ("object", "walk"))
    rig.move(1, ("vote", "keep"))
    assert rig.state.phase == 4  # 1 keep of 3: still open
    rig.move(3, ("vote", "keep"))  # 2 keeps of 3: rejection cannot reach 2
    assert rig.state.phase == 3
    assert rig.state.verdicts == [("walk", 0, False, False)]
    assert ("object", "walk") not in G.legal_moves(rig.state, 2)


def test_three_players_need_both_others_to_reject() -> None:
    rig = Rig(3)
    rig.draw("Cat")
    for seat in range(3):
        rig.hand_in(seat, "milk")
    rig.open_all()
    rig.move(2, ("object", "milk"))
    rig.move(0, ("vote", "reject"))
    assert rig.state.phase == 4
    rig.move(1, ("vote", "keep"))
    # Kept; nothing else to object to, so the card is scored without more "done"s.
    assert rig.state.scores == [3, 3, 3] and len(rig.state.sheet) == 1


def test_no_objection_phase_when_nothing_scores() -> None:
    rig = Rig(3)
    rig.draw("Cat")
    for seat, word in enumerate(("milk", "fur", "mouse")):
        rig.hand_in(seat, word)
    rig.open_all()
    assert len(rig.state.sheet) == 1 and isinstance(G.status(rig.state), TableOps)
    assert [a["word"] for a in G.view(rig.state, 0)["reading"]] == ["milk", "fur", "mouse"]
    assert G.view(rig.state, 0)["reading_card"] == 0


# ----------------------------------------------------------------------------- views


def test_views_show_who_handed_in_never_a_sealed_word() -> None:
    rig = Rig(3)
    rig.draw("Cat")
    rig.hand_in(0, "secretword")
    rig.hand_in(1, "otherword")
    for seat in (0, 1, 2, None):
        view = G.view(rig.state, seat)
        assert view["handed_in"] == [True, True, False] and view["writing"] == [2]
        assert "secretword" not in repr(view) and "otherword" not in repr(view)
    assert G.view(rig.state, 0) == {**G.view(rig.state, None), "seat": 0}
    rig.hand_in(2, "thirdword")
    assert "secretword" not in repr(G.view(rig.state, None))
    rig.open_all()
    assert "secretword" in repr(G.view(rig.state, None))


def test_reveals_nothing_and_audits_nothing() -> None:
    for move in (("words", ("a",)), ("object", "a"), ("vote", "keep"), ("done",)):
        assert G.reveals(move) == {}
    assert G.audit(G.setup(3, {}), {}) == []


# ----------------------------------------------------------------------------- moves, state


def test_decode_move_gives_canonical_tuples() -> None:
    assert G.moves.read(["words", ["a", "b"]]) == ("words", ("a", "b"))
    assert G.moves.read(["vote", "keep"]) == ("vote", "keep")
    assert G.moves.read(["done"]) == ("done",)
    for bad in ([], ["play", 1], ["done", 1], ["words", "ab"], ["words", [1]], "words", None):
        with pytest.raises(IllegalMove):
            G.moves.read(bad)  # type: ignore[arg-type]


def test_encoding_round_trips_mid_vote_and_refuses_garbage() -> None:
    rig = _objections_table()
    rig.move(3, ("object", "bark"))
    enc = G.encode_state(rig.state)
    back = G.decode_state(msgpack.unpackb(msgpack.packb(enc), raw=False))
    assert msgpack.packb(G.encode_state(back)) == msgpack.packb(enc)
    assert G.view(back, 1) == G.view(rig.state, 1)
    assert G.legal_moves(back, 1) == G.legal_moves(rig.state, 1)
    for bad in (None, {"game": "kato"}, {**enc, "handed": [True]}, {**enc, "phase": 9}):
        with pytest.raises(GameError):
            G.decode_state(bad)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- options, text


def test_options_defaults_and_errors() -> None:
    assert G.validate_options({}) == {"cards": 3, "timer": 0, "words": "en", "fold_accents": True,
                                      "norm": 2}  # fmt: skip
    assert {s.name for s in G.option_specs} == set(G.validate_options({}))
    for given, option in [
        ({"cards": 0}, "cards"),
        ({"cards": len(SUBJECTS) + 1}, "cards"),
        ({"timer": -1}, "timer"),
        ({"timer": True}, "timer"),
        ({"fold_accents": 1}, "fold_accents"),
        ({"words": "de"}, "words"),
        ({"words": 1}, "words"),
        ({"rounds": 3}, "rounds"),
    ]:
        with pytest.raises(OptionError) as err:
            G.validate_options(given)
        assert err.value.option == option
    for seats in (2, 9):
        with pytest.raises(OptionError, match="3 to 8 players"):
            G.setup(seats, {})


def test_rules_text_lists_every_option_with_its_default() -> None:
    text = rules_text("unanimo")  # the options listed once, generated from the specs
    listed = dict(re.findall(r"^- `(\w+)` \(default `([^`]+)`;", text, re.MULTILINE))
    expected = {s.name: str(s.default).lower() for s in G.option_specs}
    assert listed == expected
    assert "Unanimo" in text and "objection" in text.lower()


def test_plugin_offers_both_bots() -> None:
    assert PLUGIN.game is UNANIMO and set(PLUGIN.bots()) == {"random", "heuristic"}

"""Kill the Unicorns hunts: bidding and the token, sealed cards, ties and escapes, the Knight
and the Wizard, the black market, the days and the variants."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from unicorns_rig import G, Rig

from protocol.contract import Commit, Committed, IllegalMove, Open, Turn

ROW = ["pink-4", "blue-2", "legendary"]
SCHEMES = {0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]}


def hunting(**options: Any) -> Rig:
    """Three players without schemes (so every hunt is plain): Princess, Knight, Wizard;
    seat 0 first; row pink-4, blue-2, legendary. Powers off unless asked for."""
    options.setdefault("powers", False)
    options.setdefault("initiation", "no_schemes")
    return Rig(
        3,
        unicorns=ROW,
        characters=["princess", "knight", "wizard"],
        start=["pink", "blue", "green"],
        **options,
    )


def illegal(rig: Rig, seat: int, move: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        G.check(rig.state, seat, move)


# ----------------------------------------------------------------------------- bidding


def test_a_hunt_is_a_public_count_then_one_sealed_seat_at_a_time() -> None:
    rig = hunting()
    assert rig.view()["phase"] == "bid" and rig.turn() == Turn(0)
    assert rig.legal(0) == [("hunt", 1), ("hunt", 2), ("hunt", 3), ("pass",)]
    illegal(rig, 0, ("join",), "nobody has started")
    illegal(rig, 0, ("hunt", 4), "1 to 3")
    illegal(rig, 1, ("pass",), "not your turn")
    rig.move(0, "hunt", 2)
    assert G.status(rig.state) == Commit((0,))
    assert rig.legal(0)[:3] == [("cards", (0, 1)), ("cards", (0, 2)), ("cards", (0, 3))]
    assert len(rig.legal(0)) == len({m[1] for m in rig.legal(0)}) == 13  # each pair once
    illegal(rig, 0, ("cards", (4,)), "exactly 2")
    illegal(rig, 0, ("cards", (4, 3)), "lowest first")
    illegal(rig, 0, ("cards", (4, 4)), "do not hold")
    illegal(rig, 1, ("cards", (1, 2)), "not your turn")
    rig.seal(0, "cards", (3, 4))
    assert rig.turn() == Turn(1)
    assert rig.legal(1) == [("join",), ("pass",)]
    illegal(rig, 1, ("hunt", 2), "under way")
    hunt = rig.view(1)["hunt"]
    assert hunt["bid"] == 2 and hunt["takers"] == [0] and hunt["sealed"] == [0]
    assert hunt["cards"] == [[], [], []]  # nobody sees the sealed cards, seat 0 included
    assert rig.view(0)["hands"][0] == [0, 1, 1, 2, 2, 3, 3, 4]
    rig.join(1, 2, 2)
    rig.pass_(2)
    # Everyone has decided: the hunters' cards were opened in order and are public.
    assert [m for s, m in rig.log if s is not None][-3:] == [
        ("pass",),
        ("cards", (3, 4)),
        ("cards", (2, 2)),
    ]
    assert rig.collection(0)[-1] == "pink-4"
    assert rig.view(2)["hands"][:2] == [[0, 1, 1, 2, 2, 3], [0, 1, 1, 3, 3, 4]]
    assert rig.view(2)["played"][:2] == [[3, 4], [2, 2]]


def test_the_table_sees_commit_then_open_in_join_order() -> None:
    rig = hunting(copies=False)
    statuses = []
    rig.move(0, "pass")
    rig.move(1, "hunt", 1)
    statuses.append(G.status(rig.state))
    G.resolve(rig.state, Committed(1))
    rig.move(2, "join")
    statuses.append(G.status(rig.state))
    G.resolve(rig.state, Committed(2))
    statuses.append(G.status(rig.state))
    assert statuses == [Commit((1,)), Commit((2,)), Open((1, 2))]
    G.check(rig.state, 1, ("cards", (3,)))
    G.apply(rig.state, 1, ("cards", (3,)))
    assert G.status(rig.state) == Open((2,))


def test_sealed_cards_leave_no_trace_before_the_opening() -> None:
    def upto_open(values: tuple[int, ...]) -> list[bytes]:
        rig = hunting()
        rig.move(0, "hunt", 1)
        rig.seal(0, "cards", values)
        rig.pass_(1)
        return [msgpack.packb(G.encode_state(st)) for st in (rig.state, *rig.copies)]

    # Every copy (the omniscient one included) is the same whichever cards were sealed.
    low = upto_open((0,))
    assert len(low) == 4 and low == upto_open((4,))


def test_first_player_passing_hands_the_token_left() -> None:
    rig = hunting()
    rig.pass_(0)
    assert rig.view()["first"] == 1 and rig.turn() == Turn(1)
    assert rig.legal(1)[0] == ("hunt", 1)  # seat 1 now sets the count
    rig.hunt(1, 1)
    rig.join(2, 4)
    # Seat 0 passed and never gets another say on this unicorn.
    assert rig.collection(2)[-1] == "pink-4" and rig.view()["first"] == 2
    assert rig.turn() == Turn(2)  # the next hunt starts with the new first player


def test_everyone_passing_lets_the_unicorn_escape_and_the_token_go_round() -> None:
    rig = hunting()
    rig.pass_(0, 1, 2)
    pink = rig.unicorn("pink-4")
    assert pink in rig.state.escaped and rig.view()["first"] == 0 and rig.turn() == Turn(0)
    assert [e["label"] for e in rig.view()["row"]] == ["blue-2", "legendary"]


def test_a_player_without_enough_cards_must_pass() -> None:
    rig = hunting()
    rig.hunt(0, 0, 1, 1)
    rig.join(1, 2, 2, 3)
    rig.pass_(2)
    rig.hunt(1, 0, 1, 1)  # seat 1 won and opens; seats 0 and 1 keep only a 3 and a 4
    rig.join(2, 3, 3, 4)
    rig.join(0, 2, 2, 3)
    assert rig.view()["first"] == 2 and rig.view()["hands"][:2] == [[3, 4], [3, 4]]
    rig.hunt(2, 0, 1, 1)
    assert rig.legal(0) == [("pass",)]
    illegal(rig, 0, ("join",), "hold fewer: pass")
    rig.pass_(0)
    assert rig.legal(1) == [("pass",)]
    rig.pass_(1)
    assert rig.view()["phase"] == "market" and rig.turn() == Turn(2)
    assert rig.legal(0) == [] and G.legal_moves(rig.state, 2)[-1] == ("decline",)


def test_a_hunt_cannot_take_more_cards_than_the_opener_holds() -> None:
    rig = hunting()
    rig.hunt(0, 4, 3, 3)
    rig.pass_(1, 2)
    rig.hunt(0, 2, 2, 1)
    rig.pass_(1, 2)
    assert rig.view()["hands"][0] == [0, 1]
    assert rig.legal(0) == [("hunt", 1), ("hunt", 2), ("pass",)]
    illegal(rig, 0, ("hunt", 3), "only 2")


def test_an_empty_hand_can_only_pass() -> None:
    rig = hunting()
    rig.hunt(0, 4, 3, 3)
    rig.pass_(1, 2)
    rig.hunt(0, 2, 2, 1)
    rig.pass_(1, 2)
    rig.hunt(0, 0, 1)
    rig.pass_(1, 2)
    assert rig.view()["phase"] == "market" and rig.view()["hands"][0] == []
    assert rig.legal(0) == [("decline",)]


# ----------------------------------------------------------------------------- ties


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (((3,), (3,), (2,)), 2),  # the shared 3 is out: 2 wins
        (((4,), (2,), (2,)), 0),
        (((1,), (2,), (3,)), 2),
        (((0,), (0,), (0,)), -1),  # all tied: it escapes
        (((2,), (2,), None), -1),
        (((0,), None, None), 0),  # a lone hunter wins even with 0
    ],
)
def test_every_shared_total_is_out(cards: tuple[tuple[int, ...] | None, ...], winner: int) -> None:
    rig = hunting()
    rig.hunt(0, *cards[0])  # type: ignore[misc]
    for seat in (1, 2):
        values = cards[seat]
        if values is None:
            rig.pass_(seat)
        else:
            rig.join(seat, *values)
    pink = rig.unicorn("pink-4")
    if winner < 0:
        assert pink in rig.state.escaped
    else:
        assert rig.state.collections[winner][-1] == pink


def test_four_players_two_pairs_tie_and_it_escapes() -> None:
    rig = Rig(4, unicorns=["pink-4"], initiation="no_schemes", powers=False)
    first = rig.turn().seat
    rig.hunt(first, 3)
    for k in (1, 2, 3):
        rig.join((first + k) % 4, 3 if k == 1 else 2)
    assert rig.unicorn("pink-4") in rig.state.escaped


# ----------------------------------------------------------------------------- Knight, Wizard


def test_knight_adds_two_before_the_winner_is_known() -> None:
    rig = hunting(powers=True)
    rig.hunt(0, 4)
    rig.join(1, 3)
    rig.pass_(2)
    assert rig.view()["phase"] == "knight" and rig.turn() == Turn(1)
    assert rig.legal(1) == [("boost",), ("decline",)]
    assert rig.view()["hunt"]["totals"] == [[0, 4], [1, 3]]
    rig.move(1, "boost")
    assert rig.collection(1)[-1] == "pink-4" and rig.view()["first"] == 1
    assert rig.view()["used"][1]
    # Once a day: the next hunt he joins offers no window.
    rig.hunt(1, 1)
    rig.join(2, 2)
    rig.join(0, 3)
    assert rig.collection(0)[-1] == "blue-2"


def test_knight_boost_can_create_a_tie() -> None:
    rig = hunting(powers=True)
    rig.hunt(0, 4)
    rig.join(1, 2)
    rig.join(2, 1)
    rig.move(1, "boost")  # 4 and 4 are out: the Wizard's 1 wins
    assert rig.collection(2)[-1] == "pink-4"


def test_knight_alone_gets_no_window() -> None:
    rig = hunting(powers=True)
    rig.pass_(0)
    rig.hunt(1, 1)
    rig.pass_(2)
    assert rig.collection(1)[-1] == "pink-4" and rig.view()["phase"] == "bid"


def test_wizard_takes_back_a_card_once_a_day() -> None:
    rig = hunting(powers=True)
    rig.hunt(0, 1, 1)
    rig.move(1, "pass")
    rig.join(2, 4, 3)
    assert rig.view()["phase"] == "wizard" and rig.turn() == Turn(2)
    assert rig.legal(2) == [("recall", 3), ("recall", 4), ("decline",)]
    illegal(rig, 2, ("recall", 2), "played in this hunt")
    rig.move(2, "recall", 4)
    assert rig.view()["hands"][2] == [0, 1, 1, 2, 2, 3, 4]
    assert rig.view()["played"][2] == [3]
    rig.hunt(2, 4)  # the Wizard won and opens the next hunt with the card he took back
    rig.join(0, 0)
    rig.pass_(1)
    assert rig.collection(2)[-1] == "blue-2"
    assert rig.view()["phase"] == "bid"  # no second recall today


def test_no_powers_initiation_has_no_windows() -> None:
    rig = hunting(initiation="no_schemes_no_powers")
    rig.hunt(0, 4)
    rig.join(1, 3)
    rig.join(2, 2)
    assert rig.collection(0)[-1] == "pink-4" and rig.view()["phase"] == "bid"
    illegal(rig, 0, ("peek", 0), "only the Princess")


def test_no_schemes_keeps_knight_and_wizard_but_not_princess_or_shaman() -> None:
    rig = hunting(powers=True)
    assert rig.view()["powers"] == [False, True, True]
    assert rig.view()["schemes_in_play"] is False and rig.view()["scheme_decks"] == [0, 0, 0]


# ----------------------------------------------------------------------------- the market


def _to_market(rig: Rig) -> None:
    """Seat 0 takes pink-4 with a 0; the other two unicorns escape."""
    rig.hunt(0, 0)
    rig.pass_(1, 2)
    rig.pass_(0, 1, 2, 0, 1, 2)
    assert rig.view()["phase"] == "market" and rig.turn() == Turn(0)


def test_market_purchases_in_turn_with_exact_payment() -> None:
    rig = hunting()
    _to_market(rig)
    pink = rig.unicorn("pink-4")
    start = rig.state.collections[0][0]
    illegal(rig, 0, ("buy", "horn", pink, "", (1, 1)), "not enough")
    illegal(rig, 0, ("buy", "horn", pink, "", (1, 3)), "no card more than needed")
    illegal(rig, 0, ("buy", "horn", pink, "", (4, 4)), "do not hold")
    illegal(rig, 0, ("buy", "horn", pink, "", (4, 1)), "lowest first")
    illegal(rig, 0, ("buy", "horn", pink, "pink", (4,)), "changes no colour")
    illegal(rig, 0, ("buy", "candy", pink, "pink", (4,)), "pink already")
    illegal(rig, 0, ("buy", "candy", pink, "", (4,)), "name the new colour")
    illegal(rig, 0, ("buy", "horn", rig.state.collections[1][0], "", (4,)), "not one of your")
    illegal(rig, 0, ("buy", "caviar", pink, "", (4,)), "market sells")
    legal = rig.legal(0)
    assert ("buy", "horn", pink, "", (1, 2)) in legal and ("buy", "horn", pink, "", (3,)) in legal
    assert ("buy", "horn", pink, "", (1, 3)) not in legal and (
        "buy",
        "horn",
        pink,
        "",
        (),
    ) not in legal
    assert ("buy", "dust", start, "blue", (2, 4)) in legal
    assert ("buy", "dust", start, "pink", (2, 4)) not in legal
    assert legal[-1] == ("decline",)
    assert all(G.check(rig.state, 0, m) is None for m in legal)
    rig.move(0, "buy", "horn", pink, "", (3,))
    assert rig.view()["market"] == {"butcher": 4, "horn": 3, "candy": 4, "dust": 4}
    assert next(u for u in rig.view()["collections"][0] if u["unicorn"] == pink)["worth"] == 6
    assert rig.view()["hands"][0] == [1, 1, 2, 2, 3, 4]
    assert rig.turn() == Turn(1)
    rig.move(1, "buy", "dust", rig.state.collections[1][0], "pink", (2, 4))
    blue = rig.view()["collections"][1][0]
    assert blue["colour"] == "pink" and blue["worth"] == 3 and blue["tokens"] == ["dust"]
    rig.move(2, "buy", "butcher", rig.state.collections[2][0], "", (2,))
    assert rig.collection(2) == [] and rig.view()["pates"] == [0, 0, 1]
    assert rig.view()["scores"] == [1 + 6 + 2, 3, 3]
    assert rig.view()["day"] == 2 and rig.view()["phase"] == "bid"  # next morning
    assert rig.view()["hands"] == [[0, 1, 1, 2, 2, 3, 3, 4]] * 3


def test_candy_gives_a_legendary_its_colour() -> None:
    rig = hunting()
    rig.pass_(0, 1, 2, 0, 1, 2)
    rig.hunt(0, 0)
    rig.pass_(1, 2)
    legendary = rig.unicorn("legendary")
    assert rig.view()["collections"][0][1]["colour"] is None
    rig.move(0, "buy", "candy", legendary, "pink", (3,))
    assert rig.view()["collections"][0][1]["colour"] == "pink"
    assert rig.view()["scores"][0] == 1 + 5 + 2


def test_sold_out_tokens_cannot_be_bought() -> None:
    rig = hunting(copies=False)
    _to_market(rig)
    rig.state.market[1] = 0  # every Fake Horn sold on earlier days
    pink = rig.unicorn("pink-4")
    illegal(rig, 0, ("buy", "horn", pink, "", (3,)), "no horn token")
    assert all(m[1] != "horn" for m in rig.legal(0) if m[0] == "buy")


def test_market_buys_from_the_first_player() -> None:
    rig = hunting()
    rig.pass_(0)
    rig.hunt(1, 0)
    rig.pass_(2)
    rig.pass_(1, 2, 0, 1, 2, 0)
    assert rig.view()["phase"] == "market" and rig.turn() == Turn(1)
    rig.move(1, "decline")
    assert rig.turn() == Turn(2)


# ----------------------------------------------------------------------------- days


def test_four_days_then_the_richest_wins() -> None:
    rig = Rig(3, initiation="no_schemes", powers=False, first="host")
    for _day in range(4):
        assert rig.view()["phase"] == "bid"
        while rig.view()["phase"] == "bid":
            seat = rig.turn().seat
            if seat == 0 and rig.state.bid == 0:
                rig.hunt(0, rig.state.hands[0][0])
            else:
                rig.move(seat, "pass")
        while rig.view()["phase"] == "market":
            rig.move(rig.turn().seat, "decline")
    outcome = G.outcome(rig.state)
    assert outcome.finished and outcome.winners == (0,)
    assert len(rig.state.collections[0]) == 13 and len(rig.state.unicorn_deck) == 20 - 12
    assert (
        len(outcome.rounds) == 4
        and tuple(map(sum, zip(*outcome.rounds, strict=True))) == outcome.totals
    )
    assert outcome.totals[1:] == (1, 1)

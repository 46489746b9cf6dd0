"""Kill the Unicorns schemes: planting, what stays hidden, every effect, Princess and Shaman."""

from __future__ import annotations

import json
from typing import Any

import pytest
from unicorns_rig import G, Rig

from protocol.contract import IllegalMove, Shown, ShowToSeat, TableOps

ROW = ["pink-4", "blue-2", "legendary"]


def rig3(schemes: dict[int, list[str]], row: list[str] = ROW, **options: Any) -> Rig:
    """Three players: Princess (0), Knight (1), Wizard (2); seat 0 first; starting unicorns
    pink, blue, green. Powers are off unless asked for."""
    options.setdefault("powers", False)
    return Rig(
        3,
        unicorns=row,
        schemes=schemes,
        characters=["princess", "knight", "wizard"],
        start=["pink", "blue", "green"],
        **options,
    )


def plant_all(rig: Rig, *plants: tuple[str, str]) -> None:
    """Each seat in turn from the first keeps ``plants[k][0]`` on ``plants[k][1]``."""
    for keep, on in plants:
        rig.plant(rig.turn().seat, keep, on)


def illegal(rig: Rig, seat: int, move: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        G.check(rig.state, seat, move)


def entry(rig: Rig, seat: int, label: str) -> dict[str, Any]:
    return next(u for u in rig.view()["collections"][seat] if u["label"] == label)


# ----------------------------------------------------------------------------- planting


def test_planting_in_turn_and_face_up_discard() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    keep, other = rig.state.drawn[0]
    unicorn = rig.unicorn("blue-2")
    illegal(
        rig,
        1,
        ("plant", *rig.state.drawn[1][:1], unicorn, rig.state.drawn[1][1], "stinky"),
        "not your turn",
    )
    illegal(rig, 0, ("plant", keep, unicorn, keep, "shiny"), "two schemes you drew")
    illegal(rig, 0, ("plant", keep, 999, other, "sick"), "not a unicorn in today's row")
    illegal(rig, 0, ("plant", keep, unicorn, other, "shiny"), "discarded scheme is not 'shiny'")
    illegal(rig, 0, ("plant", keep, unicorn, other, "unicorn"), "not one")
    illegal(rig, 0, ("plant", keep, unicorn, other, ""), "not one")
    # A copy that does not know the discard takes the label (the protocol proved it).
    G.check(rig.copies[1], 0, ("plant", keep, unicorn, other, "shiny"))
    assert G.reveals(("plant", keep, unicorn, other, "sick")) == {other: "sick"}
    rig.plant(0, "shiny", "blue-2")
    assert all(copy.card_of[other] == "sick" for copy in rig.copies)
    assert rig.view()["discards"] == [["sick"], [], []]
    assert rig.view()["row"][1]["schemes"] == [[keep, 0]]  # the handle and its owner only
    assert rig.turn().seat == 1
    plant_all(rig, ("decoy", "blue-2"), ("trojan", "pink-4"))
    assert rig.view()["phase"] == "bid" and rig.turn().seat == 0
    assert rig.view()["discards"] == [["sick"], ["stinky"], ["ambush"]]


def test_a_unicorn_holds_at_most_two_schemes() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("shiny", "pink-4"), ("decoy", "pink-4"))
    keep, other = rig.state.drawn[2]
    illegal(rig, 2, ("plant", keep, rig.unicorn("pink-4"), other, rig.cards[other]), "two schemes")
    assert all(m[2] != rig.unicorn("pink-4") for m in rig.legal(2))
    assert len(rig.legal(2)) == 4  # 2 cards to keep x 2 unicorns with room


def test_expert_discard_stays_face_down() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]}, expert=True)
    keep, other = rig.state.drawn[0]
    illegal(rig, 0, ("plant", keep, rig.unicorn("pink-4"), other, "sick"), "stays face down")
    assert all(m[4] == "" for m in rig.legal(0))
    assert G.reveals(rig.legal(0)[0]) == {}
    rig.plant(0, "shiny", "pink-4")
    assert other not in rig.copies[1].card_of and other not in rig.copies[2].card_of
    assert rig.view(1)["discards"] == [1, 0, 0]
    assert rig.view(0)["my_discards"] == ["sick"] and rig.view(1)["my_discards"] == []
    assert "played" not in rig.view(1)
    for seat in (1, 2, None):
        assert "sick" not in json.dumps(rig.view(seat))


def test_a_planted_scheme_is_shown_to_nobody_not_even_its_owner() -> None:
    rig = rig3({0: ["athletic", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("athletic", "pink-4"), ("decoy", "blue-2"), ("trojan", "legendary"))
    for seat in (0, 1, 2, None):
        text = json.dumps(rig.view(seat))
        for hidden in ("athletic", "decoy", "trojan"):
            assert hidden not in text, (seat, hidden)
    # Only the owner's copy (and the omniscient one) know the label at all.
    decoy = rig.scheme(1, "decoy")
    assert decoy in rig.copies[1].card_of
    assert decoy not in rig.copies[0].card_of and decoy not in rig.copies[2].card_of


# ----------------------------------------------------------------------------- effects


def test_athletic_and_shiny_add_to_the_unicorn() -> None:
    rig = rig3({0: ["athletic", "sick"], 1: ["shiny", "stinky"], 2: ["decoy", "ambush"]})
    plant_all(rig, ("athletic", "pink-4"), ("shiny", "blue-2"), ("decoy", "legendary"))
    rig.hunt(0, 4)
    rig.join(1, 3)
    rig.pass_(2)
    pink = entry(rig, 0, "pink-4")
    assert pink["scheme"] == "athletic" and pink["worth"] == 6 and pink["colour"] == "pink"
    assert rig.view()["first"] == 0  # the first player won: stays first
    rig.hunt(0, 1)
    rig.pass_(1, 2)
    assert entry(rig, 0, "blue-2")["worth"] == 5
    # Seat 0: pink 1 + pink-4 (6) + blue-2 (5) = 12, a pink pair +2.
    assert rig.view()["scores"][0] == 14


def test_stinky_and_sick_can_make_a_unicorn_worth_less_than_nothing() -> None:
    rig = rig3({0: ["sick", "athletic"], 1: ["stinky", "shiny"], 2: ["decoy", "ambush"]})
    plant_all(rig, ("sick", "pink-4"), ("stinky", "blue-2"), ("decoy", "legendary"))
    rig.hunt(0, 2)
    rig.pass_(1, 2)
    assert entry(rig, 0, "pink-4")["worth"] == 2
    rig.hunt(0, 1)
    rig.join(1, 4)
    rig.pass_(2)
    assert entry(rig, 1, "blue-2")["worth"] == -2
    assert rig.view()["scores"][1] == 1 - 2 + 2  # start-blue 1, blue-2 -2, blue pair +2
    assert rig.view()["first"] == 1  # the winner took the token


def test_trojan_owner_takes_the_unicorn_and_gives_one_back() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "legendary"), ("trojan", "pink-4"))
    rig.hunt(0, 4)
    rig.pass_(1, 2)
    # Seat 2 had only its starting unicorn: it goes to the winner without a question.
    assert rig.collection(2) == ["pink-4"] and rig.collection(0) == ["start-pink", "start-green"]
    assert entry(rig, 2, "pink-4")["scheme"] == "trojan"
    assert rig.view()["first"] == 2 and rig.turn().seat == 2


def test_trojan_owner_chooses_what_to_give() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("shiny", "legendary"), ("decoy", "legendary"), ("trojan", "blue-2"))
    rig.hunt(0, 1)
    rig.pass_(1)
    rig.join(2, 2)  # seat 2 wins pink-4
    assert rig.collection(2) == ["start-green", "pink-4"]
    rig.hunt(2, 1)  # seat 2 is first now
    rig.join(0, 4)
    rig.pass_(1)
    assert rig.turn().seat == 2 and rig.view()["phase"] == "give"
    pink = rig.unicorn("pink-4")
    assert rig.legal(2) == [("give", rig.state.collections[2][0]), ("give", pink)]
    illegal(rig, 2, ("give", rig.unicorn("blue-2")), "had before this hunt")
    rig.move(2, "give", pink)
    assert rig.collection(2) == ["start-green", "blue-2"]
    assert rig.collection(0) == ["start-pink", "pink-4"]


def test_trojan_revealed_by_its_owner_does_nothing() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "legendary"), ("trojan", "pink-4"))
    rig.hunt(0, 1)
    rig.pass_(1)
    rig.join(2, 3)
    assert rig.collection(2) == ["start-green", "pink-4"] and rig.collection(0) == ["start-pink"]


def _finish_day(rig: Rig) -> None:
    """Everybody passes every remaining hunt (the unicorns escape), nobody buys."""
    while rig.view()["phase"] == "bid":
        rig.move(rig.turn().seat, "pass")
    while rig.view()["phase"] == "market":
        rig.move(rig.turn().seat, "decline")


def test_trojan_owner_with_nothing_to_give() -> None:
    rig = rig3(
        {0: ["shiny", "sick", "athletic", "stinky"], 1: ["decoy", "stinky", "shiny", "sick"],
         2: ["ambush", "sick", "trojan", "decoy"]},
        row=[*ROW, "yellow-3", "green-1", "blue-4"],
    )  # fmt: skip
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "legendary"), ("ambush", "pink-4"))
    for _ in range(9):
        rig.move(rig.turn().seat, "pass")
    start = rig.state.collections[2][0]
    rig.move(0, "decline")
    rig.move(1, "decline")
    rig.move(2, "buy", "butcher", start, "", (2,))
    assert rig.collection(2) == [] and rig.view()["pates"] == [0, 0, 1]
    assert rig.view()["day"] == 2
    plant_all(rig, ("athletic", "green-1"), ("shiny", "blue-4"), ("trojan", "yellow-3"))
    rig.hunt(0, 4)
    rig.pass_(1, 2)
    assert rig.collection(2) == ["yellow-3"] and rig.collection(0) == ["start-pink"]


def test_ambush_moves_the_unicorn_to_the_next_total() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["ambush", "trojan"]})
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "legendary"), ("ambush", "pink-4"))
    rig.hunt(0, 4)
    rig.join(1, 3)
    rig.pass_(2)
    assert rig.collection(1) == ["start-blue", "pink-4"] and rig.collection(0) == ["start-pink"]
    assert rig.view()["first"] == 1


def test_ambush_with_nobody_after_the_winner_lets_it_escape() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["ambush", "trojan"]})
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "legendary"), ("ambush", "pink-4"))
    rig.hunt(0, 4)
    rig.join(1, 2)
    rig.join(2, 2)  # 2 and 2 tie and are out; 4 wins, and nobody is left after it
    pink = rig.unicorn("pink-4")
    assert pink in rig.state.escaped and all(pink not in c for c in rig.state.collections)
    assert rig.view()["first"] == 0  # an escape leaves the token where it is
    assert rig.state.card_of[rig.scheme(2, "ambush")] == "ambush"  # it was revealed


def test_decoy_gives_the_unicorn_to_its_owner_who_took_part() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["trojan", "stinky"], 2: ["decoy", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("trojan", "legendary"), ("decoy", "pink-4"))
    rig.hunt(0, 4)
    rig.join(1, 3)
    rig.join(2, 3)  # tied and out, but it took part
    assert rig.collection(2) == ["start-green", "pink-4"]
    assert rig.view()["first"] == 2


def test_decoy_does_nothing_if_its_owner_passed() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["trojan", "stinky"], 2: ["decoy", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("trojan", "legendary"), ("decoy", "pink-4"))
    rig.hunt(0, 1)
    rig.pass_(1, 2)
    assert rig.collection(0) == ["start-pink", "pink-4"]
    assert entry(rig, 0, "pink-4")["scheme"] == "decoy" and entry(rig, 0, "pink-4")["worth"] == 4


def test_chameleon_lets_the_winner_name_the_colour() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["chameleon", "stinky"], 2: ["decoy", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("chameleon", "legendary"), ("decoy", "blue-2"))
    for _ in range(6):  # the first two unicorns escape
        rig.move(rig.turn().seat, "pass")
    rig.hunt(0, 1)
    rig.pass_(1, 2)
    assert rig.view()["phase"] == "colour" and rig.turn().seat == 0
    assert rig.legal(0) == [("colour", c) for c in ("pink", "blue", "green", "yellow")]
    illegal(rig, 0, ("colour", "violet"), "name a colour")
    rig.move(0, "colour", "pink")
    legendary = entry(rig, 0, "legendary")
    assert legendary["colour"] == "pink" and legendary["worth"] == 5
    assert rig.view()["scores"][0] == 1 + 5 + 2  # a pink pair


def test_the_winner_chooses_which_of_two_schemes_is_revealed() -> None:
    rig = rig3({0: ["stinky", "sick"], 1: ["shiny", "decoy"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("stinky", "pink-4"), ("shiny", "pink-4"), ("trojan", "blue-2"))
    rig.pass_(0, 1)
    rig.hunt(2, 1)  # the token went to seat 2, who hunts alone and wins
    stinky, shiny = rig.scheme(0, "stinky"), rig.scheme(1, "shiny")
    assert rig.view()["phase"] == "choose" and rig.legal(2) == [
        ("reveal", stinky),
        ("reveal", shiny),
    ]
    illegal(rig, 2, ("reveal", rig.scheme(2, "trojan")), "not a scheme on the hunted unicorn")
    rig.move(2, "reveal", shiny)
    assert entry(rig, 2, "pink-4")["worth"] == 7
    # The other one is discarded unseen: only its owner's copy knows it.
    assert stinky in rig.state.lost
    assert stinky not in rig.copies[1].card_of and stinky not in rig.copies[2].card_of
    for seat in (1, 2, None):
        assert "stinky" not in json.dumps(rig.view(seat))


# ----------------------------------------------------------------------------- Princess, Shaman


def test_princess_peeks_once_a_day_and_only_she_sees() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]}, powers=True)
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "pink-4"), ("trojan", "pink-4"))
    decoy, trojan, shiny = rig.scheme(1, "decoy"), rig.scheme(2, "trojan"), rig.scheme(0, "shiny")
    assert ("peek", decoy) in rig.legal(0) and ("peek", shiny) not in rig.legal(0)
    illegal(rig, 0, ("peek", shiny), "yours")
    illegal(rig, 0, ("peek", 999), "not a face-down scheme")
    rig.move(0, "peek", decoy)  # the table shows it from its owner to her alone
    assert rig.log[-1] == (None, Shown(1, 0, (decoy,), ("decoy",)))  # owner -> her alone
    assert rig.view(0)["peeked"] == [[decoy, "decoy"]]
    assert decoy in rig.copies[0].card_of and decoy not in rig.copies[2].card_of
    for seat in (1, 2, None):
        assert "decoy" not in json.dumps(rig.view(seat))
    assert rig.view(0)["used"] == [True, False, False] and not rig.view(0)["may_peek"]
    illegal(rig, 0, ("peek", trojan), "once a day")
    assert all(m[0] != "peek" for m in rig.legal(0))
    rig.pass_(0)  # she still decides about the hunt after peeking
    assert rig.turn().seat == 1


def test_peek_asks_the_owner_to_show_the_princess() -> None:
    rig = rig3(
        {0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]},
        powers=True,
        copies=False,
    )
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "pink-4"), ("trojan", "pink-4"))
    decoy = rig.scheme(1, "decoy")
    G.apply(rig.state, 0, ("peek", decoy))
    assert G.status(rig.state) == TableOps((ShowToSeat(1, 0, (decoy,)),))


def test_princess_power_comes_back_the_next_day() -> None:
    rig = rig3(
        {0: ["shiny", "sick", "athletic", "ambush"], 1: ["decoy", "stinky", "trojan", "sick"],
         2: ["trojan", "ambush", "shiny", "sick"]},
        row=[*ROW, "yellow-3", "green-1", "blue-4"],
        powers=True,
    )  # fmt: skip
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "pink-4"), ("trojan", "pink-4"))
    rig.move(0, "peek", rig.scheme(1, "decoy"))
    _finish_day(rig)
    assert rig.view()["day"] == 2 and rig.view(0)["may_peek"]
    assert rig.view(0)["peeked"] == []  # that card is gone


def test_shaman_moves_a_scheme_once_a_day() -> None:
    rig = Rig(
        4,
        unicorns=["pink-4", "blue-2", "legendary", "yellow-1"],
        schemes={0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"],
                 3: ["athletic", "chameleon"]},
        characters=["knight", "wizard", "princess", "shaman"],
    )  # fmt: skip
    plant_all(
        rig,
        ("shiny", "pink-4"),
        ("decoy", "pink-4"),
        ("trojan", "blue-2"),
        ("athletic", "yellow-1"),
    )
    rig.pass_(0, 1)
    assert rig.turn().seat == 2
    rig.pass_(2)
    assert rig.turn().seat == 3 and rig.view(3)["may_shift"]
    shiny, trojan = rig.scheme(0, "shiny"), rig.scheme(2, "trojan")
    pink, blue, legendary = rig.unicorn("pink-4"), rig.unicorn("blue-2"), rig.unicorn("legendary")
    shifts = [m for m in rig.legal(3) if m[0] == "shift"]
    assert ("shift", shiny, legendary) in shifts and ("shift", trojan, pink) not in shifts
    illegal(rig, 3, ("shift", trojan, pink), "already holds two")
    illegal(rig, 3, ("shift", shiny, pink), "another unicorn")
    rig.move(3, "shift", shiny, legendary)
    assert rig.state.planted[pink] == [rig.scheme(1, "decoy")]
    assert rig.state.planted[legendary] == [shiny] and rig.state.planted[blue] == [trojan]
    illegal(rig, 3, ("shift", trojan, legendary), "once a day")
    illegal(rig, 0, ("peek", trojan), "not your turn")
    rig.hunt(3, 1)  # the Shaman opens the hunt (everyone else passed)
    assert rig.collection(3)[-1] == "pink-4"


def test_no_powers_no_peeking() -> None:
    rig = rig3({0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"]})
    plant_all(rig, ("shiny", "blue-2"), ("decoy", "pink-4"), ("trojan", "pink-4"))
    assert all(m[0] != "peek" for m in rig.legal(0))
    illegal(rig, 0, ("peek", rig.scheme(1, "decoy")), "only the Princess")

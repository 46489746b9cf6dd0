"""Unikato: tiles, options, setup requests, results that answer nothing, the encoding, the
move decoder and the rules text."""

from __future__ import annotations

import re

import msgpack
import pytest
from unikato_rig import G, Rig

from lanparty.games import rules_text
from lanparty.games.unikato import PLUGIN, UNIKATO
from lanparty.games.unikato.tiles import CODE, COMPAT, LABEL, bag_labels, describe, differences
from protocol.contract import (
    BadResult,
    CoinResult,
    Deal,
    Dealt,
    GameError,
    IllegalMove,
    JointCoin,
    OptionError,
    Revealed,
    RevealToAll,
    Shown,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)

# ----------------------------------------------------------------------------- tiles


def test_81_tiles_with_short_stable_labels() -> None:
    assert len(LABEL) == len(set(LABEL)) == 81 and all(len(t) == 4 for t in LABEL)
    assert LABEL[0] == "cOsW" and LABEL[40] == "sPmG" and LABEL[80] == "xBlK"
    assert all(CODE[t] == c for c, t in enumerate(LABEL))
    assert bag_labels() == tuple(LABEL)
    assert describe(CODE["cOsW"]) == "small orange circle on white"
    assert describe(CODE["xBlK"]) == "large blue cross on black"
    assert describe(CODE["sPmG"]) == "medium purple square on grey"


def test_each_tile_may_touch_exactly_eight_others() -> None:
    for a in range(81):
        touching = [b for b in range(81) if COMPAT[a] >> b & 1]
        assert len(touching) == 8 and a not in touching
        assert all(len(differences(a, b)) == 1 and COMPAT[b] >> a & 1 for b in touching)
    assert differences(CODE["cOsW"], CODE["sPsW"]) == ["shape", "colour"]


# ----------------------------------------------------------------------------- options


def test_defaults_and_specs() -> None:
    assert UNIKATO.validate_options({}) == {"first": "random", "rounds": 1}
    assert [s.name for s in UNIKATO.option_specs] == ["first", "rounds"]
    assert all(spec.help for spec in UNIKATO.option_specs)
    assert (UNIKATO.name, UNIKATO.min_seats, UNIKATO.max_seats) == ("unikato", 2, 4)
    assert set(PLUGIN.bots()) == {"random", "heuristic"}


def test_registered_with_its_bots_screen_and_narrator() -> None:
    from lanparty.games import PLUGINS
    from lanparty.games.unikato.bots import HeuristicBot

    assert PLUGINS["unikato"] is PLUGIN and PLUGIN.game is UNIKATO
    assert PLUGIN.bots()["heuristic"] is HeuristicBot
    assert PLUGIN.short == {"rounds": 1}  # what bench plays
    assert PLUGIN.screen().prompt({"phase": "draw"}, False).startswith("draw")
    assert PLUGIN.narrator(0, ("ann", "Bea"), lambda: None).lines == []


@pytest.mark.parametrize(
    ("given", "option", "words"),
    [
        ({"hand_size": 7}, "hand_size", "unknown option"),
        ({"rounds": "2"}, "rounds", "must be int"),
        ({"rounds": True}, "rounds", "must be int"),
        ({"rounds": 0}, "rounds", "at least 1"),
        ({"rounds": 101}, "rounds", "at most 100"),
        ({"first": "oldest"}, "first", "one of random, host"),
        ({"first": 1}, "first", "must be one of"),
    ],
)
def test_bad_option_is_named(given: dict[str, object], option: str, words: str) -> None:
    with pytest.raises(OptionError) as err:
        UNIKATO.setup(2, given)  # type: ignore[arg-type]
    assert err.value.option == option and words in err.value.reason


@pytest.mark.parametrize("seats", [0, 1, 5, True])
def test_seat_count(seats: int) -> None:
    with pytest.raises(OptionError, match="2 to 4 players") as err:
        UNIKATO.setup(seats, {})
    assert err.value.option == "seats"


# ----------------------------------------------------------------------------- setup


def test_host_starts_a_round_with_one_shuffle_private_deals_and_one_reveal() -> None:
    st = UNIKATO.setup(3, {"first": "host"})
    status = UNIKATO.status(st)
    assert isinstance(status, TableOps)
    handles = tuple(range(81))
    assert status.requests == (
        Shuffle("bag", bag_labels(), handles),
        Deal("bag", 0, handles[0:10]),
        Deal("bag", 1, handles[10:20]),
        Deal("bag", 2, handles[20:30]),
        RevealToAll(handles[30:34]),  # the display, then the starting tile
    )
    assert UNIKATO.legal_moves(st, 0) == []
    with pytest.raises(IllegalMove, match="busy"):
        UNIKATO.check(st, 0, ("pass",))


def test_a_joint_coin_picks_who_starts() -> None:
    st = UNIKATO.setup(4, {})
    status = UNIKATO.status(st)
    assert isinstance(status, TableOps) and status.requests == (JointCoin(4, "first"),)
    rig = Rig([[], [], [], []], coin=2)
    assert rig.turn() == 2 and rig.view()["first"] == 2


def test_the_table_after_setup() -> None:
    rig = Rig([["sOsW"], []], display=("xBlK", "xPlK", "xOlK"), start="cOsW", first="host")
    assert rig.turn() == 0
    view = rig.view(0)
    assert view["grid"] == [[0, 0, "cOsW"]]
    assert [t for _, t in view["display"]] == ["xBlK", "xPlK", "xOlK"]
    assert view["bag"] == 81 - 20 - 4 and view["counts"] == [10, 10]
    assert (view["phase"], view["action"], view["bonus"], view["chain"]) == ("action", 1, False, [])
    assert (view["round"], view["rounds"], view["scores"], view["winners"]) == (1, 1, [0, 0], [])
    assert "sOsW" in [t for _, t in view["hand"]] and len(view["hand"]) == 10
    assert "hand" not in rig.view(None)
    assert rig.view(1)["hand"] != view["hand"]


# ----------------------------------------------------------------------------- results


def test_a_result_that_answers_nothing_is_refused_and_changes_nothing() -> None:
    st = UNIKATO.setup(2, {"first": "host"})
    before = UNIKATO.encode_state(st)
    handles = tuple(range(81))
    bad = [
        Shuffled("bag", handles[:80]),
        Shuffled("sack", handles),
        Dealt(0, handles[:10], None),
        CoinResult(0),
        Shown(0, 1, (1,), None),
    ]
    for result in bad:
        with pytest.raises(BadResult):
            UNIKATO.resolve(st, result)
        assert UNIKATO.encode_state(st) == before
    UNIKATO.resolve(st, Shuffled("bag", handles))
    for result in [
        Dealt(1, handles[:10], None),
        Dealt(0, handles[:10], (*LABEL[:9], "nope")),
        Dealt(0, handles[:10], (LABEL[0],) * 10),  # one tile twice
        Dealt(0, handles[:10], tuple(LABEL[:9])),
    ]:
        mid = UNIKATO.encode_state(st)
        with pytest.raises(BadResult):
            UNIKATO.resolve(st, result)
        assert UNIKATO.encode_state(st) == mid


def test_coin_results_are_checked() -> None:
    st = UNIKATO.setup(2, {})
    for value in (2, -1, "0"):
        with pytest.raises(BadResult):
            UNIKATO.resolve(st, CoinResult(value))  # type: ignore[arg-type]
    UNIKATO.resolve(st, CoinResult(1))
    assert st.current == 1


def test_a_reveal_must_not_contradict_what_a_copy_knows() -> None:
    rig = Rig([[], []], bag=["sPsW"])
    st = rig.copies[0]
    rig.trim_display(0)
    # A refill reveal naming a tile that seat 0's copy knows to be elsewhere is refused.
    st.requests.append(RevealToAll((rig.handle_of("sPsW"),)))
    with pytest.raises(BadResult, match="already elsewhere"):
        UNIKATO.resolve(
            st, Revealed((rig.handle_of("sPsW"),), (LABEL[st.card_of[st.hands[0][0]]],))
        )
    with pytest.raises(BadResult, match="not a unikato tile"):
        UNIKATO.resolve(st, Revealed((rig.handle_of("sPsW"),), ("sPsWX",)))
    with pytest.raises(BadResult, match="one label per handle"):
        UNIKATO.resolve(st, Revealed((rig.handle_of("sPsW"),), ()))


def test_no_request_no_result() -> None:
    rig = Rig([[], []])
    with pytest.raises(BadResult, match="no table request"):
        UNIKATO.resolve(rig.state, CoinResult(0))


# ----------------------------------------------------------------------------- encoding


def test_encoding_round_trips_mid_turn() -> None:
    rig = Rig([["cOmW", "cOmG", "cOsG", "xBsW"], []], rounds=2)
    rig.place(0, "cOmW", 1, 0)
    rig.place(0, "cOmG", 1, 1)
    rig.place(0, "cOsG", 0, 1)
    for st in rig.states:
        plain = UNIKATO.encode_state(st)
        wire = msgpack.unpackb(msgpack.packb(plain), raw=False)
        again = UNIKATO.decode_state(wire)
        assert UNIKATO.encode_state(again) == wire
        assert again.board.at == st.board.at and again.board.fits == st.board.fits
        assert again.handle_of == st.handle_of
        assert UNIKATO.legal_moves(again, 0) == UNIKATO.legal_moves(st, 0)
    # The copies differ only in what they know, never in public fields: the tiles, and the
    # numbers of the hands they deal in tile order (a copy that knows a hand numbers it as
    # its holder does).
    own, other = UNIKATO.encode_state(rig.copies[0]), UNIKATO.encode_state(rig.copies[1])
    assert {k for k in own if own[k] != other[k]} <= {"cards", "numbers"}  # type: ignore[union-attr]
    for seat, copy in enumerate(rig.copies):
        assert copy.numbers[seat] == rig.state.numbers[seat]


@pytest.mark.parametrize(
    "value",
    [None, [], {"game": "kato"}, {"game": "unikato"}, {"game": "unikato", "n": 2, "options": {}}],
)
def test_decode_state_refuses_malformed_values(value: object) -> None:
    with pytest.raises(GameError):
        UNIKATO.decode_state(value)  # type: ignore[arg-type]


def test_decode_state_refuses_bad_options() -> None:
    plain = UNIKATO.encode_state(Rig([[], []]).state)
    plain["options"] = {"rounds": 0}  # type: ignore[index]
    with pytest.raises(GameError, match="rounds"):
        UNIKATO.decode_state(plain)


# ----------------------------------------------------------------------------- moves


@pytest.mark.parametrize(
    "value",
    [
        None, "place", [], ["fly"], [1], ("pass", 1), ["done", None],
        ["place", 1, "cOsW", 0], ["place", "1", "cOsW", 0, 1], ["place", True, "cOsW", 0, 1],
        ["place", 1, "cOsX", 0, 1], ["place", 1, 7, 0, 1], ["place", 1, "cOsW", 0.5, 1],
        ["place", 1, "cOsW", 0, False], ["exchange", 1, "cOsW"], ["exchange", 1, "cOsW", "Bag"],
        ["exchange", 1, "cOsW", None], ["exchange", 1, "cOsW", True], ["draw"], ["draw", "sack"],
        ["draw", 1.0], ["draw", [1]],
    ],
)  # fmt: skip
def test_decode_move_refuses_every_bad_shape(value: object) -> None:
    with pytest.raises(IllegalMove):
        UNIKATO.moves.read(value)  # type: ignore[arg-type]


def test_decode_move_gives_the_canonical_tuple() -> None:
    for move in [
        ("place", 3, "cOsW", -1, 2),
        ("exchange", 3, "cOsW", 7),
        ("exchange", 3, "cOsW", "bag"),
        ("draw", 9),
        ("draw", "bag"),
        ("done",),
        ("pass",),
    ]:
        assert UNIKATO.moves.read(list(move)) == move
        assert UNIKATO.moves.read(msgpack.unpackb(msgpack.packb(move), raw=False)) == move


def test_check_refuses_bad_arity_with_a_reason() -> None:
    rig = Rig([["cOmW"], []])
    for move, reason in [
        (("place", 1, "cOmW", 1), "is \\('place', handle, label, x, y\\)"),
        (("exchange", 1, "cOmW"), "is \\('exchange', handle, label, take\\)"),
        (("pass", 1), "takes no arguments"),
        ((), "non-empty tuple"),
        (["done"], "non-empty tuple"),
    ]:
        with pytest.raises(IllegalMove, match=reason):
            G.check(rig.state, 0, move)  # type: ignore[arg-type]
    assert isinstance(G.status(rig.state), Turn)


# ----------------------------------------------------------------------------- rules text


def rules() -> str:
    """What ``lanparty rules unikato`` prints."""
    return rules_text("unikato")


def test_the_rules_text_lists_every_option_with_its_default() -> None:
    listed = re.findall(r"^- `(\w+)` \(default `([^`]+)`;", rules(), flags=re.M)
    assert listed == [(s.name, str(s.default)) for s in UNIKATO.option_specs]


def test_the_rules_text_covers_the_rules() -> None:
    text = rules().lower()
    for words in ["81", "exactly one", "bonus", "display", "bag", "pass", "blocked", "-1"]:
        assert words in text, words

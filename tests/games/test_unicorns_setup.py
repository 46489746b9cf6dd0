"""Kill the Unicorns: options, the first batch of requests, day 1, codecs and the rules text."""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources

import msgpack
import pytest
from unicorns_rig import Rig

from lanparty.games import rules_text
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns import _bots as bots
from lanparty.games.unicorns.cards import HUNT_CARDS, SCHEMES, UNICORN_DECK
from protocol.contract import (
    BadResult,
    CoinResult,
    Committed,
    CommitTimeout,
    Deal,
    Dealt,
    IllegalMove,
    JointCoin,
    OptionError,
    RevealToAll,
    Shuffle,
    Shuffled,
    TableOps,
    Turn,
)

G = UNICORNS


# ----------------------------------------------------------------------------- options


def test_defaults_and_specs_agree() -> None:
    assert G.validate_options({}) == {
        "first": "random",
        "characters": "choose",
        "powers": True,
        "expert": False,
        "initiation": "none",
    }
    assert [s.name for s in G.option_specs] == list(G.validate_options({}))
    assert all(s.help for s in G.option_specs)


@pytest.mark.parametrize(
    ("given", "option"),
    [
        ({"rounds": 2}, "rounds"),
        ({"first": "youngest"}, "first"),
        ({"characters": "deal"}, "characters"),
        ({"powers": 1}, "powers"),
        ({"expert": "yes"}, "expert"),
        ({"initiation": "easy"}, "initiation"),
        ({"initiation": "no_schemes_no_powers", "powers": True}, "powers"),
    ],
)
def test_bad_option_is_named(given: dict[str, object], option: str) -> None:
    with pytest.raises(OptionError) as err:
        G.setup(3, given)  # type: ignore[arg-type]
    assert err.value.option == option and option in str(err.value)


def test_no_powers_initiation_turns_powers_off() -> None:
    opts = G.validate_options({"initiation": "no_schemes_no_powers"})
    assert opts["powers"] is False
    G.setup(3, opts)  # the filled-in options are valid as they are


@pytest.mark.parametrize("seats", [0, 2, 5, True])
def test_seat_count(seats: int) -> None:
    with pytest.raises(OptionError) as err:
        G.setup(seats, {})
    assert err.value.option == "seats"


# ----------------------------------------------------------------------------- the first batch


def test_first_batch_coins_shuffles_row_and_private_deals() -> None:
    """With characters dealt by a coin, the first batch holds day 1 too (the row and the
    schemes); with characters chosen, see ``test_unicorns_characters``."""
    st = G.setup(4, {"characters": "random"})
    reqs = G.status(st).requests  # type: ignore[union-attr]
    assert reqs[:3] == (
        JointCoin(4, "first"),
        JointCoin(24, "characters"),
        JointCoin(24, "start"),
    )
    unicorns = reqs[3]
    assert isinstance(unicorns, Shuffle) and unicorns.deck == "unicorns"
    assert Counter(unicorns.cards) == Counter(UNICORN_DECK) and len(unicorns.cards) == 20
    decks = reqs[4:8]
    assert [d.deck for d in decks] == [f"schemes-{s}" for s in range(4)]  # type: ignore[union-attr]
    assert all(sorted(d.cards) == sorted(SCHEMES) for d in decks)  # type: ignore[union-attr]
    assert reqs[8] == RevealToAll(unicorns.handles[:4])  # one unicorn per player, from the top
    deals = reqs[9:]
    assert [(d.seat, d.deck) for d in deals] == [(s, f"schemes-{s}") for s in range(4)]  # type: ignore[union-attr]
    for seat, deal in enumerate(deals):
        assert isinstance(deal, Deal)
        assert deal.handles == decks[seat].handles[:2]  # type: ignore[union-attr]


def test_host_first_and_no_schemes_ask_less() -> None:
    st = G.setup(3, {"first": "host", "initiation": "no_schemes"})
    reqs = G.status(st).requests  # type: ignore[union-attr]
    assert not any(isinstance(r, JointCoin) and r.purpose == "first" for r in reqs)
    assert not any(isinstance(r, Deal) for r in reqs)
    assert [r.deck for r in reqs if isinstance(r, Shuffle)] == ["unicorns"]
    assert st.first == 0


def test_day_one_starts_with_the_first_player_planting() -> None:
    rig = Rig(
        3,
        unicorns=["pink-4", "blue-2", "legendary"],
        schemes={0: ["shiny", "stinky"], 1: ["decoy", "sick"], 2: ["trojan", "ambush"]},
        first_seat=2,
        characters=["wizard", "princess", "knight"],
        start=["yellow", "green", "pink"],
    )
    assert rig.turn() == Turn(2) and rig.view()["phase"] == "trap"
    assert rig.row() == ["pink-4", "blue-2", "legendary"]
    assert [rig.drawn(s) for s in range(3)] == [
        ["shiny", "stinky"],
        ["decoy", "sick"],
        ["trojan", "ambush"],
    ]
    assert [rig.collection(s) for s in range(3)] == [
        ["start-yellow"],
        ["start-green"],
        ["start-pink"],
    ]
    view = rig.view(1)
    assert view["characters"] == ["wizard", "princess", "knight"]
    assert view["hands"] == [list(HUNT_CARDS)] * 3
    assert view["my_drawn"] == [[h, rig.cards[h]] for h in rig.state.drawn[1]]
    assert view["drawn"] == [2, 2, 2] and view["scheme_decks"] == [6, 6, 6]
    assert view["scores"] == [1, 1, 1] and view["day"] == 1
    # Another seat's copy holds nothing but handles for seat 1's draw.
    assert all(h not in rig.copies[0].card_of for h in rig.state.drawn[1])
    assert all(h in rig.copies[1].card_of for h in rig.state.drawn[1])


@pytest.mark.parametrize("seats", [3, 4])
def test_three_or_four_players(seats: int) -> None:
    rig = Rig(seats)
    assert len(rig.row()) == seats and len(rig.view()["characters"]) == seats


# ----------------------------------------------------------------------------- results


def test_a_bad_result_is_refused_and_changes_nothing() -> None:
    st = G.setup(3, {"first": "host", "characters": "random"})
    before = msgpack.packb(G.encode_state(st))
    for wrong in (
        Shuffled("unicorns", (1, 2)),
        Dealt(0, (0,), None),
        Committed(0),
        CommitTimeout((1,)),
        CoinResult(24),
    ):
        with pytest.raises(BadResult):
            G.resolve(st, wrong)
    assert msgpack.packb(G.encode_state(st)) == before
    G.resolve(st, CoinResult(0))  # characters
    G.resolve(st, CoinResult(0))  # starting unicorns
    for req in list(G.status(st).requests):  # type: ignore[union-attr]
        if not isinstance(req, Shuffle):
            break
        G.resolve(st, Shuffled(req.deck, req.handles))
    reveal = G.status(st).requests[0]  # type: ignore[union-attr]
    assert isinstance(reveal, RevealToAll)
    from protocol.contract import Revealed

    with pytest.raises(BadResult, match="not a card of this deck"):
        G.resolve(st, Revealed(reveal.handles, ("shiny", "pink-1", "pink-2")))
    G.resolve(st, Revealed(reveal.handles, ("pink-1", "pink-2", "legendary")))
    deal = G.status(st).requests[0]  # type: ignore[union-attr]
    with pytest.raises(BadResult, match="not a card of this deck"):
        G.resolve(st, Dealt(deal.seat, deal.handles, ("pink-1", "shiny")))  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- codecs


def test_encode_decode_roundtrip_mid_game() -> None:
    rig = Rig(4, expert=True)
    rig.plant(rig.turn().seat, rig.drawn(rig.turn().seat)[0], rig.row()[1])
    for seat, st in [(1, rig.state), *enumerate(rig.copies)]:
        plain = msgpack.unpackb(msgpack.packb(G.encode_state(st)), raw=False)
        again = G.decode_state(plain)
        assert G.encode_state(again) == plain
        assert G.view(again, seat) == G.view(st, seat) and G.status(again) == G.status(st)
        assert G.legal_moves(again, seat) == G.legal_moves(st, seat)


def test_decode_state_refuses_other_values() -> None:
    from protocol.contract import GameError

    for bad in (None, {"game": "kato"}, {"game": "unicorns", "n": 3}):
        with pytest.raises(GameError):
            G.decode_state(bad)  # type: ignore[arg-type]


def test_decode_move_is_strict_and_canonical() -> None:
    assert G.moves.read(["cards", [0, 4]]) == ("cards", (0, 4))
    assert G.moves.read(["buy", "horn", 7, "", [3]]) == ("buy", "horn", 7, "", (3,))
    assert G.moves.read(["plant", 20, 1, 21, "shiny"]) == ("plant", 20, 1, 21, "shiny")
    assert G.moves.read(("pass",)) == ("pass",)
    for bad in (
        [],
        "pass",
        ["fly"],
        ["pass", 1],
        ["hunt", True],
        ["hunt", "2"],
        ["cards", [1, "2"]],
        ["cards", 3],
        ["plant", 1, 2, 3, 4],
        ["colour", 1],
        ["buy", "horn", 7, "", 3],
    ):
        with pytest.raises(IllegalMove):
            G.moves.read(bad)  # type: ignore[arg-type]


def test_reveals_names_only_a_face_up_discard() -> None:
    assert G.reveals(("plant", 20, 1, 21, "shiny")) == {21: "shiny"}
    assert G.reveals(("plant", 20, 1, 21, "")) == {}  # expert: face down
    assert G.reveals(("reveal", 20)) == {} and G.reveals(("peek", 20)) == {}
    assert G.reveals(("shift", 20, 3)) == {} and G.reveals(("cards", (1, 2))) == {}
    assert G.reveals(("plant", 20, 1, "21", "shiny")) == {}  # malformed: check refuses it


def test_status_is_table_ops_until_day_one_is_dealt() -> None:
    st = G.setup(3, {})
    assert isinstance(G.status(st), TableOps)
    assert G.legal_moves(st, 0) == []
    with pytest.raises(IllegalMove, match="busy"):
        G.check(st, 0, ("pass",))


# ----------------------------------------------------------------------------- rules text, bots


def _rules_text() -> str:
    return resources.files("lanparty.games").joinpath("rules", "unicorns.md").read_text("utf-8")


def test_rules_text_lists_every_option_with_its_default() -> None:
    section = rules_text("unicorns").split("## Table options", 1)[1]
    listed = dict(re.findall(r"^- `(\w+)` \(default `([^`]+)`;", section, flags=re.M))
    specs = {s.name: s.default for s in G.option_specs}
    assert set(listed) == set(specs)
    for name, default in specs.items():
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert listed[name] == shown, name
        for choice in next(s for s in G.option_specs if s.name == name).choices:
            if isinstance(choice, str):
                assert choice in section, choice


def test_rules_text_covers_every_scheme_and_character() -> None:
    text = _rules_text()
    for word in ("Athletic", "Shiny", "Stinky", "Sick", "Trojan", "Ambush", "Decoy", "Chameleon"):
        assert f"**{word}" in text
    for word in ("Princess", "Shaman", "Knight", "Wizard", "Double rainbow"):
        assert f"**{word}" in text


def test_bots_factory() -> None:
    import sys

    import lanparty.games.unicorns
    from lanparty.games.unicorns.bots import HeuristicBot

    # The package's bot factories are the plugin's, and the bots module stays a module.
    assert lanparty.games.unicorns.PLUGIN.bots is bots and HeuristicBot is bots()["heuristic"]
    assert sys.modules["lanparty.games.unicorns.bots"].HeuristicBot is HeuristicBot
    assert lanparty.games.unicorns.bots is sys.modules["lanparty.games.unicorns.bots"]
    factories = bots()
    assert set(factories) == {"random", "heuristic"}
    assert all(callable(f().choose) for f in factories.values())

"""Generic playouts of every registered game: legality, termination, secrecy, determinism.

Each playout runs one omniscient state (told every card) and one copy per seat told only
what that seat may know, as a peer's copy would be. After every input:

* every move was checked by the omniscient state and by every seat's copy (``submit``);
* the view of a seat is identical whether built from the omniscient state or from that
  seat's own copy — so a view can hold nothing the seat was not told (no other hand, no
  deck order: the copy never had them), and every copy agrees on the public view;
* a seat's copy lists the same legal moves for it as the omniscient state.

At the end the game is over, and replaying the log from scratch, and decoding the encoded
state, both give the same encoding, byte for byte.
"""

from __future__ import annotations

import random
import re

import msgpack
import pytest

from lanparty.games import GAMES, rules_text
from lanparty.games.bots import bots_for
from lanparty.games.localdealer import LocalTable, for_seat
from protocol.contract import Dealt, GameOver, Shown

# Short games for each registered game (the generic test must know how to keep each short).
SHORT_OPTIONS = {
    "kato": [
        {"rounds": 1},
        {"rounds": 1, "first": "host", "stacking": "off", "play_after_draw": False},
        {"rounds": 1, "cones": 3, "cone_mode": "reflect", "multi_play": True, "hand_size": 5},
        {"rounds": 1, "cones": 2, "cone_mode": "reverse", "hand_size": 3, "stacking": "full"},
        {"rounds": 1, "cones": 2, "cone_mode": "draw10", "multi_play": True},
        {"target": 60, "hand_size": 2},
    ],
    "unanimo": [{"cards": 2}, {"cards": 3, "timer": 60, "fold_accents": False}],
    # Kill the Unicorns always lasts 4 days: its variants, not its length, vary.
    "unicorns": [
        {},
        {"expert": True, "first": "host"},
        {"initiation": "no_schemes"},
        {"initiation": "no_schemes_no_powers"},
        {"powers": False},
    ],
    "unikato": [{"rounds": 1}, {"rounds": 2, "first": "host"}],
}
# Per game; each checks every view of every seat after every input. Each option set of
# SHORT_OPTIONS is played at every table size many times over (each game's own property
# tests explore further with hypothesis).
PLAYOUTS = {"kato": 300, "unanimo": 150, "unicorns": 40, "unikato": 50}
DEEP = 25  # of which this many also compare legal moves and round-trip the state often


def pack(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def test_every_game_has_short_options() -> None:
    assert set(SHORT_OPTIONS) == set(GAMES)


def _playout(name: str, seed: int, deep: bool) -> None:
    game = GAMES[name]
    rng = random.Random(seed)
    seats = rng.randint(game.min_seats, game.max_seats)
    options = SHORT_OPTIONS[name][seed % len(SHORT_OPTIONS[name])]
    table = LocalTable(game, seats, options, rng, copies=True)
    table.record = True
    bots = [factory() for factory in rng.choices(list(bots_for(name).values()), k=seats)]
    inputs = 0
    while True:
        table.resolve_pending()
        state, copies = table.state, table.copies
        public = game.view(state, None)
        for seat in range(seats):
            own = game.view(state, seat)
            assert own == game.view(copies[seat], seat), f"view of seat {seat} leaks or differs"
            assert game.view(copies[seat], None) == public
            if deep:
                assert game.legal_moves(state, seat) == game.legal_moves(copies[seat], seat)
        if deep and inputs % 7 == 0:
            encoded = pack(game.encode_state(state))
            assert pack(game.encode_state(game.decode_state(game.encode_state(state)))) == encoded
        if not table.step(bots):
            break
        inputs += 1
        assert inputs < 20_000, "the game did not end"
    assert isinstance(game.status(state), GameOver)
    assert game.outcome(state).finished and game.outcome(state).winners

    # Replay the log into a fresh state (and into one seat's copy): identical encodings.
    replay = game.setup(seats, options)
    seat0 = game.setup(seats, options)
    for actor, entry in table.log:
        if actor is None:
            game.resolve(replay, entry)  # type: ignore[arg-type]
            game.resolve(seat0, for_seat(entry, 0))  # type: ignore[arg-type]
        else:
            game.check(replay, actor, entry)  # type: ignore[arg-type]
            game.apply(replay, actor, entry)  # type: ignore[arg-type]
            game.apply(seat0, actor, entry)  # type: ignore[arg-type]
    assert pack(game.encode_state(replay)) == pack(game.encode_state(state))
    assert pack(game.encode_state(seat0)) == pack(game.encode_state(copies[0]))
    # Moves survive the wire: msgpack turns tuples into lists, decode_move restores them.
    for actor, entry in table.log:
        if actor is not None:
            wire = msgpack.unpackb(pack(entry), raw=False)
            assert game.moves.read(wire) == entry
    # The full audit runs on the final state with every card known.
    game.audit(state, table.dealer.cards)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_list_every_option_once_with_its_default(name: str) -> None:
    """``lanparty rules NAME``: one options section (generated from the specs), no other."""
    text = rules_text(name)
    sections = re.compile(r"#+ (table )?options", re.I)
    headings = [line for line in text.splitlines() if sections.fullmatch(line)]
    assert headings == ["## Table options"], headings
    section = text.split("## Table options\n", 1)[1]
    for spec in GAMES[name].option_specs:
        typed = str(spec.default).lower() if isinstance(spec.default, bool) else spec.default
        assert len(re.findall(rf"^- `{spec.name}` ", text, re.M)) == 1, spec.name
        assert f"- `{spec.name}` (default `{typed}`; " in section, spec.name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playouts(name: str) -> None:
    for seed in range(PLAYOUTS[name]):
        _playout(name, seed, deep=seed < DEEP)


def test_kato_views_never_hold_other_hands() -> None:
    """Directly, for KaTO: a seat's view names no handle of another seat's hand with its label
    unless that card was shown to it."""
    game = GAMES["kato"]
    for seed in range(40):
        rng = random.Random(seed)
        table = LocalTable(game, 4, {"rounds": 1}, rng, copies=True)
        bots = [factory() for factory in bots_for("kato").values()] * 2
        while True:
            table.resolve_pending()
            state = table.state
            for seat in range(4):
                view = game.view(state, seat)
                named = {h for h, _ in view["hand"]} | {h for h, _ in view.get("known", [])}
                shown = set(state.seen[seat])
                for other in range(4):
                    if other != seat:
                        assert not (named & set(state.hands[other])) - shown
                assert "deck_order" not in view and len(str(view)) < 4000
            if not table.step(bots[:4]):
                break


def test_results_for_other_seats_carry_no_labels() -> None:
    dealt = Dealt(1, (3, 4), ("r1", "g2"))
    assert for_seat(dealt, 0).cards is None  # type: ignore[union-attr]
    assert for_seat(dealt, 1).cards == ("r1", "g2")  # type: ignore[union-attr]
    shown = Shown(0, 2, (5,), ("W",))
    assert for_seat(shown, 1).cards is None  # type: ignore[union-attr]
    assert for_seat(shown, 2).cards == ("W",)  # type: ignore[union-attr]

"""Kill the Unicorns' characters are chosen, as the seed says ("Cada jugador elige un
personaje"; rules/unicorns.md, Setup: "`option characters` = `choose` (default: once the first
player is known, each player in turn order from the first picks one of the characters left,
in public) | `random` (dealt by joint coin)"). In the engine, on the screen and in the log,
offline at a local table and over the real protocol with four peers."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from unicorns_rig import G, Rig

from lanparty import i18n
from lanparty.games.bots import RandomBot
from lanparty.games.screens import Fragments, ParseError
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.screen import SCREEN, hand, humanize, table
from lanparty.table.local import LocalTable
from lanparty.ui import commands
from protocol import Phase, Rejected
from protocol._bodies import MoveBody
from protocol._messages import Entry
from protocol.contract import Deal, IllegalMove, JointCoin, RevealToAll, TableOps, Turn
from protocol.harness import Harness

NAMES = ["Ann", "Bea", "Carl", "Dora"]
ALL = ["princess", "knight", "wizard", "shaman"]


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    i18n.set_language("en")


def text(fragments: Fragments) -> str:
    return "".join(t for _, t in fragments)


def choosing(n: int = 4, first: int = 2, **options: Any) -> Rig:
    """A table before day 1, ``first`` holding the first-player token; nobody has chosen."""
    return Rig(n, unicorns=["pink-4", "blue-2", "legendary", "yellow-1"][:n], first_seat=first,
               pick=False, **options)  # fmt: skip


def illegal(rig: Rig, seat: int, move: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        G.check(rig.state, seat, move)


# ----------------------------------------------------------------------------- the engine


def test_the_first_batch_asks_no_character_coin_and_holds_day_one_back() -> None:
    """Chosen characters need no coin, and day 1 (the row, the schemes) waits for them."""
    reqs = G.status(G.setup(4, {})).requests  # type: ignore[union-attr]
    assert [r.purpose for r in reqs if isinstance(r, JointCoin)] == ["first", "start"]
    assert not any(isinstance(r, RevealToAll | Deal) for r in reqs)
    dealt = G.status(G.setup(4, {"characters": "random"})).requests  # type: ignore[union-attr]
    assert [r.purpose for r in dealt if isinstance(r, JointCoin)] == ["first", "characters",
                                                                     "start"]  # fmt: skip


def test_each_player_chooses_in_turn_from_the_first_among_those_left() -> None:
    rig = choosing(first=2)
    view = rig.view(None)
    assert view["phase"] == "character" and view["day"] == 0 and rig.turn() == Turn(2)
    assert view["characters"] == [None] * 4 and view["first"] == 2
    assert view["collections"][0]  # the starting unicorns are dealt already
    order = []
    for pick in ("wizard", "princess", "shaman", "knight"):
        seat = rig.turn().seat
        order.append(seat)
        left = [c for c in ALL if c not in rig.view()["characters"]]
        assert rig.legal(seat) == [("character", c) for c in left]
        assert all(rig.legal(s) == [] for s in range(4) if s != seat)
        rig.move(seat, "character", pick)
        assert rig.view(None)["characters"][seat] == pick  # in public, at once
    assert order == [2, 3, 0, 1]
    assert rig.view()["characters"] == ["shaman", "knight", "wizard", "princess"]
    # Day 1 begins: the row is turned over, each draws two schemes, the first player plants.
    assert rig.view()["day"] == 1 and rig.view()["phase"] == "trap" and rig.turn() == Turn(2)
    assert rig.row() == ["pink-4", "blue-2", "legendary", "yellow-1"]
    assert all(len(rig.drawn(s)) == 2 for s in range(4))


def test_a_taken_character_or_another_seat_or_a_bad_name_is_refused() -> None:
    rig = choosing(3, first=1)
    illegal(rig, 0, ("character", "knight"), "not your turn: seat 1 is to choose a character")
    rig.move(1, "character", "knight")
    illegal(rig, 2, ("character", "knight"), "the knight is taken: choose one nobody has")
    illegal(rig, 2, ("character", "king"), "name a character: princess, knight, wizard, shaman")
    illegal(rig, 2, ("plant", 1, 2, 3, ""), "not now: you are to choose a character")
    with pytest.raises(IllegalMove):
        G.moves.read(["character", "king"])  # the move's shape names the four
    assert G.moves.read(["character", "wizard"]) == ("character", "wizard")
    rig.move(2, "character", "princess")
    rig.move(0, "character", "shaman")  # three players: the Wizard stays in the box
    assert rig.view()["characters"] == ["shaman", "knight", "princess"]
    assert rig.view()["phase"] == "trap"


def test_random_characters_are_dealt_by_the_coin_as_before() -> None:
    rig = Rig(4, characters=["wizard", "shaman", "knight", "princess"], pick=False,
              character_option="random")  # fmt: skip
    assert rig.view()["phase"] == "trap" and rig.view()["day"] == 1
    assert rig.view()["characters"] == ["wizard", "shaman", "knight", "princess"]


def test_no_schemes_still_lets_the_princess_and_shaman_be_chosen_without_powers() -> None:
    """rules/unicorns.md, Variants: "`no_schemes` (no scheme cards; Princess and Shaman can
    still be chosen, their powers are unavailable)"."""
    rig = choosing(4, first=0, initiation="no_schemes")
    assert rig.view()["character_powers"] == {"princess": False, "knight": True,
                                              "wizard": True, "shaman": False}  # fmt: skip
    for seat, pick in enumerate(("princess", "shaman", "knight", "wizard")):
        rig.move(seat, "character", pick)
    assert rig.view()["powers"] == [False, False, True, True]
    none = choosing(3, first=0, initiation="no_schemes_no_powers")
    assert not any(none.view()["character_powers"].values())
    assert [m[1] for m in none.legal(0)] == ALL


def test_the_heuristic_bot_takes_a_character_with_a_power_it_likes() -> None:
    rig = choosing(4, first=0)
    bot = HeuristicBot()
    assert bot.choose(rig.view(0), rig.legal(0), random.Random(0)) == ("character", "knight")
    rig.move(0, "character", "knight")
    assert bot.choose(rig.view(1), rig.legal(1), random.Random(0)) == ("character", "wizard")
    plain = choosing(4, first=0, initiation="no_schemes")
    plain.move(0, "character", "knight")
    plain.move(1, "character", "wizard")
    # Of the Princess and the Shaman, neither has a power here: its own order decides.
    assert bot.choose(plain.view(2), plain.legal(2), random.Random(0)) == ("character",
                                                                          "princess")  # fmt: skip


# ----------------------------------------------------------------------------- words


def test_the_board_shows_what_may_be_chosen_with_each_power() -> None:
    rig = choosing(4, first=1)
    rig.move(1, "character", "wizard")
    shown = text(table(rig.view(2), NAMES, 80))
    assert shown.startswith("Before day 1 · first player: Bea · characters are chosen\n")
    assert "Characters (personajes): chosen in turn; each power once a day" in shown
    assert "  wizard = Wizard (Mago) · taken by Bea\n" in shown
    assert "  knight = Knight (Caballero)\n      +2 to his total once the cards of a hunt" in shown
    assert "  princess = Princess (Princesa)\n      look at another player's face-down scheme" \
        in shown  # fmt: skip
    assert "  shaman = Shaman (Chamán)\n      move a face-down scheme to another unicorn" in shown
    assert "▶ Carl (you) choosing…" in shown and "  Bea        Wizard (Mago) •" in shown
    mine = text(hand(rig.view(2), 80, rig.legal(2)))
    assert mine == "You may: character princess|knight|shaman\n"
    assert SCREEN.prompt(rig.view(2), False) == "choose your character (character NAME)> "
    plain = choosing(4, first=0, initiation="no_schemes")
    assert "  shaman = Shaman (Chamán)\n      no power at this table" in text(
        table(plain.view(0), NAMES, 80))  # fmt: skip


def test_a_character_is_typed_by_its_word_or_its_name() -> None:
    rig = choosing(4, first=0)
    view = rig.view(0)
    assert commands.parse("character knight", SCREEN, view).move == ("character", "knight")
    assert commands.parse("pick caballero", SCREEN, view).move == ("character", "knight")
    assert SCREEN.command_for(("character", "shaman"), view) == (
        "character shaman",
        "Shaman (Chamán): move a face-down scheme to another unicorn",
    )
    with pytest.raises(ParseError, match="one of princess, knight, wizard, shaman"):
        commands.parse("character king", SCREEN, view)
    i18n.set_language("pl")
    assert commands.parse("character rycerz", SCREEN, view).move == ("character", "knight")


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "the Knight is taken: choose one nobody has"),
     ("es", "Caballero ya tiene dueño: elige un personaje libre"),
     ("pl", "postać Rycerz jest już zajęta: wybierz wolną")],
)  # fmt: skip
def test_a_taken_character_is_refused_in_words(lang: str, said: str) -> None:
    i18n.set_language(lang)
    assert humanize("the knight is taken: choose one nobody has") == said


def test_the_log_tells_each_choice_in_turn() -> None:
    from test_unicorns_narrate import Told

    rig = Told(4, first_seat=3, pick=False)
    rig.move(3, "character", "princess")
    rig.move(0, "character", "wizard")
    assert rig.log_of(1)[-3:] == [
        "Characters (personajes) are chosen in turn from the first player: Dora first",
        "Dora chooses the Princess (Princesa)",
        "Ann chooses the Wizard (Mago)",
    ]
    assert rig.log_of(0)[-1] == "You choose the Wizard (Mago)"
    i18n.set_language("es")
    es = Told(3, first_seat=0, pick=False)
    es.move(0, "character", "princess")
    assert es.log_of(1)[-2:] == [
        "Los personajes se eligen por turno desde el primer jugador: empieza Ann",
        "Ann elige personaje: Princesa",
    ]


# ----------------------------------------------------------------------------- a local table


def test_offline_the_player_is_asked_in_turn_and_the_bots_choose_theirs() -> None:
    """A local table (``lanparty play --offline``): the person at seat 0 is asked when the
    turn comes to them, among the characters left, and the bots choose the rest."""
    for seed in range(4):
        local = LocalTable("unicorns", NAMES, [None, HeuristicBot(), RandomBot(), HeuristicBot()],
                           {}, seed)  # fmt: skip
        local.advance()
        view = local.view()
        assert view["phase"] == "character" and view["current"] == 0
        first = view["first"]
        chosen = [c for c in view["characters"] if c]
        assert len(chosen) == (4 - first) % 4  # those before seat 0, from the first
        legal = local.legal_moves()
        assert sorted(m[1] for m in legal) == sorted(c for c in ALL if c not in chosen)
        if chosen:
            with pytest.raises(IllegalMove, match="taken"):
                local.submit(("character", chosen[0]))
        mine = legal[-1]
        local.submit(mine)
        local.advance()
        view = local.view()
        assert view["characters"][0] == mine[1] and None not in view["characters"]
        assert sorted(view["characters"]) == sorted(ALL) and view["day"] == 1


# ----------------------------------------------------------------------------- the protocol


def _kinds(h: Harness) -> list[tuple[bytes, tuple[Any, ...]]]:
    return [(se.entry.author, tuple(se.entry.body.move)) for se in h.host.table.log.entries
            if isinstance(se.entry.body, MoveBody)]  # fmt: skip


def test_four_peers_choose_their_characters_over_the_protocol() -> None:
    """Four peers (real crypto): each chooses in turn from the first player, signed in the
    log; every copy has the same characters; the game ends audited."""
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    h = Harness({"unicorns": UNICORNS}, "unicorns", 4, {}, bots, seed=3)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties) and h.host.table.report.ok
    seat_of = {p.table.me.identity.public.raw: p.table.my_seat for p in h.parties}  # type: ignore[union-attr]
    picks = [(seat_of[author], move[1]) for author, move in _kinds(h) if move[0] == "character"]
    first = picks[0][0]
    assert [s for s, _c in picks] == [(first + k) % 4 for k in range(4)]
    assert sorted(c for _s, c in picks) == sorted(ALL)
    for p in h.parties:
        chars = UNICORNS.view(p.table.state, None)["characters"]
        assert chars == [dict(picks)[s] for s in range(4)]
    moves = _kinds(h)
    assert [m[0] for _a, m in moves[:4]] == ["character"] * 4  # before any other move


def _until(make: Callable[[int], Harness], done: Callable[[Harness], bool]) -> Harness:
    for seed in range(12):
        h = make(seed)
        if done(h):
            return h
    raise AssertionError("no seed produced the situation under test")


def test_a_peer_that_takes_a_taken_character_is_refused_and_named() -> None:
    """A peer whose move names a character already taken is refused by every honest copy
    (the host first), named, and chooses again; the table goes on to the end."""

    def make(seed: int) -> Harness:
        h = Harness({"unicorns": UNICORNS}, "unicorns", 4, {}, [HeuristicBot() for _ in range(4)],
                    seed=seed)  # fmt: skip

        def steal(entry: Entry) -> Entry | None:
            body = entry.body
            st = h.host.table.state
            if not isinstance(body, MoveBody) or body.move[0] != "character" or st is None:
                return None
            taken = [c for c in st.characters if c >= 0]
            if not taken:
                return None
            h.stolen = ALL[taken[0]]  # type: ignore[attr-defined]
            return replace(entry, body=replace(body, move=["character", ALL[taken[0]]]))

        h.tamper(1, steal)
        h.run()
        return h

    h = _until(make, lambda h: hasattr(h, "stolen"))
    [err] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert f"the {h.stolen} is taken: choose one nobody has" in err.reason  # type: ignore[attr-defined]
    assert err.seat == h.peers[0].seat
    assert err.culprit == h.peers[0].table.me.identity.public.fingerprint  # type: ignore[union-attr]
    assert all(p.phase is Phase.CLOSED for p in h.parties) and h.host.table.report.ok
    chars = UNICORNS.view(h.host.table.state, None)["characters"]
    assert sorted(chars) == sorted(ALL)


def test_the_status_is_a_turn_while_characters_are_chosen() -> None:
    st = G.setup(3, {"first": "host"})
    assert isinstance(G.status(st), TableOps)
    rig = choosing(3, first=0)
    assert G.status(rig.state) == Turn(0)

"""Unanimo's appeal against the same-root rule, and the reasons a rejected word shows, by the
rules' decision ("Matching and scoring"):

    No such rule is perfect, so the table settles it: during reading any player may object
    to a word (a majority of the other players rejects it) or appeal an automatic rejection
    (a majority of the other players reinstates it).
"""

from __future__ import annotations

import random
import re

import pytest
from unanimo_rig import Rig

from lanparty.games.unanimo import UNANIMO as G
from lanparty.games.unanimo.board import reading_grid
from lanparty.games.unanimo.bots import HeuristicBot, clearly_same_root
from lanparty.games.unanimo.screen import UnanimoScreen
from protocol.contract import IllegalMove, Turn


def _read(words: dict[int, tuple[str, ...]], n: int = 4, **options: object) -> Rig:
    rig = Rig(n, **options)
    rig.draw("Sun")
    for seat, ws in words.items():
        rig.hand_in(seat, *ws)
    rig.open_all()
    return rig


def _said(rig: Rig) -> dict[str, tuple[int, str | None, str | None]]:
    view = G.view(rig.state, None)
    return {a["key"]: (a["points"], a["rejected"], a["voted"]) for a in view["reading"]}


def test_a_majority_of_the_others_reinstates_a_word_the_rule_rejected() -> None:
    rig = _read({0: ("sunshine", "hot"), 1: ("sunshine", "hot"), 2: ("hot",), 3: ("cold",)})
    assert _said(rig)["sunshine"] == (0, "root", None)
    assert ("appeal", "sunshine") in G.legal_moves(rig.state, 3)  # any player, not a writer
    assert ("object", "sunshine") not in G.legal_moves(rig.state, 3)
    rig.move(3, ("appeal", "sunshine"))
    view = G.view(rig.state, 0)
    assert view["phase"] == "vote" and view["vote"]["appeal"] is True
    assert G.status(rig.state) == Turn(0, (1, 2), free=True)  # the appellant does not vote
    with pytest.raises(IllegalMove, match="the player who appealed does not vote"):
        G.check(rig.state, 3, ("vote", "keep"))
    rig.move(0, ("vote", "keep"))
    rig.move(2, ("vote", "reject"))
    assert rig.state.phase == 4  # 1 keep of 3: not yet
    rig.move(1, ("vote", "keep"))  # 2 of 3: reinstated
    assert _said(rig)["sunshine"] == (2, None, "reinstated")
    assert G.view(rig.state, None)["verdicts"] == [
        {"key": "sunshine", "by": 3, "rejected": False, "appeal": True}
    ]
    assert ("appeal", "sunshine") not in G.legal_moves(rig.state, 0)  # decided once
    assert ("object", "sunshine") not in G.legal_moves(rig.state, 0)
    rig.all_done()
    assert G.view(rig.state, None)["sheet"][0]["points"] == [5, 5, 3, 0]  # and "hot"


def test_an_appeal_without_a_majority_leaves_the_word_rejected() -> None:
    rig = _read({0: ("sunshine",), 1: ("sunshine",), 2: ("hot",), 3: ("hot",)})
    rig.move(0, ("appeal", "sunshine"))  # a writer may appeal too
    rig.move(1, ("vote", "keep"))
    rig.move(2, ("vote", "reject"))
    rig.move(3, ("vote", "reject"))  # keep cannot reach 2 of 3
    assert _said(rig)["sunshine"] == (0, "root", "upheld")
    assert rig.state.verdicts == [("sunshine", 0, True, True)]
    rig.all_done()
    assert G.view(rig.state, None)["sheet"][0]["points"] == [0, 0, 2, 2]


def test_only_a_word_the_same_root_rule_rejected_can_be_appealed_for() -> None:
    rig = _read({0: ("hot", "42", "sunny"), 1: ("hot", "42"), 2: ("cold",)}, n=3)
    assert [m for m in G.legal_moves(rig.state, 2) if m[0] == "appeal"] == [("appeal", "sunny")]
    for key in ("hot", "42", "cold", "nothing"):
        with pytest.raises(IllegalMove, match="is not a word the same-root rule rejected"):
            G.check(rig.state, 2, ("appeal", key))
    rig.move(2, ("done",))
    with pytest.raises(IllegalMove, match="done with objections and appeals"):
        G.check(rig.state, 2, ("appeal", "sunny"))
    with pytest.raises(IllegalMove, match=re.escape("appeal for a word: ('appeal', word)")):
        G.check(rig.state, 0, ("appeal",))


def test_a_card_with_only_a_rejected_root_word_still_waits_for_appeals() -> None:
    """The objections are skipped when nothing can be objected to, but not while a rejected
    word can still be appealed for."""
    rig = _read({0: ("sunshine",), 1: ("sunshine",), 2: ("x",)}, n=3)
    assert rig.state.phase == 3 and G.view(rig.state, None)["appealable"] == ["sunshine"]
    rig = _read({0: ("hot",), 1: ("cold",), 2: ("x",)}, n=3)
    assert G.view(rig.state, None)["sheet"]  # nothing to vote on: scored at once


def test_the_heuristic_bot_appeals_and_votes_on_what_the_rule_may_have_got_wrong() -> None:
    """The heuristic: a word that plainly holds the subject's name stays rejected; one the
    rule matched by a stem head or a piece of a compound subject is reinstated."""
    assert clearly_same_root("sunshine", "Sun", "en")
    assert clearly_same_root("babies", "Baby", "en")
    assert not clearly_same_root("snow", "Snowman", "en")  # a piece of a compound subject
    assert not clearly_same_root("zimowy", "Zima", "pl")  # the rule's stem head
    bot = HeuristicBot()
    rng = random.Random(1)
    rig = _read({0: ("sunshine", "hot"), 1: ("hot",), 2: ("cold",)}, n=3)
    view = G.view(rig.state, 1)
    assert bot.choose(view, G.legal_moves(rig.state, 1), rng) == ("done",)
    rig.move(0, ("appeal", "sunshine"))
    view = G.view(rig.state, 1)
    assert bot.choose(view, G.legal_moves(rig.state, 1), rng) == ("vote", "reject")
    rig = Rig(3, words="pl")
    rig.draw("Winter")
    for seat in range(3):
        rig.hand_in(seat, "zimowy" if seat == 0 else "śnieg")
    rig.open_all()
    legal = G.legal_moves(rig.state, 1)
    assert bot.choose(G.view(rig.state, 1), legal, rng) == ("appeal", "zimowy")
    rig.move(1, ("appeal", "zimowy"))
    assert bot.choose(G.view(rig.state, 2), G.legal_moves(rig.state, 2), rng) == ("vote", "keep")


def _grid(rig: Rig) -> str:
    view = G.view(rig.state, 0)
    return "".join(text for _, text in reading_grid(view["reading"], 0, 200))


def test_a_rejected_word_shows_why_on_the_board() -> None:
    """Issue 21: a rejected word is shown with its reason on the board (a sign or digit,
    the root, the table's objection) and the board says when an appeal reinstated a word,
    or was lost, and when an objection was voted down."""
    rig = _read({0: ("hot", "42", "sunshine", "sunny", "warm"), 1: ("hot", "42", "sunny", "warm"),
                 2: ("hot", "sunshine"), 3: ("cold",)})  # fmt: skip
    grid = _grid(rig)
    assert "42 ✗ sign or digit" in grid and "sunshine ✗ root" in grid and "hot 3" in grid
    rig.move(3, ("object", "hot"))
    for seat in (0, 1):
        rig.move(seat, ("vote", "reject"))
    rig.move(3, ("appeal", "sunshine"))
    for seat in (0, 1):
        rig.move(seat, ("vote", "keep"))
    rig.move(3, ("appeal", "sunny"))
    for seat in (0, 1):
        rig.move(seat, ("vote", "reject"))
    rig.move(2, ("object", "warm"))
    for seat in (0, 1):
        rig.move(seat, ("vote", "keep"))
    grid = _grid(rig)
    assert "hot ✗ objected" in grid
    assert "sunshine 2 (reinstated on appeal)" in grid
    assert "sunny ✗ root (appeal lost)" in grid
    assert "warm 2 (objection voted down)" in grid


def test_appeal_n_is_typed_like_object_n() -> None:
    rig = _read({0: ("hot", "sunshine"), 1: ("hot", "sunshine"), 2: ("x",)}, n=3)
    screen = UnanimoScreen().still()  # the whole reading on screen
    view = G.view(rig.state, 2)
    assert screen.parse("appeal", ["2"], "appeal 2", view) == ("appeal", "sunshine")
    assert screen.command_for(("appeal", "sunshine"), view) == ("appeal 2",
                                                               "appeal for “sunshine”")  # fmt: skip
    assert dict(screen.help())["appeal N"].startswith("appeal against the same-root rejection")
    assert screen.aliases["a"] == "appeal"

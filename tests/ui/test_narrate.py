"""Narration: every kind of move told for "you" and for another player, with the verb agreeing
with its subject; the opening card explained; the deal told after the shuffle."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from lanparty.games.bots import bots_for
from lanparty.games.kato.narrate import KatoNarrator
from lanparty.games.localdealer import LocalDealer
from lanparty.table.local import LocalTable
from protocol.contract import CoinResult, JointCoin, Request, Result, Shuffle, Shuffled

NAMES = ("Ann", "Bea", "Carl")

# Each verb the log uses, in the base form ("You play") and the third person ("Bea plays").
VERBS = {
    "play": "plays", "name": "names", "call": "calls", "draw": "draws", "keep": "keeps",
    "pass": "passes", "miss": "misses", "challenge": "challenges", "catch": "catches",
    "take": "takes", "go": "goes", "show": "shows", "face": "faces", "hold": "holds",
}  # fmt: skip
THIRD = {third: base for base, third in VERBS.items()}


def disagreements(line: str) -> list[str]:
    """The verbs of ``line`` that do not agree with its subject ("You" or a player's name):
    the first verb after the subject and each verb that starts a clause after ", " or "and"."""
    subject = next((s for s in ("You", *NAMES) if line.startswith(s + " ")), None)
    if subject is None:
        return []
    phrases = re.split(r", | and ", line[len(subject) + 1 :])
    bad = []
    for phrase in phrases:
        words = phrase.split()
        word = words[1] if words[:1] == ["now"] and len(words) > 1 else words[0]
        if word in (THIRD if subject == "You" else VERBS):
            bad.append(word)
    return bad


def test_the_agreement_check_catches_the_old_mistake() -> None:
    assert disagreements("You play Wild Draw Four and names red") == ["names"]
    assert disagreements("Bea plays Wild Draw Four and name red") == ["name"]
    assert disagreements("You play Wild Draw Four and name red") == []


def view(**changes: Any) -> dict[str, Any]:
    """A public view of a 3-seat table (Ann, Bea, Carl) in mid-round; seat 1 (Bea) to play."""
    base: dict[str, Any] = {
        "seat": 0, "players": 3, "round": 1, "phase": "play", "current": 1, "direction": 1,
        "dealer": 2, "top": "r5", "colour": "r", "pending": None, "counts": [5, 5, 5],
        "deck": 60, "discard": 10, "kato": None, "drawn": None, "skips": [0, 0, 0],
        "scores": [0, 0, 0], "round_scores": [], "winners": [], "hand": [],
    }  # fmt: skip
    base.update(changes)
    return base


W4 = {"kind": "wild-draw-four", "total": 4, "from": 0}
CHALLENGE = {"by": 1, "of": 0, "colour": "g", "verdict": None}
# (the move, the mover, the view before, the view after): every kind of move Bea can make.
MOVES: list[tuple[str, tuple[Any, ...], dict[str, Any], dict[str, Any]]] = [
    ("play", ("play", (1,), ("r7",), ""), view(), view(current=2, counts=[5, 4, 5])),
    ("wild", ("play", (1,), ("W+4",), "b"), view(),
     view(current=2, counts=[5, 4, 5], pending=dict(W4, **{"from": 1}))),
    ("call", ("play", (1,), ("W",), "b", "kato"), view(counts=[5, 2, 5]),
     view(current=2, counts=[5, 1, 5])),
    ("skip", ("play", (1,), ("rS",), ""), view(), view(current=0, counts=[5, 4, 5])),
    ("draw two", ("play", (1,), ("r+2",), ""), view(), view(current=0, counts=[5, 4, 7])),
    ("out", ("play", (1,), ("r7",), ""), view(counts=[5, 1, 5]),
     view(current=2, counts=[5, 0, 5], phase="scoring")),
    ("draw", ("draw",), view(), view(phase="drawn")),
    ("pass", ("pass",), view(phase="drawn"), view(current=2)),
    ("accept", ("accept",), view(pending=W4), view(current=2)),
    ("skipped", ("accept",), view(pending={"kind": "skip", "total": 0, "from": 0}),
     view(current=2)),
    ("challenge", ("challenge",), view(pending=W4), view(phase="verdict", challenge=CHALLENGE)),
    ("guilty", ("verdict", "guilty"), view(pending=W4, phase="verdict", challenge=CHALLENGE),
     view(challenge=dict(CHALLENGE, verdict="guilty"))),
    ("innocent", ("verdict", "innocent"), view(pending=W4, phase="verdict", challenge=CHALLENGE),
     view(current=2, challenge=dict(CHALLENGE, verdict="innocent"))),
    ("colour", ("colour", "g"), view(phase="name-colour"), view(colour="g")),
    ("kato", ("kato",), view(kato=1, current=2), view(current=2)),
    ("catch", ("catch",), view(kato=0), view()),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "move", "before", "after"), MOVES, ids=[m[0] for m in MOVES])
def test_every_move_is_told_with_agreeing_verbs(
    kind: str, move: tuple[Any, ...], before: dict[str, Any], after: dict[str, Any]
) -> None:
    told = {}
    for listener in (1, 2):  # Bea hears "You ...", Carl hears "Bea ..."
        narrator = KatoNarrator(listener, NAMES)
        narrator.narrate(1, move, dict(before, seat=listener), dict(after, seat=listener))
        told[listener] = narrator.lines
        assert narrator.lines, kind
        for line in narrator.lines:
            assert disagreements(line) == [], line
    assert told[1][0].startswith("You ") or told[1][0].startswith("Verdict: ")
    assert told[2][0].startswith("Bea ") or told[2][0].startswith("Verdict: ")
    # The same story either way: only the subject and its verbs differ.
    assert len(told[1]) == len(told[2])


def test_what_a_few_moves_say() -> None:
    said = {}
    for kind, move, before, after in MOVES:
        narrator = KatoNarrator(2, NAMES)
        narrator.narrate(1, move, before, after)
        said[kind] = narrator.lines
    assert said["wild"] == [
        "Bea plays Wild Draw Four and names blue",
        "You now face 4 cards to draw",  # Carl listens, and is the next player
    ]
    assert said["call"] == ["Bea plays Wild, names blue and calls KaTO!"]
    assert said["draw two"] == ["Bea plays Red Draw Two", "You draw 2 and miss a turn"]
    assert said["accept"] == ["Bea draws 4 and misses the turn"]
    assert said["guilty"] == [
        "Verdict: Ann's hand, shown to Bea, has a green card: guilty",
        "Ann draws the 4 cards instead",
    ]
    assert said["innocent"] == [
        "Verdict: Ann's hand, shown to Bea, has no green card: innocent",
        "Bea draws 6 and misses the turn",
    ]


# ----------------------------------------------------------------------------- the opening


class Rigged(LocalDealer):
    """Deals at random, but turns over the given cards first (in this order); the coin picks
    seat 1."""

    def __init__(self, flips: list[str], hand_cards: int) -> None:
        super().__init__(random.Random(5))
        self.flips, self.hand_cards = flips, hand_cards

    def fulfil(self, req: Request) -> Result:
        if isinstance(req, Shuffle):
            rest = list(req.cards)
            for label in self.flips:
                rest.remove(label)
            random.Random(1).shuffle(rest)
            order = rest[: self.hand_cards] + self.flips + rest[self.hand_cards :]
            self.cards.update(zip(req.handles, order, strict=True))
            return Shuffled(req.deck, req.handles)
        if isinstance(req, JointCoin):
            return CoinResult(1)
        return super().fulfil(req)


Steps = list[tuple[str, list[str]]]  # each input's kind and the lines it added


def opening(flips: list[str], first: str = "host") -> tuple[Steps, Steps]:
    """Ann's log (seat 0) until the first move is due, input by input, as the offline table
    tells it and as a networked seat tells it from the changes of its view; Bea starts (the
    host's next seat, or the coin's pick), so Ann deals."""
    bots = bots_for("kato")["heuristic"]
    table = LocalTable("kato", NAMES, [None, bots(), bots()], {"first": first}, seed=3)
    table.dealer = Rigged(flips, 3 * 7)
    network = KatoNarrator(0, NAMES)
    local = table.narrator.narrate
    net_before: dict[str, Any] = {}  # a networked seat starts with no view
    steps: tuple[Steps, Steps] = ([], [])

    def both(seat: Any, item: Any, before: Any, after: Any) -> None:
        nonlocal net_before
        logs = (table.narrator.lines, network.lines)
        starts = [len(log) for log in logs]
        local(seat, item, before, after)
        network.changes(net_before, after)
        net_before = after
        for n, log in enumerate(logs):
            steps[n].append((type(item).__name__, log[starts[n] :]))

    table.narrator.narrate = both  # type: ignore[method-assign]
    table.over()  # fulfils the coin, the shuffle, the deals and the flips, up to the first move
    return steps


def told(steps: Steps) -> list[str]:
    return [line for _, lines in steps for line in lines]


def test_the_deal_is_told_with_the_first_card_after_the_shuffle_and_the_deals() -> None:
    for steps in opening(["y7"], first="random"):
        kinds = [kind for kind, _ in steps]
        assert kinds == ["CoinResult", "Shuffled", "Dealt", "Dealt", "Dealt", "Revealed"]
        said = {kind: lines for kind, lines in steps if lines}
        assert said.get("Revealed", [])[:2] == [
            "Round 1: the cards are shuffled and dealt",
            "Turned over: Yellow 7",
        ], steps
        assert not said.get("Shuffled") and not said.get("Dealt")


@pytest.mark.parametrize(
    ("flips", "lines"),
    [
        (["y7"], ["Turned over: Yellow 7", "Bea to play"]),
        (["yS"], ["Turned over: Yellow Skip", "Bea misses the first turn", "Carl to play"]),
        (
            ["y+2"],
            ["Turned over: Yellow Draw Two", "Bea draws 2 and misses the first turn",
             "Carl to play", "Bea takes 2 cards"],
        ),
        (
            ["yR"],
            ["Turned over: Yellow Reverse", "Play goes the other way, so the dealer starts",
             "Your turn"],
        ),
        (["W"], ["Turned over: Wild", "Bea to name the colour, then play"]),
        (
            ["W+4", "g4"],
            ["Turned over: Wild Draw Four: it goes under the pile and the next card is turned "
             "over", "Turned over: Green 4", "Bea to play"],
        ),
    ],
)  # fmt: skip
def test_the_opening_card_is_explained_once_the_cards_are_dealt(
    flips: list[str], lines: list[str]
) -> None:
    local, network = opening(flips)
    expected = ["Round 1: the cards are shuffled and dealt", *lines]
    assert told(local) == expected
    assert told(network) == expected

"""What KaTO's hard bot infers about the other hands from the views it is handed: never more
than was seen (the real hands always fit the notes), something once a player has drawn or
played a wild, a sampler that keeps to the notes, and the rules of thumb's choices read
right (``choice_fits`` agrees with the normal bot)."""

from __future__ import annotations

import random
from typing import Any

from lanparty.games import GAMES
from lanparty.games.bots import Autopilot, bot_at
from lanparty.games.kato.bots import CarefulBot, HeuristicBot
from lanparty.games.kato.cards import CODE, COLOUR, LABEL, deck_codes
from lanparty.games.kato.infer import COLOUR_MASK, WILDS, choice_fits, sample_hand
from lanparty.games.localdealer import LocalTable
from protocol.contract import Move, Plain

OPTIONS: dict[str, Plain] = {"rounds": 1}


def _fits(hand: list[int], masks: list[int]) -> bool:
    """Can every card of ``hand`` go in its own slot, none in a slot that forbids it?"""
    match = [-1] * len(masks)

    def place(i: int, tried: set[int]) -> bool:
        for j, mask in enumerate(masks):
            if not mask >> hand[i] & 1 and j not in tried:
                tried.add(j)
                if match[j] < 0 or place(match[j], tried):
                    match[j] = i
                    return True
        return False

    return len(hand) == len(masks) and all(place(i, set()) for i in range(len(hand)))


class _Checker:
    """The rules of thumb the hard bot starts from, checked at each of its turns against the
    real state: every other seat's real hand fits the notes' slots."""

    def __init__(self, table: LocalTable) -> None:
        self.table, self.bot = table, CarefulBot()
        self.checked = self.constrained = 0

    def choose(self, view: dict[str, Plain], legal: Any, rng: random.Random) -> Move | None:
        move = self.bot.choose(view, legal, rng)
        if None in legal:
            return move
        infer = self.bot.notes()["infer"]
        assert isinstance(infer, dict)
        state = self.table.state
        for seat, masks in infer["slots"]:  # type: ignore[union-attr]
            hand = [state.card_of[h] for h in state.hands[seat]]
            assert _fits(hand, masks), (view, [LABEL[c] for c in hand])
            self.checked += 1
            self.constrained += sum(1 for m in masks if m)
        pile = infer["pile"]  # type: ignore[index]
        assert pile[-1] == CODE[str(view["top"])]  # type: ignore[index]
        return move


def test_the_notes_never_claim_more_than_was_seen() -> None:
    """Seeded two-player games against the normal bot (which forgets its call at times):
    at every turn of the watching seat the opponent's real hand fits the notes, and the
    notes do say something (some slots rule cards out)."""
    checked = constrained = 0
    for g in range(24):
        table = LocalTable(GAMES["kato"], 2, OPTIONS, random.Random(g))
        me = g % 2
        checker = _Checker(table)
        bots: list[Any] = [None, None]
        bots[me] = Autopilot("kato", checker)
        bots[1 - me] = bot_at("kato", "normal", OPTIONS)
        table.play(bots)
        checked += checker.checked
        constrained += checker.constrained
    assert checked > 200 and constrained > checked  # more than one ruled-out slot a turn


def test_four_players_too() -> None:
    for g in range(4):
        table = LocalTable(GAMES["kato"], 4, OPTIONS, random.Random(100 + g))
        checker = _Checker(table)
        bots: list[Any] = [bot_at("kato", "normal", OPTIONS) for _ in range(4)]
        bots[g % 4] = Autopilot("kato", checker)
        table.play(bots)
        assert checker.checked


def test_the_sampler_keeps_to_the_masks_while_it_can() -> None:
    rng = random.Random(5)
    pool = deck_codes(0)
    rng.shuffle(pool)
    no_red_no_wild = COLOUR_MASK[0] | WILDS
    masks = [no_red_no_wild] * 5 + [0, 0]
    before = len(pool)
    hand = sample_hand(pool, masks, [], rng)
    assert len(hand) == 7 and len(pool) == before - 7
    assert all(COLOUR[c] != 0 and c < CODE["W"] for c in hand[:5])
    # A pool with nothing a slot may be: it still gets a card.
    assert len(sample_hand([CODE["r1"], CODE["r2"]], [COLOUR_MASK[0]], [], rng)) == 1


def test_the_sampler_prefers_hands_that_explain_a_choice() -> None:
    """A player named yellow after a Wild with three cards left: the sampler deals it
    hands where yellow is the colour it holds most of."""
    rng = random.Random(7)
    record = [1, CODE["b5"], 3, 7, CODE["W"], 1]  # on b5 (blue), next holds 7: W, named y
    yellow_most = 0
    for _ in range(40):
        pool = deck_codes(0)
        rng.shuffle(pool)
        hand = sample_hand(pool, [0, 0, 0], [(record, [0, 1, 2], [])], rng)
        per = [sum(1 for c in hand if COLOUR[c] == k) for k in range(4)]
        yellow_most += per[1] == max(per)
    assert yellow_most >= 36


def test_choice_fits_agrees_with_the_rules_of_thumb() -> None:
    """In random single-card situations, the normal bot's own play always fits, and a play
    of a card it passed over with a clearly lower score does not."""
    rng = random.Random(11)
    bot = HeuristicBot()
    agreed = refused = 0
    for _ in range(400):
        pool = deck_codes(0)
        rng.shuffle(pool)
        hand = [pool.pop() for _ in range(rng.randrange(1, 9))]
        top = next(c for c in pool if c < CODE["W"])
        colour = COLOUR[top]
        nxt = rng.randrange(1, 8)
        handles = list(range(len(hand)))
        view: dict[str, Plain] = {
            "seat": 0, "direction": 1, "counts": [len(hand), nxt], "colour": "rygb"[colour],
            "top": LABEL[top], "pending": None,
            "hand": [[h, LABEL[c]] for h, c in zip(handles, hand, strict=True)],
        }  # fmt: skip
        legal: list[Move | None] = []
        for h, c in zip(handles, hand, strict=True):
            fits = c >= CODE["W"] or COLOUR[c] == colour or (c % 13 == top % 13)
            if fits:
                for col in "rygb" if c >= CODE["W"] else ("",):
                    legal.append(("play", (h,), (LABEL[c],), col))
        legal.append(("draw",))
        move = bot.choose(view, legal, rng)
        assert move is not None
        if move[0] != "play":
            continue
        code = hand[move[1][0]]  # type: ignore[index]
        named = "rygb".index(str(move[3])) if move[3] else 4
        assert choice_fits(
            hand, top, colour, nxt, code, named if code >= CODE["W"] else COLOUR[code]
        )
        agreed += 1
        for other in legal:
            if other is None or other[0] != "play" or other == move:
                continue
            c = hand[other[1][0]]  # type: ignore[index]
            col = "rygb".index(str(other[3])) if other[3] else COLOUR[c]
            if not choice_fits(hand, top, colour, nxt, c, col):
                refused += 1
    assert agreed > 200 and refused > 50

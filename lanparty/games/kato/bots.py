"""KaTO over one seat's view: the moves a seat's program makes by itself (``forced_move``),
and a strategy (``HeuristicBot``): keep wilds, follow your strongest colour, attack a player
close to going out, never forget KaTO, catch others, challenge a likely bluff."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from lanparty.games.views import cards, num, num_at, seq
from protocol.contract import Move, Plain

from .cards import CODE, COLOUR, COLOURS, IS_WILD, NO_COLOUR, POINTS, RANK, WILD4

_COLOUR_OF = {c: i for i, c in enumerate(COLOURS)}
_ALONE = (("pass",), ("accept",))  # moves that decide nothing when nothing else is legal


def forced_move(view: Mapping[str, Plain], legal: Sequence[Move | None]) -> Move | None:
    """The move this seat's program makes now without asking anyone, or ``None``.

    The challenger's verdict, read from the shown hand as soon as the view holds it (guilty
    if it has a card of the colour that was in play); or, on the seat's own turn, a ``pass``
    (the drawn card does not fit) or an ``accept`` (nothing can answer the card aimed at it)
    when that is the only legal move. Returned only if it is in ``legal``.
    """
    challenge = view.get("challenge")
    if view.get("phase") == "verdict" and isinstance(challenge, dict):
        shown = challenge.get("shown")
        if challenge.get("by") != view.get("seat") or not isinstance(shown, list):
            return None
        colour = _COLOUR_OF.get(str(challenge.get("colour")))
        guilty = any(COLOUR[CODE[str(label)]] == colour for label in shown)
        move: Move = ("verdict", "guilty" if guilty else "innocent")
        return move if move in legal else None
    if len(legal) == 1 and legal[0] in _ALONE and view.get("current") == view.get("seat"):
        return legal[0]
    return None


_ATTACK = (10, 11, 12, 14, 15)  # Skip, Reverse, Draw Two, Wild Draw Four, cone


class HeuristicBot:
    """A sensible player; it reads only its own view. With ``forgets`` > 0 it is a little
    human: that share of the time it plays its second-to-last card without calling KaTO with
    it, and must call on its own, racing whoever would catch it."""

    challenge_at = 5  # challenge a Wild Draw Four when its player held at least this many cards

    def __init__(self, forgets: float = 0.0) -> None:
        self.forgets = forgets

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The best-looking legal move by a fixed score (``rng`` decides only whether it
        forgets the call: with ``forgets`` = 0 it is deterministic)."""
        names: set[object] = {m[0] for m in legal if m is not None}
        if "kato" in names:
            return ("kato",)
        if "catch" in names:
            return ("catch",)
        if None in legal:
            return None
        if "verdict" in names or len(legal) == 1:
            return legal[0]
        hand = [CODE[label] for _, label in cards(view)]
        per_colour = [0, 0, 0, 0, 0]
        for code in hand:
            per_colour[COLOUR[code]] += 1
        best_colour = COLOURS[max(range(4), key=lambda c: (per_colour[c], -c))]
        if "colour" in names:
            return ("colour", best_colour)
        plays = [m for m in legal if m is not None and m[0] == "play"]
        if "accept" in names:
            return self._answer(view, plays, per_colour, names)
        if plays:
            move = max(plays, key=lambda m: self._score(view, m, hand, per_colour))
            if self._score(view, move, hand, per_colour) > -50:
                forgot = self.forgets > 0 and rng.random() < self.forgets
                return move if forgot else _called(move, legal)
        return ("pass",) if "pass" in names else ("draw",)

    def _answer(
        self, view: dict[str, Plain], plays: list[Move], per_colour: list[int], names: set[object]
    ) -> Move:
        if plays:  # stack it on or send it back: the next one suffers
            move = max(plays, key=lambda m: per_colour[_COLOUR_OF.get(str(m[3]), 4)])
            return _called(move, plays)
        pending = view["pending"]
        if (
            "challenge" in names
            and isinstance(pending, dict)
            and num_at(view, "counts", num(pending, "from")) + 1 >= self.challenge_at
        ):
            return ("challenge",)
        return ("accept",)

    def _score(
        self, view: dict[str, Plain], move: Move, hand: list[int], per_colour: list[int]
    ) -> float:
        labels: tuple[str, ...] = move[1 + 1]  # type: ignore[assignment]
        codes = [CODE[label] for label in labels]
        last = codes[-1]
        colour = _COLOUR_OF[str(move[3])] if IS_WILD[last] else COLOUR[last]
        score = 10.0 * len(codes) + sum(POINTS[c] for c in codes) / 10
        score += 4 * (per_colour[colour] - sum(1 for c in codes if COLOUR[c] == colour))
        if IS_WILD[last]:
            if len(hand) > 2:
                score -= 30  # keep wilds for when nothing else fits
            if RANK[last] == WILD4:
                current = view["colour"]
                if current is not None and per_colour[_COLOUR_OF[str(current)]]:
                    score -= 100  # a bluff: only when it is the only way on
        players = len(seq(view, "counts"))
        nxt = (num(view, "seat") + num(view, "direction")) % players
        if RANK[last] in _ATTACK and num_at(view, "counts", nxt) <= 2:
            score += 25
        if COLOUR[last] == NO_COLOUR and len(hand) <= 2:
            score += 5
        return score


def _called(move: Move, legal: Sequence[Move | None]) -> Move:
    """``move`` with the KaTO call when the call may go with it (nobody can catch us then)."""
    called = (*move, "kato")
    return called if called in legal else move


class CarefulBot(HeuristicBot):
    """The hard bot's rules of thumb: the heuristic bot's, never forgetting the call, and
    challenging a Wild Draw Four only when its player held very many cards (a player who
    keeps to the rules plays one only without the colour, so most challenges lose)."""

    challenge_at = 10

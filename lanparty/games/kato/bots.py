"""KaTO over one seat's view: the moves a seat's program makes by itself (``forced_move``),
and a strategy (``HeuristicBot``): keep wilds, follow your strongest colour, attack a player
close to going out, never forget KaTO, catch others, challenge a likely bluff."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from lanparty.games.views import cards, num, num_at, seq
from protocol.contract import Move, Plain

from .cards import CODE, COLOUR, COLOURS, IS_WILD, NO_COLOUR, POINTS, RANK, WILD4
from .infer import Watcher

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
    keeps to the rules plays one only without the colour, so most challenges lose).

    It also watches the table from one of its views to the next: a player who drew a card
    while nobody played since its own move (the top card as it left it) had nothing for
    that colour, so it likely still has none until it draws again; its plays then favour
    keeping or turning to that colour when the next player lacks it and it holds more of
    it (``played`` tells it the move it made, when a search chose another). Its
    :class:`~.infer.Watcher` keeps finer notes on the other hands, for the search's samples
    (``notes``)."""

    challenge_at = 10
    lock_bonus = 30.0  # a play that leaves the next player a colour it lacks

    def __init__(self, forgets: float = 0.0) -> None:
        super().__init__(forgets)
        self._after: tuple[int, str | None, str | None, list[int]] | None = None
        self._lacks: dict[int, tuple[int, int]] = {}  # seat -> (colour, rank) it had none of
        self.watcher = Watcher()  # what the search's samples may assume of the other hands

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """As the heuristic bot, with what it saw since its last move."""
        self._watch(view)
        move = super().choose(view, legal, rng)
        self.played(view, move)
        return move

    def played(self, view: dict[str, Plain], move: Move | None) -> None:
        """Note the table as ``move`` (made from ``view``) leaves it: the top card and the
        colour, and every seat's card count."""
        self.watcher.left(view, move)
        counts = [num_at(view, "counts", i) for i in range(len(seq(view, "counts")))]
        top, colour = view.get("top"), view.get("colour")
        if move is not None and move[0] == "play":
            labels: tuple[str, ...] = move[2]  # type: ignore[assignment]
            top = labels[-1]
            code = CODE[labels[-1]]
            colour = str(move[3]) if IS_WILD[code] else COLOURS[COLOUR[code]]
            counts[num(view, "seat")] -= len(labels)
        elif move is not None and move[0] == "colour":
            colour = str(move[1])
        self._after = (num(view, "round"), None if top is None else str(top),
                       None if colour is None else str(colour), counts)  # fmt: skip

    def _watch(self, view: dict[str, Plain]) -> None:
        """Learn who drew on which colour since this bot's last move."""
        self.watcher.see(view)
        after, self._after = self._after, None
        counts = [num_at(view, "counts", i) for i in range(len(seq(view, "counts")))]
        if after is None or after[0] != num(view, "round"):
            self._lacks = {}
            return
        _round, top, colour, before = after
        untouched = view.get("top") == top and view.get("pending") is None
        for s, (was, now) in enumerate(zip(before, counts, strict=True)):
            if now > was:
                if untouched and now == was + 1 and colour in _COLOUR_OF and top in CODE:
                    self._lacks[s] = (_COLOUR_OF[colour], RANK[CODE[top]])
                else:
                    self._lacks.pop(s, None)  # drew more: it may hold anything again

    def _score(
        self, view: dict[str, Plain], move: Move, hand: list[int], per_colour: list[int]
    ) -> float:
        score = super()._score(view, move, hand, per_colour)
        labels: tuple[str, ...] = move[2]  # type: ignore[assignment]
        codes = [CODE[label] for label in labels]
        last = codes[-1]
        colour = _COLOUR_OF[str(move[3])] if IS_WILD[last] else COLOUR[last]
        players = len(seq(view, "counts"))
        nxt = (num(view, "seat") + num(view, "direction")) % players
        left = per_colour[colour] - sum(1 for c in codes if COLOUR[c] == colour)
        lacks = self._lacks.get(nxt)
        if lacks is not None and lacks[0] == colour and left > 0:
            score += self.lock_bonus
        return score

    def notes(self) -> dict[str, Plain]:
        """What it learnt from the table, for a search's samples: the watcher's ``infer``
        (see :meth:`.infer.Watcher.notes`)."""
        return self.watcher.notes()

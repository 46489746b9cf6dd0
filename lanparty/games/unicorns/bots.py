"""A Kill the Unicorns strategy over one seat's view.

It values each unicorn by what it would add to its own score (coins, colour sets, rainbows),
corrected by the schemes it knows on it (its own, which it remembers from its own planting
moves, and the ones its Princess peeked at) and a penalty for each scheme it cannot see. It
plants good schemes (and its Decoy and Trojan) on the unicorn it wants and bad ones on the
unicorn it wants least, bids by value within a daily budget, joins cheaply on a unicorn its
own Decoy guards, uses its powers when they help, and buys whatever raises its score most.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from protocol.contract import Move, Plain

from .cards import (
    AMBUSH,
    ATHLETIC,
    CHAMELEON,
    COLOUR_INDEX,
    COLOURS,
    DECOY,
    NEUTRAL,
    SCHEME_VALUE,
    SHINY,
    SICK,
    STINKY,
    TROJAN,
    unicorn_coins,
    unicorn_colour,
)
from .scoring import total

_UNKNOWN = -1.5  # what a scheme it cannot see is worth to the winner, on average
_KEEP = {DECOY: 4.0, SHINY: 3.0, TROJAN: 3.0, STINKY: 3.0, ATHLETIC: 2.0, SICK: 2.0}
_BAD_FOR_TAKER = (STINKY, SICK, AMBUSH)
_CHARACTERS = ("knight", "wizard", "princess", "shaman")
"""The characters in the order this bot prefers them (one without its power at the table
comes after every one with it): the Knight's +2 wins hunts outright, the Wizard saves a
card a day, the Princess reads a scheme, the Shaman moves one."""


def _arg(move: Move, index: int) -> int:
    value = move[index]
    assert isinstance(value, int)
    return value


def _sum(move: Move) -> int:
    values = move[1]
    assert isinstance(values, tuple)
    return sum(x for x in values if isinstance(x, int))


def _colour(name: object) -> int:
    return COLOUR_INDEX[name] if isinstance(name, str) else NEUTRAL


class HeuristicBot:
    """A sensible hunter; it reads only its own view (and remembers its own plantings)."""

    def __init__(self) -> None:
        self.mine: dict[int, str] = {}  # schemes it planted: handle -> label

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The best-looking element of ``legal`` by fixed rules (``rng`` breaks no ties)."""
        moves = [m for m in legal if m is not None]
        if not moves:
            return None
        v: dict[str, Any] = view
        names = {m[0] for m in moves}
        if "character" in names:
            return self._character(v, moves)
        if "plant" in names:
            return self._plant(v, moves)
        if "cards" in names:
            return self._cards(v, moves)
        if "boost" in names:
            return ("boost",) if self._boost_helps(v) else ("decline",)
        if "recall" in names:
            return max((m for m in moves if m[0] == "recall"), key=lambda m: _arg(m, 1))
        if "reveal" in names:
            return max(moves, key=lambda m: self._scheme_for_winner(v, _arg(m, 1), v["seat"]))
        if "give" in names:
            return max(moves, key=lambda m: self._total_without(v, _arg(m, 1)))
        if "colour" in names:
            return max(moves, key=lambda m: self._gain(v, v["hunt"]["unicorn"], str(m[1])))
        if v["phase"] == "market":
            return self._market(v, moves)
        return self._bid(v, moves)

    def _character(self, v: Mapping[str, Any], moves: list[Move]) -> Move:
        """The character left that it likes best, one with its power at this table first."""
        powers = v.get("character_powers") or {}

        def rank(m: Move) -> tuple[bool, int]:
            name = str(m[1])
            order = _CHARACTERS.index(name) if name in _CHARACTERS else len(_CHARACTERS)
            return (not powers.get(name, False), order)

        return min(moves, key=rank)

    # ------------------------------------------------------------------ valuing
    def _collection(self, v: Mapping[str, Any], seat: int) -> tuple[list[int], list[int]]:
        coll = v["collections"][seat]
        return [u["worth"] for u in coll], [_colour(u["colour"]) for u in coll]

    def _total(self, v: Mapping[str, Any], seat: int) -> int:
        values, colours = self._collection(v, seat)
        return total(values, colours, v["pates"][seat])

    def _label(self, v: Mapping[str, Any], unicorn: int) -> str:
        for entry in v["row"]:
            if entry["unicorn"] == unicorn:
                return str(entry["label"])
        for coll in v["collections"]:
            for u in coll:
                if u["unicorn"] == unicorn:
                    return str(u["label"])
        raise KeyError(unicorn)

    def _gain(
        self, v: Mapping[str, Any], unicorn: int, colour: str | None = None, seat: int | None = None
    ) -> float:
        """What taking ``unicorn`` (coins only, in ``colour`` if given) adds to a score."""
        seat = v["seat"] if seat is None else seat
        label = self._label(v, unicorn)
        values, colours = self._collection(v, seat)
        c = COLOUR_INDEX[colour] if colour else unicorn_colour(label)
        pates = v["pates"][seat]
        after = total([*values, unicorn_coins(label)], [*colours, c], pates)
        return after - total(values, colours, pates)

    def _known(self, v: Mapping[str, Any]) -> dict[int, str]:
        known = dict(self.mine)
        known.update({int(h): str(label) for h, label in v.get("peeked") or ()})
        return known

    def _scheme_for_winner(self, v: Mapping[str, Any], scheme: int, seat: int) -> float:
        """What ``scheme`` is worth to ``seat`` winning the unicorn it lies on."""
        label = self._known(v).get(scheme)
        owner = next((o for e in v["row"] for h, o in e["schemes"] if h == scheme), -1)
        if label is None:
            return _UNKNOWN
        if label in SCHEME_VALUE:
            return float(SCHEME_VALUE[label])
        if owner == seat:
            return 0.0  # its own Trojan or Decoy does nothing for its winner
        return {TROJAN: -4.0, AMBUSH: -5.0, DECOY: -4.0, CHAMELEON: 1.0}.get(label, 0.0)

    def _value(self, v: Mapping[str, Any], entry: Mapping[str, Any]) -> float:
        """What hunting this row unicorn is worth to this bot."""
        me = v["seat"]
        value = self._gain(v, int(entry["unicorn"]))
        schemes = entry["schemes"]
        for h, _ in schemes:
            value += self._scheme_for_winner(v, int(h), me) / max(1, len(schemes))
        return value

    def _decoy_here(self, entry: Mapping[str, Any]) -> bool:
        return any(self.mine.get(int(h)) == DECOY for h, _ in entry["schemes"])

    # ------------------------------------------------------------------ planting
    def _plant(self, v: dict[str, Any], moves: list[Move]) -> Move:
        if v["day"] == 1:
            self.mine = {}  # a new game: handles start again
        drawn = {int(h): str(label) for h, label in v["my_drawn"]}
        values = {int(e["unicorn"]): self._gain(v, int(e["unicorn"])) for e in v["row"]}
        best = max(values.values())

        def score(m: Move) -> float:
            label = drawn[_arg(m, 1)]
            fit = values[_arg(m, 2)]
            if label in _BAD_FOR_TAKER:
                fit = best - fit
            return _KEEP.get(label, 1.0) + 0.3 * fit

        move = max(moves, key=score)
        self.mine[_arg(move, 1)] = drawn[_arg(move, 1)]
        return move

    # ------------------------------------------------------------------ hunting
    def _current(self, v: Mapping[str, Any]) -> Mapping[str, Any]:
        u = v["hunt"]["unicorn"]
        return next(e for e in v["row"] if e["unicorn"] == u)

    def _budget(self, v: Mapping[str, Any]) -> float:
        hand = v["hands"][v["seat"]]
        left = max(1, len(v["row"]))
        return float(sum(hand)) / left + 1

    def _bid(self, v: dict[str, Any], moves: list[Move]) -> Move:
        names = {m[0] for m in moves}
        entry = self._current(v)
        if "peek" in names:
            peeks = [m for m in moves if m[0] == "peek"]
            on_it = {int(h) for h, _ in entry["schemes"]}
            return next((m for m in peeks if m[1] in on_it), peeks[0])
        if "shift" in names and self._value(v, entry) >= 5:
            here = [int(h) for h, _ in entry["schemes"] if int(h) not in self.mine]
            shift = next((m for m in moves if m[0] == "shift" and m[1] in here), None)
            if shift is not None:
                return shift
        value = self._value(v, entry)
        if self._decoy_here(entry):
            value += 6
        budget = self._budget(v)
        if "join" in names:
            bid = v["hunt"]["bid"]
            return ("join",) if value >= 1.5 * bid and budget + value / 2 >= 2 * bid else ("pass",)
        hunts = [m for m in moves if m[0] == "hunt"]
        if not hunts or value < 2:
            return ("pass",)
        want = 1 if value < 5 or self._decoy_here(entry) else (2 if value < 9 else 3)
        return max((m for m in hunts if _arg(m, 1) <= want), key=lambda m: _arg(m, 1))

    def _cards(self, v: dict[str, Any], moves: list[Move]) -> Move:
        entry = self._current(v)
        if self._decoy_here(entry):
            return min(moves, key=lambda m: _sum(m))
        value = self._value(v, entry)
        target = min(self._budget(v) + value / 2, 12.0)
        return min(moves, key=lambda m: (abs(_sum(m) - target), _sum(m)))

    def _boost_helps(self, v: Mapping[str, Any]) -> bool:
        me = v["seat"]
        tot = {int(s): int(t) for s, t in v["hunt"]["totals"]}

        def winner(t: dict[int, int]) -> int:
            alone = [s for s in t if list(t.values()).count(t[s]) == 1]
            return max(alone, key=lambda s: t[s]) if alone else -1

        boosted = dict(tot)
        boosted[me] += 2
        return winner(boosted) == me and winner(tot) != me and self._value(v, self._current(v)) > 0

    # ------------------------------------------------------------------ giving, buying
    def _total_without(self, v: Mapping[str, Any], unicorn: int) -> int:
        me = v["seat"]
        coll = [u for u in v["collections"][me] if u["unicorn"] != unicorn]
        return total(
            [u["worth"] for u in coll], [_colour(u["colour"]) for u in coll], v["pates"][me]
        )

    def _market(self, v: dict[str, Any], moves: list[Move]) -> Move:
        me = v["seat"]
        base = self._total(v, me)
        coll = v["collections"][me]
        pates = v["pates"][me]

        def after(m: Move) -> int:
            if m[0] != "buy":
                return base
            _, item, unicorn, colour, _pay = m
            values, colours, extra = [], [], 0
            for u in coll:
                worth, c = u["worth"], _colour(u["colour"])
                if u["unicorn"] == unicorn:
                    if item == "butcher":
                        extra = 1
                        continue
                    worth += 2 if item in ("horn", "dust") else 0
                    c = COLOURS.index(str(colour)) if colour else c
                values.append(worth)
                colours.append(c)
            return total(values, colours, pates + extra)

        return max(moves, key=lambda m: (after(m), m[0] == "decline"))

"""Kill the Unicorns in words: one seat's log of the game, told only from that seat's view
(see :mod:`lanparty.narrate`). A move is told from the move and the views around it; a table
result from the change in the view alone, so a networked seat (which gets only the change)
and a local table tell the same story.

What is told: the characters and starting unicorns; each day's row; the schemes you draw;
each plant (your own scheme named to you alone); each hunt opened, joined or passed, the
cards sealed ("Bea lays 2 cards face down"), turned over and the totals with the tie rule;
the scheme turned over and what it did; who takes the unicorn or its escape; the powers (a
peeked scheme named to the Princess alone); the first-player token; every purchase; each
day's gains and the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanparty.narrate import BaseNarrator
from protocol.contract import Move, Plain, Result, Seat

from .cards import KNIGHT_BONUS
from .names import (
    TERMS,
    character_name,
    colour_name,
    item_name,
    scheme_effect,
    scheme_name,
    unicorn_name,
)
from .screen import double_rainbow

__all__ = ["UnicornsNarrator"]


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _hunt(view: dict[str, Plain]) -> dict[str, Any]:
    hunt = view.get("hunt")
    return hunt if isinstance(hunt, dict) else {}


def _row(view: dict[str, Plain]) -> dict[int, dict[str, Any]]:
    return {int(e["unicorn"]): e for e in _list(view.get("row")) if isinstance(e, dict)}


def _holdings(view: dict[str, Plain]) -> dict[int, tuple[int, dict[str, Any]]]:
    """Every collected unicorn: handle → (holder, its entry)."""
    out: dict[int, tuple[int, dict[str, Any]]] = {}
    for s, coll in enumerate(_list(view.get("collections"))):
        for u in _list(coll):
            if isinstance(u, dict):
                out[int(u["unicorn"])] = (s, u)
    return out


def _n(value: object) -> int:
    """A plain value that must be an int (a handle, a count, a seat), else -1."""
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _values(values: Sequence[int]) -> str:
    """``[1, 1, 3]`` → ``"1, 1 and 3"``."""
    words = [str(v) for v in values]
    if len(words) < 2:
        return words[0] if words else "nothing"
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _cards(k: object) -> str:
    return f"{k!s} card{'s' * (k != 1)}"


class UnicornsNarrator(BaseNarrator):
    """The log of seat ``seat`` (called "you")."""

    def __init__(self, seat: Seat, names: Sequence[str]) -> None:
        super().__init__(seat, names)
        self._labels: dict[int, str] = {}  # unicorn handle -> label, once turned over
        self._gift = False  # the input being told is a Trojan's gift, told as a move

    # ------------------------------------------------------------------ entry points

    def narrate(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:  # fmt: skip
        """A move by ``seat`` (told from the move and the views), then what changed."""
        self._learn(before)
        if seat is not None and isinstance(item, tuple) and item:
            self._move(seat, item, before, after)
        self._gift = seat is not None and isinstance(item, tuple) and item[:1] == ("give",)
        self.changes(before, after)
        self._gift = False

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Everything the change from ``before`` to ``after`` tells (a table result)."""
        if not after:
            return
        self._learn(before)
        self._learn(after)
        self._setup(before, after)
        self._day(before, after)
        self._drawn(before, after)
        self._sealed(before, after)
        self._peeked(before, after)
        self._reveals(before, after)
        self._gone(before, after)
        self._token(before, after)
        self._next(before, after)
        self._learn(after)
        self._ends(before, after)

    # ------------------------------------------------------------------ helpers

    def _learn(self, view: dict[str, Plain]) -> None:
        for u, e in _row(view).items():
            if e.get("label"):
                self._labels[u] = str(e["label"])

    def _unicorn(self, views: Sequence[dict[str, Plain]], unicorn: object) -> str:
        for view in views:
            held = _holdings(view).get(int(unicorn))  # type: ignore[call-overload]
            if held:
                return unicorn_name(held[1].get("label"), held[1].get("colour"))
        return unicorn_name(self._labels.get(int(unicorn)))  # type: ignore[call-overload]

    def _owner_of(self, view: dict[str, Plain], scheme: object) -> tuple[int, int]:
        """(owner, unicorn) of a face-down scheme in ``view``, or (-1, -1)."""
        for u, e in _row(view).items():
            for h, owner in _list(e.get("schemes")):
                if h == scheme:
                    return int(owner), u
        return -1, -1

    def _character(self, view: dict[str, Plain], seat: int) -> str:
        chars = _list(view.get("characters"))
        return character_name(chars[seat] if seat < len(chars) else None, False)

    # ------------------------------------------------------------------ moves

    def _move(
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        name = move[0]
        if name == "plant":
            self._plant(seat, move, before)
        elif name == "hunt":
            k = _n(move[1])
            what = self._unicorn([before], _hunt(before).get("unicorn"))
            self._act(seat, (f"hunt {what} with {_cards(k)}", f"hunts {what} with {_cards(k)}"))
        elif name == "join":
            k = _n(_hunt(before).get("bid"))
            self._act(seat, (f"join the hunt with {_cards(k)}", f"joins the hunt with {_cards(k)}"))
        elif name == "pass":
            self._act(seat, ("pass", "passes"))
        elif name == "cards":
            values = [int(v) for v in _list(move[1])]
            total = f": {sum(values)}" if len(values) > 1 else ""
            self._act(seat, (f"turn over {_values(values)}{total}",
                             f"turns over {_values(values)}{total}"))  # fmt: skip
            if after.get("phase") not in ("open", "knight"):  # the last card is open
                self._decide(before, {seat: values})
        elif name == "boost":
            self._act(seat, (f"use the Knight's power: +{KNIGHT_BONUS}",
                             f"uses the Knight's power: +{KNIGHT_BONUS}"))  # fmt: skip
            self._decide(before, {}, boost=seat)
        elif name == "decline":
            if before.get("phase") == "market":
                self._act(seat, ("buy nothing", "buys nothing"))
            else:
                power = f"the {self._character(before, seat)}'s power"
                self._act(seat, (f"let {power} go", f"lets {power} go"))
                if before.get("phase") == "knight":
                    self._decide(before, {})
        elif name == "peek":
            owner, unicorn = self._owner_of(before, move[1])
            where = f"{self._whose(owner)} scheme on {self._unicorn([before], unicorn)}"
            self._act(seat, (f"look at {where} (Princess)", f"looks at {where} (Princess)"))
        elif name == "shift":
            owner, source = self._owner_of(before, move[1])
            to = self._unicorn([before], move[2])
            whose = "their own" if owner == seat != self.seat else self._whose(owner)
            what = f"{whose} scheme from {self._unicorn([before], source)} to {to}"
            self._act(seat, (f"move {what} (Shaman)", f"moves {what} (Shaman)"))
        elif name == "reveal":
            owner, _ = self._owner_of(before, move[1])
            whose = "their own" if owner == seat != self.seat else self._whose(owner)
            self._act(seat, (f"choose to turn over {whose} scheme",
                             f"chooses to turn over {whose} scheme"))  # fmt: skip
        elif name == "give":
            gift = self._unicorn([before], move[1])
            winner = _hunt(before).get("winner")
            to = self._who(int(winner)) if isinstance(winner, int) else "the winner"
            self._act(seat, (f"give {gift} to {to}", f"gives {gift} to {to}"))
        elif name == "colour":
            c = colour_name(str(move[1]), True)
            self._act(seat, (f"name the colour: {c}", f"names the colour: {c}"))
        elif name == "recall":
            v = _n(move[1])
            self._act(seat, (f"take your {v} back (Wizard)", f"takes their {v} back (Wizard)"))
        elif name == "buy":
            self._buy(seat, move, before)

    def _plant(self, seat: Seat, move: Move, before: dict[str, Plain]) -> None:
        _, keep, unicorn, discard, label = move
        where = self._unicorn([before], unicorn)
        if seat == self.seat:
            drawn = {int(h): str(lab) for h, lab in _list(before.get("my_drawn"))}
            kept = scheme_name(drawn.get(_n(keep)))
            dropped = scheme_name(drawn.get(_n(discard)))
            self.lines.append(f"You plant {kept} face down on {where}")
            self.lines[-1] += f" and discard {dropped}" + ("" if label else " face down")
            return
        thrown = f"discards {scheme_name(str(label))}" if label else "discards a scheme face down"
        self._act(seat, ("", f"plants a scheme face down on {where} and {thrown}"))

    def _buy(self, seat: Seat, move: Move, before: dict[str, Plain]) -> None:
        _, item, unicorn, colour, pay = move
        what = self._unicorn([before], unicorn)
        paid = f"paying {_values([int(v) for v in _list(pay)])}"
        if item == "butcher":
            text = f"{what} to the {item_name('butcher')} for a Pâté ({TERMS['pate']}), {paid}"
            self._act(seat, (f"sell {text}", f"sells {text}"))
            return
        to = f", now {colour_name(str(colour), True)}" if colour else ""
        text = f"a {item_name(str(item))} for {what}{to}, {paid}"
        self._act(seat, (f"buy {text}", f"buys {text}"))

    def _decide(
        self, before: dict[str, Plain], extra: dict[int, list[int]], boost: int = -1
    ) -> None:
        """The totals of the hunt whose cards are all open, with the tie rule."""
        hunt = _hunt(before)
        takers = [int(s) for s in _list(hunt.get("takers"))]
        cards = _list(hunt.get("cards"))
        if isinstance(hunt.get("boost"), int):
            boost = int(hunt["boost"])
        totals: dict[int, int] = {}
        for s in takers:
            opened = extra.get(s, [int(v) for v in _list(cards[s])] if s < len(cards) else [])
            totals[s] = sum(opened) + (KNIGHT_BONUS if s == boost else 0)
        if len(totals) < 2:
            return
        shared = sorted({t for t in totals.values() if list(totals.values()).count(t) > 1})
        parts = ", ".join(f"{self._who(s)} {t}" for s, t in totals.items())
        line = f"Totals: {parts}"
        if shared:
            line += f"; tied at {_values(shared)}: out"
        alone = [s for s in totals if totals[s] not in shared]
        if alone:
            best = max(alone, key=lambda s: totals[s])
            line += f"; {self._who(best)} {'win' if best == self.seat else 'wins'} the hunt"
        self.lines.append(line)

    # ------------------------------------------------------------------ changes

    def _setup(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        chars = _list(after.get("characters"))
        if chars and all(chars) and not all(_list(before.get("characters")) or [None]):
            parts = [f"{self._who(s)} {'are' if s == self.seat else 'is'} the "
                     f"{character_name(str(c))}" for s, c in enumerate(chars)]  # fmt: skip
            self.lines.append("Characters: " + "; ".join(parts))
        colls = _list(after.get("collections"))
        dealt = colls and all(colls) and not any(_list(before.get("collections")))
        if dealt and after.get("day") in (0, 1) and not _list(after.get("standings")):
            parts = [f"{self._who(s)} {unicorn_name(c[0]['label'])}" for s, c in enumerate(colls)]
            self.lines.append("Starting unicorns: " + ", ".join(parts))

    def _day(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        row = _list(after.get("row"))
        if not row or not all(isinstance(e, dict) and e.get("label") for e in row):
            return
        was = _list(before.get("row"))
        if (
            was
            and all(isinstance(e, dict) and e.get("label") for e in was)
            and (before.get("day") == after.get("day"))
        ):
            return
        day = _n(after.get("day"))
        names = ", ".join(unicorn_name(str(e["label"])) for e in row)
        self.lines.append(f"Day {day} ({TERMS['day']} {day}): the row is {names}")
        first = after.get("first")
        if isinstance(first, int):
            holder = "hold" if first == self.seat else "holds"
            self.lines.append(f"{self._who(first).capitalize()} {holder} the first-player token")

    def _drawn(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        drawn = _list(after.get("my_drawn"))
        if drawn and not _list(before.get("my_drawn")):
            names = " and ".join(scheme_name(str(label)) for _, label in drawn)
            self.lines.append(f"You draw your schemes ({TERMS['schemes']}): {names}")

    def _sealed(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        hb, ha = _hunt(before), _hunt(after)
        if not ha or hb.get("unicorn") != ha.get("unicorn"):
            return
        for s in _list(ha.get("sealed")):
            if s not in _list(hb.get("sealed")):
                k = ha.get("bid")
                self._act(int(s), (f"lay {_cards(k)} face down (sealed)",
                                   f"lays {_cards(k)} face down (sealed)"))  # fmt: skip

    def _peeked(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        seen = {int(h) for h, label in _list(before.get("peeked")) if label}
        for h, label in _list(after.get("peeked")):
            if label and int(h) not in seen:
                owner, unicorn = self._owner_of(after, h)
                where = f"{self._whose(owner)} scheme on {self._unicorn([after], unicorn)}"
                self.lines.append(f"Only you see it: {where} is {scheme_name(str(label))}"
                                  f" ({scheme_effect(str(label))})")  # fmt: skip

    def _reveals(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for r in _list(after.get("reveals"))[len(_list(before.get("reveals"))) :]:
            if not isinstance(r, dict):
                continue
            label = str(r.get("scheme"))
            whose = self._whose(int(r["owner"]))
            on = unicorn_name(r.get("label"))
            self.lines.append(f"Turned over: {whose} scheme on {on} is {scheme_name(label)}: "
                              f"{scheme_effect(label)}")  # fmt: skip

    def _gone(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Unicorns that left the row (taken or escaped) and that changed hands."""
        held_b, held_a = _holdings(before), _holdings(after)
        row_a = _row(after)
        for u in _row(before):
            if u in row_a:
                continue
            if u in held_a:
                s, entry = held_a[u]
                name = unicorn_name(entry.get("label"), entry.get("colour"))
                scheme = entry.get("scheme")
                tail = f" with {scheme_name(str(scheme), False)}" if scheme else ""
                self._act(s, (f"take {name}{tail}", f"takes {name}{tail}"))
                self.lines[-1] += f" (worth {entry.get('worth')!s})"
            elif after.get("phase") != "setup" or _list(before.get("row")):
                name = self._unicorn([before], u)
                self.lines.append(f"{name} escapes ({TERMS['escapes']})")
        for u, (s, entry) in held_a.items():
            if u in held_b and held_b[u][0] != s and not self._gift:
                was = held_b[u][0]
                name = unicorn_name(entry.get("label"), entry.get("colour"))
                self._act(s, (f"get {name} from {self._who(was)}",
                              f"gets {name} from {self._who(was)}"))  # fmt: skip

    def _token(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        first_b, first_a = before.get("first"), after.get("first")
        if (
            first_a == first_b
            or not isinstance(first_a, int)
            or before.get("day") != after.get("day")
        ):
            return
        if before.get("phase") in ("setup", None):
            return
        verb = "take" if first_a == self.seat else "takes"
        self.lines.append(f"{self._who(first_a).capitalize()} {verb} the first-player token")

    def _next(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """A new hunt, or the market opening."""
        ha = _hunt(after)
        if ha and ha.get("unicorn") != _hunt(before).get("unicorn"):
            current = after.get("current")
            whose = self._whose(int(current)) if isinstance(current, int) else "?"
            name = self._unicorn([after], ha.get("unicorn"))
            self.lines.append(f"Hunt ({TERMS['hunt']}) for {name}: {whose} call to open it or pass")
        if after.get("phase") == "market" and before.get("phase") != "market":
            current = after.get("current")
            who = self._who(int(current)) if isinstance(current, int) else "?"
            self.lines.append(f"The black market ({TERMS['market']}) opens: {who} first")

    def _ends(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        standings = _list(after.get("standings"))
        totals = _list(after.get("scores"))
        for d in range(len(_list(before.get("standings"))), len(standings)):
            gains = _list(standings[d])
            parts = ", ".join(f"{self._who(s)} {int(g):+d}" for s, g in enumerate(gains))
            self.lines.append(f"Day {d + 1} is over: {parts}")
        winners = _list(after.get("winners"))
        if winners and not _list(before.get("winners")):
            names = " and ".join(self._who(int(s)) for s in winners)
            verb = "wins" if len(winners) == 1 and winners[0] != self.seat else "win"
            how = (
                " with a double rainbow (arco iris doble)" if double_rainbow(after, winners) else ""
            )
            scores = ", ".join(f"{self._who(s)} {t!s}" for s, t in enumerate(totals))
            self.lines.append(f"Game over: {names} {verb}{how}! ({scores})")

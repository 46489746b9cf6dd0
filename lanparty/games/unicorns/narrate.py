"""Kill the Unicorns in words: one seat's log of the game, told only from that seat's view
(see :mod:`lanparty.games.narration`). A move is told from the move and the views around it; a table
result from the change in the view alone, so a networked seat (which gets only the change)
and a local table tell the same story.

What is told: the characters (each choice, or the coin's deal) and starting unicorns; each
day's row; the schemes you draw;
each plant (your own scheme named to you alone); each hunt opened, joined or passed, the
cards sealed ("Bea lays 2 cards face down"), turned over and the totals with the tie rule;
the scheme turned over (and the other one discarded) and what it did; who takes the unicorn
or its escape; the powers (a
peeked scheme named to the Princess alone); the first-player token; every purchase; each
day's gains and the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lanparty.games.narration import BaseNarrator, capital, heading, yours
from lanparty.i18n import _, ngettext, pgettext
from protocol.contract import Move, Plain, Result, Seat

from .cards import KNIGHT_BONUS
from .names import (
    aside,
    character_name,
    colour_name,
    item_name,
    scheme_effect,
    scheme_name,
    unicorn_name,
)
from .screen import and_list, double_rainbow

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
        return words[0] if words else _("nothing")
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _k(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class UnicornsNarrator(BaseNarrator):
    """The log of seat ``seat`` (called "you")."""

    def __init__(self, seat: Seat | None, names: Sequence[str]) -> None:
        super().__init__(seat, names)
        self._labels: dict[int, str] = {}  # unicorn handle -> label, once turned over
        self._gift = False  # the input being told is a Trojan's gift, told as a move

    translated = True

    def _who(self, seat: Seat) -> str:
        return _("you") if seat == self.seat else self.names[seat]

    def _scheme_of(self, owner: int, actor: int = -1) -> str:
        """``"your scheme"``, ``"their own scheme"`` (``actor``'s own, told to another) or
        ``"Bea's scheme"``."""
        if owner == self.seat:
            return _("your scheme")
        if owner == actor:
            return _("their own scheme")
        if 0 <= owner < len(self.names):
            return _("{name}'s scheme").format(name=self.names[owner])
        return _("{name}'s scheme").format(name="?")

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

    def _move(  # noqa: C901
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        name = move[0]
        if name == "character":
            self._act(seat, (pgettext("you", "choose the {character}"),
                             _("chooses the {character}")),
                      character=character_name(str(move[1])))  # fmt: skip
        elif name == "plant":
            self._plant(seat, move, before)
        elif name == "hunt":
            k = _n(move[1])
            what = self._unicorn([before], _hunt(before).get("unicorn"))
            self._act(seat, (
                ngettext("hunt {unicorn} with {n} card", "hunt {unicorn} with {n} cards", k),
                ngettext("hunts {unicorn} with {n} card", "hunts {unicorn} with {n} cards", k),
            ), n=k, unicorn=what)  # fmt: skip
        elif name == "join":
            k = _n(_hunt(before).get("bid"))
            self._act(seat, (
                ngettext("join the hunt with {n} card", "join the hunt with {n} cards", k),
                ngettext("joins the hunt with {n} card", "joins the hunt with {n} cards", k),
            ), n=k)  # fmt: skip
        elif name == "pass":
            self._act(seat, (pgettext("you", "pass"), _("passes")))
        elif name == "cards":
            values = [int(v) for v in _list(move[1])]
            total = f": {sum(values)}" if len(values) > 1 else ""
            self._act(seat, (pgettext("you", "turn over {values}{total}"),
                             _("turns over {values}{total}")),
                      values=_values(values), total=total)  # fmt: skip
            if after.get("phase") not in ("open", "knight"):  # the last card is open
                self._decide(before, {seat: values})
        elif name == "boost":
            self._act(seat, (pgettext("you", "use the Knight's power: +{bonus}"),
                             _("uses the Knight's power: +{bonus}")),
                      bonus=KNIGHT_BONUS)  # fmt: skip
            self._decide(before, {}, boost=seat)
        elif name == "decline":
            if before.get("phase") == "market":
                self._act(seat, (pgettext("you", "buy nothing"), _("buys nothing")))
            else:
                char = self._character(before, seat)
                self._act(seat, (pgettext("you", "let the {character}'s power go"),
                                 _("lets the {character}'s power go")), character=char)  # fmt: skip
                if before.get("phase") == "knight":
                    self._decide(before, {})
        elif name == "peek":
            owner, unicorn = self._owner_of(before, move[1])
            self._act(seat, (pgettext("you", "look at {scheme} on {unicorn} (Princess)"),
                             _("looks at {scheme} on {unicorn} (Princess)")),
                      scheme=self._scheme_of(owner), mine=owner == self.seat,
                      unicorn=self._unicorn([before], unicorn))  # fmt: skip
        elif name == "shift":
            owner, source = self._owner_of(before, move[1])
            self._act(seat, (pgettext("you", "move {scheme} from {source} to {target} (Shaman)"),
                             _("moves {scheme} from {source} to {target} (Shaman)")),
                      scheme=self._scheme_of(owner, seat), mine=owner == self.seat,
                      source=self._unicorn([before], source),
                      target=self._unicorn([before], move[2]))  # fmt: skip
        elif name == "reveal":
            owner, _u = self._owner_of(before, move[1])
            self._act(seat, (pgettext("you", "choose to turn over {scheme}"),
                             _("chooses to turn over {scheme}")),
                      scheme=self._scheme_of(owner, seat), mine=owner == self.seat)  # fmt: skip
            self._other_discarded(before, move[1])
        elif name == "give":
            gift = self._unicorn([before], move[1])
            winner = _hunt(before).get("winner")
            if isinstance(winner, int) and winner == self.seat:
                pair = (pgettext("you", "give {unicorn} to you"), _("gives {unicorn} to you"))
            elif isinstance(winner, int):
                pair = (pgettext("you", "give {unicorn} to {name}"), _("gives {unicorn} to {name}"))
            else:
                pair = (pgettext("you", "give {unicorn} to the winner"),
                        _("gives {unicorn} to the winner"))  # fmt: skip
            name_ = self.names[winner] if isinstance(winner, int) else ""
            self._act(seat, pair, unicorn=gift, name=name_, mine=winner == self.seat)
        elif name == "colour":
            c = colour_name(str(move[1]), True)
            self._act(seat, (pgettext("you", "name the colour: {colour}"),
                             _("names the colour: {colour}")), colour=c)  # fmt: skip
        elif name == "recall":
            v = _n(move[1])
            self._act(seat, (pgettext("you", "take your {value} back (Wizard)"),
                             _("takes their {value} back (Wizard)")), value=v)  # fmt: skip
        elif name == "buy":
            self._buy(seat, move, before)

    def _act(
        self, seat: Seat, *clauses: tuple[str, str], mine: bool = False, **values: object
    ) -> None:
        """As :meth:`BaseNarrator._act`, the clauses' placeholders filled with ``values``, and
        a player's name written as the player wrote it ("bot-3 plants…", never "Bot-3")."""
        forms = [(y if seat == self.seat else o).format(**values) for y, o in clauses]
        text = forms[0]
        if len(forms) > 1:
            text = _("{first} and {last}").format(first=", ".join(forms[:-1]), last=forms[-1])
        if seat == self.seat:
            line = capital(_("You {actions}").format(actions=text))
        else:
            name = self.names[seat]
            line = _("{name} {actions}").format(name=name, actions=text)
            line = line if line.startswith(name) else capital(line)
        self.lines.append(yours(line, mine or seat == self.seat))

    def _other_discarded(self, before: dict[str, Plain], chosen: object) -> None:
        """The scheme the winner did not turn over goes to the discard unseen (face down, in
        an expert game)."""
        hunted = _row(before).get(_n(_hunt(before).get("unicorn")))
        for h, owner in _list(hunted.get("schemes") if hunted else ()):
            if h != chosen:
                line = (_("The other scheme, {scheme}, is discarded face down")
                        if before.get("expert")
                        else _("The other scheme, {scheme}, is discarded unseen"))  # fmt: skip
                said = line.format(scheme=self._scheme_of(int(owner)))
                self.lines.append(yours(said, owner == self.seat))

    def _plant(self, seat: Seat, move: Move, before: dict[str, Plain]) -> None:
        _m, keep, unicorn, discard, label = move
        where = self._unicorn([before], unicorn)
        if seat == self.seat:
            drawn = {int(h): str(lab) for h, lab in _list(before.get("my_drawn"))}
            kept = scheme_name(drawn.get(_n(keep)))
            dropped = scheme_name(drawn.get(_n(discard)))
            if label:
                line = _("You plant {kept} face down on {unicorn} and discard {dropped}")
            else:
                line = _("You plant {kept} face down on {unicorn} and discard {dropped} face down")
            self.lines.append(yours(line.format(kept=kept, unicorn=where, dropped=dropped)))
            return
        if label:
            other = _("plants a scheme face down on {unicorn} and discards {scheme}")
        else:
            other = _("plants a scheme face down on {unicorn} and discards a scheme face down")
        self._act(seat, ("", other), unicorn=where, scheme=scheme_name(str(label)))

    def _buy(self, seat: Seat, move: Move, before: dict[str, Plain]) -> None:
        _m, item, unicorn, colour, pay = move
        what = self._unicorn([before], unicorn)
        paid = _values([int(v) for v in _list(pay)])
        if item == "butcher":
            self._act(seat, (
                pgettext("you", "sell {unicorn} to the {butcher} for a Pâté{aside}, paying {paid}"),
                _("sells {unicorn} to the {butcher} for a Pâté{aside}, paying {paid}"),
            ), unicorn=what, butcher=item_name("butcher"), aside=aside("pate"),
               paid=paid)  # fmt: skip
            return
        if colour:
            pair = (pgettext("you", "buy a {item} for {unicorn}, now {colour}, paying {paid}"),
                    _("buys a {item} for {unicorn}, now {colour}, paying {paid}"))  # fmt: skip
        else:
            pair = (pgettext("you", "buy a {item} for {unicorn}, paying {paid}"),
                    _("buys a {item} for {unicorn}, paying {paid}"))  # fmt: skip
        self._act(seat, pair, item=item_name(str(item)), unicorn=what,
                  colour=colour_name(str(colour), True), paid=paid)  # fmt: skip

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
        line = _("Totals: {totals}").format(totals=parts)
        if shared:
            line += _("; tied at {values}: out").format(values=_values(shared))
        alone = [s for s in totals if totals[s] not in shared]
        if alone:
            best = max(alone, key=lambda s: totals[s])
            if best == self.seat:
                line += _("; you win the hunt")
            else:
                line += _("; {name} wins the hunt").format(name=self.names[best])
        self.lines.append(yours(line, self.seat in totals))

    # ------------------------------------------------------------------ changes

    def _setup(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        if after.get("phase") == "character" and before.get("phase") != "character":
            current = after.get("current")
            if current == self.seat:
                line = _("Characters{aside} are chosen in turn from the first player: you first")
            else:
                line = _("Characters{aside} are chosen in turn from the first player: {name} "
                         "first")  # fmt: skip
            who = self.names[current] if isinstance(current, int) else "?"
            self.lines.append(yours(line.format(aside=aside("characters"), name=who),
                                    current == self.seat))  # fmt: skip
        chars = _list(after.get("characters"))
        if chars and all(chars) and not any(_list(before.get("characters"))):
            parts = [
                (_("you are the {character}") if s == self.seat else
                 _("{name} is the {character}")).format(
                    name=self.names[s], character=character_name(str(c)))
                for s, c in enumerate(chars)
            ]  # fmt: skip
            line = _("Characters: {list}").format(list="; ".join(parts))
            self.lines.append(yours(line, self.seat in range(len(chars))))
        colls = _list(after.get("collections"))
        dealt = colls and all(colls) and not any(_list(before.get("collections")))
        if dealt and after.get("day") in (0, 1) and not _list(after.get("standings")):
            parts = [f"{self._who(s)} {unicorn_name(c[0]['label'])}" for s, c in enumerate(colls)]
            line = _("Starting unicorns: {list}").format(list=", ".join(parts))
            self.lines.append(yours(line, self.seat in range(len(colls))))

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
        self.lines.append(_("Day {day}{aside}: the row is {unicorns}").format(
            day=day, aside=aside("day", day), unicorns=names))  # fmt: skip
        first = after.get("first")
        if isinstance(first, int):
            self.lines.append(self._first(first, take=False))

    def _first(self, seat: int, take: bool) -> str:
        """Who holds (or takes) the first-player token."""
        if take:
            if seat == self.seat:
                return yours(_("You take the first-player token"))
            return _("{name} takes the first-player token").format(name=self.names[seat])
        if seat == self.seat:
            return yours(_("You hold the first-player token"))
        return _("{name} holds the first-player token").format(name=self.names[seat])

    def _drawn(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        drawn = _list(after.get("my_drawn"))
        if drawn and not _list(before.get("my_drawn")):
            names = [scheme_name(str(label)) for _h, label in drawn]
            listed = and_list(names)
            self.lines.append(yours(_("You draw your schemes{aside}: {schemes}").format(
                aside=aside("schemes"), schemes=listed)))  # fmt: skip

    def _sealed(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        hb, ha = _hunt(before), _hunt(after)
        if not ha or hb.get("unicorn") != ha.get("unicorn"):
            return
        for s in _list(ha.get("sealed")):
            if s not in _list(hb.get("sealed")):
                k = _k(ha.get("bid"))
                self._act(int(s), (
                    ngettext("lay {n} card face down (sealed)",
                             "lay {n} cards face down (sealed)", k),
                    ngettext("lays {n} card face down (sealed)",
                             "lays {n} cards face down (sealed)", k),
                ), n=k)  # fmt: skip

    def _peeked(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        seen = {int(h) for h, label in _list(before.get("peeked")) if label}
        for h, label in _list(after.get("peeked")):
            if label and int(h) not in seen:
                owner, unicorn = self._owner_of(after, h)
                self.lines.append(yours(capital(
                    _("Only you see it: {scheme} on {unicorn} is {name} ({effect})").format(
                        scheme=self._scheme_of(owner), unicorn=self._unicorn([after], unicorn),
                        name=scheme_name(str(label)),
                        effect=scheme_effect(str(label))))))  # fmt: skip

    def _reveals(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        for r in _list(after.get("reveals"))[len(_list(before.get("reveals"))) :]:
            if not isinstance(r, dict):
                continue
            label, owner = str(r.get("scheme")), int(r["owner"])
            self.lines.append(yours(
                _("Turned over: {scheme} on {unicorn} is {name}: {effect}").format(
                    scheme=self._scheme_of(owner), unicorn=unicorn_name(r.get("label")),
                    name=scheme_name(label), effect=scheme_effect(label)),
                owner == self.seat))  # fmt: skip

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
                worth = str(entry.get("worth"))
                if scheme:
                    pair = (pgettext("you", "take {unicorn} with {scheme} (worth {worth})"),
                            _("takes {unicorn} with {scheme} (worth {worth})"))  # fmt: skip
                else:
                    pair = (pgettext("you", "take {unicorn} (worth {worth})"),
                            _("takes {unicorn} (worth {worth})"))  # fmt: skip
                self._act(s, pair, unicorn=name, scheme=scheme_name(str(scheme), False),
                          worth=worth)  # fmt: skip
            elif after.get("phase") != "setup" or _list(before.get("row")):
                name = self._unicorn([before], u)
                self.lines.append(_("{unicorn} escapes{aside}").format(
                    unicorn=name, aside=aside("escapes")))  # fmt: skip
        for u, (s, entry) in held_a.items():
            if u in held_b and held_b[u][0] != s and not self._gift:
                was = held_b[u][0]
                name = unicorn_name(entry.get("label"), entry.get("colour"))
                if was == self.seat:
                    pair = (pgettext("you", "get {unicorn} from you"),
                            _("gets {unicorn} from you"))  # fmt: skip
                else:
                    pair = (pgettext("you", "get {unicorn} from {name}"),
                            _("gets {unicorn} from {name}"))  # fmt: skip
                self._act(s, pair, unicorn=name, name=self.names[was], mine=was == self.seat)

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
        self.lines.append(self._first(first_a, take=True))

    def _next(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """A new hunt, or the market opening."""
        ha = _hunt(after)
        if ha and ha.get("unicorn") != _hunt(before).get("unicorn"):
            current = after.get("current")
            name = self._unicorn([after], ha.get("unicorn"))
            if current == self.seat:
                line = _("Hunt{aside} for {unicorn}: your call to open it or pass")
            else:
                line = _("Hunt{aside} for {unicorn}: {name}'s call to open it or pass")
            who = self.names[current] if isinstance(current, int) else "?"
            line = line.format(aside=aside("hunt"), unicorn=name, name=who)
            self.lines.append(yours(line, current == self.seat))
        if after.get("phase") == "market" and before.get("phase") != "market":
            current = after.get("current")
            if current == self.seat:
                line = _("The black market{aside} opens: you first")
            else:
                line = _("The black market{aside} opens: {name} first")
            who = self.names[current] if isinstance(current, int) else "?"
            self.lines.append(yours(line.format(aside=aside("market"), name=who),
                                    current == self.seat))  # fmt: skip

    def _ends(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        standings = _list(after.get("standings"))
        totals = _list(after.get("scores"))
        for d in range(len(_list(before.get("standings"))), len(standings)):
            gains = _list(standings[d])
            parts = ", ".join(f"{self._who(s)} {int(g):+d}" for s, g in enumerate(gains))
            line = _("Day {day} is over: {gains}").format(day=d + 1, gains=parts)
            self.lines.append(yours(line, self.seat in range(len(gains))))
        winners = _list(after.get("winners"))
        if winners and not _list(before.get("winners")):
            listed = and_list([self._who(int(s)) for s in winners])
            scores = ", ".join(f"{self._who(s)} {t!s}" for s, t in enumerate(totals))
            rainbow = double_rainbow(after, winners)
            if winners == [self.seat]:
                line = (_("Game over: you win with a double rainbow{aside}! ({scores})")
                        if rainbow else _("Game over: you win! ({scores})"))  # fmt: skip
            elif len(winners) == 1:
                line = (_("Game over: {names} wins with a double rainbow{aside}! ({scores})")
                        if rainbow else _("Game over: {names} wins! ({scores})"))  # fmt: skip
            else:
                line = (_("Game over: {names} win with a double rainbow{aside}! ({scores})")
                        if rainbow else _("Game over: {names} win! ({scores})"))  # fmt: skip
            self.lines.append(heading(line.format(names=listed, aside=aside("double rainbow"),
                                                  scores=scores)))  # fmt: skip

"""What a Kill the Unicorns player types, as pure functions of one seat's view: text → move
(``parse``) and move → text (``command_for``, which completion lists from the legal moves).

Things are named by what the board shows: a row unicorn by its number (``2``), a face-down
scheme by its unicorn's number and its slot (``2a``, ``2b``), one of your unicorns by its
number in your collection, a scheme you drew by its kind (``decoy``), hunt cards by value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lanparty.games.screens import ParseError
from lanparty.i18n import N_, _, ngettext
from protocol.contract import Move, Plain

from .board import as_list
from .cards import CHARACTERS, COLOURS, COST, ITEMS
from .names import (
    CHARACTER_NAMES,
    COLOUR_NAMES,
    character_name,
    character_power,
    colour_name,
    item_name,
    scheme_name,
    unicorn_name,
)

__all__ = ["ALIASES", "HELP", "SLOTS", "command_for", "parse", "scheme_ref"]

SLOTS = "ab"
"""A unicorn's two scheme places, as the board letters them (above, below)."""

ALIASES = {
    "h": "hunt", "j": "join", "p": "pass", "c": "cards", "pl": "plant", "b": "buy",
    "d": "decline", "no": "decline", "color": "colour", "cazar": "hunt", "paso": "pass",
    "ch": "character", "pick": "character",
}  # fmt: skip
"""Short (and a few Spanish) forms of the game's commands."""

HELP = (
    ("character NAME", N_("before day 1, in turn: take a character nobody has, e.g.")),
    ("", N_("  character knight (princess, knight, wizard or shaman)")),
    ("plant SCHEME N", N_("keep SCHEME face down on row unicorn N: plant decoy 2")),
    ("hunt N", N_("open the hunt (caza) with N hunt cards, 1 to 3")),
    ("join / pass", N_("hunt with as many cards as the opener / stay out")),
    ("cards A B", N_("lay your hunt cards face down, sealed: cards 3 1")),
    ("peek 2a", N_("(Princess) look at face-down scheme 2a, you alone")),
    ("shift 2a N", N_("(Shaman) move face-down scheme 2a to row unicorn N")),
    ("boost / decline", N_("(Knight) +2 to your total / let a power or the market go")),
    ("recall V", N_("(Wizard) take back the hunt card V you played")),
    ("reveal a", N_("(the winner) turn over the hunted unicorn's scheme a or b")),
    ("give N", N_("(Trojan Unicorn's owner) give your unicorn N to the winner")),
    ("colour C", N_("(Chameleon) name the colour: pink, blue, green, yellow")),
    ("buy ITEM N pay V…", N_("black market (mercado negro): butcher $2, horn $3 on")),
    ("", N_("  your unicorn N, paid with hunt cards: buy horn 2 pay 1 2")),
    ("buy candy N C pay…", N_("candy $3, dust $6: unicorn N turns colour C")),
)
"""The game's commands, for ``help``."""

_COLOUR_WORDS = {**{c: c for c in COLOURS}, **{es: en for en, es in COLOUR_NAMES.items()}}


def _n(value: object) -> int:
    """A plain value that must be an int (a handle, a count), else -1."""
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def _me(view: Mapping[str, Plain]) -> int:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else -1


def _row(view: Mapping[str, Plain]) -> list[dict[str, Any]]:
    return [e for e in as_list(view.get("row")) if isinstance(e, dict)]


def _mine(view: Mapping[str, Plain]) -> list[dict[str, Any]]:
    colls = as_list(view.get("collections"))
    me = _me(view)
    return [u for u in as_list(colls[me]) if isinstance(u, dict)] if 0 <= me < len(colls) else []


def _hunted(view: Mapping[str, Plain]) -> dict[str, Any] | None:
    hunt = view.get("hunt")
    if not isinstance(hunt, dict):
        return None
    return next((e for e in _row(view) if e["unicorn"] == hunt.get("unicorn")), None)


def scheme_ref(view: Mapping[str, Plain], scheme: int) -> str:
    """The board's name of a face-down scheme (``2b``), or ``"?"``."""
    for i, entry in enumerate(_row(view), 1):
        for k, (h, _owner) in enumerate(entry["schemes"]):
            if h == scheme:
                return f"{i}{SLOTS[k]}"
    return "?"


def _number(word: str, what: str, top: int) -> int:
    if not word.isdigit() or not 1 <= int(word) <= top:
        if top < 1:
            raise ParseError(_("there is no row unicorn to name") if what == "row unicorn"
                             else _("there is no unicorn of yours to name"))  # fmt: skip
        said = (_("'{word}' is not a row unicorn: 1 to {top}") if what == "row unicorn"
                else _("'{word}' is not a unicorn of yours: 1 to {top}"))  # fmt: skip
        raise ParseError(said.format(word=word, top=top))
    return int(word)


def _scheme_at(view: Mapping[str, Plain], ref: str) -> int:
    """The handle of the face-down scheme named ``ref`` (``2a``)."""
    row = _row(view)
    digits, slot = ref[:-1], ref[-1:]
    if not digits.isdigit() or slot not in SLOTS or not 1 <= int(digits) <= len(row):
        raise ParseError(_("'{ref}' names no scheme: say the unicorn's number and a or b, e.g. 2a")
                         .format(ref=ref))  # fmt: skip
    schemes = row[int(digits) - 1]["schemes"]
    k = SLOTS.index(slot)
    if k >= len(schemes):
        raise ParseError(_("row unicorn {n} has no scheme {slot}").format(n=digits, slot=slot))
    return int(schemes[k][0])


def _values(words: Sequence[str], what: str) -> tuple[int, ...]:
    if not words or not all(w.isdigit() for w in words):
        raise ParseError(_("{command}: name hunt cards by value, e.g. 3 1").format(command=what))
    return tuple(sorted(int(w) for w in words))


def _no_args(head: str, args: list[str]) -> Move:
    if args:
        raise ParseError(_("'{command}' takes nothing after it").format(command=head))
    return (head,)


def parse(head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:  # noqa: C901
    """The move a command asks for (``head`` after aliases, ``args`` lower-cased), built
    from the view alone, legal or not (the engine's ``check`` judges it and says why);
    raise ``ParseError`` when the words name nothing."""
    if head in ("join", "pass", "boost", "decline"):
        return _no_args(head, args)
    if head == "character":
        return ("character", _character(args))
    if head == "hunt":
        if len(args) != 1 or args[0] not in ("1", "2", "3"):
            raise ParseError(_("hunt N: open the hunt with 1, 2 or 3 hunt cards"))
        return ("hunt", int(args[0]))
    if head == "cards":
        return ("cards", _values(args, "cards A B"))
    if head == "plant":
        return _parse_plant([a for a in args if a != "on"], view)
    if head == "peek":
        if len(args) != 1:
            raise ParseError(_("peek 2a: the face-down scheme to look at"))
        return ("peek", _scheme_at(view, args[0]))
    if head == "shift":
        if len(args) != 2:
            raise ParseError(_("shift 2a N: move scheme 2a to row unicorn N"))
        return ("shift", _scheme_at(view, args[0]), _row_unicorn(view, args[1]))
    if head == "reveal":
        return _parse_reveal(args, view)
    if head == "give":
        if len(args) != 1:
            raise ParseError(_("give N: the number of one of your unicorns"))
        return ("give", _my_unicorn(view, args[0]))
    if head == "colour":
        if len(args) != 1 or args[0] not in _COLOUR_WORDS:
            raise ParseError(_("name a colour: {colours}").format(colours=", ".join(COLOURS)))
        return ("colour", _COLOUR_WORDS[args[0]])
    if head == "recall":
        if len(args) != 1 or not args[0].isdigit():
            raise ParseError(_("recall V: the value of a hunt card you played in this hunt"))
        return ("recall", int(args[0]))
    if head == "buy":
        return _parse_buy(args, view)
    raise ParseError(
        _("unknown command '{command}' (type help, or press Tab)").format(command=text.split()[0])
    )


def _character(args: list[str]) -> str:
    """The character named by ``args``: its English word (``knight``), or its name in the
    reader's language or the box's Spanish (``caballero``)."""
    said = " ".join(args)
    for name in CHARACTERS:
        words = {name, CHARACTER_NAMES[name][1].lower(), character_name(name, False).lower()}
        if said in words:
            return name
    raise ParseError(_("character NAME: one of {names}").format(names=", ".join(CHARACTERS)))


def _row_unicorn(view: Mapping[str, Plain], word: str) -> int:
    row = _row(view)
    return int(row[_number(word, "row unicorn", len(row)) - 1]["unicorn"])


def _my_unicorn(view: Mapping[str, Plain], word: str) -> int:
    mine = _mine(view)
    return int(mine[_number(word, "unicorn of yours", len(mine)) - 1]["unicorn"])


def _parse_plant(args: list[str], view: Mapping[str, Plain]) -> Move:
    drawn = [(int(h), str(label)) for h, label in as_list(view.get("my_drawn"))]
    if len(args) != 2:
        raise ParseError(_("plant SCHEME N: e.g. plant decoy 2 (the scheme you keep, the unicorn)"))
    if len(drawn) != 2:
        raise ParseError(_("you have no schemes to plant now"))
    word = args[0]
    if word.isdigit() and 1 <= int(word) <= 2:
        keep = drawn[int(word) - 1]
    else:
        found = [d for d in drawn if d[1] == word]
        if not found:
            kinds = " or ".join(label for _, label in drawn)
            raise ParseError(_("you drew no {word}: plant {kinds}").format(word=word, kinds=kinds))
        keep = found[0]
    discard = next(d for d in drawn if d != keep)
    label = "" if view.get("expert") else discard[1]
    return ("plant", keep[0], _row_unicorn(view, args[1]), discard[0], label)


def _parse_reveal(args: list[str], view: Mapping[str, Plain]) -> Move:
    entry = _hunted(view)
    if entry is None:
        raise ParseError(_("no unicorn is being hunted"))
    ref = args[0] if len(args) == 1 else ""
    slot = ref[-1:]
    if slot not in SLOTS or ref[:-1] not in ("", str(_row(view).index(entry) + 1)):
        raise ParseError(_("reveal a or reveal b: which of the hunted unicorn's schemes"))
    k = SLOTS.index(slot)
    if k >= len(entry["schemes"]):
        raise ParseError(_("the hunted unicorn has no scheme {slot}").format(slot=slot))
    return ("reveal", int(entry["schemes"][k][0]))


def _parse_buy(args: list[str], view: Mapping[str, Plain]) -> Move:
    if "pay" not in args or args.index("pay") < 2:
        raise ParseError(
            _("buy ITEM N [COLOUR] pay V…: e.g. buy horn 2 pay 3, buy candy 1 blue pay 1 2")
        )
    cut = args.index("pay")
    head, pay = args[:cut], args[cut + 1 :]
    item = head[0]
    if item not in ITEMS:
        raise ParseError(_("the black market sells {items}, not '{item}'").format(
            items=", ".join(ITEMS), item=item))  # fmt: skip
    unicorn = _my_unicorn(view, head[1])
    colour = ""
    if len(head) == 3:
        if head[2] not in _COLOUR_WORDS:
            raise ParseError(_("'{word}' is not a colour: {colours}").format(
                word=head[2], colours=", ".join(COLOURS)))  # fmt: skip
        colour = _COLOUR_WORDS[head[2]]
    elif len(head) > 3:
        raise ParseError(_("buy ITEM N [COLOUR] pay V…: too many words before pay"))
    return ("buy", item, unicorn, colour, _values(pay, "pay"))


# --------------------------------------------------------------------------- move → text


def _unicorn_label(view: Mapping[str, Plain], unicorn: object) -> str:
    for entry in _row(view):
        if entry["unicorn"] == unicorn:
            return unicorn_name(entry.get("label"))
    for coll in as_list(view.get("collections")):
        for u in as_list(coll):
            if isinstance(u, dict) and u.get("unicorn") == unicorn:
                return unicorn_name(u.get("label"), u.get("colour"))
    return _("a unicorn")


def _row_number(view: Mapping[str, Plain], unicorn: object) -> int:
    return next((i for i, e in enumerate(_row(view), 1) if e["unicorn"] == unicorn), 0)


def _mine_number(view: Mapping[str, Plain], unicorn: object) -> int:
    return next((i for i, u in enumerate(_mine(view), 1) if u["unicorn"] == unicorn), 0)


def _owner_of(view: Mapping[str, Plain], scheme: object) -> int:
    return next((o for e in _row(view) for h, o in e["schemes"] if h == scheme), -1)


def command_for(move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:  # noqa: C901
    """The text :func:`parse` turns into ``move``, and a short description of it."""
    name = str(move[0])
    args = move[1:]
    if name == "character":
        who = str(args[0])
        said = _("{character}: {power}").format(
            character=character_name(who), power=character_power(who)
        )
        return f"character {who}", said
    if name == "plant":
        drawn = dict((int(h), str(label)) for h, label in as_list(view.get("my_drawn")))
        keep, unicorn, discard = args[0], args[1], args[2]
        kept, dropped = drawn.get(_n(keep), "?"), drawn.get(_n(discard), "?")
        n = _row_number(view, unicorn)
        return (f"plant {kept} {n}",
                _("{kept} on {unicorn}; discard {dropped}").format(
                    kept=scheme_name(kept, False), unicorn=_unicorn_label(view, unicorn),
                    dropped=scheme_name(dropped, False)))  # fmt: skip
    if name == "hunt":
        k = _n(args[0])
        return f"hunt {k}", ngettext("hunt with {n} card", "hunt with {n} cards", k).format(n=k)
    if name == "join":
        hunt = view.get("hunt")
        bid = _n(hunt.get("bid")) if isinstance(hunt, dict) else 0
        return "join", ngettext("hunt too, with {n} card", "hunt too, with {n} cards",
                                bid).format(n=bid)  # fmt: skip
    if name == "pass":
        return "pass", _("stay out of this hunt")
    if name == "cards":
        values = [int(v) for v in as_list(args[0])]
        return "cards " + " ".join(map(str, values)), _("total {n}").format(n=sum(values))
    if name == "peek":
        owner = _owner_of(view, args[0])
        ref = scheme_ref(view, _n(args[0]))
        return f"peek {ref}", (_("look at your scheme (Princess)") if owner == _me(view)
                               else _("look at another player's scheme (Princess)"))  # fmt: skip
    if name == "shift":
        ref = scheme_ref(view, _n(args[0]))
        n = _row_number(view, args[1])
        return f"shift {ref} {n}", _("move it to {unicorn} (Shaman)").format(
            unicorn=_unicorn_label(view, args[1]))  # fmt: skip
    if name == "boost":
        return "boost", _("add 2 to your total ({knight})").format(
            knight=character_name("knight", False))  # fmt: skip
    if name == "decline":
        return "decline", _("buy nothing") if view.get("phase") == "market" else _("let it go")
    if name == "reveal":
        ref = scheme_ref(view, _n(args[0]))
        owner = _owner_of(view, args[0])
        return f"reveal {ref[-1:]}", (_("turn over your scheme") if owner == _me(view)
                                      else _("turn over another player's scheme"))  # fmt: skip
    if name == "give":
        return f"give {_mine_number(view, args[0])}", _("give {unicorn}").format(
            unicorn=_unicorn_label(view, args[0]))  # fmt: skip
    if name == "colour":
        return f"colour {args[0]!s}", colour_name(str(args[0]), True)
    if name == "recall":
        return f"recall {args[0]!s}", _("take it back (Wizard)")
    if name == "buy":
        item, unicorn, colour, pay = args
        paid = " ".join(str(v) for v in as_list(pay))
        c = f" {colour!s}" if colour else ""
        text = f"buy {item!s} {_mine_number(view, unicorn)}{c} pay {paid}"
        what = _("{item} ${cost} on {unicorn}").format(
            item=item_name(str(item), False), cost=COST[str(item)],
            unicorn=_unicorn_label(view, unicorn))  # fmt: skip
        return text, what + (f" → {colour_name(str(colour))}" if colour else "")
    return name, ""

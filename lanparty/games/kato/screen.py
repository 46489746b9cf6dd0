"""KaTO on the screen: its table, hand, prompt, commands and completions, as pure functions
of one seat's view (:class:`lanparty.games.screens.GameScreen`; no prompt-toolkit here).

Cards are named by their 1-based index in the hand as shown (``play 3``); a wild takes the
colour after it (``play 3 red``); ``play 3 kato`` calls KaTO with the play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from lanparty.games.screens import Fragments, ParseError, gather_screen, player_name, view_seat
from lanparty.games.views import num, num_at
from lanparty.games.wording import won_line
from lanparty.i18n import N_, _, language, ngettext
from protocol.contract import Move, Plain

from .narrate import COLOUR_WORDS_EN, card_name, colour_name
from .refusals import translate

__all__ = ["SCREEN", "STYLES", "card_style", "command_for", "final_scores",
           "hand_lines", "hand_of", "humanize", "playable", "table"]  # fmt: skip

WILDS = frozenset({"W", "W+4", "cone"})
COLOUR_WORDS = {
    "r": "r", "red": "r", "y": "y", "yellow": "y", "g": "g", "green": "g", "b": "b", "blue": "b",
}  # fmt: skip
SIMPLE_MOVES = ("draw", "pass", "accept", "challenge", "kato", "catch")
ALIASES = {"p": "play", "d": "draw", "color": "colour"}
"""Other words for KaTO's commands."""

HELP = (
    ("play N", N_("play card N, e.g. play 3")),
    ("play N COLOUR", N_("play a wild and name the colour, e.g. play 5 red")),
    ("play N kato", N_("play, leaving one card, and call KaTO at once")),
    ("draw / pass", N_("draw a card / keep the drawn card and end your turn")),
    ("accept", N_("take the cards (or the skip) aimed at you")),
    ("challenge", N_("challenge a Wild Draw Four (its verdict is automatic)")),
    ("colour COLOUR", N_("name the colour when a round starts on a wild")),
    ("kato / catch", N_("call KaTO with one card left / catch a player who did not")),
)
"""KaTO's commands and what they do (English: translated where shown)."""

STYLES = {
    "card.r": "bold #ffffff bg:ansired",
    "card.y": "bold #000000 bg:ansiyellow",
    "card.g": "bold #000000 bg:ansigreen",
    "card.b": "bold #ffffff bg:ansiblue",
    "card.w": "bold #ffffff bg:ansimagenta",
    "drawn": "underline",
    "index.playable": "bold ansibrightcyan",
    "kato": "bold ansimagenta",
}


_COLOUR_ORDER = {"r": 0, "y": 1, "g": 2, "b": 3}
_RANK_ORDER = {"S": 10, "R": 11, "+2": 12}


def _sort_key(card: tuple[int, str]) -> tuple[int, int, str]:
    label = card[1]
    if label in WILDS or label[:1] not in _COLOUR_ORDER:
        return (4, 0, label)
    rank = label[1:]
    return (_COLOUR_ORDER[label[0]], int(rank) if rank.isdigit() else _RANK_ORDER.get(rank, 99), "")


def hand_of(view: Mapping[str, Plain]) -> list[tuple[int, str]]:
    """The seat's hand from its view as (handle, label) pairs in the order shown (and
    numbered from 1): by colour, then by rank, wilds last."""
    hand = view.get("hand") or []
    assert isinstance(hand, list | tuple)
    out: list[tuple[int, str]] = []
    for item in hand:
        assert isinstance(item, list | tuple)
        out.append((int(item[0]), str(item[1])))  # type: ignore[arg-type]
    return sorted(out, key=_sort_key)


def parse(head: str, args: list[str], text: str, view: Mapping[str, Plain]) -> Move:
    """The move a KaTO command asks for (``head`` after aliases); raise ``ParseError``.

    A move is built from the view alone, legal or not: the engine's ``check`` is the judge of
    legality, so the player sees the rules' own reason.
    """
    if head in SIMPLE_MOVES:
        if args:
            raise ParseError(_("'{command}' takes no arguments").format(command=head))
        return (head,)
    if head == "colour":
        if len(args) != 1 or args[0] not in COLOUR_WORDS:
            raise ParseError(_("name a colour: colour red|yellow|green|blue"))
        return ("colour", COLOUR_WORDS[args[0]])
    if head == "play":
        return _parse_play(args, view)
    raise ParseError(
        _("unknown command '{command}' (type help, or press Tab)").format(command=text.split()[0])
    )


def _parse_play(args: list[str], view: Mapping[str, Plain]) -> Move:
    hand = hand_of(view)
    called = "kato" in args  # ``play 3 kato``: the KaTO call goes with the play
    if called:
        args.remove("kato")
    colour = ""
    if args and args[-1] in COLOUR_WORDS:
        colour = COLOUR_WORDS[args.pop()]
    if not args:
        raise ParseError(_("play which card? e.g. 'play 3' (the number before the card)"))
    picked: list[tuple[int, str]] = []
    for arg in args:
        if not arg.isdigit():
            raise ParseError(_("'{word}' is not a card number or a colour").format(word=arg))
        i = int(arg)
        if not 1 <= i <= len(hand):
            raise ParseError(
                _("there is no card {n}: your cards are numbered 1 to {last}").format(
                    n=i, last=len(hand)
                )
            )
        picked.append(hand[i - 1])
    last = picked[-1][1]
    if last in WILDS and not colour:
        then = " kato" if called else ""
        command = f"play {' '.join(args)} red|yellow|green|blue{then}"
        raise ParseError(
            _("{card} needs a colour: {command}").format(card=card_name(last), command=command)
        )
    if last not in WILDS and colour:
        raise ParseError(
            _("only a wild names a colour; {card} has its own").format(card=card_name(last))
        )
    move: Move = ("play", tuple(h for h, _ in picked), tuple(lab for _, lab in picked), colour)
    return (*move, "kato") if called else move


_LABEL = re.compile(r"(?<![\w+])(?:[rygb](?:\d|S\b|R\b|\+2)|W\+4|W\b|cone\b)")


#: The rules an audit may find broken, in words (``Violation.rule``).
RULES_BROKEN = {"illegal-wild-draw-four": N_("a Wild Draw Four played while holding the colour")}


def humanize(reason: str) -> str:
    """An engine message with card labels in words: ``"r7 cannot be played now"`` →
    ``"Red 7 cannot be played now"``; a broken rule's tag in words."""
    if reason in RULES_BROKEN:
        return _(RULES_BROKEN[reason])
    if language() != "en":
        said = translate(reason, card_name)
        if said is not None:
            return said
    return _LABEL.sub(lambda m: card_name(m.group(0)), reason)


def command_for(move: Move, view: Mapping[str, Plain]) -> tuple[str, str]:
    """The text that ``parse`` turns into ``move``, and a short description of it."""
    name = str(move[0])
    if name == "play":
        hand = hand_of(view)
        position = {h: i + 1 for i, (h, _) in enumerate(hand)}
        handles = move[1]
        labels = move[2]
        assert isinstance(handles, tuple) and isinstance(labels, tuple)
        text = "play " + " ".join(str(position.get(int(h), "?")) for h in handles)  # type: ignore[arg-type]
        described = ", ".join(card_name(str(label)) for label in labels)
        if move[3]:
            text += f" {COLOUR_WORDS_EN.get(str(move[3]), str(move[3]))}"
            described += f" → {colour_name(str(move[3]))}"
        if move[4:] == ("kato",):
            text += " kato"
            described += _(", calling KaTO")
        return text, described
    if name == "colour":
        return f"colour {COLOUR_WORDS_EN.get(str(move[1]), str(move[1]))}", ""
    return name, _(_DESCRIPTIONS[name]) if name in _DESCRIPTIONS else ""


_DESCRIPTIONS = {
    "draw": N_("draw a card"),
    "pass": N_("keep the drawn card, end the turn"),
    "accept": N_("take the cards (or the skip)"),
    "challenge": N_("challenge the Wild Draw Four"),
    "kato": N_("call KaTO: one card left"),
    "catch": N_("catch a player who forgot KaTO"),
}


def prompt(view: Mapping[str, Plain], can_decline: bool) -> str:
    """What the prompt asks of the player now."""
    if can_decline:
        return _("kato/catch now, or Enter to play on> ")
    if view.get("phase") == "name-colour":
        return _("name a colour> ")
    if view.get("phase") == "verdict":
        return _("announce the verdict> ")
    if view.get("phase") == "drawn":
        return _("play the drawn card or pass> ")
    if isinstance(view.get("pending"), dict):
        return _("answer or accept> ")
    return _("your move> ")


def card_style(label: str) -> str:
    """The style class of a card: its colour, or ``card.w`` for a wild."""
    if label in WILDS or label[:1] not in "rygb":
        return "class:card.w"
    return f"class:card.{label[0]}"


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The public state: round, top card, colour in play, direction, pending draw, then one
    line per player with its card count, KaTO state and score; the turn is marked (for
    no seat, ``view["seat"]`` None or missing, nobody is "you")."""
    me = view_seat(view)
    width = max(width, 20)
    out: Fragments = []
    if view["phase"] == "setup":
        dealing = _("  ·  the cards are being shuffled and dealt…")
        return [("class:title", _("Round {n}").format(n=num(view, "round"))),
                ("class:dim", dealing + "\n")]  # fmt: skip
    direction = _("clockwise") if view["direction"] == 1 else _("counter-clockwise")
    out.append(("class:title", _("Round {n}").format(n=num(view, "round"))))
    out.append(("", _("  ·  play goes {direction}  ·  deck {n}").format(
        direction=direction, n=num(view, "deck")) + "\n"))  # fmt: skip
    top = view["top"]
    out.append(("", _("Top: ")))
    if isinstance(top, str):
        out.append((card_style(top), f" {card_name(top)} "))
    else:
        out.append(("class:dim", _("none yet")))
    colour = view["colour"]
    out.append(("", _("   Colour in play: ")))
    if isinstance(colour, str):
        out.append((f"class:card.{colour}", f" {colour_name(colour)} "))
    else:
        out.append(("class:dim", "-"))
    pending = view["pending"]
    if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
        total = num(pending, "total")
        out.append(("class:warn", "   " + ngettext(
            "{n} card to draw", "{n} cards to draw", total).format(n=total)))  # fmt: skip
    elif isinstance(pending, dict) and pending.get("kind") == "skip":
        out.append(("class:warn", _("   a Skip is aimed")))
    out.append(("", "\n"))
    challenge = view.get("challenge")
    if isinstance(challenge, dict):
        out += _challenge(challenge, names, me, width)
    counts = view["counts"]
    scores = view["scores"]
    assert isinstance(counts, list) and isinstance(scores, list)
    current = view["current"]
    kato = view["kato"]
    # Names give way first on a narrow terminal: the counts and scores matter more.
    longest = max(len(player_name(names, s, me)) for s in range(len(counts)))
    name_width = min(longest, max(width - 24, 4))
    for s, count in enumerate(counts):
        turn = s == current and view["phase"] not in ("over", "scoring", "setup")
        line = "▶ " if turn else "  "
        held = num_at(view, "counts", s)
        cards = ngettext("{n} card", "{n} cards", held).format(n=f"{count!s:>2}")
        line += f"{player_name(names, s, me)[:name_width]:<{name_width}}  {cards}"
        points = num_at(view, "scores", s)
        line += "  " + ngettext("{n} pt", "{n} pts", points).format(n=f"{points!s:>4}")
        style = "class:turn" if turn else ""
        out.append((style, line[:width]))
        if count == 1 and kato != s:
            out.append(("class:kato", "  KaTO"[: max(0, width - len(line))]))
        elif kato == s:
            warn = "  " + _("one card, no KaTO yet!")
            out.append(("class:warn", warn[: max(0, width - len(line))]))
        out.append(("", "\n"))
    return out


def playable(legal: Sequence[Move]) -> list[int]:
    """The handles of the cards that ``legal`` lets the seat play now."""
    return sorted({
        m[1][0] for m in legal
        if len(m) > 1 and m[0] == "play" and isinstance(m[1], tuple) and m[1]
        and isinstance(m[1][0], int)
    })  # fmt: skip


def hand_lines(view: Mapping[str, Plain], width: int = 80, legal: Sequence[Move] = ()) -> Fragments:
    """The seat's hand in colour with 1-based indexes, wrapped to ``width`` columns; the
    cards ``legal`` lets it play are marked (bright index) and listed under the hand; nothing
    for no seat."""
    if view.get("phase") == "setup" or view_seat(view) is None:
        return []
    hand = hand_of(view)
    can = set(playable(legal))
    out: Fragments = [("class:title", _("Your hand:")), ("", "\n")]
    column = 0
    numbers: list[str] = []
    for i, (handle, label) in enumerate(hand, 1):
        text = f"{i}:"
        card = f" {card_name(label)} "
        cell = len(text) + len(card) + 1
        if column and column + cell > width:
            out.append(("", "\n"))
            column = 0
        style = card_style(label)
        if view.get("drawn") == handle:
            style += " class:drawn"
        if handle in can:
            numbers.append(str(i))
        index = (
            "class:index.playable" if handle in can else "class:index" if not can else "class:dim"
        )
        out.append((index, text))
        out.append((style, card))
        out.append(("", " "))
        column += cell
    if not hand:
        out.append(("class:dim", _("(no cards)")))
    out.append(("", "\n"))
    if numbers:
        playable_now = _("Playable: {numbers}").format(numbers=", ".join(numbers))
        out.append(("class:index.playable", playable_now[:width]))
        out.append(("", "\n"))
    return out


def _challenge(
    challenge: Mapping[str, Plain], names: Sequence[str], me: int | None, width: int
) -> Fragments:
    """The challenge on show (until play moves on): whose hand was shown to whom, the colour
    that decides, the verdict once announced, then (to the challenger) the shown cards."""
    holder, by = num(challenge, "of"), num(challenge, "by")
    if holder == me:
        shown_to = _("Your hand, shown to {name}").format(name=names[by])
    elif by == me:
        shown_to = _("{name}'s hand, shown to you").format(name=names[holder])
    else:
        shown_to = _("{name}'s hand, shown to {other}").format(name=names[holder], other=names[by])
    colour = challenge.get("colour")
    verdict = challenge.get("verdict")
    decides = ""
    if isinstance(colour, str):
        decides = _("{colour} decides").format(colour=colour_name(colour))
    said = _(str(verdict)) if verdict in ("guilty", "innocent") else str(verdict)
    out: Fragments = [
        ("class:title", _("Challenge: ")),
        ("", f"{shown_to}  "),
        ("class:warn", f"{decides}: {said}" if verdict else decides),
        ("", "\n"),
    ]
    shown = challenge.get("shown")
    if isinstance(shown, list):
        out += _cards([str(label) for label in shown], width)
    return out


def _cards(labels: Sequence[str], width: int) -> Fragments:
    """Cards in colour, wrapped to ``width`` columns, ending the line."""
    out: Fragments = []
    column = 0
    for label in labels:
        card = f" {card_name(label)} "
        if column and column + len(card) + 1 > width:
            out.append(("", "\n"))
            column = 0
        out += [(card_style(label), card), ("", " ")]
        column += len(card) + 1
    out.append(("", "\n"))
    return out


def final_scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The final table: every player's total, the winners first, and who won."""
    me = view_seat(view)
    scores = view["scores"]
    winners = view["winners"]
    assert isinstance(scores, list) and isinstance(winners, list)
    out: Fragments = [("class:title", _("Final scores")), ("", "\n")]
    order = sorted(range(len(scores)), key=lambda s: (-int(scores[s]), s))  # type: ignore[arg-type]
    for s in order:
        mark = "★ " if s in winners else "  "
        name = player_name(names, s, me)
        out.append(("class:turn" if s in winners else "", f"{mark}{name:<16} "))
        out.append(("", f"{scores[s]!s:>5}\n"))
    if winners:
        seats = [int(w) for w in winners]  # type: ignore[arg-type]
        out.append(("class:title", won_line(seats, me, names) + "\n"))
    return out


SCREEN = gather_screen(__name__, hand=hand_lines, final=final_scores)
"""The game's screen (its plugin gives it to the terminal UI)."""

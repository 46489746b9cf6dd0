"""What the player types, as pure functions: text → action, legal moves → completions.

Cards are named by their 1-based index in the hand as shown (``play 3``); a wild takes the
colour after it (``play 3 red``). Nothing here imports prompt-toolkit or touches a table.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanparty.narrate import card_name, colour_name
from protocol.contract import Move, Plain

__all__ = [
    "ALIASES",
    "META_COMMANDS",
    "Action",
    "ParseError",
    "command_for",
    "completions",
    "hand_of",
    "help_text",
    "humanize",
    "parse",
]

WILDS = frozenset({"W", "W+4", "cone"})
COLOUR_WORDS = {
    "r": "r", "red": "r", "y": "y", "yellow": "y", "g": "g", "green": "g", "b": "b", "blue": "b",
}  # fmt: skip
SIMPLE_MOVES = ("draw", "pass", "accept", "challenge", "kato", "catch")
META_COMMANDS: dict[str, str] = {
    "help": "list the commands",
    "rules": "show the rules of the game",
    "quit": "leave the game",
}
ALIASES = {
    "p": "play", "d": "draw", "color": "colour", "wait": "go", "continue": "go", "exit": "quit",
    "q": "quit", "?": "help",
}  # fmt: skip
"""Other words for a command: what the parser reads, and what ``help`` lists."""

_HELP = (
    ("play N", "play card N, e.g. play 3"),
    ("play N COLOUR", "play a wild and name the colour, e.g. play 5 red"),
    ("play N kato", "play, leaving one card, and call KaTO at once"),
    ("draw / pass", "draw a card / keep the drawn card and end your turn"),
    ("accept", "take the cards (or the skip) aimed at you"),
    ("challenge", "challenge a Wild Draw Four (its verdict is automatic)"),
    ("colour COLOUR", "name the colour when a round starts on a wild"),
    ("kato / catch", "call KaTO with one card left / catch a player who did not"),
    ("go (or Enter)", "let an out-of-turn chance go and play on"),
    ("start", "(host) begin now, with the players seated so far"),
    ("kick N", "(host, before the game) remove the player in seat N"),
    ("approve NAME / deny NAME", "(host with --approve) let a player in, or not"),
)


def help_text() -> str:
    """What ``help`` prints: every command, then every short form from ``ALIASES``."""
    lines = ["Commands (Tab completes; the number is the card's place in your hand):"]
    lines += [f"  {command:<17} {what}" for command, what in _HELP]
    lines += [f"  {command:<17} {what}" for command, what in META_COMMANDS.items()]
    shorts = ", ".join(f"{alias} = {command}" for alias, command in ALIASES.items())
    lines += textwrap.wrap(f"Short forms: {shorts}", 78, subsequent_indent="  ")
    return "\n".join(lines)


class ParseError(ValueError):
    """The text is not a command; ``str(error)`` says why, for the player."""


#: The host's say over who sits, before the game: the command and what it takes.
HOST_COMMANDS = {"kick": "N", "approve": "NAME", "deny": "NAME"}


@dataclass(frozen=True, slots=True)
class Action:
    """What a line of input asks for: a ``move`` (kind ``"move"``), or one of ``"help"``,
    ``"rules"``, ``"quit"``, ``"go"`` (let an out-of-turn chance go), ``"nothing"``, or a
    host command (``"start"``; ``"kick"``, ``"approve"``, ``"deny"`` with ``arg``)."""

    kind: str
    move: Move | None = None
    arg: str = ""


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


def parse(text: str, view: Mapping[str, Plain], can_decline: bool = False) -> Action:
    """The action ``text`` asks for; raise ``ParseError`` with a reason for the player.

    A move is built from the view alone, legal or not: the engine's ``check`` is the judge of
    legality, so the player sees the rules' own reason.
    """
    words = text.lower().split()
    if not words:
        return Action("go") if can_decline else Action("nothing")
    head = ALIASES.get(words[0], words[0])
    args = words[1:]
    if head in META_COMMANDS or head == "start":  # start: the host, before the game
        return Action(head)
    if head in HOST_COMMANDS:
        if not args:
            raise ParseError(f"{head} {HOST_COMMANDS[head]}: say which")
        return Action(head, arg=" ".join(text.split()[1:]))  # a name as typed
    if head == "go":
        if not can_decline:
            raise ParseError("it is not a moment to wait: make a move (Tab lists them)")
        return Action("go")
    if head in SIMPLE_MOVES:
        if args:
            raise ParseError(f"'{head}' takes no arguments")
        return Action("move", (head,))
    if head == "colour":
        if len(args) != 1 or args[0] not in COLOUR_WORDS:
            raise ParseError("name a colour: colour red|yellow|green|blue")
        return Action("move", ("colour", COLOUR_WORDS[args[0]]))
    if head == "play":
        return Action("move", _parse_play(args, view))
    raise ParseError(f"unknown command '{words[0]}' (type help, or press Tab)")


def _parse_play(args: list[str], view: Mapping[str, Plain]) -> Move:
    hand = hand_of(view)
    called = "kato" in args  # ``play 3 kato``: the KaTO call goes with the play
    if called:
        args.remove("kato")
    colour = ""
    if args and args[-1] in COLOUR_WORDS:
        colour = COLOUR_WORDS[args.pop()]
    if not args:
        raise ParseError("play which card? e.g. 'play 3' (the number before the card)")
    picked: list[tuple[int, str]] = []
    for arg in args:
        if not arg.isdigit():
            raise ParseError(f"'{arg}' is not a card number or a colour")
        i = int(arg)
        if not 1 <= i <= len(hand):
            raise ParseError(f"there is no card {i}: your cards are numbered 1 to {len(hand)}")
        picked.append(hand[i - 1])
    last = picked[-1][1]
    if last in WILDS and not colour:
        then = " kato" if called else ""
        raise ParseError(
            f"{card_name(last)} needs a colour: play {' '.join(args)} red|yellow|green|blue{then}"
        )
    if last not in WILDS and colour:
        raise ParseError(f"only a wild names a colour; {card_name(last)} has its own")
    move: Move = ("play", tuple(h for h, _ in picked), tuple(lab for _, lab in picked), colour)
    return (*move, "kato") if called else move


_LABEL = re.compile(r"(?<![\w+])(?:[rygb](?:\d|S\b|R\b|\+2)|W\+4|W\b|cone\b)")


def humanize(reason: str) -> str:
    """An engine message with card labels in words: ``"r7 cannot be played now"`` →
    ``"Red 7 cannot be played now"``."""
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
            text += f" {colour_name(str(move[3]))}"
            described += f" → {colour_name(str(move[3]))}"
        if move[4:] == ("kato",):
            text += " kato"
            described += ", calling KaTO"
        return text, described
    if name == "colour":
        return f"colour {colour_name(str(move[1]))}", ""
    return name, _DESCRIPTIONS.get(name, "")


_DESCRIPTIONS = {
    "draw": "draw a card",
    "pass": "keep the drawn card, end the turn",
    "accept": "take the cards (or the skip)",
    "challenge": "challenge the Wild Draw Four",
    "kato": "call KaTO: one card left",
    "catch": "catch a player who forgot KaTO",
}


def completions(
    text: str, view: Mapping[str, Plain], legal: Sequence[Move], can_decline: bool = False
) -> list[tuple[str, str]]:
    """Commands (with a description) that start with ``text``: every legal move, then
    ``go`` when an out-of-turn chance may be let go, then the meta commands."""
    prefix = " ".join(text.lower().split())
    if text.endswith(" ") and prefix:
        prefix += " "
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    candidates = [command_for(m, view) for m in legal]
    if can_decline:
        candidates.append(("go", "let it go, play goes on"))
    candidates.extend(META_COMMANDS.items())
    for command, meta in candidates:
        if command.startswith(prefix) and command not in seen:
            seen.add(command)
            out.append((command, meta))
    return out

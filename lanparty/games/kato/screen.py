"""KaTO on the screen: its table, hand, prompt, commands and completions, as pure functions
of one seat's view (:class:`lanparty.games.screens.GameScreen`; no prompt-toolkit here).

Cards are named by their 1-based index in the hand as shown (``play 3``); a wild takes the
colour after it (``play 3 red``); ``play 3 kato`` calls KaTO with the play.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from lanparty.games.screens import ParseError, gather_screen, view_seat
from lanparty.i18n import N_, _, language
from protocol.contract import Move, Plain

from . import board as board_module
from .board import (
    WILDS,
    board,
    card_style,
    final_scores,
    hand_lines,
    hand_of,
    header,
    playable,
    scores,
    table,
)
from .narrate import COLOUR_WORDS_EN, card_name, colour_name
from .refusals import translate

__all__ = ["SCREEN", "STYLES", "board", "card_style", "command_for", "final_scores",
           "hand_lines", "hand_of", "header", "humanize", "playable", "scores",
           "table"]  # fmt: skip

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
    if not hand:
        raise ParseError(_("you are watching: you hold no cards to play") if view_seat(view)
                         is None else _("you hold no cards"))  # fmt: skip
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


SCREEN = gather_screen(__name__, board_module, hand=hand_lines, final=final_scores)
"""The game's screen (its plugin gives it to the terminal UI)."""

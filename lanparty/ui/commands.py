"""What the player types, as pure functions: text → action, legal moves → completions.

The commands every table has (``help``, ``rules``, ``quit``, ``go``, the host's ``start``,
``kick``, ``approve``, ``deny``, the closer's ``close``) are read here; a game's own commands
are its screen's (:class:`lanparty.ui.base.GameScreen`). Nothing here imports prompt-toolkit,
touches a table or names a game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanparty.i18n import N_, _
from protocol.contract import Move, Plain

from .base import GameScreen, ParseError

__all__ = [
    "ALIASES",
    "HOST_COMMANDS",
    "META_COMMANDS",
    "Action",
    "ParseError",
    "completions",
    "help_text",
    "parse",
]

META_COMMANDS: dict[str, str] = {
    "help": N_("list the commands"),
    "rules": N_("show the rules of the game"),
    "quit": N_("leave the game"),
}
"""The commands every table has, and what they do (in English: translated where shown)."""
ALIASES = {"wait": "go", "continue": "go", "exit": "quit", "q": "quit", "?": "help"}
"""Other words for the commands every table has (a game adds its own)."""
#: The host's say over who sits, before the game: the command and what it takes.
HOST_COMMANDS = {"kick": "N", "approve": "NAME", "deny": "NAME"}

_HELP = (
    (N_("go (or Enter)"), N_("let an out-of-turn chance go and play on")),
    ("close", N_("(when you may) end a sealed round: the rest hand in nothing")),
    ("start", N_("(host) begin now, with the players seated so far")),
    ("kick N", N_("(host, before the game) remove the player in seat N")),
    ("approve NAME / deny NAME", N_("(host with --approve) let a player in, or not")),
)


@dataclass(frozen=True, slots=True)
class Action:
    """What a line of input asks for: a ``move`` (kind ``"move"``), or one of ``"help"``,
    ``"rules"``, ``"quit"``, ``"go"`` (let an out-of-turn chance go), ``"close"`` (end a
    sealed phase), ``"nothing"``, or a host command (``"start"``; ``"kick"``,
    ``"approve"``, ``"deny"`` with ``arg``)."""

    kind: str
    move: Move | None = None
    arg: str = ""


def help_text(screen: GameScreen) -> str:
    """What ``help`` prints: the game's commands, the table's, then every short form."""
    lines = [_("Commands (Tab completes):")]
    table = [(_(command), _(what)) for command, what in (*_HELP, *META_COMMANDS.items())]
    rows = [*screen.help(), *table]
    lines += [f"  {command:<17} {what}" for command, what in rows]
    aliases = {**screen.aliases, **ALIASES}
    shorts = ", ".join(f"{alias} = {command}" for alias, command in aliases.items())
    lines += textwrap.wrap(_("Short forms: {shorts}").format(shorts=shorts), 78,
                           subsequent_indent="  ")  # fmt: skip
    return "\n".join(lines)


def parse(
    text: str, screen: GameScreen, view: Mapping[str, Plain], can_decline: bool = False
) -> Action:
    """The action ``text`` asks for; raise ``ParseError`` with a reason for the player. The
    table's own commands are read here, anything else is the game's (``screen.parse``)."""
    words = text.lower().split()
    if not words:
        return Action("go") if can_decline else Action("nothing")
    head = ALIASES.get(words[0]) or screen.aliases.get(words[0]) or words[0]
    args = words[1:]
    if head in META_COMMANDS or head in ("start", "close"):
        return Action(head)
    if head in HOST_COMMANDS:
        if not args:
            raise ParseError(_("{command}: say which").format(
                command=f"{head} {HOST_COMMANDS[head]}"))  # fmt: skip
        return Action(head, arg=" ".join(text.split()[1:]))  # a name as typed
    if head == "go":
        if not can_decline:
            raise ParseError(_("it is not a moment to wait: make a move (Tab lists them)"))
        return Action("go")
    return Action("move", screen.parse(head, args, text, view))


def completions(
    text: str,
    screen: GameScreen,
    view: Mapping[str, Plain],
    legal: Sequence[Move],
    can_decline: bool = False,
) -> list[tuple[str, str]]:
    """Commands (with a description) that start with ``text``: every legal move the screen
    offers now, then ``go`` when an out-of-turn chance may be let go, then the meta commands."""
    prefix = " ".join(text.lower().split())
    if text.endswith(" ") and prefix:
        prefix += " "
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    candidates = [screen.command_for(m, view) for m in legal]
    if can_decline:
        candidates.append(("go", _("let it go, play goes on")))
    candidates.extend((command, _(what)) for command, what in META_COMMANDS.items())
    for command, meta in candidates:
        if command and command.startswith(prefix) and command not in seen:
            seen.add(command)
            out.append((command, meta))
    return out

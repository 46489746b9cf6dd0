"""What the player types, as pure functions: text → action, legal moves → completions.

The commands every table has (``help``, ``rules``, ``quit``, ``go``, ``say`` and its short
form ``"``, the host's ``start``, ``kick``, ``approve``, ``deny``, the closer's ``close``) are
read here; a game's own commands
are its screen's (:class:`lanparty.games.screens.GameScreen`). Nothing here imports prompt-toolkit,
touches a table or names a game.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from lanparty.games.screens import GameScreen, ParseError
from lanparty.i18n import N_, _
from protocol.contract import Move, Plain

__all__ = [
    "ALIASES",
    "HOST_COMMANDS",
    "META_COMMANDS",
    "TALK",
    "TALK_SHORT",
    "Action",
    "ParseError",
    "completions",
    "help_text",
    "parse",
    "talk_of",
]

META_COMMANDS: dict[str, str] = {
    "help": N_("list the commands"),
    "rules": N_("show the rules of the game"),
    "scores": N_("show the score sheet"),
    "quit": N_("leave the game"),
}
"""The commands every table has, and what they do (in English: translated where shown)."""
ALIASES = {"wait": "go", "continue": "go", "exit": "quit", "q": "quit", "?": "help"}
"""Other words for the commands every table has (a game adds its own)."""
#: The host's say over who sits, before the game: the command and what it takes.
HOST_COMMANDS = {"kick": "N", "approve": "N", "deny": "N"}
#: Table talk at a networked table: the command, and its short form (a line starting with it).
TALK, TALK_SHORT = "say", '"'

_HELP = (
    (N_("go (or Enter)"), N_("let an out-of-turn chance go and play on")),
    ("close", N_("(when you may) end a sealed round: the rest hand in nothing")),
    (
        "say TEXT",
        N_('say something to the table: everyone there reads it, spectators too (or type "TEXT)'),
    ),
    ("start", N_("(host) begin now, with the players seated so far")),
    ("kick N", N_("(host, before the game) remove the player in seat N")),
    ("approve N / deny N", N_("(host with --approve) let in the join request numbered N, or not")),
)
_SAID = frozenset({_HELP[0][0]})
"""The commands in :data:`_HELP` said with words of the reader's language around them."""
_TALKS = frozenset({_HELP[2][0]})
"""The rows of :data:`_HELP` only at a networked table (where there is someone to talk to)."""
_HOSTS = frozenset(command for command, _what in _HELP[3:])
"""The rows of :data:`_HELP` only the host of a networked table may use."""


@dataclass(frozen=True, slots=True)
class Action:
    """What a line of input asks for: a ``move`` (kind ``"move"``), or one of ``"help"``,
    ``"rules"``, ``"scores"``, ``"quit"``, ``"go"`` (let an out-of-turn chance go),
    ``"close"`` (end a sealed phase), ``"nothing"``, ``"say"`` (``arg``: the text, as typed),
    or a host command (``"start"``; ``"kick"``, ``"approve"``, ``"deny"`` with ``arg``)."""

    kind: str
    move: Move | None = None
    arg: str = ""


def help_text(screen: GameScreen, *, host: bool = True, width: int = 79, talk: bool = True) -> str:
    """What ``help`` prints in ``width`` columns: the game's commands, the table's (the
    host's only for the host of a networked table: ``host``; ``say`` only where there is
    someone to talk to: ``talk``), then every short form."""
    lines = [_("Commands (Tab completes):")]
    # The commands are typed as they are, in every language: only the words around one
    # ("go (or Enter)") are said in the reader's.
    rows_of_table = [
        row for row in _HELP if (host or row[0] not in _HOSTS) and (talk or row[0] not in _TALKS)
    ]
    table = [(_(command) if command in _SAID else command, _(what))
             for command, what in (*rows_of_table, *META_COMMANDS.items())]  # fmt: skip
    rows: list[tuple[str, str]] = []
    for command, what in (*screen.help(), *table):
        if not command and rows:  # a row's words go on: wrapped with them
            rows[-1] = (rows[-1][0], f"{rows[-1][1]} {what.strip()}")
        else:
            rows.append((command, what))
    lines += [line for command, what in rows for line in _row(command, what, width)]
    aliases = {**screen.aliases, **ALIASES}
    # Each short form whole on a line ("exit = quit" is never cut after its "=").
    shorts = ", ".join(f"{alias}\0={command}" for alias, command in aliases.items())
    said = _("Short forms: {shorts}").format(shorts=shorts)
    wrapped = textwrap.wrap(said.replace("\0=", "\0=\0"), width - 1, subsequent_indent="  ")
    lines += [line.replace("\0", " ") for line in wrapped]
    return "\n".join(lines)


def _row(command: str, what: str, width: int = 79) -> list[str]:
    """One command of the help and what it does, the words wrapped under themselves to fit
    ``width`` columns (in any language, however long the words)."""
    head = f"  {command:<17} "
    word = command.split()[0] if command.split() else ""
    at = what.rfind(f" {word} ") if word.isascii() and word.isalpha() else -1
    if at >= 0:  # an example of the command ("…: plant decoy 2") is never cut
        what = what[: at + 1] + what[at + 1 :].replace(" ", "\0")
    if width - len(head) < 30:  # a narrow page: what it does goes under the command
        said = textwrap.wrap(what, max(width - 4, 10)) or [""]
        return [f"  {command}", *("    " + line.replace("\0", " ") for line in said)]
    said = textwrap.wrap(what, width - len(head)) or [""]
    said = [line.replace("\0", " ") for line in said]
    return [head + said[0], *(" " * len(head) + more for more in said[1:])]


def parse(
    text: str, screen: GameScreen, view: Mapping[str, Plain], can_decline: bool = False
) -> Action:
    """The action ``text`` asks for; raise ``ParseError`` with a reason for the player. The
    table's own commands are read here (``say TEXT`` and ``"TEXT`` as typed: not lowered),
    anything else is the game's (``screen.parse``)."""
    said = talk_of(text)
    if said is not None:
        if not said:
            raise ParseError(_('say TEXT: say what (or "TEXT)'))
        return Action(TALK, arg=said)
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
        return Action(head, arg=" ".join(text.split()[1:]))  # as typed
    if head == "go":
        if not can_decline:
            raise ParseError(_("it is not a moment to wait: make a move (Tab lists them)"))
        return Action("go")
    return Action("move", screen.parse(head, args, text, view))


def talk_of(text: str) -> str | None:
    """The text a line says to the table, as typed (``say TEXT`` or ``"TEXT``; "" for
    ``say`` alone), or ``None`` if it says nothing."""
    line = text.strip()
    if line.startswith(TALK_SHORT):
        return line[len(TALK_SHORT) :].strip()
    head, _space, rest = line.partition(" ")
    return rest.strip() if head.lower() == TALK else None


def completions(
    text: str,
    screen: GameScreen,
    view: Mapping[str, Plain],
    legal: Sequence[Move],
    can_decline: bool = False,
    offers: Sequence[tuple[str, str]] = (),
    talk: bool = False,
) -> list[tuple[str, str]]:
    """Commands (with a description) that start with ``text``: every legal move the screen
    offers now, then ``go`` when an out-of-turn chance may be let go, then ``offers`` (the
    host's ``start``, ``approve N``... while the table fills), then the meta commands, and
    ``say`` where there is someone to talk to (``talk``)."""
    prefix = " ".join(text.lower().split())
    if text.endswith(" ") and prefix:
        prefix += " "
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    candidates = [screen.command_for(m, view) for m in legal]
    if can_decline:
        candidates.append(("go", _("let it go, play goes on")))
    candidates.extend(offers)
    candidates.extend((command, _(what)) for command, what in META_COMMANDS.items())
    if talk:
        candidates.append((TALK + " ", _("say something to the table")))
    for command, meta in candidates:
        if command and command.startswith(prefix) and command not in seen:
            seen.add(command)
            out.append((command, meta))
    return out

"""The prompt-toolkit part: a prompt under a printed table, completed from the legal moves.

Small factories (style, completer, key bindings, prompt message, toolbar) and one loop,
``run``, that drives any ``TableSession``. The logic lives in ``commands`` and ``render``.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Mapping

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.shortcuts import print_formatted_text
from prompt_toolkit.styles import Style

from lanparty.games import rules_text
from lanparty.session import TableSession
from protocol.contract import IllegalMove, Plain

from . import render
from .commands import ParseError, completions, humanize, parse

__all__ = ["make_completer", "make_key_bindings", "make_style", "run"]

HELP = """Commands (Tab completes; the number is the card's place in your hand):
  play N            play card N, e.g. play 3
  play N COLOUR     play a wild and name the colour, e.g. play 5 red
  draw / pass       draw a card / keep the drawn card and end your turn
  accept            take the cards (or the skip) aimed at you
  challenge         challenge a Wild Draw Four aimed at you
  colour COLOUR     name the colour when a round starts on a wild
  kato / catch      call KaTO with one card left / catch a player who did not
  go (or Enter)     let an out-of-turn chance go and play on
  rules / help / quit"""


def make_style() -> Style:
    """Colours for cards, the turn marker and the log (16-colour names: any terminal)."""
    return Style.from_dict(
        {
            "card.r": "bold #ffffff bg:ansired",
            "card.y": "bold #000000 bg:ansiyellow",
            "card.g": "bold #000000 bg:ansigreen",
            "card.b": "bold #ffffff bg:ansiblue",
            "card.w": "bold #ffffff bg:ansimagenta",
            "drawn": "underline",
            "index": "ansicyan",
            "title": "bold",
            "turn": "bold ansicyan",
            "kato": "bold ansimagenta",
            "warn": "bold ansired",
            "dim": "ansigray",
            "log": "",
            "log.you": "ansicyan",
            "log.round": "bold ansiyellow",
            "error": "bold ansired",
            "prompt": "bold",
            "bottom-toolbar": "noreverse ansigray",
        }
    )


class MoveCompleter(Completer):
    """Completes the whole line from ``commands.completions`` over the session's legal moves."""

    def __init__(self, session: TableSession) -> None:
        self.session = session

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """Every command starting with the text before the cursor."""
        text = document.text_before_cursor
        s = self.session
        for command, meta in completions(text, s.view(), s.legal_moves(), s.can_decline()):
            yield Completion(command, start_position=-len(text), display_meta=meta or None)


def make_completer(session: TableSession) -> Completer:
    """The legal-move completer for ``session``."""
    return MoveCompleter(session)


def make_key_bindings() -> KeyBindings:
    """Ctrl-C and Ctrl-D leave the game at once (even with text typed)."""
    kb = KeyBindings()

    @kb.add("c-d")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit(exception=EOFError)

    return kb


def prompt_message(view: Mapping[str, Plain], can_decline: bool) -> FormattedText:
    """The prompt says what is asked of the player now."""
    if can_decline:
        text = "kato/catch now, or Enter to play on> "
    elif view.get("phase") == "name-colour":
        text = "name a colour> "
    elif view.get("phase") == "verdict":
        text = "announce the verdict> "
    elif view.get("phase") == "drawn":
        text = "play the drawn card or pass> "
    elif isinstance(view.get("pending"), dict):
        text = "answer or accept> "
    else:
        text = "your move> "
    return FormattedText([("class:prompt", text)])


def make_toolbar() -> Callable[[], FormattedText]:
    """The bottom line: how to get help."""
    return lambda: FormattedText([("class:bottom-toolbar", " Tab: moves · help · rules · quit")])


def run(session: TableSession) -> int:
    """Play ``session`` at the terminal until the game ends or the player leaves; 0 always
    (leaving is not an error). ``IllegalMove`` and typing mistakes are shown, never raised."""
    style = make_style()

    def show(fragments: render.Fragments) -> None:
        print_formatted_text(FormattedText(fragments), style=style, end="")

    prompt: PromptSession[str] = PromptSession(
        completer=make_completer(session),
        complete_while_typing=True,
        key_bindings=make_key_bindings(),
        bottom_toolbar=make_toolbar(),
        style=style,
        reserve_space_for_menu=4,
    )
    shown: dict[str, Plain] | None = None
    show(
        [("class:title", f"lanparty · {session.game_name}"), ("", "  (type help; Tab completes)\n")]
    )
    while True:
        session.advance()
        for line in session.take_log():
            show(render.log_line(line))
        view = session.view()
        if session.over():
            show([("", "\n")])
            show(render.final_scores(view, session.names))
            return 0
        width = max(shutil.get_terminal_size((80, 24)).columns - 1, 20)
        if view != shown:
            show([("", "\n")])
            show(render.table(view, session.names, width))
            show(render.hand_lines(view, width))
            shown = view
        can_decline = session.can_decline()
        try:
            text = prompt.prompt(prompt_message(view, can_decline))
        except (KeyboardInterrupt, EOFError):
            show([("class:dim", "Bye.\n")])
            return 0
        try:
            action = parse(text, view, can_decline)
        except ParseError as exc:
            show([("class:error", f"{exc}\n")])
            continue
        if action.kind == "quit":
            show([("class:dim", "Bye.\n")])
            return 0
        if action.kind == "help":
            show([("", HELP + "\n")])
        elif action.kind == "rules":
            show([("", rules_text(session.game_name) + "\n")])
            shown = None  # the rules scrolled the table away
        elif action.kind == "go":
            session.decline()
        elif action.kind == "move" and action.move is not None:
            try:
                session.submit(action.move)
            except IllegalMove as exc:
                show([("class:error", f"Not allowed: {humanize(exc.reason)}\n")])

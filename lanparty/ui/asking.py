"""One question on the terminal, outside any table screen: a line typed with the usual
editing keys (prompt-toolkit), Ctrl-D or an empty line for no answer."""

from __future__ import annotations

from prompt_toolkit import PromptSession
from prompt_toolkit.formatted_text import FormattedText

from lanparty.text import printable

from .app import make_style

__all__ = ["ask_line"]


def ask_line(question: str) -> str | None:
    """The line typed after ``question`` (stripped), or ``None`` for none (empty, Ctrl-D).
    Raises ``KeyboardInterrupt`` on Ctrl-C."""
    session: PromptSession[str] = PromptSession(style=make_style())
    try:
        text = session.prompt(FormattedText([("class:prompt", printable(question))]))
    except EOFError:
        return None
    return text.strip() or None

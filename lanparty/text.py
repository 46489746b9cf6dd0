"""Text from other peers, made safe for a terminal.

Names, table names, words, lines of talk and reasons come from other machines. The protocol
already refuses unprintable player names, and the games' rules refuse words no peer can
compare, but a reason in a refusal or a halt, a table name heard over mDNS, a line of talk
or an error message quoting a peer's bytes could carry control characters: a terminal would
obey them (clear the screen, move the cursor, retitle the window, colour what follows).
Format characters are no better: a bidi override (U+202E) turns the text after it around, a
zero-width space hides in a name. Everything we print that a peer could have chosen goes
through :func:`printable` first, and every region of the table's screen and every line of
its story goes through it once more as it is drawn (:func:`safe_fragments`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["printable", "printable_lines", "safe_fragments"]


def printable(text: str) -> str:
    """``text`` with every unprintable character (controls, escapes, line breaks) shown as a
    Python escape such as ``\\x1b``; printable text is returned unchanged."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def printable_lines(text: str) -> str:
    """``text`` with each of its lines :func:`printable`, the line breaks (``\\n``) kept."""
    if text.isprintable():
        return text
    return "\n".join(printable(line) for line in text.split("\n"))


def safe_fragments(fragments: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Styled text (prompt-toolkit's ``(style, text)`` pairs) with every text
    :func:`printable_lines`: what a screen region shows can steer no terminal, whoever chose
    a word of it."""
    return [(style, printable_lines(text)) for style, text in fragments]

"""Text from other peers, made safe for a terminal.

Names, table names and reasons come from other machines. The protocol already refuses
unprintable player names, but a reason in a refusal or a halt, a table name heard over mDNS
or an error message quoting a peer's bytes could carry control characters: a terminal would
obey them (clear the screen, move the cursor, retitle the window). Everything we print that a
peer could have chosen goes through :func:`printable` first.
"""

from __future__ import annotations

__all__ = ["printable"]


def printable(text: str) -> str:
    """``text`` with every unprintable character (controls, escapes, line breaks) shown as a
    Python escape such as ``\\x1b``; printable text is returned unchanged."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)

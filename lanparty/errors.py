"""The one-line failure of a command that uses the network or a file."""

from __future__ import annotations

__all__ = ["NetError"]


class NetError(Exception):
    """A failure worth one line to the user (no traceback)."""

"""argparse's own words (``usage:``, ``options``, ``the following arguments are required``…)
in the reader's language, from our catalogue.

argparse translates its messages with the module-level ``_`` and ``ngettext`` it imports
from :mod:`gettext` (the ``.mo`` files of the default domain, chosen by the environment:
neither our ``.po`` catalogues nor ``--lang``). :func:`in_language` points those two names
at :mod:`lanparty.i18n` while the block runs (a parser is built, or parses and prints its
help), and puts argparse's own back after it, so no other parser in the process (pytest's,
say) is touched. argparse reads the names when it needs a message, so the swap is seen at
once. The program is single-threaded where it parses its command line.

argparse's msgids are listed in :data:`MESSAGES` so that extraction puts them in our
catalogue; a translation keeps their ``%s``/``%(name)s`` placeholders.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from lanparty import i18n
from lanparty.i18n import N_

__all__ = ["MESSAGES", "in_language"]

MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""argparse's messages a person can meet with our parsers (those about a parser built
wrongly are for us and stay English)."""


def _gettext(message: str | None) -> str | None:
    """argparse's ``_``: ``message`` from our catalogue (argparse passes ``None`` for a
    missing description, given back as is)."""
    return i18n._(message) if message else message


@contextmanager
def in_language() -> Iterator[None]:
    """argparse reads its words from our catalogue, in the current language, while the
    block runs; its own ``_``/``ngettext`` are back after it (nested blocks are fine)."""
    saved = argparse.__dict__["_"], argparse.__dict__["ngettext"]
    setattr(argparse, "_", _gettext)  # noqa: B010 (argparse's stub does not declare it)
    setattr(argparse, "ngettext", i18n.ngettext)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010

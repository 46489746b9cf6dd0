"""The language a person reads: gettext catalogues, chosen at start and switchable at run time.

Only what is displayed is translated: moves, logs sent to peers and transcripts stay
language-neutral, so players reading different languages sit at the same table.

The language comes from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` then ``LANG`` (the first one
set, as gettext does; ``pl_PL.UTF-8`` → ``pl``), overridden by ``--lang`` and the lobby's
``lang`` command. A language without a catalogue falls back to English, silently.

The catalogues are the ``.po`` files themselves (``lanparty/locale/<lang>/LC_MESSAGES/
lanparty.po``), read at run time with Babel and turned into a ``gettext.GNUTranslations`` in
memory. Why not ``.mo`` files compiled at packaging time: a setuptools build hook is fragile
(editable installs skip it, a forgotten compile ships stale text), while reading the ``.po``
needs only Babel, a small, well-kept pure-Python runtime dependency; the program works right
after ``pip install -e .`` and an edited ``.po`` is seen at the next start.

Messages are marked with ``_()``, ``ngettext()``, ``pgettext()`` and, where a string is
translated later than it is written (a module-level table), ``N_()``. Extraction::

    pybabel extract -F babel.cfg -o lanparty/locale/lanparty.pot .
    pybabel update -i lanparty/locale/lanparty.pot -d lanparty/locale -D lanparty
    pybabel init -i lanparty/locale/lanparty.pot -d lanparty/locale -D lanparty -l xx  # new
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from importlib import resources

__all__ = ["DOMAIN", "LANGUAGES", "N_", "_", "catalogue", "detect", "in_language", "known",
           "language", "long_date", "ngettext", "pgettext", "set_language"]  # fmt: skip

DOMAIN = "lanparty"
LANGUAGES = ("en", "pl", "es")
"""The languages with a catalogue; English is the source language (its msgstr are empty)."""

_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def _code(value: str) -> str:
    """``"pl_PL.UTF-8"`` → ``"pl"``; ``"es-ES"`` → ``"es"``; ``"C"`` → ``"c"``."""
    return value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].strip().lower()


def normalize(value: str | None) -> str:
    """The catalogue for a language name as a person or the environment writes it
    (``"pl_PL.UTF-8"``, ``"ES"``, ``"pl:en"``); English for anything unknown."""
    for part in (value or "").split(":"):
        code = _code(part)
        if code in LANGUAGES:
            return code
    return "en"


def known(value: str) -> bool:
    """Whether ``value`` names a language with a catalogue (``"pl_PL.UTF-8"`` does)."""
    return any(_code(part) in LANGUAGES for part in value.split(":"))


def detect(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: the first of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set; English when none names a known language."""
    env = os.environ if environ is None else environ
    for var in _ENV:
        if env.get(var):
            return normalize(env[var])
    return "en"


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` read from its ``.po`` (English: the messages as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    path = resources.files("lanparty").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


_state: dict[str, str] = {"lang": detect()}


def set_language(value: str | None) -> str:
    """Read from now on in ``value`` (a name as :func:`normalize` takes it; ``None``: from
    the environment); returns the language chosen, English when ``value`` is unknown."""
    lang = detect() if value is None else normalize(value)
    _state["lang"] = lang
    return lang


def language() -> str:
    """The language messages are shown in now."""
    return _state["lang"]


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations(_state["lang"]).gettext(message)


def catalogue(lang: str | None = None) -> gettext.NullTranslations:
    """The translations of ``lang`` (a name as :func:`normalize` takes it; ``None``: the
    current language), for text told in one language whatever the current one (English, for
    scripts: ``catalogue("en").gettext(m)`` is ``m``)."""
    return _translations(_state["lang"] if lang is None else normalize(lang))


def in_language(lang: str, message: str) -> str:
    """``message`` in ``lang``, whatever the current language."""
    return catalogue(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language (Polish has
    three: 1 karta, 2 karty, 5 kart)."""
    return _translations(_state["lang"]).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English words in
    another ``context`` (``"you"``: narration in the second person)."""
    return _translations(_state["lang"]).pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 (the gettext convention)
    """Mark ``message`` for extraction only; it is translated where it is shown."""
    return message


#: The locale whose long dates each language reads ("1 December 2026", not "December 1").
_DATE_LOCALES = {"en": "en_GB"}


def long_date(iso: str) -> str:
    """The date ``iso`` (``"2026-12-01"``) written out in the current language: "1 December
    2026", "1 grudnia 2026", "1 de diciembre de 2026"; ``iso`` itself if it is no date.
    Never raises."""
    import datetime

    from babel.dates import format_date

    try:
        day = datetime.date.fromisoformat(iso)
    except ValueError:
        return iso
    lang = _state["lang"]
    return str(format_date(day, "long", locale=_DATE_LOCALES.get(lang, lang)))

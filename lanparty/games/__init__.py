"""The games: pure, deterministic rules engines behind ``protocol.contract.Game``.

Each game registers one plugin (:mod:`lanparty.games.plugin`) in the ``lanparty.games`` entry
points; ``GAMES`` is every registered engine by name (generic tests and the simulator iterate
it). Each game's rules text (what ``lanparty rules NAME`` shows) is ``rules_text(NAME)``, in
English or, from ``rules/<lang>/NAME.md``, in Polish (``pl``) or Spanish (``es``).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from protocol.contract import Game, OptionSpec, Plain, Seat

if TYPE_CHECKING:  # importing an engine imports no words: narration is the app's
    from .narration import GameNarrator
from .plugin import GamePlugin, load_plugins

PLUGINS: dict[str, GamePlugin] = load_plugins()
"""Every registered game's plugin, by name."""

GAMES: dict[str, Game[Any]] = {name: p.game for name, p in PLUGINS.items()}
"""Every playable game's engine, by name."""

DEFAULT_GAME = "kato" if "kato" in GAMES else min(GAMES)
"""The game a command plays when none is named (``lanparty bench``, examples in help)."""


def get_game(name: str) -> Game[Any]:
    """The game called ``name``; ``KeyError`` lists the known names."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None


RULES_LANGUAGES = ("en", "pl", "es")
"""The languages the rules texts are written in; any other falls back to English."""

# What the generated options section says around each option, by language. The options' own
# help strings are the game's, in English, translated from the catalogue.
_OPTION_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "heading": "## Table options",
        "intro": "Set when the table is opened, e.g. `lanparty play {name} --option NAME=VALUE`.",
        "default": "default",
        "range": "{low} to {high}",
        "minimum": "at least {low}",
        "any": "any",
    },
    "pl": {
        "heading": "## Opcje stołu",
        "intro": "Ustawia się je przy otwieraniu stołu, np. "
        "`lanparty play {name} --option NAZWA=WARTOŚĆ`.",
        "default": "domyślnie",
        "range": "od {low} do {high}",
        "minimum": "co najmniej {low}",
        "any": "dowolna",
    },
    "es": {
        "heading": "## Opciones de la mesa",
        "intro": "Se fijan al abrir la mesa, p. ej. `lanparty play {name} --option NOMBRE=VALOR`.",
        "default": "por defecto",
        "range": "de {low} a {high}",
        "minimum": "al menos {low}",
        "any": "cualquiera",
    },
}


def rules_language(lang: str | None) -> str:
    """The rules language for ``lang`` ("pl", "pl_PL.UTF-8", "es-ES", ...): its first part
    if the rules are written in it, else ``"en"``."""
    code = re.split(r"[_.@-]", lang or "", maxsplit=1)[0].lower()
    return code if code in RULES_LANGUAGES else "en"


def rules_text(name: str, lang: str = "en") -> str:
    """The rules of ``name`` in the project's own words (Markdown) in ``lang`` (English when
    that language or its file is missing), ending with every table option and its default,
    listed from the game's ``option_specs`` (so they cannot drift)."""
    game = get_game(name)
    rules = resources.files(__name__).joinpath("rules")
    code = rules_language(lang)
    localized = rules.joinpath(code, f"{name}.md")
    if code == "en" or not localized.is_file():
        code, localized = "en", rules.joinpath(f"{name}.md")
    text = localized.read_text("utf-8")
    return f"{text.rstrip()}\n\n{options_text(name, game.option_specs, code)}"


NIGHT = "night"
"""The rules page that is no game: how a night of games is scored (``lanparty rules night``)."""


def night_rules(lang: str = "en") -> str:
    """How a night of games is scored, in ``lang`` (English when not written in it)."""
    rules = resources.files(__name__).joinpath("rules")
    code = rules_language(lang)
    localized = rules.joinpath(code, f"{NIGHT}.md")
    if code == "en" or not localized.is_file():
        localized = rules.joinpath(f"{NIGHT}.md")
    return localized.read_text("utf-8")


def narrator_for(
    game: str, seat: Seat | None, names: Sequence[str], state: Callable[[], Any]
) -> GameNarrator:
    """The narrator of ``game`` (from its plugin) for ``seat`` (``None``: for no seat, as a
    spectator or a replay tells it); ``state`` gives the seat's own copy of the game state,
    for what a game's narrator may read of it (public handles). Raises ``KeyError`` for a
    game that is not registered."""
    return PLUGINS[game].narrator(seat, tuple(names), state)


def with_reader_language(name: str, given: Mapping[str, Plain]) -> dict[str, Plain]:
    """``given`` with the game's writing-language option (its plugin's
    ``language_option``) set to the reader's language when it is not given and the game
    offers that language: a table opened here writes in its host's language by default. The
    engine itself defaults to its option's declared default (it reads no language)."""
    from lanparty.i18n import language

    out = dict(given)
    option = PLUGINS[name].language_option
    if option is None or option in out:
        return out
    for spec in get_game(name).option_specs:
        if spec.name == option and language() in spec.choices:
            out[option] = language()
    return out


def rules_for_reader(name: str) -> str:
    """What ``lanparty rules NAME`` and the table's ``rules`` show: :func:`rules_text` in the
    reader's language now (English where the rules are not written in it)."""
    from lanparty.i18n import language

    return night_rules(language()) if name == NIGHT else rules_text(name, language())


def options_text(name: str, specs: Sequence[OptionSpec], lang: str = "en") -> str:
    """A Markdown section listing ``specs``: name, default, allowed values and help; its
    heading, wording and help strings in ``lang`` (the help from the catalogue: see
    :mod:`.optionwords`)."""
    from lanparty.i18n import in_language

    code = rules_language(lang)
    words = _OPTION_WORDS[code]
    lines = [words["heading"], words["intro"].format(name=name)]
    for spec in specs:
        if spec.choices:
            allowed = ", ".join(_typed(c) for c in spec.choices)
        elif spec.minimum is not None and spec.maximum is not None:
            allowed = words["range"].format(low=spec.minimum, high=spec.maximum)
        elif spec.minimum is not None:
            allowed = words["minimum"].format(low=spec.minimum)
        else:
            allowed = words["any"]
        default = words["default"]
        said = spec.help if code == "en" else in_language(code, spec.help)
        line = f"- `{spec.name}` ({default} `{_typed(spec.default)}`; {allowed}): {said}"
        lines += textwrap.wrap(line, 92, subsequent_indent="  ", break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def _typed(value: bool | int | str) -> str:
    """An option value as it is typed after ``--option NAME=``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


__all__ = [
    "GAMES",
    "NIGHT",
    "RULES_LANGUAGES",
    "get_game",
    "narrator_for",
    "night_rules",
    "options_text",
    "rules_for_reader",
    "rules_language",
    "rules_text",
    "with_reader_language",
]

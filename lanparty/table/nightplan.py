"""What the host of a night chooses next, as typed: ``again`` (the same game with the same
options), ``next GAME [OPTION=VALUE ...]`` at the end screen, or an item of ``--then``
(``again``, ``GAME``, ``GAME:OPTION=VALUE[:OPTION=VALUE...]``), read against the games and
their options exactly as ``--option`` is (:func:`typed_options`).

Pure: no table, no network.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanparty.games import GAMES, get_game, with_reader_language
from lanparty.games.optionwords import refusal
from lanparty.i18n import _
from protocol.contract import OptionError, Plain

__all__ = [
    "NightGame",
    "option_value",
    "read_choice",
    "read_then",
    "seats_for",
    "then_choice",
    "typed_options",
]


@dataclass(frozen=True, slots=True)
class NightGame:
    """A game of the night: its name and its complete options."""

    game: str
    options: dict[str, Plain]


def option_value(text: str) -> Plain:
    """An option value as typed: ``true``/``false`` → bool, digits → int, else the text."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def typed_options(game: str, items: Sequence[str]) -> dict[str, Plain]:
    """``KEY=VALUE`` items validated by ``game`` (the writing language the reader's unless
    given). Raises ``ValueError`` with the reason in the reader's words."""
    given: dict[str, Plain] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(_("an option is KEY=VALUE, got {item}").format(item=repr(item)))
        given[key.strip()] = option_value(value.strip())
    try:
        return get_game(game).validate_options(with_reader_language(game, given))
    except OptionError as exc:
        raise ValueError(refusal(exc)) from None


def _game(name: str) -> str:
    """``name`` if it is a game; raises ``ValueError`` naming the known ones."""
    if name not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise ValueError(_("unknown game {name}; known: {known}").format(name=repr(name),
                                                                        known=known))  # fmt: skip
    return name


def read_choice(text: str, last: NightGame) -> NightGame:
    """The game the host asks for at the end screen: ``again`` (``last`` once more) or
    ``next GAME [OPTION=VALUE ...]``. Raises ``ValueError`` saying what is wrong."""
    words = text.split()
    head = words[0].lower() if words else ""
    if head == "again" and len(words) == 1:
        return last
    if head == "next" and len(words) >= 2:
        game = _game(words[1].lower())
        return NightGame(game, typed_options(game, words[2:]))
    raise ValueError(_("again, or next GAME [OPTION=VALUE ...]"))


def read_then(text: str) -> list[str]:
    """The items of ``--then`` (comma-separated, each ``again``, ``GAME`` or
    ``GAME:OPTION=VALUE[:...]``), each checked; raises ``ValueError`` for a bad one."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    for item in items:
        if item.lower() != "again":
            game, *options = item.split(":")
            typed_options(_game(game.strip().lower()), [o.strip() for o in options])
    return items


def then_choice(item: str, last: NightGame) -> NightGame:
    """The game an item of ``--then`` (checked by :func:`read_then`) stands for."""
    if item.lower() == "again":
        return last
    game, *options = item.split(":")
    name = _game(game.strip().lower())
    return NightGame(name, typed_options(name, [o.strip() for o in options]))


def seats_for(game: str, players: int, options: dict[str, Plain], spare: int = 0) -> int:
    """The seats of the next table for ``players`` still at the table (the host included):
    as many as the game takes; with ``spare`` (spectators who may take a free seat), up to
    that many more, as far as the game and its options take them. Raises ``ValueError`` if
    the game cannot seat the players (too few, or its options do not fit that many)."""
    g = get_game(game)
    if players < g.min_seats:
        raise ValueError(_("{game} needs at least {n} players; {m} are at the table").format(
            game=game, n=g.min_seats, m=players))  # fmt: skip
    seats = min(players, g.max_seats)
    try:
        g.setup(seats, options)
    except OptionError as exc:
        raise ValueError(refusal(exc)) from None
    for more in range(min(players + spare, g.max_seats), seats, -1):
        try:
            g.setup(more, options)
        except OptionError:
            continue  # too many for these options: fewer free seats
        return more
    return seats

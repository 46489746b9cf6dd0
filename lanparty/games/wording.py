"""Small pieces of wording that several games share: a list of names joined with "and", the
end of a game told to one seat, and an engine's English reason read back against English
templates so that the screen can show it in the reader's language (as KaTO's
:mod:`lanparty.games.kato.refusals` does).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache

from lanparty.i18n import _, pgettext

__all__ = ["and_list", "game_over", "read_back", "template_pattern", "turn_of", "won_line"]

_FIELD = re.compile(r"\{(\w+)\}")


def and_list(words: Sequence[str]) -> str:
    """``["Ann", "Bea", "Carl"]`` → ``"Ann, Bea and Carl"`` in the reader's language."""
    if len(words) < 2:
        return words[0] if words else ""
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def game_over(winners: Sequence[int], me: int, names: Sequence[str]) -> str:
    """``"Game over: you win!"``, ``"Game over: Bea wins!"``, ``"Game over: you and Bea
    win!"``, ``"Game over: Ann and you win!"`` (the winners in seat order)."""
    if len(winners) == 1:
        if winners[0] == me:
            return _("Game over: you win!")
        return _("Game over: {name} wins!").format(name=names[winners[0]])
    if me not in winners:
        return _("Game over: {names} win!").format(names=_(" and ").join(names[s] for s in winners))
    others = _(" and ").join(names[s] for s in winners if s != me)
    if winners[0] == me:
        return _("Game over: you and {names} win!").format(names=others)
    return _("Game over: {names} and you win!").format(names=others)


def won_line(winners: Sequence[int], me: int | None, names: Sequence[str]) -> str:
    """Who won, as a final table says it: ``"You win the game!"``, ``"Bea wins the game!"``,
    ``"You and Bea win the game!"``, ``"Ann and you win the game!"``."""
    others = [names[s] for s in winners if s != me]
    joined = _(" and ").join(others)
    if me in winners and not others:
        return _("You win the game!")
    if me in winners and winners[0] == me:
        return _("You and {names} win the game!").format(names=joined)
    if me in winners:
        return _("{names} and you win the game!").format(names=joined)
    if len(others) == 1:
        return _("{name} wins the game!").format(name=others[0])
    return _("{names} win the game!").format(names=joined)


def turn_of(current: int, me: int | None, names: Sequence[str]) -> str:
    """Whose turn it is, for a header: ``"your turn"`` or ``"Bea to play"``."""
    if current == me:
        return pgettext("header", "your turn")
    return pgettext("header", "{name} to play").format(name=names[current])


@cache
def template_pattern(
    template: str, shapes: tuple[tuple[str, str], ...] = ()
) -> re.Pattern[str]:
    """``template`` as a regular expression, one named group a field (``shapes``: the
    expression a field must match, by its name; any text otherwise)."""
    known = dict(shapes)
    out, seen, at = [], set(), 0
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at : m.start()]))
        name = m.group(1)
        shape = known.get(name, ".+?")
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>{shape})")
        seen.add(name)
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out) + r"\Z", re.DOTALL)


def read_back(
    reason: str,
    templates: Sequence[str],
    word: Callable[[str, str], str | None],
    shapes: Mapping[str, str] | None = None,
    say: Callable[[str, dict[str, str]], str] | None = None,
) -> str | None:
    """``reason`` in the reader's language: the first of ``templates`` (English msgids) it
    reads as, translated and filled with its fields, each given by ``word(field, value)``
    (``None``: this template does not fit); ``None`` if no template fits all through.
    ``shapes`` gives the regular expression some fields must match (where two fields meet
    with no words between them); ``say(template, values)`` writes the line (by default the
    template translated, then filled: a game with plural templates gives its own)."""
    given = tuple(sorted((shapes or {}).items()))
    for template in templates:
        m = template_pattern(template, given).match(reason)
        if m is None:
            continue
        values: dict[str, str] = {}
        for field, value in m.groupdict().items():
            said = word(field, value)
            if said is None:
                break
            values[field] = said
        else:
            return say(template, values) if say is not None else _(template).format(**values)
    return None

"""The table options in the reader's language: each option's help (what ``lanparty rules``
lists) and the games' refusals of a bad option or seat count.

The games write both in English (:class:`~protocol.contract.OptionSpec` ``help``, the reason
of an :class:`~protocol.contract.OptionError`; a host and its peers read the same words), and
option names and values are the protocol's, never translated. Here the help strings are
marked for the catalogue (:data:`HELP`: each game's words exactly; a test checks that every
game's option has its entry), and a refusal is read back against English patterns
(:data:`REASONS`) and told in the reader's words; one that reads as none is shown as the game
gave it.
"""

from __future__ import annotations

from lanparty.games.wording import template_pattern
from lanparty.i18n import N_, _, pgettext
from protocol.contract import OptionError

__all__ = ["HELP", "REASONS", "option_help", "refusal"]

HELP = (
    # kato
    N_("cards dealt to each player"),
    N_("traffic-cone wild cards added to the deck"),
    N_("what a cone does"),
    N_("who starts round 1: joint coin or the seat after the host"),
    N_("a drawn card that matches may be played at once"),
    N_("play several number cards of one number at once"),
    N_("what may be put on a Draw Two or Wild Draw Four aimed at you"),
    N_("points that win the game"),
    N_("play exactly this many rounds (0: play to the target)"),
    # unicorns
    N_("who holds the first-player token on day 1: joint coin, or the host"),
    N_("how characters are given out: each player chooses one in turn from the first "
       "player, or a joint coin deals them"),
    N_("characters use their powers (once per day each)"),
    N_("the scheme discarded each morning goes face down, so nobody else ever learns it; "
       "played hunt cards are not shown (they can still be worked out from what everyone "
       "holds)"),
    N_("simpler game: no_schemes (no scheme cards, no Princess or Shaman power), "
       "no_schemes_no_powers (no scheme cards, no powers)"),
    # unanimo
    N_("subject cards played (one round each)"),
    N_("seconds to write (0: no limit); with a timer too, the leader may close the writing "
       "once half the table has handed in"),
    N_("the table's writing language: the subject is read and words are written and "
       "compared in it (default: the host's language)"),
    N_("words match whatever their accents (żaba = zaba)"),
    N_("how words are matched (fixed by the program: a table made with another version is "
       "refused)"),
    # unikato
    N_("who starts round 1: a joint coin of all players, or the host"),
    N_("rounds to play; each tile left in a hand at a round's end scores -1"),
)  # fmt: skip
"""Every game's option help, as the game writes it (the msgids)."""

REASONS = (
    N_("unknown option for {game}"),
    N_("must be one of {allowed}, got {value}"),
    N_("must be at least {low}, got {value}"),
    N_("must be at most {high}, got {value}"),
    N_("{game} needs {low} to {high} players, got {value}"),
    N_("{n} cards for {seats} players do not fit in the deck"),
    N_("initiation no_schemes_no_powers has no powers"),
    N_("this table matches words with normalisation {norm}; this program has {mine}"),
    N_("must be {kind}, got {value}"),  # last: "{kind}" would read "one of …" too
)
"""Every reason a game gives for refusing an option, as English patterns (the msgids)."""


def option_help(text: str) -> str:
    """An option's help (its spec's ``help``) in the current language."""
    return _(text)


def _kind(name: str) -> str:
    """A Python type's name as an option's kind of value, in the reader's words."""
    kinds = {"int": pgettext("option value", "a whole number"),
             "bool": pgettext("option value", "true or false"),
             "str": pgettext("option value", "a word")}  # fmt: skip
    return kinds.get(name, name)


def reason(text: str) -> str:
    """A refusal's reason (``OptionError.reason``) in the current language; as it is if it
    reads as none of :data:`REASONS`."""
    for template in REASONS:
        m = template_pattern(template).match(text)
        if m is not None:
            values = m.groupdict()
            if "kind" in values:
                values["kind"] = _kind(values["kind"])
            return _(template).format(**values)
    return text


def refusal(exc: OptionError) -> str:
    """``option 'NAME': reason`` in the current language (the name as the game gave it)."""
    return _("option {option}: {reason}").format(option=repr(exc.option), reason=reason(exc.reason))

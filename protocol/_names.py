"""Names that look alike, judged by Unicode's own security data (UTS #39) through ICU.

A stranger who sits down as "Ηosty" (a Greek capital Eta) or "ꓐob" (a Lisu letter) next to a
seated "Hosty" or "Bob" looks like that player on every screen. The table refuses such a join
just as it refuses a second "hosty", by three rules that every peer applies to every name
(:func:`name_problem` for the first two, :func:`looks_alike` for the third):

1. **Letters in common use.** Every letter and combining mark must be in UTS #39's General
   Security Profile (ICU's recommended and inclusion sets): IPA small capitals (``ʙ``),
   fullwidth and mathematical letters, and scripts of limited or historic use (Lisu,
   Cherokee, Coptic…) are refused outright. Digits, spaces, punctuation and emoji are free.
2. **One script, or a usual mix.** The name must meet UTS #39's *moderately restrictive* level
   (§5.2): Latin with Cyrillic or Greek (``Воb``) is refused, Japanese (Han with kana) or
   Latin with Han is not; digits of two number systems are refused.
3. **No seated look-alike.** Two names look alike when one of three readings gives them the
   same UTS #39 skeleton (ICU's ``SpoofChecker.getSkeleton``, confusables.txt): the lowercase
   reading (NFKC_Casefold, skeleton, again until stable), the name as written, and the
   uppercase reading; combining marks and default-ignorable characters are dropped from
   every reading (``Zoë`` looks like ``Zoe``, ``Łukasz`` like ``Lukasz``: a mark is easy to
   miss at a glance; a refused player picks another name, while a seated impostor is taken
   for someone else all game). The three readings are needed because names compare without
   case: ``Ian`` as written reads ``lan``; ``B0b`` only lowercased reads ``bob``.

Every decision comes from one place, ICU's data (:data:`DATA_VERSION`): case folding,
normalisation and character classes are ICU's too, not Python's ``unicodedata`` (whose
version follows the Python release), so two peers with the same ICU reach the same verdict.
Case mappings use the root locale, never the machine's (a Turkish locale maps ``i`` to
``İ``).
"""

from __future__ import annotations

from typing import Any

import icu  # type: ignore[import-untyped]  # PyICU ships no type information

__all__ = ["DATA_VERSION", "looks_alike", "name_problem", "readings", "skeleton"]

#: What decides every verdict: the Unicode data of the ICU that PyICU was built against.
DATA_VERSION = f"Unicode {icu.UNICODE_VERSION} (ICU {icu.ICU_VERSION})"

_SPOOF = icu.SpoofChecker()
_SPOOF.setChecks(icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.MIXED_NUMBERS)
_SPOOF.setRestrictionLevel(icu.URestrictionLevel.MODERATELY_RESTRICTIVE)
_MIXED_SCRIPTS = int(icu.USpoofChecks.RESTRICTION_LEVEL)
_MIXED_NUMBERS = int(icu.USpoofChecks.MIXED_NUMBERS)
_ANY_CASE = 0  # getSkeleton's type argument: USPOOF_ANY_CASE, the only one UTS #39 defines


def _frozen(pattern: str) -> Any:
    chars = icu.UnicodeSet(pattern)
    chars.freeze()  # frozen sets are safe to share between threads
    return chars


_PROFILE = icu.UnicodeSet()
_PROFILE.addAll(_SPOOF.getRecommendedUnicodeSet())
_PROFILE.addAll(_SPOOF.getInclusionUnicodeSet())
_PROFILE.freeze()
#: What rule 1 checks: letters and marks (digits, punctuation, symbols and spaces are free).
_LETTERS = _frozen("[[:L:][:M:]]")
#: What no reading keeps: marks, and characters that render as nothing.
_UNSEEN = _frozen("[[:M:][:Default_Ignorable_Code_Point:]]")
_SPACE = _frozen("[:White_Space:]")
_NFD = icu.Normalizer2.getNFDInstance()
_FOLD = icu.Normalizer2.getNFKCCasefoldInstance()
_ROOT = icu.Locale.getRoot()
#: A fold and a skeleton settle in one or two rounds; the bound only guards the loop.
_ROUNDS = 8


def _skel(text: str) -> str:
    return str(_SPOOF.getSkeleton(_ANY_CASE, text))


def _bare(text: str) -> str:
    """``text`` decomposed, without marks or invisible characters, its white space runs
    made one space and none at the ends."""
    out: list[str] = []
    space = False
    for c in str(_NFD.normalize(text)):
        if _SPACE.contains(c):
            space = bool(out)
        elif not _UNSEEN.contains(c):
            if space:
                out.append(" ")
            out.append(c)
            space = False
    return "".join(out)


def _lower(text: str) -> str:
    return _bare(str(_FOLD.normalize(text)))


def skeleton(name: str) -> str:
    """The lowercase reading of ``name``: equal for names such as ``"Ηosty"`` and ``"hosty"``,
    ``"B0b"`` and ``"bob"``, ``"ꓐob"`` and ``"Bob"``; a fixed point (``skeleton(skeleton(s))
    == skeleton(s)``). One key per name, for grouping; :func:`looks_alike` is the full test.
    Never raises."""
    text = _lower(name)
    for _ in range(_ROUNDS):
        nxt = _lower(_skel(text))
        if nxt == text:
            break
        text = nxt
    return text


def readings(name: str) -> tuple[str, str, str]:
    """The three readings :func:`looks_alike` compares, in a fixed order: lowercased
    (:func:`skeleton`), as written, uppercased. Two names look alike exactly when they agree
    in one place, so a reading, with its place, can key an index of names. Never raises."""
    upper = str(icu.UnicodeString(name).toUpper(_ROOT))
    return skeleton(name), _bare(_skel(name)), _bare(_skel(upper))


def looks_alike(one: str, other: str) -> bool:
    """Whether ``one`` and ``other`` read as the same name (rule 3): some reading gives both
    the same skeleton. Symmetric; true for names equal without case. Never raises."""
    return any(a == b for a, b in zip(readings(one), readings(other), strict=True))


def _scripts(name: str) -> str:
    seen: dict[str, None] = {}
    for c in name:
        if _LETTERS.contains(c):
            seen.setdefault(str(icu.Script.getScript(c).getName()).replace("_", " "))
    return ", ".join(seen)


def name_problem(name: str) -> str | None:
    """Why ``name`` may not sit at any table (rules 1 and 2), in the words of the table's
    refusal (``"the name 'ʙob' uses ʙ (U+0299), …"``), or None if it may. Never raises."""
    reason: str | None = None
    for c in name:
        if _LETTERS.contains(c) and not _PROFILE.contains(c):
            reason = (f"the name {name!r} uses {c} (U+{ord(c):04X}), which is not a letter in "
                      "common use in names")  # fmt: skip
            return reason
    found = int(_SPOOF.check(name))
    if found & _MIXED_SCRIPTS:
        reason = (f"the name {name!r} mixes letters of different scripts ({_scripts(name)}), "
                  "as only a look-alike would")  # fmt: skip
    elif found & _MIXED_NUMBERS:
        reason = f"the name {name!r} mixes digits of different number systems"
    return reason

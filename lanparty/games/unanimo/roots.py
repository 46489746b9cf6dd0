"""The same-root rule: a word that shares its root with the subject card is rejected.

A short, fixed rule (no dictionary), the same on every peer, applied in the table's writing
language ``L`` (``en``, ``pl`` or ``es``: the ``words`` option) against the subject's name in
that language only. Everything is compared with accents folded and in small letters (the
word's ``bare`` form, :mod:`.fold`).

**Parts.** The word and the subject's name are split at spaces, hyphens and apostrophes into
*parts*; the little words of :data:`LITTLE` (``de``, ``of``, ``the`` …) are dropped. Each
part of the word is compared with each part of the subject (``"sun cream"`` for Sun, ``"nieve"``
for Muñeco de nieve).

**Stems.** The *stems* of a part are the part itself and its *core*: the part without an
ending of ``L`` (:data:`ENDINGS`) that leaves at least 3 letters. In Polish and Spanish every
such ending gives a core (``gwiazdka`` → ``gwiazd``, ``gwiazdk``); in English only the longest
does, with a doubled last consonant halved (``swimming`` → ``swim``), ``-ies``/``-ied`` →
``y`` (``babies`` → ``baby``), and a dropped ``e`` restored after a vowel ending
(``dancing`` → ``danc``, ``dance``); a part with no ending is its own core.

A word part ``w`` and a subject part ``t`` **share a root** when (unless ``w`` is one of
``t``'s *false friends* in :data:`FALSE_FRIENDS`, ``L``'s common words that only look like
a short subject's compound or inflection: ``teacher`` for Tea, ``monkey`` for Key,
``koniec`` for Koń, ``lunes`` for Luna):

1. **the same stem**: a stem of ``w`` is a stem of ``t`` (``babies``/``baby``, ``cats``/``cat``,
   ``koty``/``kot``, ``estrellas``/``estrella``);
2. **a compound or derivation that begins with the subject**: ``w`` begins with a *head* of
   ``t`` and goes on with a *rest*. The heads of ``t`` are ``t`` itself and, in Polish and
   Spanish (whose words inflect inside), its stems (``zim`` of zima; English stems of 3
   letters are too short: ``tre`` of tree would catch ``tremble``). A head of 4 letters or
   more takes any rest of 3 letters or more, or a rest from ``L``'s derivations
   (:data:`DERIVATIONS`): ``sunshine``, ``teapot``, ``keyhole``, ``babysitter``, ``rainy``,
   ``deszczowy``, ``lluvioso``. A head of 3 letters or fewer is where a language's words
   begin by chance (``bab`` of babble, ``kon`` of koniec, ``pan`` of pantalla): in English it
   takes a rest of 3 letters or more (compounds: ``sunshine``) or a derivation (``sunny``), in
   Polish and Spanish only a derivation (``konik``, ``panadero``, ``tetera`` for Té);
3. **a compound that ends with the subject**: a core of ``w`` ends with a head of ``t``
   (3 letters or more) after at least 3 other letters: ``hotdogs``, ``bonfire``, ``girasol``
   (the core, so that ``climbed`` does not end with Bed);
4. **a part of a compound subject**: ``t`` begins or ends with a stem of ``w`` of 4 letters
   or more, and has at least 3 other letters: ``snow`` for Snowman, ``ball`` for Football,
   ``czar`` for Czarownica (not ``man`` for Snowman: 3 letters begin and end too many
   words).

A subject's root met only inside a word (``street`` for Tree) does not count. No such rule is
perfect: the table settles the rest, objecting to a word the rule let through and appealing
against a rejection it should not have made (:mod:`.rules`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

__all__ = [
    "DERIVATIONS",
    "ENDINGS",
    "FALSE_FRIENDS",
    "LITTLE",
    "RULE_LANGUAGES",
    "core",
    "parts",
    "same_root",
    "stem",
    "stems",
]


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


RULE_LANGUAGES: Final = ("en", "pl", "es")
"""The writing languages the rule knows (the ``words`` option's choices)."""

MIN_STEM: Final = 3
"""An ending is dropped only if it leaves at least this many letters."""
MIN_REST: Final = 3
"""The fewest other letters of a compound (``pot`` of teapot)."""
LONG_HEAD: Final = 4
"""A head this long or longer may start any compound."""

ENDINGS: Final[dict[str, tuple[str, ...]]] = {
    "en": ("ings", "ing", "iest", "ies", "ied", "ier", "ers", "est", "er", "ed", "es", "s"),
    "pl": ("owie", "ami", "ach", "iem", "iom", "ow", "om", "em", "ie", "ia", "iu",
           "ek", "ka", "ki", "ke", "ko", "ku", "a", "e", "i", "o", "u", "y"),
    "es": ("ecitos", "ecitas", "itos", "itas", "illos", "illas", "ecito", "ecita", "ito", "ita",
           "illo", "illa", "es", "as", "os", "a", "e", "o", "s"),
}  # fmt: skip
"""Inflections (and diminutives) a stem drops, by language, with accents folded."""

DERIVATIONS: Final[dict[str, frozenset[str]]] = {
    "en": _set("y ny ry ly ish ie let ling kin ful less ness hood ery"),
    "pl": _set("ek ik ka ki ko ny na ne ni nie owy owa owe owi owo ski ska skie arz nik nica "
               "eczek eczka iczek uszek estwo isko owisko alnia arnia"),
    "es": _set("ito ita itos itas illo illa ecito ecita cito cita ero era eros eras eria "
               "adero adera aderia tera teria eado eada ar al ado ada azo on ona udo uda oso "
               "osa ista ismo ante"),
}  # fmt: skip
"""Endings that derive a word from a short head (``sun`` + ``ny``), by language."""

LITTLE: Final[dict[str, frozenset[str]]] = {
    "en": _set("a an and of the"),
    "pl": _set("i w z na do od"),
    "es": _set("a de del el la las los y en"),
}
"""Little words of a name or word that are never compared."""


def _friends(table: dict[str, str]) -> dict[str, frozenset[str]]:
    return {head: _set(words) for head, words in table.items()}


FALSE_FRIENDS: Final[dict[str, dict[str, frozenset[str]]]] = {
    "en": _friends({
        "tea": "teacher teachers teaching teammate teammates teamwork teardrop teardrops "
               "tearful",
        "sun": "sunday sundays sundae sundaes",
        "cat": "category categories catalogue catalog cathedral caterpillar caterpillars "
               "catapult catastrophe cattle",
        "car": "carpet carpets cartoon cartoons cargo career careers careful caravan carbon "
               "cardboard cardigan carnival carriage carrot carrots caramel",
        "cow": "coward cowards moscow",
        "dog": "dogma",
        "hat": "hatred",
        "bee": "beetle beetles frisbee",
        "key": "monkey monkeys donkey donkeys turkey turkeys hockey jockey whiskey",
        "ice": "police office offices advice justice practice notice service device novice "
               "choice apprentice sacrifice",
        "lion": "million millions billion billions trillion stallion medallion rebellion "
                "dandelion dandelions pavilion scallion",
        "tent": "content intent",
        "rain": "terrain",
        "bed": "bedlam",
    }),
    "pl": _friends({
        "kon": "koniec konca koncert kontakt konkurs koniak konto kontrola konferencja "
               "kontynent konfitura konewka konwalia konstrukcja balkon",
        "kot": "kotlet kotlety kotara kotwica",
        "ser": "serce serial serwis serwetka",
        "las": "laska laski laser lasso",
        "lew": "lewy lewa lewe lewo",
        "krol": "krolik kroliki",
        "but": "butik butelka",
        "jez": "jezioro jezyna",
        "noc": "nocleg",
        "gora": "goracy goraca gorace",
    }),
    "es": _friends({
        "sol": "solo sola solos solas soldado soledad solitario solucion",
        "pan": "pantalon pantalones pantalla panal panda panico",
        "mono": "monopatin monopoly",
        "luna": "lunes",
        "oro": "tesoro",
        "te": "telefono tema",
    }),
}  # fmt: skip
"""For a short subject (by its part, accents folded), the common words that look like its
compound or inflection and are not: never rejected for it (the table may still object)."""


def _dropped(part: str, lang: str) -> tuple[str, ...]:
    """``part`` without each ending of ``lang`` that leaves 3 letters (English: only the
    longest), longest ending first."""
    out = []
    for ending in ENDINGS[lang]:
        if part.endswith(ending) and len(part) - len(ending) >= MIN_STEM:
            if lang == "en" and ending == "s" and part[-2] in "su":
                continue  # glass, circus: no plural ending
            out.append(part[: -len(ending)])
            if lang == "en":
                break
    return tuple(out)


@lru_cache(maxsize=8192)
def core(part: str, lang: str) -> frozenset[str]:
    """The stems of ``part`` (accents folded) in ``lang`` once an ending is dropped (the
    part itself if it has none): see the module's docstring."""
    bases = _dropped(part, lang)
    if not bases:
        return frozenset((part,))
    if lang != "en":
        return frozenset(bases)
    base = bases[0]
    ending = part[len(base) :]
    if ending in ("ies", "ied", "ier", "iest"):
        return frozenset((base + "y",))
    if len(base) > MIN_STEM and base[-1] == base[-2] and base[-1] not in "aeioulsz":
        return frozenset((base[:-1],))  # swimm -> swim, sunn -> sun
    if ending[0] in "ie":
        return frozenset((base, base + "e"))  # danc(ing) -> danc, dance
    return frozenset((base,))


def stems(part: str, lang: str) -> frozenset[str]:
    """The stems of ``part`` in ``lang``: the part itself and :func:`core`."""
    return core(part, lang) | {part}


def stem(part: str, lang: str = "en") -> str:
    """The shortest stem of ``part`` in ``lang``."""
    return min(stems(part, lang), key=lambda s: (len(s), s))


def parts(bare: str, lang: str = "en") -> tuple[str, ...]:
    """The parts of a folded word or name that the rule compares: split at spaces, hyphens
    and apostrophes, without ``lang``'s little words."""
    for joiner in "-'":
        bare = bare.replace(joiner, " ")
    little = LITTLE[lang]
    return tuple(p for p in bare.split() if p not in little)


def _heads(t: str, lang: str) -> frozenset[str]:
    if lang == "en":
        return frozenset(s for s in stems(t, lang) if s == t or len(s) >= LONG_HEAD)
    return stems(t, lang)


def _rest_ok(head: str, rest: str, lang: str) -> bool:
    if rest in DERIVATIONS[lang]:
        return True
    if len(head) >= LONG_HEAD or lang == "en":
        return len(rest) >= MIN_REST
    return False


@lru_cache(maxsize=16384)
def _related(w: str, t: str, lang: str) -> bool:
    if w in FALSE_FRIENDS[lang].get(t, ()):
        return False
    mine, theirs = stems(w, lang), stems(t, lang)
    if mine & theirs:
        return True
    for head in _heads(t, lang):
        if len(w) > len(head) and w.startswith(head) and _rest_ok(head, w[len(head) :], lang):
            return True
        if len(head) >= MIN_STEM and any(
            s.endswith(head) and len(s) - len(head) >= MIN_REST for s in core(w, lang)
        ):
            return True
    return any(
        len(s) >= LONG_HEAD and len(t) - len(s) >= MIN_REST and (t.startswith(s) or t.endswith(s))
        for s in mine
    )


def same_root(bare: str, subject: tuple[str, ...], lang: str = "en") -> str | None:
    """The subject part that ``bare`` (a word with accents folded) shares a root with in
    ``lang``, or ``None``. ``subject`` holds the parts of the subject's name in ``lang``
    (:func:`parts`)."""
    for w in parts(bare, lang):
        for t in subject:
            if _related(w, t, lang):
                return t
    return None

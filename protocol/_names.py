"""Names that look alike: one *skeleton* for every spelling that reads as the same name.

A stranger who sits down as "Ηosty" (a Greek capital Eta) next to a seated "Hosty" looks like
Hosty on every screen; the table refuses such a join just as it refuses a second "hosty".
:func:`skeleton` maps a name to a representative string so that names a person would read as
the same get the same skeleton. It is pure, deterministic and small; in this order:

1. NFKC, then ``casefold`` (and NFKC once more, as Unicode's NFKC_Casefold does): fullwidth,
   mathematical and ligature forms become plain letters (``Ｈ``, ``𝐇``, ``ﬁ``, ``ℓ``), and case
   never tells two names apart. (The lunate sigma ``ϲ``, drawn like ``c``, becomes ``c``
   first: NFKC would make it a σ.)
2. NFD, and every combining mark (``é`` → ``e``) and invisible character (zero-width spaces
   and joiners, the soft hyphen, Hangul fillers) is dropped.
3. ``_LOOKALIKE``: Greek and Cyrillic letters drawn like Latin ones map to that Latin letter
   (a capital's look decides: ``Η``/``η`` → ``h``); ``0`` → ``o``; ``1``, ``i``, ``l``, ``|``
   and their look-alikes → ``l``; typographic quotes → ``'``, dashes → ``-``.
4. ``rn`` → ``m`` and ``vv`` → ``w`` (two letters that read as one).
5. White space runs become one space, none at the ends.

It errs towards calling names alike ("Kai" and "Kal" share a skeleton): a refused player
picks another name, while a seated look-alike can be mistaken for someone else all game.
"""

from __future__ import annotations

import unicodedata

__all__ = ["skeleton"]

#: Look-alike letters, after case folding, to the one they are drawn like. Lowercase keys
#: only (case folding came first); where a capital and its small letter look like different
#: Latin letters, the capital decides, since that is how an impostor writes a name.
_PAIRS = {
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ζ": "z", "η": "h", "ι": "l", "κ": "k",
    "μ": "m", "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x", "ω": "w",
    "ϳ": "j",
    # Cyrillic
    "а": "a", "в": "b", "ь": "b", "е": "e", "һ": "h", "н": "h", "і": "l", "ӏ": "l",
    "ј": "j", "к": "k", "м": "m", "п": "n", "о": "o", "р": "p", "ԛ": "q", "с": "c",
    "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԁ": "d", "ԝ": "w",
    # Latin look-alikes, digits and signs
    "ı": "l", "ɩ": "l", "ǀ": "l", "i": "l", "1": "l", "|": "l", "0": "o",
    "ɑ": "a", "ɡ": "g",
    "‘": "'", "’": "'", "ʼ": "'", "′": "'", "`": "'",
    "‐": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
}  # fmt: skip
_LOOKALIKE = str.maketrans(_PAIRS)
#: Look-alikes that NFKC would fold into a letter that looks like no Latin one (the lunate
#: sigma, drawn like C, becomes σ): mapped before normalising.
_BEFORE = str.maketrans({"ϲ": "c", "Ϲ": "C"})

#: Letters with no mark of their own that render as nothing (Unicode's default ignorables
#: outside the mark and format categories).
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0")

#: Two letters that read as one, replaced left to right after the single letters.
_DIGRAPHS = (("rn", "m"), ("vv", "w"))


def _visible(c: str) -> bool:
    return unicodedata.category(c) not in ("Mn", "Me", "Cf") and c not in _INVISIBLE


def skeleton(name: str) -> str:
    """The skeleton of ``name``: equal for names that read alike (``"Ηosty"`` and ``"hosty"``,
    ``"B0b"`` and ``"bob"``), and a fixed point (``skeleton(skeleton(s)) == skeleton(s)``).
    Never raises."""
    nfkc = unicodedata.normalize("NFKC", name.translate(_BEFORE))
    folded = unicodedata.normalize("NFKC", nfkc.casefold())
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if _visible(c))
    text = " ".join(bare.translate(_LOOKALIKE).split())
    for pair, one in _DIGRAPHS:
        text = text.replace(pair, one)
    return text

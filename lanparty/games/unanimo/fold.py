"""How Unanimo compares words: one explicit normalisation, equal on every peer.

Matching must give the same answer on every peer whatever its Python version, so nothing here
uses ``unicodedata`` or ``str.lower`` on non-ASCII text (their tables change between Python
releases). Every character a word may hold is listed below, with what it folds to:

* **letters**: ASCII, the Latin-1 letters and Latin Extended-A (every Polish and Spanish
  letter among them). Each row gives the capital, the small letter, the *base* it folds to
  when accents are ignored (one or two ASCII letters: ``ż`` → ``z``, ``æ`` → ``ae``) and the
  combining accent that composes it from its base (``-``: none), so a word typed as ``e`` +
  U+0301 equals ``é`` (normalisation form does not matter, by construction);
* **joiners**: spaces (the ordinary one, no-break and typographic spaces), apostrophes
  (``'``, ``’``, ``ʼ``) and hyphens (``-``, U+2010, U+2011), each unified to its ASCII form;
* **symbols and digits**: printable ASCII and Latin-1 signs and a few typographic ones. A
  word holding one can be handed in, but the rules reject it in the reading;
* anything else (control and format characters, other scripts, emoji) cannot be handed in.

Change anything that alters a key and :data:`NORMALISATION_VERSION` must go up: a table
pins the version in its options, so peers that would match differently refuse to sit
together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from string import ascii_letters
from typing import Final

__all__ = [
    "MAX_LENGTH",
    "MAX_TYPED",
    "NORMALISATION_VERSION",
    "Word",
    "WordError",
    "normalise",
    "problem",
]

NORMALISATION_VERSION: Final = 2
"""The version of the rules below, of the same-root rule (:mod:`.roots`) and of the subject
cards (:mod:`.subjects`); a table's ``norm`` option must equal it. 2: the same-root rule
compares the subject in the table's writing language only, with compounds."""

MAX_LENGTH: Final = 32
"""Most characters in a word once normalised (case folded, spaces collapsed)."""

MAX_TYPED: Final = 64
"""Most characters a word may hold as typed (extra spaces, separate accents included)."""

# capital, small letter, base, combining accent (hex code point, or "-").
_ROWS = """
Àà a 300  Áá a 301  Ââ a 302  Ãã a 303  Ää a 308  Åå a 30A  Ææ ae -   Çç c 327
Èè e 300  Éé e 301  Êê e 302  Ëë e 308  Ìì i 300  Íí i 301  Îî i 302  Ïï i 308
Ðð d -    Ññ n 303  Òò o 300  Óó o 301  Ôô o 302  Õõ o 303  Öö o 308  Øø o -
Ùù u 300  Úú u 301  Ûû u 302  Üü u 308  Ýý y 301  Þþ th -   Ÿÿ y 308
Āā a 304  Ăă a 306  Ąą a 328  Ćć c 301  Ĉĉ c 302  Ċċ c 307  Čč c 30C  Ďď d 30C
Đđ d -    Ēē e 304  Ĕĕ e 306  Ėė e 307  Ęę e 328  Ěě e 30C  Ĝĝ g 302  Ğğ g 306
Ġġ g 307  Ģģ g 327  Ĥĥ h 302  Ħħ h -    Ĩĩ i 303  Īī i 304  Ĭĭ i 306  Įį i 328
Ĳĳ ij -   Ĵĵ j 302  Ķķ k 327  Ĺĺ l 301  Ļļ l 327  Ľľ l 30C  Ŀŀ l -    Łł l -
Ńń n 301  Ņņ n 327  Ňň n 30C  Ŋŋ n -    Ōō o 304  Ŏŏ o 306  Őő o 30B  Œœ oe -
Ŕŕ r 301  Ŗŗ r 327  Řř r 30C  Śś s 301  Ŝŝ s 302  Şş s 327  Šš s 30C  Ţţ t 327
Ťť t 30C  Ŧŧ t -    Ũũ u 303  Ūū u 304  Ŭŭ u 306  Ůů u 30A  Űű u 30B  Ųų u 328
Ŵŵ w 302  Ŷŷ y 302  Źź z 301  Żż z 307  Žž z 30C
"""
# Letters without a capital of their own here, each with its small form and base.
_SMALL_ONLY = (
    ("ß", "ß", "ss"),  # kept apart from "ss" unless accents are ignored
    ("ı", "ı", "i"),  # dotless i: a letter of its own unless accents are ignored
    ("ĸ", "ĸ", "k"),
    ("ſ", "s", "s"),  # long s is an old way of writing s
    ("İ", "i", "i"),  # capital I with a dot: its small letter is i
)
_SPACES = " \u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f"
_APOSTROPHES = "'\u2019\u02bc"
_HYPHENS = "-\u2010\u2011"
_SYMBOLS = (
    "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in ascii_letters + "'-")
    + "".join(chr(c) for c in range(0xA1, 0xC0) if c != 0xAD)  # ¡ … ¿, not the soft hyphen
    + "×÷\u2013\u2014\u2018\u201a\u201c\u201d\u201e\u2022\u2026\u20ac"
)


def _tables() -> tuple[dict[str, str], dict[str, str], dict[tuple[str, str], str]]:
    lower: dict[str, str] = {}
    base: dict[str, str] = {}
    compose: dict[tuple[str, str], str] = {}
    for c in range(26):
        cap, small = chr(0x41 + c), chr(0x61 + c)
        lower[cap] = lower[small] = small
        base[small] = small
    cells = _ROWS.split()
    for i in range(0, len(cells), 3):
        cap, small = cells[i][0], cells[i][1]
        letters, mark = cells[i + 1], cells[i + 2]
        lower[cap] = lower[small] = small
        base[small] = letters
        if mark != "-":
            accent = chr(int(mark, 16))
            compose[(letters.upper(), accent)] = cap
            compose[(letters, accent)] = small
    for ch, small, letters in _SMALL_ONLY:
        lower[ch] = small
        base.setdefault(small, letters)
    compose[("I", "\u0307")] = "İ"
    return lower, base, compose


_LOWER, _BASE, _COMPOSE = _tables()
_MARKS = frozenset(mark for _, mark in _COMPOSE)
_JOIN = {**dict.fromkeys(_SPACES, " "), **dict.fromkeys(_APOSTROPHES, "'")}
_JOIN.update(dict.fromkeys(_HYPHENS, "-"))
_SYMBOL_SET = frozenset(_SYMBOLS)
_WORD_JOINERS = frozenset(" '-")


class WordError(ValueError):
    """A word that cannot be handed in; ``reason`` completes "word N ..." for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Word:
    """A word as the table compares it.

    ``clean`` is what its writer typed with spaces trimmed and collapsed, apostrophes,
    hyphens and accents unified, case kept (what the reading shows); ``key`` is what matching
    compares (case folded, accents folded too when the table ignores them); ``bare`` is the
    key with accents always folded (the same-root rule uses it); ``letters_only`` is true
    when it holds a letter and nothing but letters, spaces, hyphens and apostrophes.
    """

    clean: str
    key: str
    bare: str
    letters_only: bool


def problem(text: str) -> str | None:
    """Why ``text`` cannot be handed in as a word (completing "word N ..."), or ``None``."""
    word = _scan(text)
    return word if isinstance(word, str) else None


def normalise(text: str, fold_accents: bool) -> Word:
    """The comparable form of one word; raise :class:`WordError` if it cannot be handed in
    (a character outside the table's alphabet, an accent that makes no known letter, empty
    once spaces are trimmed, or too long)."""
    word = _scan(text)
    if isinstance(word, str):
        raise WordError(word)
    if fold_accents:
        return word
    return Word(word.clean, "".join(_LOWER.get(ch, ch) for ch in word.clean), word.bare,
                word.letters_only)  # fmt: skip


def _scan(text: str) -> Word | str:
    """The word with accents folded, or why it cannot be handed in."""
    if len(text) > MAX_TYPED:  # before the cache: it keeps only short texts
        return f"is longer than {MAX_TYPED} characters as typed"
    return _normalise(text)


@lru_cache(maxsize=8192)
def _normalise(text: str) -> Word | str:
    """``_scan`` of a text of at most ``MAX_TYPED`` characters (cached: it is pure)."""
    out: list[str] = []
    for ch in text:
        if ch in _LOWER or ch in _SYMBOL_SET:
            out.append(ch)
        elif ch in _JOIN:
            out.append(_JOIN[ch])
        elif ch in _MARKS:
            made = _COMPOSE.get((out[-1], ch)) if out else None
            if made is None:
                return f"has an accent (U+{ord(ch):04X}) that makes no letter this table knows"
            out[-1] = made
        else:
            return (
                f"has a character this table cannot compare (U+{ord(ch):04X}): use Latin "
                "letters (Polish and Spanish ones included), spaces, hyphens, apostrophes"
            )
    clean = " ".join(part for part in "".join(out).split(" ") if part)
    if not clean:
        return "is empty"
    if len(clean) > MAX_LENGTH:
        return f"is longer than {MAX_LENGTH} characters"
    small = [_LOWER.get(ch, ch) for ch in clean]
    bare = "".join(_BASE.get(ch, ch) for ch in small)
    letters = any(ch in _LOWER for ch in clean)
    only = letters and all(ch in _LOWER or ch in _WORD_JOINERS for ch in clean)
    return Word(clean, bare, bare, only)

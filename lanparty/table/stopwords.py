"""Why a table stopped, why the host refused us, what the network layer notices — in the
reader's language.

The protocol and the network layer say these things in English (:mod:`protocol`,
:mod:`lanparty.net`, the same words on every peer; they import no translations). Where such a
text is shown, :func:`said` reads it back against the English patterns below, translates
the pattern and fills in its parts: names, fingerprints, numbers and quoted names as given,
what a seat owes in the reader's words, and a reason inside a reason read back the same way.
A text that reads as none of them is shown as it is (English: a dishonest program's words,
say). ``--json`` outputs keep the English.

:data:`STOPS` are the texts the program gives (a test reads them from the source);
:data:`PARTS` the pieces they are built of (who is to blame, what a seat owes, a version).
:data:`COUNTED` maps the patterns with a count ``{n}`` to their translation for that count.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lanparty.games.wording import template_pattern
from lanparty.i18n import N_, _, ngettext
from protocol import RemoteProtocolError

__all__ = [
    "COUNTED",
    "OWED",
    "PARTS",
    "PATTERNS",
    "STOPS",
    "blamed",
    "in_language",
    "name_refused",
    "said",
    "translate",
]

NAMES = (
    N_("the name {name} is already taken at this table"),
    N_("the name {name} looks like {other}, already at this table"),
    N_("the name {name} uses {char} (U+{code}), which is not a letter in common use in names"),
    N_(
        "the name {name} mixes letters of different scripts ({scripts}), as only a look-alike would"
    ),
    N_("the name {name} mixes digits of different number systems"),
)
"""The host's refusals of a name (another name may get in)."""

STOPS = (
    # The host halts the table: someone left, vanished, is late or misbehaves.
    N_("{name} (the host) left the table"),
    N_("{name} (seat {seat}) left the table"),
    N_("{name} (seat {seat}) lost the connection and did not come back within {s} s"),
    N_("{what} is more than {s} s late"),
    N_("internal error (a bug) while handling a peer's frame: {what}"),
    N_("it cannot be checked ({what}: {w})"),
    # A peer or spectator sees the table end.
    N_("the host vanished"),
    N_("the host vanished and did not come back within {s} s"),
    N_("nothing from the host for {s} s while waiting for {what}"),
    N_("the table stalled: {reason}"),
    N_("the host stopped the table: {reason}"),
    N_("{reason}; either {name} (seat {seat}) or the host withheld it"),
    N_("the host broke the protocol: {reason}"),
    N_("a peer vanished: {names}"),
    N_("the table was full or closed before we got a seat"),
    N_("you stopped watching before the end"),
    N_("refused by the host: {reason}"),
    N_("the host refused: {reason}"),
    N_("The connection ended: {reason}"),
    N_("The connection ended"),
    # The host refuses a joiner or a spectator.
    N_("the game has started; the table takes no more players"),
    *NAMES,
    N_("this key already has a seat at the table"),
    N_("this table takes no spectators"),
    N_("the host removed you from this table"),
    N_("the host removed you from the table"),
    N_("the host did not let you in"),
    # Not the table meant: another key opened it.
    N_(
        "this table's host key is not the one you gave: the table at {where} is opened by "
        "{other}, not {key} (a wrong key, or someone else answers at that address)"
    ),
    N_(
        "the table at {where} is not opened by the key it was announced with ({key}): someone "
        "else answers at that address (its key is {other})"
    ),
    N_("let in: join again"),
    # A line of talk the host refuses, or our own program does not send (protocol._talk).
    N_("a line of talk is 1 to {n} characters, with no space at either end"),
    N_("a line of talk has no control characters"),
    N_("you are talking too fast; wait {n} s"),
    N_("a line of talk said again (its number is not new)"),
    N_("a line of talk with a bad signature ({what})"),
    N_("the table has ended"),
    N_("not at a table yet"),
    N_("not connected to the table just now"),
    N_("only a seated player may talk at this table"),
    N_("a seat talks under its own key, with no name of its own"),
    N_("spectators may not talk at this table"),
    N_("a spectator talks under a key and a name of its own (1 to 32 characters)"),
    N_("a spectator talks under one key and one name"),
    # A spectator's request for a free seat at a night's next game, refused (protocol._sit).
    N_("the host lets no spectator take a seat at this table"),
    N_("no seat is free for spectators at this table"),
    N_("no seat is left: the players who stayed, and the spectators watching longer, took them"),
    N_("too late: the seats are fixed"),
    N_("too late: the time to answer is over"),
    N_("your key has a seat at this table, or asks for one on another connection"),
    # What the network layer notices on the way.
    N_("{name} lost the connection; waiting up to {s} s for them to come back"),
    N_("{name} is back"),
    N_("Lost the connection to the host; reconnecting (up to {s} s)…"),
    N_("Reconnected: back at the table"),
    N_("{name} (seat {seat}) was refused: {reason}"),
    N_("{name} was refused: {reason}"),  # a player of the game before, answering an offer
    N_("internal error on connection {cid}: {what}"),
    # A night at one table: a next game too few stayed for counts for nothing.
    N_("the night ended before its next game began"),
)
"""The texts given as they are msgids (``{field}``: a part that varies)."""

COUNTED: dict[str, Callable[[int], str]] = {
    "{name} (seat {seat}) was refused {n} times for frames no honest program sends":
        lambda n: ngettext(
            "{name} (seat {seat}) was refused {n} time for frames no honest program sends",
            "{name} (seat {seat}) was refused {n} times for frames no honest program sends",
            n),
    "the table is full ({n} of {n} seats taken)": lambda n: ngettext(
        "the table is full ({n} of {n} seat taken)",
        "the table is full ({n} of {n} seats taken)", n),
    "{n} spectators are watching already (the most this table takes)": lambda n: ngettext(
        "{n} spectator is watching already (the most this table takes)",
        "{n} spectators are watching already (the most this table takes)", n),
    "{n} spectators are watching from your address already (the most one address may "
    "have)": lambda n: ngettext(
        "{n} spectator is watching from your address already (the most one address may have)",
        "{n} spectators are watching from your address already (the most one address may "
        "have)", n),
    "more than {n} proposals refused; the last: {reason}": lambda n: ngettext(
        "more than {n} proposal refused; the last: {reason}",
        "more than {n} proposals refused; the last: {reason}", n),
}  # fmt: skip
"""The texts with a count ``{n}``: their translation for that count (three Polish forms)."""

PARTS = (
    # Who a protocol error blames, the words first (:func:`blamed`).
    N_("{name} (seat {seat}): {reason} (at log position {pos})"),
    N_("{name} (seat {seat}): {reason}"),
    N_("seat {seat}: {reason} (key {culprit}, at log position {pos})"),
    N_("seat {seat}: {reason} (key {culprit})"),
    N_("seat {seat}: {reason}"),
    N_("a peer with no seat (key {culprit}): {reason} (at log position {pos})"),
    N_("a peer with no seat (key {culprit}): {reason}"),
    N_("{reason} (at log position {pos})"),
    # Who a protocol error blames (:class:`protocol.RemoteProtocolError`'s own words).
    N_("{culprit} (seat {seat}) at log position {pos}: {reason}"),
    N_("{culprit} (seat {seat}): {reason}"),
    N_("{culprit} at log position {pos}: {reason}"),
    N_("{culprit}: {reason}"),
    # Who owes what (:func:`lanparty.net.node.describe`).
    N_("{name} (seat {seat})'s {duty}"),
    N_("seat {seat}'s {duty}"),
    N_("{name} (seat {seat})"),
    # Another version of the program at the table.
    N_(
        "incompatible protocol: the peer speaks lanparty protocol version {v}, this program "
        "speaks version {w}"
    ),
    N_(
        "incompatible log entries: they are of lanparty entry version {v}, this program reads "
        "version {w} (and {o})"
    ),
)
"""The pieces the texts are made of, and texts inside texts."""

_BLAMES = 12
"""How many of :data:`PARTS` say who is to blame (read back before any other pattern)."""

PATTERNS = (*PARTS[:_BLAMES], *STOPS, *COUNTED, *PARTS[_BLAMES:])
"""Every pattern :func:`said` reads back, the pieces first (a blamed key's prefix before
the reason it prefixes)."""

OWED = {
    "key": N_("key share"), "shuffle": N_("shuffle"), "shares": N_("decryption shares"),
    "coin_commit": N_("coin commitment"), "coin_open": N_("coin opening"),
    "show": N_("shown hand"), "show_ack": N_("acknowledgement"), "seal_commit": N_("sealed move"),
    "seal_open": N_("opening"), "secrets": N_("audit secrets"), "signoff": N_("sign-off"),
    "move": N_("move"),
}  # fmt: skip
"""What a seat may owe the table (``Table.waiting_on``'s kinds), in words: English msgids,
the words of :data:`lanparty.net.node._WHAT`."""

_NUMBER = r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?"
_SHAPE = {
    "seat": _NUMBER, "s": _NUMBER, "n": r"\d+", "pos": r"\d+", "cid": r"\d+", "v": r".+?",
    "w": r".+?", "culprit": r"unknown peer|[0-9A-Z]{4}(?:-[0-9A-Z]{4}){3}",
    "name": r"[^:()]+?", "other": r"[^:()]+?", "duty": "|".join(map(re.escape, OWED.values())),
}  # fmt: skip
"""What a field looks like where that is known (a number, a key's fingerprint)."""
_SHAPES = tuple(sorted(_SHAPE.items()))

_NESTED = frozenset({"reason", "what", "names"})
"""Fields that hold a text of their own, read back the same way (else kept as given)."""


def blamed(error: RemoteProtocolError, name_of: Callable[[int], str | None]) -> str:
    """``error`` in English, the words first: who, by name (``name_of(seat)``: the name at
    that seat, if known), did what. The key's fingerprint only where the name cannot say who
    it is (a seat whose name is not known, a key with no seat: an impostor, maybe), in
    parentheses after the reason; the log position last. A reason that names its seat
    already (a halt: "Bo (seat 2) left the table") is given as it is.

    (:class:`protocol.RemoteProtocolError`'s own text begins with the culprit's fingerprint:
    right for the record, not for a person.)"""
    reason, seat, culprit, pos = error.reason, error.seat, error.culprit, error.pos
    name = name_of(seat) if seat is not None else None
    at = f"at log position {pos}" if pos is not None else ""
    if reason.startswith("the host stopped the table: ") or (
        name is not None and f"{name} (seat {seat})" in reason
    ):
        return reason
    if name is not None:
        line = f"{name} (seat {seat}): {reason}"
        return f"{line} ({at})" if at else line
    key = f"key {culprit}"
    if seat is not None and culprit is None:
        return f"seat {seat}: {reason} ({at})" if at else f"seat {seat}: {reason}"
    if seat is not None:
        return f"seat {seat}: {reason} ({key}, {at})" if at else f"seat {seat}: {reason} ({key})"
    if culprit is not None:
        who = f"a peer with no seat ({key}): {reason}"
        return f"{who} ({at})" if at else who
    return f"{reason} ({at})" if at else reason


def name_refused(reason: str) -> bool:
    """True if ``reason`` (English) is the host's refusal of a name (:data:`NAMES`)."""
    return any(template_pattern(name).match(reason) for name in NAMES)  # any name at all


def _duty(english: str) -> str:
    """What a seat owes (one of :data:`OWED`'s words) in the reader's words."""
    return _(english)


def in_language(template: str, n: int = 2) -> str:
    """The pattern ``template`` (one of :data:`PATTERNS`) in the current language, for a count
    of ``n``; ``KeyError`` if it is none of them."""
    if template in COUNTED:
        return COUNTED[template](n)
    if template not in STOPS and template not in PARTS:
        raise KeyError(template)
    return _(template)


def _part(field: str, value: str) -> str:
    """One field's value as the reader sees it."""
    if field == "duty":
        return _duty(value)
    if field == "culprit" and value == "unknown peer":
        return _("unknown peer")
    if field == "names":
        return ", ".join(said(name) for name in value.split(", "))
    if field in _NESTED:
        return said(value)
    return value


def translate(text: str) -> str | None:
    """``text`` in the current language, if it reads as one of :data:`PATTERNS` (its inner
    texts translated as far as they read); ``None`` if it does not."""
    for template in PATTERNS:
        m = template_pattern(template, _SHAPES).match(text)
        if m is None:
            continue
        values = {field: _part(field, value) for field, value in m.groupdict().items()}
        n = int(values["n"]) if "n" in values else 2
        return in_language(template, n).format(**values)
    return None


def said(text: str) -> str:
    """``text`` in the current language where it reads as one of :data:`PATTERNS`, else as it
    is (a reason given in no pattern stays in English rather than half translated)."""
    found = translate(text)
    return text if found is None else found

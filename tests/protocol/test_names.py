"""Look-alike names (UTS #39 through ICU): the rules every copy of the table applies to a
name, and real joins at a sans-IO host refused or accepted by them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crypto import Identity, SealKey
from lanparty.table.local import BOT_NAMES
from protocol import (
    Entry,
    Host,
    LocalProtocolError,
    Peer,
    Refused,
    RemoteProtocolError,
    SignedEntry,
)
from protocol._bodies import Join
from protocol._names import DATA_VERSION, looks_alike, name_problem, skeleton

from .test_lifecycle import _drain, _link

#: Confusable names, each beside the name it imitates. The first 13 were seated by the
#: hand-written table this replaced (issue 20, item 6); the last 10 it refused already.
CONFUSABLE = [
    ("Bob", "ꓐob"),  # Lisu letter BA
    ("Hosty", "ꓧosty"),  # Lisu letter XA
    ("Tom", "ꓔom"),  # Lisu letter TA
    ("Sam", "ꓢam"),  # Lisu letter SA
    ("Ben", "ꓐen"),  # Lisu letter BA again, another name
    ("Bob", "Ᏼob"),  # Cherokee letter YV
    ("Hana", "Ꮋana"),  # Cherokee letter MI
    ("bob", "Ꮟob"),  # Cherokee letter SI
    ("bob", "bօb"),  # Armenian small letter OH
    ("Dora", "Dօra"),  # Armenian OH in a bot's name
    ("Tom", "Tⲟm"),  # Coptic small letter O
    ("bob", "ʙob"),  # Latin letter small capital B
    ("Bob", "Bᴏb"),  # Latin letter small capital O
    ("Bob", "Воb"),  # Cyrillic capital Ve and small o
    ("Ann", "Αnn"),  # Greek capital Alpha
    ("Alice", "Аlice"),  # Cyrillic capital A
    ("Hosty", "Ηosty"),  # Greek capital Eta
    ("Peter", "Рetеr"),  # Cyrillic Er and ie
    ("Hosty", "Ｈｏｓｔｙ"),  # fullwidth
    ("Ann", "𝐀nn"),  # mathematical bold capital A
    ("Bob", "B0b"),  # a zero for o
    ("Ian", "lan"),  # a small L for a capital i
    ("Kim", "Kırn"),  # a dotless i, and rn for m
]
assert len(CONFUSABLE) == 23

#: Spellings the table reads as the same name (rule 3 alone: each passes rules 1 and 2).
ALIKE = [
    ("Bob", "B0b"),
    ("Ian", "lan"),
    ("Kim", "Kırn"),
    ("bob", "bօb"),
    ("Eve", "Eve\u0301"),  # a combining acute
    ("Zoe", "Zoë"),  # a diaeresis: marks are easy to miss, so these two are alike
    ("Jose", "José"),
    ("Lukasz", "Łukasz"),  # the stroke counts as a mark (UTS #39: Ł is L with an overlay)
    ("Ana's kato", "Ana’s kato"),  # a typographic apostrophe
    ("Ana B", "Ana  B"),  # two spaces
]

#: Names that merely resemble each other stay apart.
APART = [("Ann", "Anne"), ("Hosty", "Hasty"), ("Bea", "Bee"), ("Bo", "Bob"), ("h1", "j1"),
         ("Carl", "Carla"), ("Ana's kato", "Ana's uno"), ("IAN", "LAN"), ("Eva", "Ena"),
         ("Dave", "Dane"), ("Kai", "Kal"), ("Łukasz", "Lucas"), ("Zoë", "Zoey"),
         ("Саша", "Sasha")]  # fmt: skip

#: Honest names in many languages: each may sit at a table.
HONEST = ["Łukasz", "Zoë", "José", "Saša", "Søren", "Ñandú", "Ærøskøbing", "Саша", "Αλέξης",
          "山田太郎", "たなか", "김민준", "ابراهيم", "דוד", "Bot 1", "🎲 Dice", "Ana's kato",
          "O'Neil", "Jean-Luc"]  # fmt: skip


def _table(seated: str, games) -> Host:
    """A 4-seat table opened by "Zed" (like no name here), with ``seated`` in seat 1."""
    host = Host(Identity(), "Zed", games, "kato", {"rounds": 1}, 4)
    peer, refused = _join(host, seated, games)
    assert refused == [] and peer.seat == 1
    return host


def _join(host: Host, name: str, games) -> tuple[Peer, list[Refused]]:
    peer, cid = Peer(Identity(), name, games), host.connect()
    _link(host, peer, cid)
    return peer, [e for e in _drain(peer) if isinstance(e, Refused)]


@pytest.mark.parametrize(("seated", "joining"), CONFUSABLE)
def test_a_confusable_name_is_refused_beside_the_name_it_imitates(seated, joining, games):
    host = _table(seated, games)
    assert seated in [m.name for m in host.table.members]
    impostor, [refused] = _join(host, joining, games)
    assert impostor.seat is None
    assert refused.fatal
    assert refused.reason.startswith(f"the name {joining!r} ")
    assert joining not in [m.name for m in host.table.members]


@pytest.mark.parametrize(("seated", "joining"), CONFUSABLE)
def test_every_confusable_name_breaks_a_rule_of_its_own_or_looks_alike(seated, joining):
    """The refusal above has a reason: rule 1 or 2 (the name alone), or rule 3 (a skeleton
    it shares with the seated name); ``ʙ`` (a small capital) is UTS #39's only case here
    that rule 1 alone refuses: its skeleton is its own."""
    assert name_problem(joining) is not None or looks_alike(seated, joining)
    if joining != "ʙob":
        assert looks_alike(seated, joining) and looks_alike(joining, seated)


@pytest.mark.parametrize(("seated", "joining"), ALIKE)
def test_look_alike_names_are_alike_and_refused_for_it(seated, joining, games):
    assert looks_alike(seated, joining)
    assert name_problem(joining) is None  # rule 3 is the one that refuses it
    host = _table(seated, games)
    _, [refused] = _join(host, joining, games)
    assert f"the name {joining!r} looks like {seated!r}, already at this table" in refused.reason


@pytest.mark.parametrize(("one", "other"), APART)
def test_different_names_sit_side_by_side(one, other, games):
    assert not looks_alike(one, other)
    host = _table(one, games)
    peer, refused = _join(host, other, games)
    assert refused == [] and peer.seat is not None


@pytest.mark.parametrize("name", HONEST)
def test_honest_names_in_many_scripts_are_seated(name, games):
    assert name_problem(name) is None
    peer, refused = _join(_table("Bob", games), name, games)
    assert refused == [] and peer.table.members[peer.seat].name == name


@pytest.mark.parametrize(
    ("name", "problem"),
    [("ʙob", "'ʙob' uses ʙ (U+0299), which is not a letter in common use in names"),
     ("ꓐob", "uses ꓐ (U+A4D0)"), ("Ｈｏｓｔｙ", "uses Ｈ (U+FF28)"),
     ("Воb", "mixes letters of different scripts (Cyrillic, Latin)"),
     ("Αnn", "mixes letters of different scripts (Greek, Latin)"),
     ("1١", "'1١' mixes digits of different number systems")],
)  # fmt: skip
def test_a_name_that_breaks_rule_1_or_2_is_refused_alone(name, problem, games):
    """Even at a table where nobody it could imitate sits yet, and as the host's own name."""
    assert problem in (name_problem(name) or "")
    _, [refused] = _join(_table("Carl", games), name, games)
    assert refused.reason == name_problem(name)
    with pytest.raises(LocalProtocolError, match="cannot open the table: the name"):
        Host(Identity(), name, games, "kato", {"rounds": 1}, 4)


def test_bot_names_may_sit_together() -> None:
    """Bots fill seats of one table: a look-alike pair among them would be refused."""
    assert all(name_problem(n) is None for n in BOT_NAMES)
    assert not any(looks_alike(a, b) for i, a in enumerate(BOT_NAMES) for b in BOT_NAMES[:i])


@pytest.mark.parametrize(
    ("one", "other", "lowercased"),
    [("B0b", "bob", True),  # lowercased: a zero reads o (as written it reads O)
     ("ꓐob", "Bob", True), ("Kırn", "Kim", True),
     ("lan", "Ian", False),  # as written: a capital i reads l (lowercased it is an i)
     ("Нosty", "Hosty", False),  # as written: Cyrillic En reads H (lowercased, н reads ʜ)
     ("НOSTY", "Hosty", False)],  # uppercased: HOSTY and HOSTY
)  # fmt: skip
def test_each_reading_catches_what_the_others_miss(one, other, lowercased) -> None:
    assert looks_alike(one, other)
    assert (skeleton(one) == skeleton(other)) is lowercased


def test_invisible_characters_and_case_never_tell_names_apart() -> None:
    """Names a join never gets to (a zero-width space is not printable; names equal but for
    case are "already taken"), still alike for the places that group names by skeleton."""
    assert looks_alike("Eve", "E\u200bve") and skeleton("Eve") == skeleton("E\u200bve")
    assert looks_alike("Hosty", "HOSTY") and skeleton("Hosty") == skeleton("HOSTY")


def test_the_data_version_is_known() -> None:
    assert DATA_VERSION.startswith("Unicode ") and "(ICU " in DATA_VERSION


@given(st.text(max_size=40))
def test_skeleton_is_a_fixed_point_and_ignores_case(name: str) -> None:
    k = skeleton(name)
    assert skeleton(k) == k
    assert skeleton(name.upper()) == skeleton(name.lower()) == skeleton(name.casefold()) == k


@given(st.text(max_size=20), st.text(max_size=20))
def test_looks_alike_is_symmetric_and_reflexive(one: str, other: str) -> None:
    assert looks_alike(one, other) == looks_alike(other, one)
    assert looks_alike(one, one)
    if one.casefold() == other.casefold():
        assert looks_alike(one, other)


def test_every_copy_of_the_table_refuses_what_the_host_should_have(games) -> None:
    host = Host(Identity(), "Hosty", games, "kato", {"rounds": 1}, 4)
    bob, cid_bob = Peer(Identity(), "Bob", games), host.connect()
    _link(host, bob, cid_bob)
    _, [refused] = _join(host, "Ηosty", games)  # a Greek capital Eta
    assert refused.fatal
    assert "the name 'Ηosty' mixes letters of different scripts (Greek, Latin)" in refused.reason
    # A host that relayed these anyway would be caught by Bob's own copy of the table.
    t = bob.table
    assert t.table_id is not None
    for name, reason in [("Bօb", "'Bօb' looks like 'Bob'"),  # an Armenian oh
                         ("В0b", "'В0b' mixes letters of different scripts (Cyrillic, Latin)"),
                         ("ʙob", "'ʙob' uses ʙ (U+0299)")]:  # fmt: skip
        who = Identity()
        body = Join(name, SealKey().public)
        forged = SignedEntry.create(who, Entry(t.table_id, len(t.log), t.log.head,
                                               who.public.raw, body))  # fmt: skip
        with pytest.raises(RemoteProtocolError, match=re.escape(reason)):
            t.apply(forged)
    assert [m.name for m in t.members] == ["Hosty", "Bob"]


def test_a_refusal_for_a_name_reads_in_the_joiners_language() -> None:
    from lanparty import i18n
    from lanparty.table import stopwords

    try:
        i18n.set_language("pl")
        assert stopwords.said(name_problem("ʙob") or "") == (
            "imię 'ʙob' zawiera ʙ (U+0299), znak, którego zwykle nie używa się w imionach")
        i18n.set_language("es")
        assert stopwords.said(name_problem("Воb") or "") == (
            "el nombre 'Воb' mezcla letras de distintas escrituras (Cyrillic, Latin), como solo "
            "lo haría una imitación")
    finally:
        i18n.set_language("en")

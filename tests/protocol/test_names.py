"""Look-alike names: the skeleton that tells them apart, and the table refusing a join whose
name reads like a seated one (at the host, and at every other peer's copy)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crypto import Identity, SealKey
from lanparty.session import BOT_NAMES
from protocol import Entry, Host, Peer, Refused, RemoteProtocolError, SignedEntry
from protocol._bodies import Join
from protocol._names import skeleton

from .test_lifecycle import _drain, _link

#: Pairs a person reads as the same name.
ALIKE = [
    ("Hosty", "Ηosty"),  # Greek capital Eta
    ("Hosty", "Нosty"),  # Cyrillic capital En
    ("Alice", "Аlice"),  # Cyrillic A
    ("Alice", "ΑLICE"),  # Greek capital Alpha, and case
    ("Bob", "B0b"),  # zero for o
    ("Bob", "Βοb"),  # Greek Beta and omicron
    ("Ian", "lan"),  # I and l
    ("Ali", "A1i"),  # one for i
    ("Peter", "Рetеr"),  # Cyrillic Er and ie
    ("Kim", "Kırn"),  # dotless i, and rn for m
    ("Eve", "E\u200bve"),  # a zero-width space
    ("Eve", "Eve\u0301"),  # a combining acute
    ("José", "Jose"),  # a precomposed accent
    ("Hosty", "Ｈｏｓｔｙ"),  # fullwidth
    ("Ana's kato", "Ana’s kato"),  # a typographic apostrophe
    ("Ana B", "Ana  B"),  # two spaces
]

#: Names that merely resemble each other stay apart.
APART = [("Ann", "Anne"), ("Hosty", "Hasty"), ("Bea", "Bee"), ("Bo", "Bob"), ("h1", "j1"),
         ("Carl", "Carla"), ("Ana's kato", "Ana's uno")]  # fmt: skip


@pytest.mark.parametrize(("seated", "joining"), ALIKE)
def test_look_alike_names_share_a_skeleton(seated: str, joining: str) -> None:
    assert skeleton(seated) == skeleton(joining)


@pytest.mark.parametrize(("one", "other"), APART)
def test_different_names_keep_different_skeletons(one: str, other: str) -> None:
    assert skeleton(one) != skeleton(other)


def test_no_two_bot_names_look_alike() -> None:
    """Bots fill seats of one table: a look-alike pair among them would be refused."""
    assert len({skeleton(n) for n in BOT_NAMES}) == len(BOT_NAMES)


@given(st.text())
def test_skeleton_is_a_fixed_point_and_ignores_case(name: str) -> None:
    k = skeleton(name)
    assert skeleton(k) == k
    assert skeleton(name.upper()) == skeleton(name.lower()) == skeleton(name.casefold()) == k


#: Latin letters and the curated characters drawn like them.
_LOOKS = {"a": "аαɑ", "b": "вβ", "c": "сϲϹ", "e": "еε", "h": "һηН", "k": "кκ",
          "l": "1iıӏ|ι", "m": "мμ", "o": "0оοΟ", "p": "рρ", "s": "ѕ", "t": "тτ", "x": "хχ",
          "y": "уυү"}  # fmt: skip
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u0301\u0308"


@given(st.lists(st.sampled_from(sorted(_LOOKS)), min_size=1, max_size=12), st.data())
def test_every_curated_look_alike_is_caught(letters: list[str], data: st.DataObject) -> None:
    """A name spelt with any mix of look-alikes, with invisible characters and combining
    marks slipped in anywhere, has the skeleton of the plain Latin name."""
    disguised = ""
    for letter in letters:
        disguised += data.draw(st.sampled_from(letter + _LOOKS[letter]))
        disguised += data.draw(st.text(st.sampled_from(_INVISIBLE), max_size=2))
    assert skeleton(disguised) == skeleton("".join(letters))


def test_a_look_alike_join_is_refused_by_the_host_and_by_every_copy(games) -> None:
    host = Host(Identity(), "Hosty", games, "kato", {"rounds": 1}, 4)
    bob, cid_bob = Peer(Identity(), "Bob", games), host.connect()
    _link(host, bob, cid_bob)
    impostor, cid = Peer(Identity(), "Ηosty", games), host.connect()  # a Greek capital Eta
    _link(host, impostor, cid)
    assert impostor.seat is None
    [refused] = [e for e in _drain(impostor) if isinstance(e, Refused)]
    assert refused.fatal
    assert "the name 'Ηosty' looks like 'Hosty', already at this table" in refused.reason
    # A host that relayed it anyway would be caught by Bob's own copy of the table.
    t, who = bob.table, Identity()
    assert t.table_id is not None
    body = Join("В0b", SealKey().public)  # Cyrillic Ve and a zero, next to Bob
    forged = SignedEntry.create(who, Entry(t.table_id, len(t.log), t.log.head, who.public.raw,
                                           body))  # fmt: skip
    with pytest.raises(RemoteProtocolError, match="'В0b' looks like 'Bob'"):
        t.apply(forged)
    assert [m.name for m in t.members] == ["Hosty", "Bob"]

"""Unanimo over the real table protocol (in-process harness, real crypto): every seat seals its
words at once, the leader closes the writing, every copy ends with the same score sheet."""

from __future__ import annotations

import random

import pytest

from lanparty.games.unanimo import UNANIMO
from lanparty.games.unanimo.bots import HeuristicBot, RandomBot
from protocol import LocalProtocolError, Phase
from protocol.contract import Commit, Move, Plain
from protocol.harness import Harness

GAMES = {"unanimo": UNANIMO}


def test_a_whole_game_over_the_protocol() -> None:
    bots = [HeuristicBot(), RandomBot(), HeuristicBot()]
    h = Harness(GAMES, "unanimo", 3, {"cards": 2}, bots, seed=3)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    sheets = [UNANIMO.view(p.table.state, None)["sheet"] for p in h.parties]
    assert len(sheets[0]) == 2 and sheets[0] == sheets[1] == sheets[2]
    kinds = [se.entry.body.KIND for se in h.host.table.log.entries]
    assert kinds.count("seal_commit") == 6 and kinds.count("seal_open") == 6


class _Late:
    """Hands in nothing while writing (a person still thinking); otherwise as ``inner``."""

    def __init__(self, inner: HeuristicBot) -> None:
        self.inner = inner

    def choose(self, view: dict[str, Plain], legal: list[Move | None], rng: random.Random):
        return None if view["phase"] == "writing" else self.inner.choose(view, legal, rng)


def test_the_leader_closes_once_half_handed_in_and_the_late_seat_writes_nothing() -> None:
    bots = [HeuristicBot(), HeuristicBot(), HeuristicBot(), _Late(HeuristicBot())]
    h = Harness(GAMES, "unanimo", 4, {"cards": 1}, bots, seed=4)
    h.pump()
    h.step()  # three seats seal at once and race; seat 3 keeps writing
    h.pump()
    st = h.host.status()
    assert st == Commit((3,), 0, 0) and h.host.table.missing() == (3,)
    with pytest.raises(LocalProtocolError, match="may not close"):
        h.by_seat(2).close_phase()  # only the leader
    h.host.close_phase()  # the host is seat 0, the leader of card 1
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    [row] = UNANIMO.view(h.parties[1].table.state, None)["sheet"]
    assert row["absent"] == [3] and row["points"][3] == 0
    assert row["points"][0] >= 4 * 3  # at least the four words all three wrote


def test_a_timed_phase_closed_with_a_seat_writing_anchors_the_next_card_afresh() -> None:
    """On a timed table the leader closes card 1 once half the table has handed in (never
    before: rules, "A round" 2); the next card's coin is drawn and its writing phase begins:
    its commitments are bound to where that phase began, not to card 1's (a stale anchor
    would let card 1's context sign card 2's words, and a closer's timer would never start
    again)."""
    bots = [_Late(HeuristicBot()), HeuristicBot(), HeuristicBot()]
    h = Harness(GAMES, "unanimo", 3, {"cards": 2, "timer": 60}, bots, seed=5)
    h.pump()
    first = h.host.table.anchor
    st = h.host.status()
    assert isinstance(st, Commit) and first is not None
    assert st.closer is None  # nobody handed in yet: the timer cannot close it
    with pytest.raises(LocalProtocolError, match="may not close"):
        h.host.close_phase()
    while h.host.status() == st or len(h.host.status().seats) > 1:  # type: ignore[union-attr]
        assert h.step()
        h.pump()
    assert h.host.status() == Commit((0,), 60, 0)  # 2 of 3 in: the leader may close now
    h.host.close_phase()  # the timer ran out: the leader's program closes card 1
    h.pump()
    while not isinstance(h.host.status(), Commit):  # card 1's reading, then card 2's coin
        assert h.step()
        h.pump()
    assert all(p.table.anchor == len(h.host.table.log) for p in h.parties)
    assert h.host.table.anchor != first
    row = UNANIMO.view(h.host.table.state, None)["sheet"][0]
    assert row["absent"] == [0] and row["points"][0] == 0


def test_done_and_votes_commute_so_no_race_is_drawn_and_none_is_lost() -> None:
    """In the objections every seat says ``done`` for itself: all four say it at the same
    instant, no race window is opened, and every ``done`` is logged (one that lost its
    position to another seat's goes out again at the next), none dropped."""
    from protocol import MoveDropped, RaceOpened
    from protocol.contract import Turn

    bots = [HeuristicBot() for _ in range(4)]
    h = Harness(GAMES, "unanimo", 4, {"cards": 1}, bots, seed=6)
    h.pump()
    while not isinstance(st := h.host.status(), Turn):
        assert h.step()
        h.pump()
    assert st.free and set(st.also) | {st.seat} == {0, 1, 2, 3}
    before = len(h.host.table.log)
    for seat in (3, 2, 1, 0):  # the host's own comes last, the peers' race for one position
        h.by_seat(seat).play(("done",))
    h.pump()
    moves = [UNANIMO.moves.read(se.entry.body.move) for se in h.host.table.log.entries[before:]
             if se.entry.body.KIND == "move"]  # fmt: skip
    assert moves.count(("done",)) == 4
    events = [e for evs in h.events for e in evs]
    assert not any(isinstance(e, MoveDropped | RaceOpened) for e in events)
    assert h.host.status() != st  # everyone is done: the card is scored and play goes on


class _Root:
    """Writes the subject's own name in the table's language (the same-root rule rejects
    it) and one more word; votes ``keep``; says ``done`` once no appeal is pending."""

    def choose(self, view: dict[str, Plain], legal: list[Move | None], rng: random.Random):
        if view["phase"] == "writing":
            subject = view["subject"]
            assert isinstance(subject, dict)
            return ("words", (str(subject[view["words"]]), "zzz"))
        if view["phase"] == "vote":
            return ("vote", "keep")
        return ("done",) if ("done",) in legal else None


class _Appealer(_Root):
    """As ``_Root``, but appeals for every word the same-root rule rejected first."""

    def choose(self, view: dict[str, Plain], legal: list[Move | None], rng: random.Random):
        appeals = [m for m in legal if m is not None and m[0] == "appeal"]
        if view["phase"] == "objections" and appeals:
            return appeals[0]
        return super().choose(view, legal, rng)


def test_an_appeal_over_the_protocol_reinstates_a_word_the_root_rule_rejected() -> None:
    """Rules, "Matching and scoring": "during reading any player may ... appeal an automatic
    rejection (a majority of the other players reinstates it)". Four real peers at a Polish
    table: all write the subject's Polish name, the rule rejects it, seat 2 appeals, two of
    the three others vote keep (the vote is settled then), and the word scores 4 points for
    each of them on every copy."""
    bots = [_Root(), _Root(), _Appealer(), _Root()]
    h = Harness(GAMES, "unanimo", 4, {"cards": 1, "words": "pl"}, bots, seed=8)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    moves = [UNANIMO.moves.read(se.entry.body.move) for se in h.host.table.log.entries
             if se.entry.body.KIND == "move"]  # fmt: skip
    appeals = [m for m in moves if m[0] == "appeal"]
    assert len(appeals) == 1 and moves.count(("vote", "keep")) == 2
    views = [UNANIMO.view(p.table.state, None) for p in h.parties]
    assert all(v == views[0] for v in views)
    [subject] = [a for a in views[0]["reading"] if a["key"] == appeals[0][1]]
    assert (subject["rejected"], subject["voted"], subject["points"]) == (None, "reinstated", 4)
    assert views[0]["sheet"][0]["points"] == [8, 8, 8, 8]  # the subject and "zzz"


def test_the_writing_language_is_fixed_by_the_host_s_open_entry() -> None:
    """Rules, "The writing language": ``words`` defaults to the host's language; the host
    fills it in its ``open`` entry, so a peer reading Spanish sits at the Polish host's
    table writing Polish, and every copy scores alike. (The engine reads no language: the
    program that opens the table fills the default in.)"""
    from lanparty import i18n
    from lanparty.games import with_reader_language

    i18n.set_language("pl")
    try:
        assert UNANIMO.validate_options({})["words"] == "en"  # the engine's own default
        options = with_reader_language("unanimo", {"cards": 1})
        assert options["words"] == "pl"
        assert with_reader_language("unanimo", {"words": "es"})["words"] == "es"
        h = Harness(GAMES, "unanimo", 3, options, [HeuristicBot() for _ in range(3)], seed=9)
        i18n.set_language("es")  # the peers join, check the open entry and play in Spanish
        h.run()
    finally:
        i18n.set_language("en")
    assert all(p.table.options["words"] == "pl" for p in h.parties)
    views = [UNANIMO.view(p.table.state, None) for p in h.parties]
    assert all(v == views[0] for v in views) and views[0]["words"] == "pl"
    written = {a["key"] for a in views[0]["reading"]}
    subject = views[0]["sheet"][0]["subject"]
    from lanparty.games.unanimo.associations import ideas
    from lanparty.games.unanimo.fold import normalise

    assert {normalise(w, True).key for w in ideas(subject, "pl")[:4]} <= written

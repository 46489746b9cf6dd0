"""Kill the Unicorns over the real table protocol (in-process harness, real crypto): a whole
game with sealed hunts ends the same in every copy and passes the audit; a hunter who opens
other cards than it sealed is refused and named; a Princess's peek reaches her alone."""

from __future__ import annotations

import json
from dataclasses import replace

from crypto import CryptoError
from crypto._commit import Opening
from lanparty.games.bots import RandomBot
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns.bots import HeuristicBot
from protocol import Phase, Rejected, pack
from protocol._bodies import SealedOpen
from protocol._codec import unpack
from protocol._messages import Entry
from protocol.harness import Harness

GAMES = {"unicorns": UNICORNS}


def _kinds(h: Harness) -> list[str]:
    return [se.entry.body.KIND for se in h.host.table.log.entries]


def test_a_whole_game_over_the_protocol() -> None:
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    h = Harness(GAMES, "unicorns", 4, {}, bots, seed=2)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert h.host.table.report.ok and not h.host.table.report.findings
    outcomes = {repr(UNICORNS.outcome(p.table.state)) for p in h.parties}
    assert len(outcomes) == 1 and UNICORNS.outcome(h.host.table.state).finished
    kinds = _kinds(h)
    assert kinds.count("seal_commit") == kinds.count("seal_open") >= 4  # every hunter sealed
    assert len({p.transcript() for p in h.parties}) == 1


def test_a_hunt_card_that_does_not_match_its_commitment_is_refused_and_named() -> None:
    """A peer seals its hunt cards, then opens other ones: the host refuses the opening and
    names the seat (so no copy ever sees it), and the table goes on with what was sealed."""
    h = Harness(GAMES, "unicorns", 3, {"powers": False}, [HeuristicBot() for _ in range(3)],
                seed=6)  # fmt: skip
    lied: list[tuple[object, object]] = []

    def higher(entry: Entry) -> Entry | None:
        if not isinstance(entry.body, SealedOpen):
            return None
        opening = entry.body.opening
        move = unpack(opening.value, 1 << 16)
        assert isinstance(move, list) and move[0] == "cards"
        better = ["cards", sorted(0 if v else 4 for v in move[1])]  # other cards
        lied.append((move, better))
        return replace(entry, body=SealedOpen(Opening(opening.salt, pack(better))))

    h.tamper(1, higher)
    h.run()
    [(sealed, claimed)] = lied
    seat = h.peers[0].seat
    errors = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert len(errors) == 1 and "bad opening" in errors[0].reason and errors[0].seat == seat
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    author = h.peers[0].table.me.identity.public.raw
    opened = [
        unpack(se.entry.body.opening.value, 1 << 16)  # type: ignore[attr-defined]
        for se in h.host.table.log.entries
        if se.entry.body.KIND == "seal_open" and se.entry.author == author
    ]
    # Its first opening in the log is what it sealed (the lie was never logged).
    assert opened[0] == sealed != claimed


def test_a_princess_peek_is_shown_to_her_alone() -> None:
    h = Harness(GAMES, "unicorns", 4, {}, [HeuristicBot() for _ in range(4)], seed=3)
    h.pump()
    while not h.host.table.shows:
        assert h.step(), "nobody peeked"
        h.pump()
    [show] = h.host.table.shows
    princess = h.by_seat(show.recipient)
    owner = h.by_seat(show.holder)
    [scheme] = show.handles
    label = owner.table.known[scheme]
    assert princess.table.known[scheme] == label
    assert [scheme, label] in UNICORNS.view(princess.table.state, show.recipient)["peeked"]
    for p in h.parties:
        if p.seat in (show.recipient, show.holder):
            continue
        assert scheme not in p.table.known or scheme in p.table.cards.public
        assert scheme not in p.table.state.card_of
        view = UNICORNS.view(p.table.state, p.seat)
        assert view["peeked"] == [] and f"[{scheme}, \"{label}\"]" not in json.dumps(view)
        try:
            p.table.me.seal.open(show.box, b"any")
        except CryptoError:
            pass
        else:  # pragma: no cover - a box that opens for the wrong key is a break
            raise AssertionError("the box opened for someone else")
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert h.host.table.report.ok

"""Kill the Unicorns' hidden cards, judged from the bytes each peer received (real protocol,
real crypto): until the audit, a peer can unmask no card but the public ones, the schemes it
drew and the scheme the Princess was shown — so a peeked scheme reaches her alone, and a
scheme never turned over stays hidden from everyone but its owner. The audit then publishes
every secret, and every copy reads the same labels the owners knew."""

from __future__ import annotations

import json

import pytest

from crypto import CryptoError, unmask
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.cards import SCHEMES, UNICORN_LABELS
from protocol import FrameReader, Phase, Propose, Relay, SignedEntry, decode_message
from protocol._audit import reveal_all
from protocol._bodies import MoveBody, SharesBody
from protocol.harness import Harness
from tests.plain import strings

GAMES = {"unicorns": UNICORNS}
_LABELS = set(SCHEMES) | set(UNICORN_LABELS)


def _entries(chunks):
    """Every entry in the frames a party received, in order of arrival."""
    reader = FrameReader()
    for chunk in chunks:
        reader.feed(chunk)
        while (payload := reader.next_frame()) is not None:
            msg = decode_message(payload)
            if isinstance(msg, Relay | Propose):
                yield SignedEntry.parse(msg.raw, msg.sig)


def _game(options: dict[str, object], seed: int) -> Harness:
    """A whole 4-seat game of heuristic bots in which the Princess peeked at least once."""
    for s in range(seed, seed + 12):
        h = Harness(GAMES, "unicorns", 4, options, [HeuristicBot() for _ in range(4)], seed=s)
        h.run()
        if h.host.table.shows:
            assert all(p.phase is Phase.CLOSED for p in h.parties) and h.host.table.report.ok
            return h
    raise AssertionError("the Princess never peeked")


@pytest.mark.parametrize("options", [{}, {"expert": True}], ids=["plain", "expert"])
def test_no_peer_can_unmask_a_scheme_it_was_not_given(options) -> None:  # noqa: C901
    h = _game(options, 3)
    end = h.host.table.state
    unrevealed = [s for s in end.lost if s not in h.host.table.cards.public]
    if options:  # expert: the discarded schemes stay face down too
        unrevealed += [s for d in end.discards for s in d]
        assert all(s not in h.host.table.cards.public for d in end.discards for s in d)
    assert unrevealed
    [peek, *_] = h.host.table.shows
    secrets_at = next(
        p for p, se in enumerate(h.host.table.log.entries) if se.entry.body.KIND == "secrets"
    )
    for i, party in enumerate(h.parties):
        t = party.table
        seat, key = t.my_seat, t.me.key
        authors = {m.key: m.seat for m in t.members}
        own = [se for se in t.log.entries if se.entry.author == t.me.identity.public.raw]
        shares: dict[int, dict[int, object]] = {}
        for se in [*_entries(h.received[i]), *own]:
            body = se.entry.body
            if se.entry.pos >= secrets_at:
                continue  # the audit publishes everything on purpose; we stop before it
            if isinstance(body, SharesBody | MoveBody):
                pairs = body.shares if isinstance(body, SharesBody) else body.reveal
                for handle, share in pairs:
                    shares.setdefault(handle, {})[authors[se.entry.author]] = share
            labels = [s for s in strings(body.to_plain()) if s in _LABELS]
            if isinstance(body, MoveBody):  # only a plant names a card: the one it discards
                game = h.host.table.game
                assert set(labels) <= set(game.reveals(game.moves.read(body.move)).values())
            else:
                assert not labels, f"{body.KIND} entry carries labels {labels}"
        for handle, ct in t.cards.ct.items():
            have = dict(shares.get(handle, {}))
            have[seat] = ct.a * key.secret
            point = unmask(ct, list(have.values()))
            is_card = point in set(t.cards.origin[handle][0].points)
            assert is_card == (len(have) == 4), f"party {i} could unmask card {handle}"
            if is_card:
                assert handle in t.known
        for handle in t.known:  # what it knows: public, unmasked, or shown to it
            shown = any(s.recipient == seat and handle in s.handles for s in t.shows)
            assert handle in t.cards.public or len(shares.get(handle, {})) == 3 or shown
        for handle in unrevealed:  # only its owner can read it (and a Princess shown it)
            shown = any(s.recipient == seat and handle in s.handles for s in t.shows)
            mine = end.owner[handle] == seat
            assert (len(shares.get(handle, {})) == 3 and mine) or not mine
            assert (handle in t.known) == (mine or shown)
            assert (handle in t.state.card_of) == (mine or shown)
        # The peeked scheme: in the Princess's copy and her view; nobody else's but its owner's.
        [scheme] = peek.handles
        if seat == peek.recipient:
            assert t.known[scheme] == h.by_seat(peek.holder).table.known[scheme]
        elif seat != peek.holder:
            assert scheme not in t.known or scheme in t.cards.public
            try:
                t.me.seal.open(peek.box, b"any")
            except CryptoError:
                pass
            else:  # pragma: no cover - a box that opens for the wrong key is a break
                raise AssertionError("the box opened for someone else")
    # The audit published every key secret: now every copy reads every hidden scheme, the
    # same label its owner knew from the draw.
    for party in h.parties:
        t = party.table
        labels = reveal_all(t.cards, t._key_secrets)
        for handle in unrevealed:
            owner = h.by_seat(end.owner[handle])
            assert labels[handle] == owner.table.known[handle]


def test_a_peek_in_progress_is_in_her_view_alone() -> None:
    """While the peeked scheme is still on the row: the Princess's view names it, no other
    seat's view or copy does."""
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
        assert scheme not in p.table.known and scheme not in p.table.state.card_of
        view = UNICORNS.view(p.table.state, p.seat)
        assert view["peeked"] == [] and f'[{scheme}, "{label}"]' not in json.dumps(view)
    h.run()
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    assert h.host.table.report.ok

"""Privacy for every registered game, over the real protocol (a host and peers in one process).

From every byte a party received before the audit, plus its own secrets:

* it can unmask exactly the cards it may know (its hand, cards shown to it, public cards) and
  no other: for every card of every deck, with every decryption share it holds;
* no entry carries a card's label except a move that reveals that card (with its shares);
* a sealed move stays sealed until its opening: neither its salt nor its encoded value is in
  any byte a party received before the opening entry itself.

A spectator (:class:`protocol.Watcher`) watches each game too: from every byte it received it
can unmask only the cards every seat knows, and no label or salt reaches it early.

Each game is played with its own bots and its short options, so a new game is covered by
registering it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import pytest

from crypto import unmask
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from protocol import FrameReader, Propose, Relay, SignedEntry, decode_message
from protocol._bodies import MoveBody, SealedCommit, SealedOpen, SharesBody
from protocol._frames import frame
from protocol.harness import Harness
from tests.plain import strings

SEATS = 3


def _frames(data: bytes) -> Iterator[tuple[int, SignedEntry]]:
    """Every entry in the bytes a party received, with the offset where its frame starts."""
    reader = FrameReader()
    reader.feed(data)
    offset = 0
    while (payload := reader.next_frame()) is not None:
        msg = decode_message(payload)
        if isinstance(msg, Relay | Propose):
            yield offset, SignedEntry.parse(msg.raw, msg.sig)
        offset += len(frame(payload))


@functools.cache
def _played(name: str, seed: int) -> Harness:
    factories = list(bots_for(name).values())
    bots = [factories[(seed + s) % len(factories)]() for s in range(SEATS)]
    h = Harness(GAMES, name, SEATS, dict(PLUGINS[name].short), bots, seed=seed, watchers=1)
    h.run()
    assert h.done, f"{name}: the game did not finish"
    return h


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_party_learns_only_what_it_may_know(name: str) -> None:
    h = _played(name, seed=3)
    game = GAMES[name]
    host_log = h.host.table.log.entries
    audit_at = next(p for p, s in enumerate(host_log) if s.entry.body.KIND == "secrets")
    sealed = [se for se in host_log[:audit_at] if isinstance(se.entry.body, SealedOpen)]
    commits = [(p, se) for p, se in enumerate(host_log) if isinstance(se.entry.body, SealedCommit)]
    hidden = 0  # cards hidden from some party, and sealed moves, checked
    for i, party in enumerate(h.parties):
        t = party.table
        assert t.me is not None and t.my_seat is not None
        seat, mine = t.my_seat, t.me.identity.public.raw
        authors = {m.key: m.seat for m in t.members}
        labels = {label for _, names in t.cards.origin.values() for label in names}
        own = [se for se in t.log.entries if se.entry.author == mine]
        data = b"".join(h.received[i])
        received = list(_frames(data))
        shares: dict[int, dict[int, object]] = {}
        for se in [*(se for _, se in received), *own]:
            body = se.entry.body
            if se.entry.pos >= audit_at:
                continue  # the audit publishes every secret on purpose
            if isinstance(body, SharesBody | MoveBody):
                pairs = body.shares if isinstance(body, SharesBody) else body.reveal
                for handle, share in pairs:
                    shares.setdefault(handle, {})[authors[se.entry.author]] = share
            carried = {s for s in strings(body.to_plain()) if s in labels}
            if isinstance(body, MoveBody):
                revealed = set(game.reveals(game.moves.read(body.move)).values())
                assert carried <= revealed, f"{name}: a move carries {carried - revealed}"
            else:
                assert not carried, f"{name}: {body.KIND} carries labels {carried}"
        for handle, ct in t.cards.ct.items():
            have = dict(shares.get(handle, {}))
            have[seat] = ct.a * t.me.key.secret
            is_card = unmask(ct, list(have.values())) in set(t.cards.origin[handle][0].points)
            if len(have) == len(t.members):
                assert handle in t.known and is_card
            else:
                assert not is_card, f"{name}: party {i} could unmask card {handle}"
                hidden += 1
        # A sealed move: not a byte of its salt before it opens, and its value in no entry
        # since its commitment but the openings (a short value, a hunt of one card say, may
        # well be another seat's move opened earlier, or later in the same phase).
        arrived = {se.entry.pos: start for start, se in received}
        for se in sealed:
            if se.entry.author == mine:
                continue
            opening, pos = se.entry.body.opening, se.entry.pos
            hidden += 1
            assert opening.salt not in data[: arrived[pos]], f"{name}: party {i} saw a salt"
            committed = max(p for p, c in commits if c.entry.author == se.entry.author and p < pos)
            between = [r for _, r in received if committed <= r.entry.pos < pos
                       and not isinstance(r.entry.body, SealedOpen)]  # fmt: skip
            assert not any(opening.value in r.raw for r in between), (
                f"{name}: party {i} saw a sealed move before it was opened"
            )
    assert hidden, f"{name}: nothing hidden was checked"


@pytest.mark.parametrize("name", sorted(PLUGINS))
def test_a_spectator_learns_only_what_every_seat_knows(name: str) -> None:
    h = _played(name, seed=3)
    game = GAMES[name]
    host_log = h.host.table.log.entries
    audit_at = next(p for p, s in enumerate(host_log) if s.entry.body.KIND == "secrets")
    watcher = h.watchers[0]
    t = watcher.table
    assert t.me is None and t.my_seat is None and watcher.phase is h.host.phase
    assert [se.raw for se in t.log.entries] == [se.raw for se in host_log]
    public = set.intersection(*(set(p.table.known) for p in h.parties))
    authors = {m.key: m.seat for m in t.members}
    labels = {label for _, names in t.cards.origin.values() for label in names}
    data = b"".join(h.watched[0])
    received = list(_frames(data))
    assert received and all(se.entry.pos < len(host_log) for _, se in received)
    shares: dict[int, set[int]] = {}
    for _, se in received:
        body = se.entry.body
        if se.entry.pos >= audit_at:
            continue
        if isinstance(body, SharesBody | MoveBody):
            pairs = body.shares if isinstance(body, SharesBody) else body.reveal
            for handle, _share in pairs:
                shares.setdefault(handle, set()).add(authors[se.entry.author])
        carried = {s for s in strings(body.to_plain()) if s in labels}
        if isinstance(body, MoveBody):
            assert carried <= set(game.reveals(game.moves.read(body.move)).values())
        else:
            assert not carried, f"{name}: {body.KIND} carries labels {carried}"
    hidden = [h_ for h_ in t.cards.ct if h_ not in public]
    for handle in t.cards.ct:
        # Unmasking takes a share of every seat: a spectator holds none of its own.
        complete = len(shares.get(handle, ())) == len(t.members)
        assert complete == (handle in public), f"{name}: the spectator and card {handle}"
    arrived = {se.entry.pos: start for start, se in received}
    sealed = [se for se in host_log[:audit_at] if isinstance(se.entry.body, SealedOpen)]
    for se in sealed:
        assert se.entry.body.opening.salt not in data[: arrived[se.entry.pos]]
    assert hidden or sealed, f"{name}: nothing was hidden from a spectator"


def test_every_registered_game_is_covered() -> None:
    """The test above runs for each game the program can play."""
    assert set(PLUGINS) == set(GAMES) and {"kato", "unanimo"} <= set(PLUGINS)

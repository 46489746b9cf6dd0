"""Privacy: from every byte a peer received (before the audit) plus its own secrets, it can
unmask no card but its own hand, the cards shown to it and the public ones; and no message
carries a card's label that its receiver may not know."""

from __future__ import annotations

from crypto import unmask
from lanparty.games.kato.cards import LABEL
from protocol import FrameReader, Phase, Propose, Relay, SignedEntry, decode_message
from protocol._bodies import (
    MoveBody,
    SharesBody,
)
from tests.plain import strings

from .conftest import Bluffer, Honest, play_until

_LABELS = set(LABEL)


def _entries(chunks):
    """Every entry in the frames a party received, in order of arrival."""
    reader = FrameReader()
    for chunk in chunks:
        reader.feed(chunk)
        while (payload := reader.next_frame()) is not None:
            msg = decode_message(payload)
            if isinstance(msg, Relay | Propose):
                yield SignedEntry.parse(msg.raw, msg.sig)


def test_no_peer_can_unmask_more_than_it_may_know(games):
    # Seed 1 is the first whose game shows a hand (0 plays a whole round without): tried
    # first, the others after it in case the game changes.
    h = play_until(
        games, lambda: [Honest(challenge=True), Bluffer(), Honest()],
        lambda h: bool(h.host.table.shows) and h.host.phase is Phase.CLOSED,
        seats=3, seeds=(1, 0, *range(2, 12)),
    )  # fmt: skip
    for i, party in enumerate(h.parties):
        t = party.table
        seat, key = t.my_seat, t.me.key
        own = [se for se in t.log.entries if se.entry.author == t.me.identity.public.raw]
        shares: dict[int, dict[int, object]] = {}
        authors = {m.key: m.seat for m in t.members}
        for se in [*_entries(h.received[i]), *own]:
            body = se.entry.body
            if body.KIND == "secrets":
                continue  # the audit publishes everything on purpose; we stop before it
            if se.entry.pos >= next(
                p for p, s in enumerate(t.log.entries) if s.entry.body.KIND == "secrets"
            ):
                continue
            if isinstance(body, SharesBody | MoveBody):
                pairs = body.shares if isinstance(body, SharesBody) else body.reveal
                for handle, share in pairs:
                    shares.setdefault(handle, {})[authors[se.entry.author]] = share
            # no label travels except the ones a move reveals, with their shares
            labels = [s for s in strings(body.to_plain()) if s in _LABELS]
            if isinstance(body, MoveBody):
                game = h.host.table.game
                revealed = set(game.reveals(game.moves.read(body.move)).values())
                assert set(labels) <= revealed
            else:
                assert not labels, f"{body.KIND} entry carries labels {labels}"
        seats = len(t.members)
        allowed = set(t.known)
        for handle, ct in t.cards.ct.items():
            have = dict(shares.get(handle, {}))
            have[seat] = ct.a * key.secret
            point = unmask(ct, list(have.values()))
            cards = t.cards.origin[handle][0]
            is_card = point in set(cards.points)
            if len(have) == seats:
                assert handle in allowed
                assert is_card
            else:
                assert not is_card, f"party {i} could unmask card {handle}"
        # what it may know is exactly its hand, cards shown to it, and public cards
        for handle in allowed:
            if handle in t.cards.public:
                continue
            holder_known = handle in shares and len(shares[handle]) == seats - 1
            shown = any(s.recipient == seat and handle in s.handles for s in t.shows)
            assert holder_known or shown

"""One encoding per point, through the protocol: an entry whose body carries a curve point in a
second encoding (the top bit set, which the bundled libsodium ignores) or the identity's alias
``00…0080`` is refused, naming its author, by the host, by a peer it is relayed to and by the
offline audit, for every kind of entry that carries points; and a proof check run beside the
table blames the entry's author whatever the check raises.

Where the entry's proof can be made over the alias's bytes, it is (so that, but for its
encoding, the entry would be valid: an old peer took it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import pytest

from crypto import (
    Ciphertext,
    DecryptionShare,
    DleqProof,
    KeyShare,
    L,
    Point,
    PublicKeyShare,
    SchnorrProof,
    ShuffleProof,
    base_mul,
    seal,
    verify_shuffle,
)
from crypto._batch import _weights
from crypto._dleq import _challenge as dleq_challenge
from crypto._elgamal import pack_shares
from crypto._group import lincomb
from crypto._keys import _challenge as key_challenge
from lanparty.games import GAMES
from protocol import (
    Entry,
    FrameReader,
    Phase,
    Relay,
    RemoteProtocolError,
    SignedEntry,
    Stopped,
    audit_transcript,
    context,
    decode_message,
    encode_message,
    frame,
    pack,
    run_check,
    unpack,
)
from protocol._bodies import HandleShares, KeyShareBody, MoveBody, SharesBody, Show, ShuffleBody
from protocol._checks import DeferredCheck
from protocol._messages import relay_signature
from protocol.harness import Harness

from .conftest import Bluffer, Honest, play_until

OPTIONS = {"rounds": 1, "first": "host", "hand_size": 4}
IDENTITY_ALIAS = bytes(31) + b"\x80"
AUTHOR = 1  # the party whose entry carries the alias (seat 1)
VICTIM = 2  # a peer the host relays it to


def top_bit(p: Point) -> Point:
    """The same element under the encoding libsodium also takes: the top bit set."""
    e = p.encode()
    return Point(e[:31] + bytes([e[31] | 0x80]))


def identity_alias(_: Point) -> Point:
    """The identity's second encoding, in place of any point."""
    return Point(IDENTITY_ALIAS)


ALIASES: dict[str, Callable[[Point], Point]] = {"top-bit": top_bit, "identity": identity_alias}


def _table(h: Harness, author: bytes):  # a Table (one of the parties')
    return next(p.table for p in h.parties if p.table.me.identity.public.raw == author)


def _batch_proof(key: KeyShare, cts: list[Ciphertext], ds: list[Point], ctx: bytes) -> DleqProof:
    """A batched DLEQ proof whose weights hash ``ds`` as given (aliases and all)."""
    a = [ct.a for ct in cts]
    w = _weights(ctx, key.public, a, ds)
    return DleqProof.prove(key.secret, lincomb(w, a), ctx)[1]


# Each maker turns an honest entry of its kind into the same entry with one point aliased
# (``None`` for an entry of another kind).
Maker = Callable[[Harness, Entry, Callable[[Point], Point]], Entry | None]


def _key(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    if not isinstance(e.body, KeyShareBody):
        return None
    t = _table(h, e.author)
    point, k = alias(e.body.share.point), 4242
    c = key_challenge(context(e.table, "key", e.pos, t.my_seat), point, base_mul(k))
    proof = SchnorrProof(c, (k + c * t.me.key.secret) % L)
    return replace(e, body=KeyShareBody(PublicKeyShare(point, proof)))


def _shuffle_deck(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    if not isinstance(e.body, ShuffleBody):
        return None
    deck = list(e.body.deck)
    deck[1] = Ciphertext(deck[1].a, alias(deck[1].b))
    return replace(e, body=replace(e.body, deck=tuple(deck)))


def _shuffle_proof(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    if not isinstance(e.body, ShuffleBody):
        return None
    proof = e.body.proof
    chain = (*proof.chain[:2], alias(proof.chain[2]), *proof.chain[3:])
    return replace(e, body=ShuffleBody(e.body.deck, replace(proof, chain=chain)))


def _aliased_shares(
    h: Harness, e: Entry, shares: HandleShares, step: str, alias: Callable[[Point], Point]
) -> tuple[HandleShares, DleqProof]:
    """``shares`` with the first one's point aliased, and a batch proof made over that."""
    t = _table(h, e.author)
    out = ((shares[0][0], alias(shares[0][1])), *shares[1:])
    ctx = context(e.table, step, e.pos, t.my_seat)
    cts = [t.cards.ct[hd] for hd, _ in out]
    return out, _batch_proof(t.me.key, cts, [d for _, d in out], ctx)


def _shares(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    if not isinstance(e.body, SharesBody):
        return None
    shares, proof = _aliased_shares(h, e, e.body.shares, "shares", alias)
    return replace(e, body=SharesBody(shares, proof))


def _reveal(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    if not (isinstance(e.body, MoveBody) and e.body.reveal):
        return None
    reveal, proof = _aliased_shares(h, e, e.body.reveal, "reveal", alias)
    return replace(e, body=MoveBody(e.body.move, reveal, proof))


MAKERS: dict[str, Maker] = {
    "key": _key,
    "shuffle deck": _shuffle_deck,
    "shuffle proof": _shuffle_proof,
    "shares": _shares,
    "move reveal": _reveal,
}
CASES = [(kind, alias) for kind in MAKERS for alias in ALIASES]


def _harness(defer: bool = False) -> Harness:
    return Harness(GAMES, "kato", 3, OPTIONS, [Honest() for _ in range(3)], seed=11,
                   defer_checks=defer)  # fmt: skip


def _fingerprint(h: Harness, party: int) -> str:
    return h.parties[party].table.me.identity.public.fingerprint


def _refused_for_its_encoding(err: RemoteProtocolError) -> bool:
    return "canonical" in err.reason


@pytest.mark.parametrize(("kind", "alias"), CASES)
def test_the_host_refuses_the_entry_and_names_its_author(kind: str, alias: str) -> None:
    h = _harness(defer=kind.startswith("shuffle"))  # a shuffle is checked beside the table
    made: list[Entry] = []

    def make(e: Entry) -> Entry | None:
        bad = MAKERS[kind](h, e, ALIASES[alias])
        if bad is not None:
            made.append(bad)
        return bad

    h.tamper(AUTHOR, make)
    with pytest.raises(RemoteProtocolError) as info:
        h.run()
    err = info.value
    assert err.culprit == _fingerprint(h, AUTHOR) and err.seat == 1
    assert _refused_for_its_encoding(err), err.reason
    [bad] = made
    assert err.pos == bad.pos and len(h.host.table.log) == bad.pos  # nothing was applied
    assert h.host.phase is not Phase.STOPPED  # the table goes on without it


def _swap_one_relay(h: Harness, kind: str, alias: str, to: int) -> list[SignedEntry]:
    """Make the host relay to peer ``to`` (a party index) the first entry of ``kind`` by
    :data:`AUTHOR` with one point aliased, signed by its author (as a host that took it would
    relay it). Returns the list that will hold that entry."""
    author = h.parties[AUTHOR].table.me.identity
    done: list[SignedEntry] = []

    def out(i: int, data: bytes) -> bytes:
        if i + 1 != to or done:
            return data
        reader, new = FrameReader(), bytearray()
        reader.feed(data)
        while (payload := reader.next_frame()) is not None:
            msg = decode_message(payload)
            if isinstance(msg, Relay) and not done:
                se = SignedEntry.parse(msg.raw, msg.sig)
                bad = MAKERS[kind](h, se.entry, ALIASES[alias])
                if bad is not None and se.entry.author == author.public.raw:
                    signed = SignedEntry.create(author, bad)
                    done.append(signed)
                    seq = relay_signature(h.host.identity, signed.raw)
                    msg = Relay(signed.raw, signed.sig, seq)
            new += frame(encode_message(msg))
        return bytes(new)

    h.host_out = out
    return done


@pytest.mark.parametrize(("kind", "alias"), CASES)
def test_a_peer_and_the_offline_audit_refuse_the_entry(kind: str, alias: str) -> None:
    h = _harness()
    done = _swap_one_relay(h, kind, alias, VICTIM)
    h.run()
    [bad] = done
    victim = h.parties[VICTIM]
    [stop] = [e.error for e in h.events[VICTIM] if isinstance(e, Stopped)]
    # Its author signed it (the peer checks the signature before the points) and the host
    # relayed it: the author is named, the host's relay said in the reason.
    assert stop.culprit == _fingerprint(h, AUTHOR)
    assert "relayed by the host" in stop.reason
    assert _refused_for_its_encoding(stop), stop.reason
    assert stop.pos == bad.entry.pos and len(victim.table.log) == bad.entry.pos
    assert victim.stopped is stop  # it takes nothing more from this host

    # The host's own transcript holds the honest entry there: put the aliased one in its place.
    doc = unpack(h.host.transcript(), 1 << 28)
    assert isinstance(doc, dict)
    seq = relay_signature(h.host.identity, bad.raw)
    doc["entries"] = [*doc["entries"][: bad.entry.pos], [bad.raw, bad.sig, seq]]
    with pytest.raises(RemoteProtocolError) as info:
        audit_transcript(pack(doc), GAMES)
    assert info.value.pos == bad.entry.pos and _refused_for_its_encoding(info.value)
    assert info.value.culprit == _fingerprint(h, AUTHOR)


# ------------------------------------------------------------------------- show to one


def _aliased_box(h: Harness, e: Entry, alias: Callable[[Point], Point]) -> Entry | None:
    """The holder's show with one share inside the sealed box aliased (its DLEQ proof made
    over the alias's bytes)."""
    if not isinstance(e.body, Show):
        return None
    t = _table(h, e.author)
    b = t.batch
    req = b.requests[b.step.index]
    ctx = context(e.table, "show", e.pos, t.my_seat)
    cts = [t.cards.ct[hd] for hd in req.handles]
    shares = [DecryptionShare.create(t.me.key, ct, ctx) for ct in cts]
    d, x, k = alias(shares[0].d), t.me.key.secret, 31337
    c = dleq_challenge(ctx, t.me.key.public, cts[0].a, d, base_mul(k), cts[0].a * k)
    shares[0] = DecryptionShare(d, DleqProof(c, (k + c * x) % L))
    box = seal(t.members[req.to_seat].seal, pack_shares(shares), ctx)
    return replace(e, body=Show(box))


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_a_shown_share_in_a_second_encoding_stops_the_table_naming_the_holder(
    alias: str,
) -> None:
    def tamper(h: Harness) -> None:
        h.tamper(1, lambda e: _aliased_box(h, e, ALIASES[alias]))

    # Seed 2 is the first whose game reaches a shown hand of seat 1 (0 and 1 play a whole
    # round without one): tried first, the others after it in case the game changes.
    h = play_until(
        GAMES, lambda: [Honest(challenge=True), Bluffer(), Honest()],
        lambda h: all(p.phase is Phase.STOPPED for p in h.parties), seats=3,
        seeds=(2, 0, 1, *range(3, 12)), tamper=tamper,
    )  # fmt: skip
    holder = _fingerprint(h, 1)
    for events in h.events:  # the host, the recipient and the third seat alike
        [stop] = [e.error for e in events if isinstance(e, Stopped)]
        assert stop.culprit == holder and stop.seat == 1
        assert "sealed wrongly" in stop.reason and "canonical" in stop.reason
    with pytest.raises(RemoteProtocolError) as info:
        audit_transcript(h.host.transcript(), GAMES)
    assert info.value.culprit == holder and "canonical" in info.value.reason


# ------------------------------------------------------------- checks beside the table


def test_a_deferred_shuffle_check_whose_proof_holds_an_alias_blames_its_author() -> None:
    h = Harness(GAMES, "kato", 3, OPTIONS, [Honest() for _ in range(3)], seed=2,
                defer_checks=True, hold_checks=True)  # fmt: skip
    h.pump()
    party = h.parties[VICTIM]
    checks = party.take_checks()
    check = next(c for c in checks if c.seat == AUTHOR)
    assert isinstance(check.run, partial) and check.run.func is verify_shuffle
    src, deck, key, proof, ctx = check.run.args
    assert isinstance(proof, ShuffleProof)
    # A point that never went through decoding (decoding refuses it now): the group library
    # refuses to multiply it, and the worker must not turn that into an internal error.
    bad = replace(proof, commitments=(Point(IDENTITY_ALIAS), *proof.commitments[1:]))
    err = run_check(replace(check, run=partial(verify_shuffle, src, deck, key, bad, ctx)))
    assert err is not None and err.culprit == _fingerprint(h, AUTHOR) == check.fingerprint
    assert err.seat == AUTHOR and err.pos == check.pos and "bad shuffle proof" in err.reason
    party.checked(check, err)  # what the worker reports
    [stop] = [e.error for e in iter(party.next_event, None) if isinstance(e, Stopped)]
    assert stop.culprit == check.fingerprint and party.phase is Phase.STOPPED


@pytest.mark.parametrize(
    "exc", [RuntimeError("rbcl"), TypeError("x"), ValueError("y"), KeyError(3), AssertionError()]
)
def test_whatever_a_check_raises_is_its_authors_proof_error(exc: Exception) -> None:
    def run() -> None:
        raise exc

    err = run_check(DeferredCheck(run, "bad shuffle proof", "FP", 2, 17))
    assert err is not None and (err.culprit, err.seat, err.pos) == ("FP", 2, 17)
    assert err.reason.startswith("bad shuffle proof: ") and type(exc).__name__ in err.reason

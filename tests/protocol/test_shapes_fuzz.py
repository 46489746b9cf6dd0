"""Every registered game's moves, fuzzed from their declared shapes, through the host, a
peer, a spectator and the offline audit.

A seated player signs whatever it likes as its move: values of every declared shape (which
the game's ``check`` must judge without failing) and values of none (which never reach game
code). Whatever it sends, the host raises nothing but :class:`RemoteProtocolError` and either
sequences the move (every copy applies it) or refuses it naming the player, its state
unchanged; every peer and spectator judges the entry as the host did, where it holds what
judging it takes (a verdict on a hand it never saw is the audit's to judge); a malicious host that
relays it anyway, or a transcript that holds it, is refused naming the player (issue 20).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crypto import Identity, SealKey, ShareBatch, commit, fingerprint
from lanparty.games import GAMES, PLUGINS
from lanparty.games.bots import bots_for
from protocol import (
    Challenge,
    Halt,
    Host,
    Peer,
    Phase,
    Propose,
    Refuse,
    Rejected,
    Relay,
    RemoteProtocolError,
    SignedEntry,
    Watcher,
    audit_transcript,
    decode_message,
    encode_message,
    frame,
    pack,
)
from protocol._bodies import MoveBody, OpenTable
from protocol._messages import ENTRY_VERSION, Entry, relay_signature
from protocol.contract import Commit, GameOver, IllegalMove, Move, Outcome, Turn
from protocol.harness import Harness
from protocol.shapes import Moves, ShapeError, Text

from ..shapes import any_move_of, options_of
from .test_fuzz import _frames

NAMES = sorted(GAMES)


def _fresh(game: str, seed: int) -> Harness:
    g = GAMES[game]
    seats = g.min_seats
    bot = bots_for(game)["random"]
    h = Harness(GAMES, game, seats, dict(PLUGINS[game].short), [bot() for _ in range(seats)],
                seed=seed, watchers=1)  # fmt: skip
    h.pump()
    return h


class _Table:
    """One game's table, kept across examples (a fresh one costs a deal): moved on honestly to
    the next turn of a peer whenever a fuzzed move took the turn, begun again when it ends."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.seed = 0
        self.h = _fresh(game, self.seed)

    def author(self) -> Peer:
        """A peer whose move is due now (the table is moved on until there is one)."""
        for _ in range(500):
            h = self.h
            st = h.host.status()
            if isinstance(st, Turn):
                movers = [s for s in (st.seat, *st.also) if s != 0]
                if movers:
                    party = h.by_seat(movers[0])
                    assert isinstance(party, Peer)
                    return party
            if h.done or not h.step():
                self.seed += 1
                self.h = _fresh(self.game, self.seed)
            h.pump()
        raise AssertionError("no peer's turn came")


@functools.cache
def _table(game: str) -> _Table:
    return _Table(game)


def _body(party: Peer, move: object) -> MoveBody:
    """``move`` with the mover's shares of whatever hidden cards of its hand it names (so
    moves that show cards get as far as the rules), as a cheat would build it."""
    t = party.table
    game, seat, me = t.game, t.my_seat, t.me
    assert game is not None and seat is not None and me is not None
    try:
        claims = game.reveals(game.moves.read(move))
    except ShapeError:
        return MoveBody(move)  # type: ignore[arg-type]
    mine = [h for h in claims if h in t.cards.ct and h not in t.cards.public
            and t.cards.missing(h, len(t.members)) == [seat]]  # fmt: skip
    if not mine:
        return MoveBody(move)  # type: ignore[arg-type]
    batch = ShareBatch.create(me.key, [t.cards.ct[h] for h in mine],
                              t._ctx("reveal", len(t.log), seat))  # fmt: skip
    return MoveBody(move, tuple(zip(mine, batch.ds, strict=True)), batch.proof)  # type: ignore[arg-type]


def _state(party: Host | Peer | Watcher) -> tuple[Any, ...]:
    t = party.table
    game = t.game
    assert game is not None
    return len(t.log), t.log.head, t.phase, pack(game.encode_state(t.state))


def _blind(party: Host | Peer | Watcher, seat: int, move: object) -> bool:
    """Can ``party`` not judge ``move`` by ``seat`` as the rules do, for want of a card it
    never saw? (A verdict on a hand shown to the challenger alone: the hand's owner and the
    host judge it, every other copy takes it as legal; the audit, with every card known,
    names a false one.) A move of no shape, or one its own rules refuse, is judged."""
    game = party.table.game
    assert game is not None
    try:
        read = game.moves.read(move)
    except ShapeError:
        return False
    try:
        game.check(party.table.state, seat, read)
    except IllegalMove:
        return False
    return True


def _propose(h: Harness, author: Peer, se: SignedEntry) -> str:
    """Hand ``se`` to the host on ``author``'s connection (a new one if the host hung up on
    it), and let any race it opened be drawn; the host's reason if it refused it."""
    i = h.peers.index(author)
    cid = h.conns[i]
    try:
        h.host.receive_data(cid, frame(encode_message(Propose(se.raw, se.sig))))
    except RemoteProtocolError:
        assert h.host.finished(cid)
    if h.host.racing() is not None:
        h.host.close_race()
    data = h.host.data_to_send(cid)
    refused = ""
    for payload in _frames([data]):
        msg = decode_message(payload)
        assert not isinstance(msg, Halt), msg
        if isinstance(msg, Refuse):
            assert msg.pos in (-1, se.entry.pos) and len(msg.reason) <= 300
            refused = msg.reason
    h.deliver_to_peer(i, data)
    if h.host.finished(cid):  # past its refusals: it comes back on a new connection
        h.conns[i] = h.host.connect()
        author.reconnect()
    author._outstanding = None  # it proposed nothing through its own program
    return refused


@pytest.mark.parametrize("game", NAMES)
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
@given(data=st.data())
def test_a_seated_players_fuzzed_moves_are_judged_alike_and_never_break_a_copy(
    game: str, data: st.DataObject
) -> None:
    table = _table(game)
    author = table.author()
    h = table.h
    move = data.draw(any_move_of(GAMES[game].moves), label="move")
    se = author.table.entry(_body(author, move))
    seq = relay_signature(h.host.identity, se.raw)
    others = [p for p in (*h.peers, *h.watchers)]
    before = {id(p): _state(p) for p in (h.host, *others)}
    refused = _propose(h, author, se)
    taken = len(h.host.table.log) > se.entry.pos and h.host.table.log.entries[se.entry.pos] == se
    if not taken:  # refused: the host's copy is as it was, and so is every other copy's
        assert _state(h.host) == before[id(h.host)]
        seat = author.seat
        assert seat is not None
        for party in others:
            if "illegal move" in refused and _blind(party, seat, move):
                continue  # it never saw the card the host judged by (the audit will)
            with pytest.raises(RemoteProtocolError) as err:
                party.table.apply(se, seq)
            assert err.value.culprit == fingerprint(se.entry.author)
            assert _state(party) == before[id(party)]
    h.pump()
    # Taken or not, every copy agrees, and a copy that stopped names the mover.
    for party in (h.host, *h.peers, *h.watchers):
        assert party.table.log.head == h.host.table.log.head, (
            type(party).__name__, party.seat, len(party.table.log), len(h.host.table.log),
            party.table.phase, getattr(party, "stopped", None), taken)  # fmt: skip
        if party.table.phase is Phase.STOPPED:
            assert party.table.stop_error is not None
            assert party.table.stop_error.culprit == fingerprint(se.entry.author)


def _relay_from(host: Identity, se: SignedEntry) -> bytes:
    return frame(encode_message(Relay(se.raw, se.sig, relay_signature(host, se.raw))))


@pytest.mark.parametrize("game", NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_host_that_opens_a_table_with_misshapen_options_is_named(
    game: str, data: st.DataObject
) -> None:
    g = GAMES[game]
    options = data.draw(options_of(g.option_specs), label="options")
    host = Identity()
    body = OpenTable(game, options, g.min_seats, "mal", SealKey().public)  # type: ignore[arg-type]
    se = SignedEntry.create(host, Entry(bytes(16), 0, bytes(32), host.public.raw, body))
    peer = Peer(Identity(), "ann", GAMES)
    peer.receive_data(frame(encode_message(Challenge(bytes(32), 0, bytes(32)))))
    peer.receive_data(_relay_from(host, se))
    transcript = pack({"v": ENTRY_VERSION, "type": "lanparty-transcript",
                       "entries": [[se.raw, se.sig, relay_signature(host, se.raw)]]})  # fmt: skip
    if peer.stopped is None:  # options of their declared shapes, every one given: a table
        assert peer.table.options == options and peer.table.game is g
        assert not audit_transcript(transcript, GAMES).complete
        return
    assert peer.stopped.culprit == fingerprint(host.public.raw), peer.stopped
    with pytest.raises(RemoteProtocolError) as err:
        audit_transcript(transcript, GAMES)
    assert err.value.culprit == fingerprint(host.public.raw)


@pytest.mark.parametrize("game", NAMES)
def test_a_misshapen_move_in_a_transcript_fails_the_audit_naming_its_author(game: str) -> None:
    table = _table(game)
    author = table.author()
    h = table.h
    for move in _LIST_HANDLES[game]:
        se = author.table.entry(MoveBody(move))
        log = h.host.table.log
        entries = [[s.raw, s.sig, q] for s, q in zip(log.entries, log.seqs, strict=True)]
        entries.append([se.raw, se.sig, relay_signature(h.host.identity, se.raw)])
        transcript = pack({"v": ENTRY_VERSION, "type": "lanparty-transcript",
                           "entries": entries})  # fmt: skip
        with pytest.raises(RemoteProtocolError) as err:
            audit_transcript(transcript, GAMES)
        assert err.value.culprit == fingerprint(se.entry.author), err.value
        assert err.value.pos == se.entry.pos


#: For every game, moves with a list where a card's handle (or a number) goes: one of these
#: once raised a TypeError inside KaTO's ``reveals`` and ended the host's process.
_LIST_HANDLES: dict[str, list[Move]] = {
    "kato": [("play", ([1],), ("r5",), ""), ("play", (1,), (["r5"],), "")],
    "unikato": [("place", [1], "cOsW", 0, 0), ("draw", [1])],
    "unanimo": [("object", ["x"]), ("words", [["a"]])],
    "unicorns": [("peek", [1]), ("plant", [1], 2, 3, "shiny")],
}


#: Sealed values of no declared shape, for every game whose moves can be sealed.
_SEALED = {
    "unanimo": [["words", [["a"]]], ["words", "abc"], "words", ["words", [1, 2]]],
    "unicorns": [["cards", [[1]]], ["cards", 1], ["cards", [1, "2"]]],
}


@pytest.mark.parametrize(("game", "value"), [(g, v) for g, vs in _SEALED.items() for v in vs])
def test_a_sealed_value_of_no_shape_stops_the_table_naming_who_sealed_it(
    game: str, value: object
) -> None:
    """A seat commits to a value of no move's shape and opens it when due: it can never
    open anything else, so every copy stops there, naming it, with its commitment and its
    opening as evidence; no game code sees the value."""
    h = _fresh(game, 11)
    for _ in range(500):
        st = h.host.status()
        if isinstance(st, Commit) and any(s != 0 for s in st.seats):
            break
        assert h.step()
        h.pump()
    else:
        raise AssertionError("no sealed phase came")
    seat = next(s for s in st.seats if s != 0)
    cheat = h.by_seat(seat)
    assert isinstance(cheat, Peer)
    t = cheat.table
    assert t.anchor is not None
    digest, opening = commit(pack(value), t._ctx("sealed", t.anchor, seat))
    t._mine = (t.anchor, digest, opening, False)
    cheat.perform_duty()  # its commitment goes out
    for _ in range(50):  # everyone else seals honestly; its opening goes out when due
        h.pump()
        if h.done:
            break
        st = h.host.status()
        if not isinstance(st, Commit):
            h.step()
            continue
        for s in st.seats:
            party = h.by_seat(s)
            if s != seat and not party.table.sealed_now():
                party.play(h.bots[s].choose(party.view(), list(party.legal_moves()), h.rng))
    for party in (h.host, *h.peers, *h.watchers):
        err = party.table.stop_error
        assert party.phase is Phase.STOPPED and err is not None, type(party).__name__
        assert err.culprit == cheat.table.members[seat].fingerprint and err.seat == seat
        assert "sealed a move the rules refuse" in err.reason and len(err.evidence) == 2


class _Fragile:
    """A game whose rules code fails where it should refuse: ``check`` on ``"check-bug"``,
    ``apply`` on ``"apply-bug"`` (standing for any bug a peer's values could find)."""

    name, min_seats, max_seats, option_specs = "fragile", 2, 2, ()
    moves = Moves.of(say=(Text(10),))

    def validate_options(self, given):
        return {}

    def setup(self, seats, options):
        return {"said": []}

    def status(self, st):
        return GameOver(self.outcome(st)) if len(st["said"]) == 4 else Turn(len(st["said"]) % 2)

    def check(self, st, seat, move):
        if move[1] == "check-bug":
            raise TypeError("unhashable type: 'list'")

    def apply(self, st, seat, move):
        if move[1] == "apply-bug":
            st["said"].append(None)
            raise KeyError("half-way")
        st["said"].append(move[1])

    def resolve(self, st, result):
        raise AssertionError("no request is made")

    def reveals(self, move):
        return {}

    def legal_moves(self, st, seat):
        return [("say", "hi")]

    def view(self, st, seat):
        return {"said": [x or "" for x in st["said"]]}

    def outcome(self, st):
        return Outcome((0, 0), (), (), len(st["said"]) == 4)

    def encode_state(self, st):
        return [x or "" for x in st["said"]]

    def decode_state(self, value):
        raise NotImplementedError

    def audit(self, st, cards):
        return []


def test_a_rules_engine_failing_on_a_peers_move_refuses_it_or_stops_every_copy_naming_it() -> None:
    h = Harness({"fragile": _Fragile()}, "fragile", 2, {}, [None, None], seed=1, watchers=1)
    h.pump()
    host, peer = h.host, h.peers[0]
    host.play(("say", "hi"))
    h.pump()
    assert host.status() == Turn(1)
    me = fingerprint(peer.table.me.identity.public.raw)  # type: ignore[union-attr]
    # Judging it failed: refused, naming the peer; nothing changed, the game goes on.
    se = peer.table.entry(MoveBody(("say", "check-bug")))
    before = _state(host)
    _propose(h, peer, se)
    h.pump()
    assert _state(host) == before and host.phase is Phase.GAME
    [rejected] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert rejected.culprit == me and "rules engine failed on it (TypeError" in rejected.reason
    # Applying it failed half-way: every copy stops there, naming the peer, the entry kept.
    se = peer.table.entry(MoveBody(("say", "apply-bug")))
    _propose(h, peer, se)
    h.pump()
    for party in (host, peer, *h.watchers):
        err = party.table.stop_error
        assert party.phase is Phase.STOPPED and err is not None, type(party).__name__
        assert err.culprit == me and err.evidence == (se.raw,) and "KeyError" in err.reason
        assert party.table.log.entries[-1].raw == se.raw

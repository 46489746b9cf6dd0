"""Unikato on the real protocol (in-process harness, real crypto): a whole game ends with a
clean audit, and a tile placed under a label it does not have is refused, its author named."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from lanparty.games.engine import Engine
from lanparty.games.unikato import UNIKATO, UnikatoState
from lanparty.games.unikato.bots import HeuristicBot
from lanparty.games.unikato.tiles import LABEL
from lanparty.games.unikato.view import PASS_RULE
from protocol import Phase, Rejected, audit_transcript
from protocol._bodies import MoveBody
from protocol._messages import Entry
from protocol.contract import Move, Plain, Turn
from protocol.harness import Harness

GAMES = {"unikato": UNIKATO}


def test_a_whole_game_on_the_protocol_ends_with_a_clean_audit() -> None:
    h = Harness(GAMES, "unikato", 2, {"first": "host"}, [HeuristicBot(), HeuristicBot()], seed=3)
    h.run()
    assert h.done
    outcomes = {UNIKATO.outcome(p.table.state) for p in h.parties}
    assert len(outcomes) == 1 and next(iter(outcomes)).finished
    for p in h.parties:
        assert p.table.report is not None and p.table.report.complete
        assert p.table.report.findings == ()
    assert not [e for events in h.events for e in events if isinstance(e, Rejected)]


class Exchanger:
    """Puts a tile on the display whenever it may (and plays as the heuristic bot else)."""

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        swaps = [m for m in legal if m is not None and m[0] == "exchange"]
        return swaps[0] if swaps else self.bot.choose(view, legal, rng)


@pytest.mark.parametrize("kind", ["place", "exchange"])
def test_a_tile_shown_under_a_false_label_is_refused_and_named(kind: str) -> None:
    """A tile laid on the grid or put on the display under another tile's label: the
    mover's reveal proof does not open to that label, so the host refuses the entry, names
    the seat, and nothing of it is applied."""
    bots = [HeuristicBot(), HeuristicBot() if kind == "place" else Exchanger()]
    h = Harness(GAMES, "unikato", 2, {"first": "host"}, bots, seed=4)
    h.pump()
    while not (isinstance(status := h.host.status(), Turn) and status.seat == 1):
        assert h.step()
        h.pump()
    peer = h.by_seat(1)
    party = h.parties.index(peer)
    told: dict[str, object] = {}

    def lie(e: Entry) -> Entry | None:
        body = e.body
        if not isinstance(body, MoveBody) or body.move[0] != kind:
            return None
        truth = body.move[2]
        told["claim"] = claim = next(t for t in LABEL if t != truth)
        told["handle"] = body.move[1]
        return replace(e, body=replace(body, move=(*body.move[:2], claim, *body.move[3:])))

    h.tamper(party, lie)
    before = UNIKATO.view(h.host.table.state, None)
    assert h.step()
    h.pump()
    assert told, f"seat 1 made no {kind} move"
    [rejected] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert rejected.seat == 1
    assert f"card {told['handle']} is not the {told['claim']!r} the move claims" in rejected.reason
    assert UNIKATO.view(h.host.table.state, None) == before  # nothing of it was applied
    for p in h.parties:  # in no copy at all
        assert UNIKATO.view(p.table.state, None) == before


# ----------------------------------------------------------------------------- a false pass


class Drainer:
    """Lays one tile a turn and draws one at its end: from the display, or from the bag if
    ``private`` (so its hand stays unseen). The bag and then the display run dry while the
    hands stay full; the first that can, ``cheat``, passes once holding a tile that fits."""

    def __init__(self, private: bool = False, cheat: bool = False) -> None:
        self.private, self.cheat, self.cheated = private, cheat, False

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        moves = [m for m in legal if m is not None]
        places = [m for m in moves if m[0] == "place"]
        if self.cheat and not self.cheated and places and ("pass",) in moves:
            self.cheated = True
            return ("pass",)
        if ("done",) in moves:
            return ("done",)
        if places:
            return places[0]
        draws = [m for m in moves if m[0] == "draw"]
        if draws:
            return ([m for m in draws if (m[1] == "bag") == self.private] or draws)[0]
        swaps = [m for m in moves if m[0] == "exchange"]
        return next((m for m in swaps if m[3] == "bag"), swaps[0] if swaps else moves[0])


class CheatingClient(Engine[UnikatoState]):
    """A modified program: its own copy lets its seat pass whenever the bag and the display
    are empty, hiding from itself the tiles of its hand that fit (the honest engine, which
    knows its own hand, would refuse the pass)."""

    def legal_moves(self, state: UnikatoState, seat: int) -> list[Move]:
        moves = super().legal_moves(state, seat)
        view = self.view(state, seat)
        dry = view["bag"] == 0 and view["display"] == [] and view["current"] == seat
        if dry and view["phase"] == "action" and view["action"] == 1 and ("pass",) not in moves:
            moves.append(("pass",))
        return moves

    def check(self, state: UnikatoState, seat: int, move: Move) -> None:
        if move == ("pass",) and ("pass",) in self.legal_moves(state, seat):
            return
        super().check(state, seat, move)


def test_a_pass_while_a_hidden_tile_fitted_is_named_by_the_audit() -> None:
    """Four peers on the real protocol; seat 1 runs a modified program and passes once,
    holding tiles nobody else has seen, one of which fits. Every honest copy must accept
    the pass (it cannot see the hand); at the end every peer publishes its secrets and the
    audit, the same in every copy and again offline, names seat 1 and the pass's entry."""
    bots = [Drainer(), Drainer(private=True, cheat=True), Drainer(), Drainer()]
    h = Harness(GAMES, "unikato", 4, {"first": "host"}, bots, seed=0)
    cheater = h.peers[0]
    cheater.table.games = {"unikato": CheatingClient(UNIKATO.rules)}
    h.run()
    assert h.by_seat(1) is cheater and bots[1].cheated
    assert h.done and all(p.phase is Phase.CLOSED for p in h.parties)
    assert not [e for events in h.events for e in events if isinstance(e, Rejected)]
    reports = [p.table.report for p in h.parties]
    assert reports[0] is not None and all(r == reports[0] for r in reports)
    [finding] = reports[0].findings
    assert (finding.seat, finding.rule) == (1, PASS_RULE) and not reports[0].ok
    entry = h.host.table.log.entries[finding.pos].entry
    assert isinstance(entry.body, MoveBody) and list(entry.body.move) == ["pass"]
    me = cheater.table.me
    assert me is not None and entry.author == me.identity.public.raw
    assert audit_transcript(h.host.transcript(), GAMES) == reports[0]

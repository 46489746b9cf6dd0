"""Kill the Unicorns over the real table protocol (in-process harness, real crypto): a whole
game ends the same in every copy and passes the audit; hunt cards are sealed by every hunter
before any is opened; every way a hidden card comes to light (a discarded scheme named by a
plant, hunt cards opened, a planted scheme turned over, a scheme shown to the Princess) is
checked, and a lie in any of them is refused or stops the table with the culprit named.
Privacy from the bytes received is in ``test_unicorns_privacy.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from crypto._commit import Opening
from lanparty.games.bots import RandomBot
from lanparty.games.unicorns import UNICORNS
from lanparty.games.unicorns.bots import HeuristicBot
from lanparty.games.unicorns.cards import SCHEMES
from lanparty.games.unicorns.state import REVEAL
from protocol import Phase, Rejected, Stopped, pack
from protocol._bodies import MoveBody, SealedOpen, SharesBody, Show
from protocol._codec import unpack
from protocol._messages import Entry
from protocol.harness import Harness

GAMES = {"unicorns": UNICORNS}


def _kinds(h: Harness) -> list[str]:
    return [se.entry.body.KIND for se in h.host.table.log.entries]


def _fingerprint(h: Harness, party: int) -> str:
    me = h.parties[party].table.me
    assert me is not None
    return me.identity.public.fingerprint


def _until(make: Callable[[int], Harness], done: Callable[[Harness], bool]) -> Harness:
    """The first of a few seeded games (made and run by ``make``) where ``done`` holds."""
    for seed in range(12):
        h = make(seed)
        if done(h):
            return h
    raise AssertionError("no seed produced the situation under test")


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


class _Watcher:
    """A bot that, whenever it is asked to decide in a hunt, notes which hunters have sealed
    cards in its view and what its view shows of their values."""

    def __init__(self, inner: HeuristicBot, seen: list[tuple[int, int, list[int]]]) -> None:
        self.inner, self.seen = inner, seen

    def choose(self, view, legal, rng):
        hunt = view.get("hunt")
        if view["phase"] in ("bid", "commit") and hunt is not None:
            for s in hunt["sealed"]:
                self.seen.append((view["seat"], s, hunt["cards"][s]))
        return self.inner.choose(view, legal, rng)


def test_hunt_cards_are_sealed_by_every_hunter_before_any_is_opened() -> None:
    """Hunters seal one after another; each later hunter decides seeing the earlier ones'
    cards as sealed, values unknown; no card is opened before the last hunter has decided,
    then all are opened, each by the seat that sealed it."""
    seen: list[tuple[int, int, list[int]]] = []
    bots = [_Watcher(HeuristicBot(), seen) for _ in range(4)]
    h = Harness(GAMES, "unicorns", 4, {}, bots, seed=5)
    h.run()
    assert h.host.table.report.ok and all(p.phase is Phase.CLOSED for p in h.parties)
    assert seen and all(me != s and cards == [] for me, s, cards in seen)
    runs: list[tuple[str, list[bytes]]] = []  # consecutive commits, then consecutive opens
    for se in h.host.table.log.entries:
        kind = se.entry.body.KIND
        if kind not in ("seal_commit", "seal_open"):
            continue
        if runs and runs[-1][0] == kind:
            runs[-1][1].append(se.entry.author)
        else:
            runs.append((kind, [se.entry.author]))
    assert [kind for kind, _ in runs] == ["seal_commit", "seal_open"] * (len(runs) // 2)
    hunts = [(runs[i][1], runs[i + 1][1]) for i in range(0, len(runs), 2)]
    for sealed, opened in hunts:
        assert sorted(sealed) == sorted(opened) and len(set(sealed)) == len(sealed)
    assert max(len(sealed) for sealed, _ in hunts) >= 3  # one hunt sealed by three seats


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
    assert errors[0].culprit == _fingerprint(h, 1)
    assert all(p.phase is Phase.CLOSED for p in h.parties)
    author = h.peers[0].table.me.identity.public.raw
    opened = [
        unpack(se.entry.body.opening.value, 1 << 16)  # type: ignore[attr-defined]
        for se in h.host.table.log.entries
        if se.entry.body.KIND == "seal_open" and se.entry.author == author
    ]
    # Its first opening in the log is what it sealed (the lie was never logged).
    assert opened[0] == sealed != claimed


def test_a_discarded_scheme_named_falsely_is_refused_and_named() -> None:
    """A plant names the discarded scheme and carries its owner's share of it: a peer that
    names another scheme than the card is refused by the card itself, named, and plants
    again truly; the game ends with the audit passed."""
    h = Harness(GAMES, "unicorns", 3, {}, [HeuristicBot() for _ in range(3)], seed=1)
    lies: list[tuple[int, str, str]] = []

    def rename(entry: Entry) -> Entry | None:
        body = entry.body
        if not isinstance(body, MoveBody) or body.move[0] != "plant":
            return None
        move = list(body.move)
        true = move[4]
        move[4] = next(s for s in SCHEMES if s != true)
        lies.append((move[3], true, move[4]))
        return replace(entry, body=replace(body, move=move))

    h.tamper(1, rename)
    h.run()
    [(card, true, lie)] = lies
    [err] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert f"card {card} is not the {lie!r} the move claims" in err.reason
    assert err.seat == h.peers[0].seat and err.culprit == _fingerprint(h, 1)
    assert all(p.phase is Phase.CLOSED for p in h.parties) and h.host.table.report.ok
    assert all(p.table.state.card_of[card] == true for p in h.parties)


def test_a_false_share_of_a_scheme_turned_over_is_refused_and_named() -> None:
    """The owner's share turns a planted scheme over for everyone: a share that does not match
    its proof is refused, the owner named; the true one follows and the game ends audited."""

    def make(seed: int) -> Harness:
        h = Harness(GAMES, "unicorns", 3, {}, [HeuristicBot() for _ in range(3)], seed=seed)
        owner = h.peers[0]

        def corrupt(entry: Entry) -> Entry | None:
            st = h.host.table.state
            body = entry.body
            if not isinstance(body, SharesBody) or st is None or st.phase != REVEAL:
                return None
            [(handle, _)] = body.shares
            assert handle == st.chosen and st.owner[handle] == owner.seat
            other = h.host.table.me.key.secret  # the host's share: not the owner's
            bad = h.host.table.cards.ct[handle].a * other
            h.fired = True  # type: ignore[attr-defined]
            return replace(entry, body=SharesBody(((handle, bad),), body.proof))

        h.tamper(1, corrupt)
        h.run()
        return h

    h = _until(make, lambda h: getattr(h, "fired", False))
    [err] = [e.error for e in h.events[0] if isinstance(e, Rejected)]
    assert "wrong decryption share" in err.reason and err.culprit == _fingerprint(h, 1)
    assert all(p.phase is Phase.CLOSED for p in h.parties) and h.host.table.report.ok
    assert h.host.table.state.reveals  # the scheme was turned over all the same


def test_an_owner_who_shows_the_princess_a_bad_box_is_named() -> None:
    """The Princess's peek is a box of the owner's shares sealed to her: a box she cannot
    open stops the table for everyone, with the owner named and the evidence kept."""

    def make(seed: int) -> Harness:
        h = Harness(GAMES, "unicorns", 4, {}, [HeuristicBot() for _ in range(4)], seed=seed)

        def bad_box(entry: Entry) -> Entry | None:
            if entry.body.KIND != "show":
                return None
            h.fired = True  # type: ignore[attr-defined]
            return replace(entry, body=Show(bytes(80)))

        h.tamper(1, bad_box)
        h.run()
        return h

    h = _until(make, lambda h: getattr(h, "fired", False))
    for events in h.events:
        [stop] = [e for e in events if isinstance(e, Stopped)]
        assert stop.error.culprit == _fingerprint(h, 1)
        assert stop.error.seat == h.peers[0].seat and len(stop.error.evidence) == 2
    assert all(p.phase is Phase.STOPPED for p in h.parties)

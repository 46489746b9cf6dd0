"""The ``hard`` bots' search: determinized rollouts over what one seat may know.

A game that has a hard bot gives a :class:`Searchable`: ``determinize(view, options, rng)``
builds a whole engine state (every card, tile or word filled in) that agrees with the seat's
view, the hidden part drawn at random from what the seat cannot rule out. :class:`SearchBot`
samples such states, tries every candidate move in each (the same sample and the same dice
for every candidate: a paired comparison), plays each on with the game's own engine and its
``normal`` bots to a horizon (the end of the round, or of the game), and keeps the move with
the best mean value for its seat. It never sees more than the view it is handed: the table
gives it nothing else, and nothing here reads a table.

The work per decision is capped twice (:class:`Think`): in rollouts (the result is then a
function of the view, the legal moves and the rng's state alone) and in wall-clock seconds (a
person's patience; reaching it first makes the move depend on the machine's speed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.contract import (
    Commit,
    Committed,
    Game,
    GameError,
    Move,
    Outcome,
    Plain,
    Seat,
)

from .localdealer import LocalTable
from .strategy import Bot

__all__ = ["DEFAULT_THINK", "SearchBot", "Searchable", "Think", "rank_value"]


@dataclass(frozen=True, slots=True)
class Think:
    """How long a hard bot may think about one move: at most ``rollouts`` playouts (times
    the game's :attr:`Searchable.scale`, for a game whose playouts are cheap) and at most
    ``seconds`` of wall-clock time, whichever comes first."""

    rollouts: int = 240
    seconds: float = 1.2

    @classmethod
    def given(cls, seconds: float | None) -> Think:
        """The budget of ``--think S``: ``S`` seconds and a rollout cap in proportion to
        the default's (200 a second), so that more time is more thought, not a cap the
        rollouts never reach; :data:`DEFAULT_THINK` for ``None``."""
        if seconds is None:
            return DEFAULT_THINK
        per_second = DEFAULT_THINK.rollouts / DEFAULT_THINK.seconds
        return cls(max(1, round(per_second * seconds)), seconds)


#: The interactive default: under 1.5 s a move on a 2-core machine.
DEFAULT_THINK = Think()


def rank_value(before: Outcome, after: Outcome, seat: Seat) -> float:
    """1 if ``seat`` gained the most points between ``before`` and ``after`` (a share of 1
    on a tie), else 0; plus a small share of its lead over the best other gain (so that,
    among won lines, the wider win counts a little more). In ``[0, 1.1]``-ish."""
    gains = [a - b for a, b in zip(after.totals, before.totals, strict=True)]
    mine = gains[seat]
    others = [g for s, g in enumerate(gains) if s != seat]
    best_other = max(others) if others else 0
    top = max(gains)
    tied = gains.count(top)
    win = (1.0 / tied) if mine == top else 0.0
    spread = max(1, max(abs(g) for g in gains))
    return win + 0.1 * (mine - best_other) / spread


@dataclass(frozen=True, slots=True)
class Searchable:
    """What a game gives its hard bot.

    ``determinize(view, options, rng)``: a full state (every hidden thing filled in, with
    the dealer's labels given by ``labels(state)``) whose ``view`` for the seat agrees with
    ``view``; raises ``GameError`` (or ``ValueError``/``KeyError``) if it cannot, and the bot
    then plays as ``normal``. ``policy()``: the bot that plays every seat in a rollout.
    ``horizon(before, after)``: the rollout may stop
    here (default: a round was scored); ``depth``: it stops after that many moves anyway.
    ``value(before, after, state, seat)``: how good the rollout's end is for ``seat``
    (default: :func:`rank_value`, for a horizon that scores). ``candidates(view, legal)``:
    the moves worth searching (default: all of them). ``clone(state)``: an independent copy;
    given, a sample is filled in once and every candidate plays on a copy of it.
    ``scale``: how many of this game's rollouts cost what one of the budget's does (a game
    whose rollouts are cheap plays ``scale`` times :attr:`Think.rollouts` of them, in the
    same wall-clock cap)."""

    game: Game[Any]
    determinize: Callable[[Mapping[str, Plain], Mapping[str, Plain], random.Random], Any]
    labels: Callable[[Any], dict[int, str]]
    policy: Callable[[], Bot]
    value: Callable[[Outcome, Outcome, Any, Seat], float] | None = None
    horizon: Callable[[Outcome, Outcome], bool] | None = None
    depth: int | None = None
    candidates: Callable[[Mapping[str, Plain], Sequence[Move | None]], list[Move | None]] | None = (
        None
    )
    max_moves: int = 600
    own: Callable[[], Bot] | None = None
    clone: Callable[[Any], Any] | None = None
    sealed: Callable[[Mapping[str, Plain], Any, random.Random], dict[Seat, Move]] | None = None
    scale: int = 1

    def cap(self, think: Think) -> int:
        """The rollouts one decision may play at most under ``think``: its budget's, times
        this game's ``scale``."""
        return think.rollouts * self.scale


def _round_scored(before: Outcome, after: Outcome) -> bool:
    """The default horizon: a round has been scored since ``before``."""
    return len(after.rounds) > len(before.rounds)


class SearchBot:
    """The ``hard`` level: flat Monte Carlo over candidate moves with determinized
    rollouts (see the module's doc). ``fallback`` (the ``normal`` bot) plays where no search
    is possible (a single candidate, a view it cannot fill in) and breaks ties."""

    #: How sure the search must be (in standard errors of the paired difference) before it
    #: plays another move than the rules of thumb would.
    confidence = 1.0
    #: It thinks long: a networked seat lets it think in a worker thread.
    slow = True

    def __init__(
        self,
        spec: Searchable,
        options: Mapping[str, Plain],
        think: Think = DEFAULT_THINK,
        fallback: Bot | None = None,
    ) -> None:
        self.spec = spec
        self.options = dict(spec.game.validate_options(options))
        self.think = think
        #: The rollouts a decision may play at most (the budget's, times the game's scale).
        self.rollouts = spec.cap(think)
        own = spec.own or spec.policy
        self.fallback = fallback if fallback is not None else own()
        self.times: list[float] = []  # seconds per searched decision (measurements)

    def choose(
        self, view: dict[str, Plain], legal: Sequence[Move | None], rng: random.Random
    ) -> Move | None:
        """The candidate with the best mean rollout value; the fallback's move on a tie or
        when nothing can be searched. Draws exactly one number from ``rng``."""
        seed = rng.getrandbits(64)
        default = self.fallback.choose(view, legal, random.Random(seed))
        spec = self.spec
        cands = spec.candidates(view, legal) if spec.candidates else list(legal)
        if default not in cands:
            cands.insert(0, default)
        if len(cands) <= 1 or view.get("seat") is None:
            return default
        start = time.perf_counter()
        notes = getattr(self.fallback, "notes", None)
        if notes is not None:  # what the rules of thumb learnt from earlier views
            view = {**view, **notes()}
        try:
            best = self._search(view, cands, default, seed, start)
        except (GameError, ValueError, KeyError):
            best = default  # a view this game's determinizer cannot fill in
        self.times.append(time.perf_counter() - start)
        played = getattr(self.fallback, "played", None)
        if best != default and played is not None:
            played(view, best)  # rules of thumb that watch the table learn the real move
        return best

    def _search(
        self,
        view: dict[str, Plain],
        cands: list[Move | None],
        default: Move | None,
        seed: int,
        start: float,
    ) -> Move | None:
        """Paired rollouts, sample after sample, until the budget is spent."""
        seat = view["seat"]
        assert isinstance(seat, int)
        think = self.think
        rows: list[dict[int, float]] = []
        live = list(range(len(cands)))
        d = cands.index(default)
        spent = 0
        deadline = start + think.seconds
        while spent + len(live) <= self.rollouts:
            sample_seed = seed ^ (len(rows) * 0x9E3779B97F4A7C15 & (2**64 - 1))
            row: dict[int, float] = {}
            base = None
            if self.spec.clone is not None:
                base = self.spec.determinize(view, self.options, random.Random(sample_seed))
            for i in live:
                value = self._rollout(view, seat, cands[i], sample_seed, base)
                row[i] = -1.0 if value is None else value  # illegal there: it cannot win
                spent += 1
                if time.perf_counter() > deadline:
                    break
            if len(row) < len(live):
                break  # out of time mid-sample: only whole samples count
            rows.append(row)
            # Halve the field (the default stays) once every candidate has a few samples.
            if len(live) > 2 and len(rows) in (4, 10, 24):
                live.sort(key=lambda i: (-_mean(rows, i, d)[0], i))
                keep = max(2, len(live) // 2)
                live = live[:keep] + ([d] if d in live[keep:] else [])
            if time.perf_counter() > deadline:
                break
        best, best_gain = d, 0.0
        for i in live:
            gain, spread = _mean(rows, i, d)
            # Leave the rules of thumb only for a move clearly better in the same samples.
            if i != d and gain > best_gain and gain > self.confidence * spread:
                best, best_gain = i, gain
        return cands[best]

    def _rollout(
        self,
        view: dict[str, Plain],
        seat: int,
        move: Move | None,
        sample_seed: int,
        base: Any = None,
    ) -> float | None:
        """``move`` played in the sample ``sample_seed`` draws (``base``, if the sample is
        already filled in: a copy of it), then every seat played by the policy to the
        horizon; the value for ``seat`` (``None``: the move is illegal there)."""
        spec = self.spec
        game = spec.game
        det_rng = random.Random(sample_seed)
        if base is not None and spec.clone is not None:
            state = spec.clone(base)
        else:
            state = spec.determinize(view, self.options, det_rng)
        table = LocalTable.over(game, state, spec.labels(state), random.Random(sample_seed + 1))
        if spec.sealed is not None:
            table.sealed.update(spec.sealed(view, state, det_rng))
        before = game.outcome(state)
        status = game.status(state)
        if move is not None:
            try:
                game.check(state, seat, move)
            except GameError:
                return None
            if isinstance(status, Commit):
                table.sealed[seat] = move
                table._feed(Committed(seat))
            else:
                table.submit(seat, move)
        bots = [spec.policy() for _ in range(table.seats)]
        horizon = spec.horizon or _round_scored
        most = spec.max_moves if spec.depth is None else spec.depth + table.moves
        while table.moves < most and table.step(bots):
            if horizon(before, game.outcome(table.state)):
                break
        table.resolve_pending()
        after = game.outcome(table.state)
        if spec.value is None:
            return rank_value(before, after, seat)
        return spec.value(before, after, table.state, seat)


def _mean(rows: list[dict[int, float]], i: int, d: int) -> tuple[float, float]:
    """Candidate ``i``'s mean gain over candidate ``d`` in the samples that tried both, and
    the standard error of that mean (``inf`` with fewer than two samples)."""
    diffs = [row[i] - row[d] for row in rows if i in row and d in row]
    k = len(diffs)
    if k < 2:
        return (sum(diffs) / k if k else 0.0), float("inf")
    mean = sum(diffs) / k
    var = sum((x - mean) ** 2 for x in diffs) / (k - 1)
    return mean, (var / k) ** 0.5

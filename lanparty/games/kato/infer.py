"""What one KaTO seat can infer about the other hands from the views it is handed, one after
another (nothing else: the public part of each view, and the seat's own moves).

A :class:`Watcher` keeps, for every other seat, one *slot* per card it holds: the set of
cards that slot cannot be (a bit mask over card codes), learnt from what that player did
while this seat watched. Between two of this seat's views it compares the table (the top
card, the colour, the counts, the size of the discard pile) with how its own last move left
it:

* a player who drew one card while the top card stayed as it was (nothing pending) had
  nothing to play on it: none of its cards is of that colour or rank, nor a wild (and the
  card it drew and kept did not fit either);
* a player who drew a card and played it had nothing to play before it drew;
* a player who played a Wild with more than two cards had no other card that fitted, and
  one who played a Wild Draw Four had none of the colour in play;
* a player who took a Wild Draw Four aimed at it had nothing to put on it (a Draw Two or a
  Wild Draw Four, under ``seed`` stacking).

Every card played from a hand is also kept as a *record* of the choice (the table before it,
the card, the colour named): the search's sampler prefers hands from which a player that
follows the rules of thumb would have made the same choice (a player who names a colour
after a wild usually holds most of it). The cards seen on the discard pile are kept too
(they are in no hand). Anything the seat cannot follow (several cards played between two of
its views, a reshuffle) forgets what it knew of the players involved: the notes never claim
more than was seen.

:func:`sample_hand` deals one hand from the pool under those notes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from lanparty.games.views import num, num_at, seq
from protocol.contract import Move, Plain

from .cards import (
    CODE,
    COLOUR,
    COLOURS,
    DRAW2,
    IS_WILD,
    N_CODES,
    NO_COLOUR,
    POINTS,
    RANK,
    REVERSE,
    SKIP,
    WILD4,
)

__all__ = ["Watcher", "choice_fits", "sample_hand"]

_COLOUR_OF = {c: i for i, c in enumerate(COLOURS)}
_ATTACK = (10, 11, 12, 14, 15)  # Skip, Reverse, Draw Two, Wild Draw Four, cone (as the bots)


#: Bit masks over card codes: the wilds, each colour's cards, each rank's.
WILDS = sum(1 << c for c in range(N_CODES) if IS_WILD[c])
COLOUR_MASK = [sum(1 << c for c in range(N_CODES) if COLOUR[c] == k) for k in range(4)]
RANK_MASK = [sum(1 << c for c in range(N_CODES) if RANK[c] == r) for r in range(16)]
#: What may go on a Wild Draw Four under ``seed`` stacking: any Draw Two, a Wild Draw Four.
ANSWERS_W4 = RANK_MASK[DRAW2] | RANK_MASK[WILD4]
#: How many choices of one player are kept for the sampler (the latest).
RECORDS = 8


def _fits_top(top: int, colour: int) -> int:
    """The cards that could be played on ``top`` with ``colour`` in play (nothing pending)."""
    out = WILDS | (COLOUR_MASK[colour] if colour != NO_COLOUR else 0)
    if RANK[top] < 13:
        out |= RANK_MASK[RANK[top]]
    return out


class _Table:
    """The table as this seat's last move left it."""

    __slots__ = ("colour", "counts", "discard", "pending", "round", "top")

    def __init__(self, view: Mapping[str, Plain]) -> None:
        self.round = num(view, "round")
        top = view.get("top")
        self.top = CODE[str(top)] if top in CODE else -1
        colour = view.get("colour")
        self.colour = _COLOUR_OF.get(str(colour), NO_COLOUR)
        self.counts = [num_at(view, "counts", i) for i in range(len(seq(view, "counts")))]
        self.discard = num(view, "discard")
        self.pending = view.get("pending") is not None


class Watcher:
    """One seat's notes on the other hands over a round (see the module's doc). ``see`` each
    view this seat is handed, then ``left`` with the move it made from it."""

    def __init__(self) -> None:
        self._after: _Table | None = None
        self._aimed_w4 = -1  # the seat this seat's last move aimed a Wild Draw Four at
        self.slots: dict[int, list[list[int]]] = {}  # seat -> [[slot id, forbidden mask]]
        self.records: list[tuple[int, int, int, int, int, int, list[int], list[int]]] = []
        #: seat, top, colour, next seat's count, card played, colour named (or NO_COLOUR),
        #: the slot ids it kept, and the cards it kept that it has played since.
        self._played: dict[int, int] = {}  # slot id -> the card it turned out to be
        self.pile: list[int] = []  # cards seen on the discard pile, the top last
        self._seen = 0  # the pile's length as this seat's last view left it
        self._named = NO_COLOUR  # the colour in play now (named, if a wild was played)
        self._next_id = 0
        self._seat = -1

    # ------------------------------------------------------------------ following the table

    def see(self, view: Mapping[str, Plain]) -> None:
        """Learn what happened since this seat's last move (from the table ``view`` shows)."""
        seat = view.get("seat")
        if not isinstance(seat, int) or view.get("top") not in CODE:
            return
        now = _Table(view)
        after, self._after = self._after, None
        if after is None or after.round != now.round or len(after.counts) != len(now.counts):
            self._reset(seat, now)
            return
        self._seat = seat
        d = now.discard - after.discard
        changed = [s for s in range(len(now.counts)) if s != seat
                   and now.counts[s] != after.counts[s]]  # fmt: skip
        if d < 0:  # a reshuffle: the pile is gone, and who drew what is unclear
            self.pile = [now.top]
            for s in changed:
                self._forget(s, now.counts[s])
        elif d == 0:
            self._drew(after, now, changed)
        elif d == 1:
            self.pile.append(now.top)
            self._named = now.colour
            self._one_play(after, now, changed)
        else:  # several plays unseen (a count may not even move): forget every other seat
            self.pile.append(now.top)
            for s in range(len(now.counts)):
                if s != seat:
                    self._forget(s, now.counts[s])
        for s in range(len(now.counts)):
            if s != seat and len(self.slots.get(s, [])) != now.counts[s]:
                self._forget(s, now.counts[s])
        self._seen = len(self.pile)

    def left(self, view: Mapping[str, Plain], move: Move | None) -> None:
        """Note the table as ``move`` (this seat's, made from ``view``) leaves it."""
        if view.get("top") not in CODE or not isinstance(view.get("seat"), int):
            self._after = None
            return
        del self.pile[self._seen :]  # told again of a move made from the same view
        after = _Table(view)
        self._aimed_w4 = -1
        if move is not None and move[0] == "play":
            labels: tuple[str, ...] = move[2]  # type: ignore[assignment]
            codes = [CODE[label] for label in labels]
            after.discard += len(codes)
            after.counts[num(view, "seat")] -= len(codes)
            self.pile.extend(codes)
            after.top = codes[-1]
            after.colour = _COLOUR_OF[str(move[3])] if IS_WILD[codes[-1]] else COLOUR[codes[-1]]
            after.pending = False  # what it aims at the next player is told apart below
            if RANK[codes[-1]] in (DRAW2, WILD4):
                after.pending = True
            if RANK[codes[-1]] == WILD4:
                n = len(after.counts)
                self._aimed_w4 = (num(view, "seat") + num(view, "direction")) % n
        elif move is not None and move[0] == "accept":
            after.pending = False  # taken: the table goes on as if nothing were aimed
        elif move is not None and move[0] == "challenge":
            after.discard = -1  # what follows is not followed: forget the other hands
        elif move is not None and move[0] == "catch":
            kato = view.get("kato")
            if isinstance(kato, int) and 0 <= kato < len(after.counts):
                after.counts[kato] += 2  # the caught player draws two, unseen
                self._add(kato, 2)
        self._after = after

    # ------------------------------------------------------------------ what each event says

    def _drew(self, after: _Table, now: _Table, changed: list[int]) -> None:
        """No card played since: who drew one on the untouched table had nothing for it."""
        untouched = now.top == after.top and not after.pending and after.colour != NO_COLOUR
        fits = _fits_top(after.top, after.colour) if untouched else 0
        for s in changed:
            grew = now.counts[s] - after.counts[s]
            if grew < 0:
                self._forget(s, now.counts[s])
                continue
            if s == self._aimed_w4 and grew >= 4:
                self._forbid(s, ANSWERS_W4)  # it took the Wild Draw Four: nothing to stack
            self._add(s, grew)
            if untouched and grew == 1:
                self._forbid(s, fits)

    def _one_play(self, after: _Table, now: _Table, changed: list[int]) -> None:
        """One card played since: by the one seat whose hand shrank by one (or, with two
        players, that drew and played what it drew, or played a card that gave it another
        turn and then drew), judged against the table as this seat left it."""
        shrank = [s for s in changed if now.counts[s] == after.counts[s] - 1]
        player = shrank[0] if len(shrank) == 1 else -1
        others = [s for s in changed if s != player]
        if player < 0 and not others and len(now.counts) == 2:
            other = 1 - self._seat  # its count did not move
            code = now.top
            if after.pending:
                self._forget(other, now.counts[other])
            elif RANK[code] in (SKIP, REVERSE, DRAW2) and not now.pending:
                # It played this one from its hand, went again, drew one on it and kept it.
                if self._from_hand(other, after, code):
                    self._add(other, 1)
                    self._forbid(other, _fits_top(code, now.colour))
            elif after.colour != NO_COLOUR:  # it drew, and played the card it drew
                self._forbid(other, _fits_top(after.top, after.colour))
            return
        for s in others:
            self._forget(s, now.counts[s])
        if player >= 0:
            self._from_hand(player, after, now.top)

    def _from_hand(self, player: int, after: _Table, code: int) -> bool:
        """``player`` played ``code`` from its hand on the table ``after``: take the slot it
        came from and note the choice; ``False`` if no slot could have held it (the notes
        on it are then forgotten)."""
        slots = self.slots.setdefault(player, [])
        bit = 1 << code
        fitting = [sl for sl in slots if not sl[1] & bit]
        if not fitting:  # the notes were wrong: start again for this player
            self._forget(player, len(slots) - 1)
            return False
        # The card came from the slot that says most of all those it may have come from:
        # the slots kept say no more than before (the notes grow older slots' masks most).
        gone = max(fitting, key=lambda sl: (sl[1].bit_count(), -sl[0]))
        slots.remove(gone)
        self._played[gone[0]] = code
        if after.pending or after.colour == NO_COLOUR:
            return True
        named = after.colour if not IS_WILD[code] else self._named
        # The next player's count (with more than two, the smallest other: the bots' worry).
        nxt = min(c for s, c in enumerate(after.counts) if s != player)
        kept = [sl[0] for sl in slots]
        self.records.append((player, after.top, after.colour, nxt, code, named, kept, []))
        del self.records[:-RECORDS]
        if RANK[code] == WILD4:
            self._forbid(player, COLOUR_MASK[after.colour])  # no bluff from the rules of thumb
        if IS_WILD[code] and len(slots) + 1 > 2 and (RANK[code] != WILD4 or nxt > 2):
            fits = _fits_top(after.top, after.colour) & ~WILDS
            self._forbid(player, fits)  # a wild is kept for when nothing else fits
        return True

    # ------------------------------------------------------------------ slots

    def _reset(self, seat: int, now: _Table) -> None:
        self._seat = seat
        self.slots = {}
        self.records = []
        self._played = {}
        self.pile = [now.top]
        self._seen = 1
        for s, count in enumerate(now.counts):
            if s != seat:
                self._forget(s, count)

    def _forget(self, s: int, count: int) -> None:
        """``s`` may hold anything: ``count`` free slots, no record of its choices."""
        self.slots[s] = []
        self.records = [r for r in self.records if r[0] != s]
        self._add(s, count)

    def _add(self, s: int, k: int) -> None:
        slots = self.slots.setdefault(s, [])
        for _ in range(max(0, k)):
            slots.append([self._next_id, 0])
            self._next_id += 1

    def _forbid(self, s: int, mask: int) -> None:
        for sl in self.slots.get(s, []):
            sl[1] |= mask

    # ------------------------------------------------------------------ the notes

    def notes(self) -> dict[str, Plain]:
        """The notes as plain data, for the search's sampler (``infer``): ``pile`` (the cards
        seen on the discard pile as the last view showed it, the top last), ``slots`` (per
        other seat, ``[seat, masks]``: the cards each of its cards cannot be, in slot order)
        and ``records`` (choices it made: ``[seat, top, colour, next count, card, named
        colour, slot indices it kept, cards it kept and played since]``). Cards are codes."""
        slots: list[Plain] = []
        where: dict[int, tuple[int, int]] = {}
        for s in sorted(self.slots):
            masks: list[Plain] = []
            for i, (ident, mask) in enumerate(self.slots[s]):
                where[ident] = (s, i)
                masks.append(mask)
            slots.append([s, masks])
        records: list[Plain] = []
        for player, top, colour, nxt, code, named, kept, _ in self.records:
            held: list[Plain] = []
            since: list[Plain] = []
            for ident in kept:
                if ident in where and where[ident][0] == player:
                    held.append(where[ident][1])
                elif ident in self._played:
                    since.append(self._played[ident])
                else:
                    break
            else:
                records.append([player, top, colour, nxt, code, named, held, since])
        pile: list[Plain] = list(self.pile[: self._seen])  # as the view shows it
        return {"infer": {"pile": pile, "slots": slots, "records": records}}


# ---------------------------------------------------------------------- the sampler


def choice_fits(
    hand: Sequence[int], top: int, colour: int, nxt: int, code: int, named: int
) -> bool:
    """Would the rules of thumb (``HeuristicBot``), holding ``hand`` (card codes, the played
    one included) on ``top`` with ``colour`` in play and the next player holding ``nxt``
    cards, have played ``code`` (naming ``named`` if it is a wild)? Ties count as yes."""
    per = [0, 0, 0, 0, 0]
    for c in hand:
        per[COLOUR[c]] += 1
    n = len(hand)
    fits = _fits_top(top, colour)

    def score(c: int, col: int) -> float:
        s = 10.0 + POINTS[c] / 10 + 4 * (per[col] - (1 if COLOUR[c] == col else 0))
        if IS_WILD[c]:
            if n > 2:
                s -= 30
            if RANK[c] == WILD4 and per[colour]:
                s -= 100
        if RANK[c] in _ATTACK and nxt <= 2:
            s += 25
        if COLOUR[c] == NO_COLOUR and n <= 2:
            s += 5
        return s

    mine = score(code, named if IS_WILD[code] else COLOUR[code])
    for c in set(hand):
        if fits >> c & 1:
            for col in range(4) if IS_WILD[c] else (COLOUR[c],):
                if score(c, col) > mine + 1e-9:
                    return False
    return True


def sample_hand(
    pool: list[int],
    masks: Sequence[int],
    records: Sequence[tuple[Sequence[int], Sequence[int], Sequence[int]]],
    rng: random.Random,
    tries: int = 12,
) -> list[int]:
    """Cards for one hand, one per slot of ``masks`` (a slot never gets a card its mask
    forbids while the pool holds another), taken out of ``pool``. ``records``: the player's
    choices (``(record, slot indices, cards played since)``); of up to ``tries`` deals the
    first that agrees with all of them, else the one that agrees with most."""
    order = sorted(range(len(masks)), key=lambda i: -masks[i].bit_count())
    allowed = {m: [j for j, c in enumerate(pool) if not m >> c & 1] for m in set(masks) if m}
    best: list[int] = []
    best_bad = len(records) + 1
    size = len(pool)
    for _ in range(tries):
        taken: set[int] = set()
        hand = [0] * len(masks)
        for i in order:
            some = allowed.get(masks[i])
            j = -1
            for _attempt in range(24):
                k = some[rng.randrange(len(some))] if some else rng.randrange(size)
                if k not in taken:
                    j = k
                    break
            if j < 0:  # nothing it may be is left: any card
                j = next(k for k in range(size) if k not in taken)
            taken.add(j)
            hand[i] = j
        bad = 0
        for record, held, since in records:
            kept = [pool[hand[i]] for i in held] + list(since)
            if not choice_fits([*kept, record[4]], *record[1:6]):
                bad += 1
        if bad < best_bad:
            best, best_bad = hand, bad
            if bad == 0:
                break
    cards = [pool[j] for j in best]
    for j in sorted(best, reverse=True):
        pool.pop(j)
    return cards

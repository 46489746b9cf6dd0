"""Running a batch of table requests: the entries each seat owes, their checks, the results.

:class:`BatchSteps` is the part of :class:`~protocol._table.Table` that fulfils the game's
``TableOps`` with the crypto core, following the schedule planned in ``_deck``: shuffles, coins,
decryption shares, show-to-one. Every check runs before any change, so a refused entry leaves
the table as it was; only a shuffle proof may be checked beside the table instead
(``defer_checks``, see ``_checks``), and then a failure stops the table.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from crypto import (
    CardSet,
    Ciphertext,
    CryptoError,
    Point,
    SealKey,
    ShareBatch,
    coin_commitment,
    fingerprint,
    joint_coin,
    show_cards,
    shuffle,
    unmask,
    verify_opening,
    verify_shuffle,
)
from crypto import open_shown_cards as _open_shown

from ._audit import ShowRecord
from ._bodies import Body, CoinCommit, CoinOpen, SharesBody, Show, ShowAck, ShuffleBody
from ._checks import CheckQueue, DeferredCheck
from ._deck import Batch, Cards, check_share_set
from ._errors import RemoteProtocolError, engine_failure
from ._events import Event, Stopped
from ._log import Log, context
from ._messages import Entry, SignedEntry
from ._roles import Member, Phase, Private
from .contract import (
    CoinResult,
    Deal,
    Dealt,
    Game,
    GameError,
    JointCoin,
    Result,
    Revealed,
    RevealToAll,
    Shown,
    ShowToSeat,
    Shuffle,
    Shuffled,
)


def _fail(reason: str) -> RemoteProtocolError:
    return RemoteProtocolError(reason)


_T = TypeVar("_T")


def judged(judge: Callable[[], _T]) -> _T:
    """``judge()``: a pure call of game code on a peer's values (a move's shape, its reveals,
    ``check``, the options), which changes nothing. Whatever it raises is that peer's fault:
    a ``GameError`` or protocol error passes as it is, any other exception becomes a
    :class:`RemoteProtocolError` (the entry is refused, its author named)."""
    try:
        return judge()
    except (GameError, RemoteProtocolError):
        raise
    except Exception as exc:
        raise _fail(engine_failure(exc)) from None


class BatchSteps(CheckQueue):
    """Batch duties and checks, mixed into ``Table`` (which owns every attribute below)."""

    log: Log
    me: Private | None
    members: list[Member]
    phase: Phase
    game: Game[Any] | None
    state: Any
    cards: Cards
    key_shares: list[Point]
    table_key: Point | None
    known: dict[int, str]
    inputs: list[int]
    shows: list[ShowRecord]
    stop_error: RemoteProtocolError | None
    _events: list[Event]
    _by_key: dict[bytes, Member]
    batch: Batch | None

    @property
    def table_id(self) -> bytes | None:
        """The table id (``None`` before the first entry)."""
        return self.log.table

    @property
    def my_seat(self) -> int | None:
        """This peer's seat, if seated."""
        if self.me is None:
            return None
        m = self._by_key.get(self.me.identity.public.raw)
        return None if m is None else m.seat

    def _ctx(self, kind: str, pos: int, seat: int, *extra: int | str | bytes) -> bytes:
        assert self.table_id is not None
        return context(self.table_id, kind, pos, seat, *extra)

    def _batch_duty(self, b: Batch, seat: int, me: Private, pos: int) -> Body | None:
        """The entry ``seat`` (this peer) owes to batch ``b`` at ``pos``, if it owes one now."""
        step = b.step
        if step is None or step.seat != seat:
            return None
        assert self.table_key is not None
        if step.kind != "shuffle" and self.checking:
            return None  # a deck's proof is still being checked: we open nothing yet
        if step.kind == "shuffle":
            src = self._shuffle_source(b, step.index)
            out, proof = shuffle(
                src, self.table_key, self._ctx("shuffle", pos, seat, step.index), me.rng
            )
            return ShuffleBody(tuple(out), proof)
        if step.kind in ("coin_commit", "coin_open"):
            # Derived from our key share and the log head we commit on, not kept: a seat
            # restarted between its commitment and its opening (its key share saved) opens
            # exactly what it committed, and a host that shows it another history (a rolled
            # back log) gets another contribution, never one it saw opened.
            head = b.coin_heads.get(seat, self.log.head)
            made = [coin_commitment(me.key, self._coin_ctx(b, seat, k, head)) for k in b.coins]
            if step.kind == "coin_commit":
                return CoinCommit(tuple(d for d, _ in made))
            return CoinOpen(tuple(o for _, o in made))
        if step.kind == "shares":
            handles = b.owed[seat]
            cts = [self.cards.ct[h] for h in handles]
            batch = ShareBatch.create(me.key, cts, self._share_ctx(pos, seat))
            return SharesBody(tuple(zip(handles, batch.ds, strict=True)), batch.proof)
        req = b.requests[step.index]
        assert isinstance(req, ShowToSeat)
        if step.kind == "show":
            cts = [self.cards.ct[h] for h in req.handles]
            ctx = self._ctx("show", pos, seat)
            return Show(show_cards(me.key, cts, self.members[req.to_seat].seal, ctx))
        complaint = step.index in b.complaint
        return ShowAck(me.seal.secret_bytes() if complaint else None)

    def _coin_ctx(self, b: Batch, seat: int, index: int, head: bytes) -> bytes:
        """The context of ``seat``'s contribution to coin ``index`` of ``b``, committed on
        the log head ``head``."""
        return self._ctx("coin", b.anchor, seat, index, head)

    def _share_ctx(self, pos: int, seat: int) -> bytes:
        return self._ctx("shares", pos, seat)

    def _shuffle_source(self, b: Batch, index: int) -> list[Ciphertext]:
        if index in b.decks:
            return b.decks[index]
        req = b.requests[index]
        assert isinstance(req, Shuffle) and self.table_key is not None
        return CardSet(self._deck_name(b, index), len(req.cards)).open_mask(self.table_key)

    def _deck_name(self, b: Batch, index: int) -> str:
        req = b.requests[index]
        assert isinstance(req, Shuffle) and self.table_id is not None
        return f"{self.table_id.hex()}/{b.anchor}/{index}/{req.deck}"

    def _step(self, e: Entry, se: SignedEntry, seat: int, body: Body, own: bool) -> None:
        b = self.batch
        assert b is not None and self.table_key is not None
        step = b.step
        assert step is not None
        if step.kind != body.KIND or seat != step.seat:
            raise _fail(f"out of turn: the table waits for a {step.kind} by seat {step.seat}")
        if isinstance(body, ShuffleBody):
            src = self._shuffle_source(b, step.index)
            if len(body.deck) != len(src):
                raise _fail(f"shuffle of {len(body.deck)} cards, expected {len(src)}")
            if not own:  # beside the table, or here: we open nothing until it holds
                ctx = self._ctx("shuffle", e.pos, seat, step.index)
                self._check(DeferredCheck(
                    partial(verify_shuffle, tuple(src), body.deck, self.table_key, body.proof,
                            ctx),
                    "bad shuffle proof", fingerprint(e.author), seat, e.pos,
                ))  # fmt: skip
            b.decks[step.index] = list(body.deck)
            if seat == len(self.members) - 1:
                req = b.requests[step.index]
                assert isinstance(req, Shuffle)
                cs = CardSet(self._deck_name(b, step.index), len(req.cards))
                self.cards.add(req.handles, body.deck, cs, req.cards)
        elif isinstance(body, CoinCommit):
            if len(body.digests) != len(b.coins):
                raise _fail(f"{len(b.coins)} coin commitments are due")
            b.coin_digests[seat] = body.digests
            b.coin_heads[seat] = e.prev
        elif isinstance(body, CoinOpen):
            self._coin_open(b, seat, body)
        elif isinstance(body, SharesBody):
            check_share_set(body.shares, b.owed[seat], seat)
            if not own:
                cts = [self.cards.ct[h] for h, _ in body.shares]
                batch = ShareBatch(tuple(d for _, d in body.shares), body.proof)
                try:
                    batch.verify(self.key_shares[seat], cts, self._share_ctx(e.pos, seat))
                except CryptoError:
                    handles = [h for h, _ in body.shares]
                    raise _fail(f"wrong decryption shares for cards {handles}") from None
            for h, d in body.shares:
                self.cards.shares[h][seat] = d
        elif isinstance(body, Show):
            self._show(e, b, seat, step.index, body)
        elif isinstance(body, ShowAck):
            self._show_ack(se, b, step.index, body)
        b.at += 1

    def _coin_open(self, b: Batch, seat: int, body: CoinOpen) -> None:
        digests = b.coin_digests[seat]
        if len(body.openings) != len(digests):
            raise _fail(f"{len(digests)} coin openings are due")
        for k, (d, o) in enumerate(zip(digests, body.openings, strict=True)):
            try:
                verify_opening(d, o, self._coin_ctx(b, seat, b.coins[k], b.coin_heads[seat]))
            except CryptoError:
                raise _fail("a coin opening does not match its commitment") from None
        b.coin_values[seat] = tuple(o.value for o in body.openings)

    def _show(self, e: Entry, b: Batch, seat: int, index: int, body: Show) -> None:
        req = b.requests[index]
        assert isinstance(req, ShowToSeat)
        for h in req.handles:
            if self.cards.missing(h, len(self.members)) != [seat]:
                raise _fail(f"card {h} is not in seat {seat}'s hand")
        b.boxes[index] = (e.pos, body.box)
        self.shows.append(ShowRecord(e.pos, seat, req.to_seat, req.handles, body.box))
        me = self.me
        if me is None or self.my_seat != req.to_seat:
            return
        cts = [self.cards.ct[h] for h in req.handles]
        ctx = self._ctx("show", e.pos, seat)
        try:
            ds = _open_shown(me.seal, body.box, cts, self.key_shares[seat], ctx)
            b.shown[index] = tuple(
                self.cards.label(h, unmask(ct, [*self.cards.shares[h].values(), d]))
                for h, ct, d in zip(req.handles, cts, ds, strict=True)
            )
        except CryptoError as exc:
            b.complaint[index] = str(exc)

    def _show_ack(self, se: SignedEntry, b: Batch, index: int, body: ShowAck) -> None:
        req = b.requests[index]
        assert isinstance(req, ShowToSeat)
        if body.complaint is None:
            return
        recipient, holder = self.members[req.to_seat], self.members[req.from_seat]
        try:
            key = SealKey(body.complaint)
        except (CryptoError, ValueError):
            raise _fail("the complaint's seal secret is malformed") from None
        if key.public != recipient.seal:
            raise _fail("the complaint's seal secret is not the recipient's seal key")
        pos, box = b.boxes[index]
        cts = [self.cards.ct[h] for h in req.handles]
        show_raw = self.log.entries[pos].raw
        try:
            _open_shown(
                key, box, cts, self.key_shares[req.from_seat], self._ctx("show", pos, req.from_seat)
            )
        except CryptoError as exc:
            err = RemoteProtocolError(
                f"the cards shown to seat {req.to_seat} were sealed wrongly: {exc}",
                culprit=holder.fingerprint, seat=holder.seat, pos=pos,
                evidence=(show_raw, se.raw),
            )  # fmt: skip
        else:
            err = RemoteProtocolError(
                "complained about a shown hand that opens and verifies",
                culprit=recipient.fingerprint, seat=recipient.seat, pos=se.entry.pos,
                evidence=(show_raw, se.raw),
            )  # fmt: skip
        self.phase = Phase.STOPPED
        self.stop_error = err
        self._events.append(Stopped(err))

    def _resolve_batch(self, b: Batch) -> None:
        assert self.game is not None and self.table_id is not None
        mine = self.my_seat
        for i, req in enumerate(b.requests):
            result: Result
            if isinstance(req, Shuffle):
                result = Shuffled(req.deck, req.handles)
            elif isinstance(req, Deal):
                cards = None
                if mine == req.seat and self.me is not None:
                    key = self.me.key
                    cards = tuple(self.cards.open_mine(h, key) for h in req.handles)
                    self.known.update(zip(req.handles, cards, strict=True))
                result = Dealt(req.seat, req.handles, cards)
            elif isinstance(req, RevealToAll):
                labels = tuple(self.cards.open_public(h) for h in req.handles)
                self.cards.public.update(zip(req.handles, labels, strict=True))
                self.known.update(zip(req.handles, labels, strict=True))
                result = Revealed(req.handles, labels)
            elif isinstance(req, ShowToSeat):
                shown = b.shown.get(i) if mine == req.to_seat else None
                if shown is not None:
                    self.known.update(zip(req.handles, shown, strict=True))
                result = Shown(req.from_seat, req.to_seat, req.handles, shown)
            else:
                assert isinstance(req, JointCoin)
                k = b.coins.index(i)
                values = [b.coin_values[s][k] for s in range(len(self.members))]
                ctx = context(self.table_id, "coin", b.anchor, -1, req.purpose, i)
                result = CoinResult(joint_coin(values, req.n, ctx))
            self.game.resolve(self.state, result)
            self.inputs.append(len(self.log) - 1)

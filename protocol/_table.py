"""The table: one replicated state machine, applied identically by every peer (and offline).

:meth:`Table.apply` takes a signed entry and either applies it entirely or raises
:class:`RemoteProtocolError` naming its author, with nothing changed. The same rules hold for
every author, ourselves included; the only difference our own secrets make is what this copy
may unmask (its own hand) and which entries it owes (:meth:`Table.duty`).

Lifecycle: ``open`` (pos 0, the host) → ``join``s (``start`` by the host, or a full table,
fixes the seats) → one ``key`` per seat, in seat order → the game, whose table requests run as
batches (see ``_deck``) → game over → ``secrets`` per seat (the audit) → ``signoff`` per seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crypto import (
    CryptoError,
    KnownKeys,
    Opening,
    Point,
    SealKey,
    fingerprint,
    read_seal_public,
)

from ._audit import ShowRecord, audit, secret_matches
from ._bodies import (
    Body,
    Join,
    KeyShareBody,
    Kick,
    MoveBody,
    OpenTable,
    SealClose,
    SealedCommit,
    SealedOpen,
    Secrets,
    SignOff,
    Start,
)
from ._codec import pack
from ._deck import Batch, Cards, plan
from ._errors import LocalProtocolError, RemoteProtocolError, engine_failure, excerpt
from ._events import (
    Applied,
    AuditFinished,
    AuditReport,
    Event,
    GameEnded,
    Joined,
    Removed,
    SeatsFixed,
    Stopped,
    TableClosed,
)
from ._log import Log
from ._messages import (
    Entry,
    SignedEntry,
    entry_hash,
)
from ._moves import MoveSteps
from ._names import looks_alike, name_problem
from ._roles import Member, Phase, Private
from ._sealed import SealedSteps
from ._steps import _fail, judged
from .contract import (
    Commit,
    Game,
    GameError,
    GameOver,
    Move,
    Open,
    Plain,
    Shuffle,
    Status,
    TableOps,
    Turn,
)
from .shapes import read_options


def _due(st: Status, seat: int, kind: str) -> bool:
    """True if ``st`` (the game's status outside a batch) lets ``seat`` author ``kind``."""
    return (
        (isinstance(st, Turn) and kind == "move" and (seat == st.seat or seat in st.also))
        or (isinstance(st, Commit) and kind == "seal_commit" and seat in st.seats)
        or (isinstance(st, Open) and kind == "seal_open" and bool(st.seats) and st.seats[0] == seat)
        or (isinstance(st, Commit) and kind == "seal_close" and st.closer == seat)
    )


class Table(MoveSteps, SealedSteps):
    """One copy of a table's state, with this peer's secrets (``me``) or none (a spectator)."""

    def __init__(
        self,
        games: Mapping[str, Game[Any]],
        me: Private | None = None,
        *,
        host_key: bytes | None = None,
        defer_checks: bool = False,
    ) -> None:
        """``defer_checks``: shuffle proofs are checked beside the table (``_checks``)."""
        self.games = games
        self.me = me
        self.host_key = host_key
        self.log = Log()
        #: The keys this copy has checked (its seats', its host's): each validated once.
        self.keys = KnownKeys()
        self.members: list[Member] = []
        self._by_key: dict[bytes, Member] = {}
        self.phase = Phase.LOBBY
        self.capacity = 0
        self.options: dict[str, Plain] = {}
        self.game: Game[Any] | None = None
        self.state: Any = None
        self.key_shares: list[Point] = []
        self.table_key: Point | None = None
        self.cards = Cards()
        self.batch: Batch | None = None
        self.known: dict[int, str] = {}
        self.inputs: list[int] = []
        self.shows: list[ShowRecord] = []
        self._sealed: dict[int, tuple[bytes, int, int]] = {}
        self._mine: tuple[int, bytes, Opening, bool] | None = None
        self.anchor: int | None = None
        self._key_secrets: list[int] = []
        self._seal_secrets: list[bytes] = []
        self.report: AuditReport | None = None
        self._closing: bytes | None = None
        self._signed = 0
        self._duty_cache: tuple[int, Body] | None = None
        self.stop_error: RemoteProtocolError | None = None
        self._events: list[Event] = []
        self._last_move: Move | None = None
        self._contested = False
        self._init_checks(defer_checks)

    # ------------------------------------------------------------------ queries

    def member(self, key: bytes) -> Member | None:
        """The member with identity ``key``, if any."""
        return self._by_key.get(key)

    @property
    def opening(self) -> OpenTable | None:
        """The table's ``open`` body (its game, options, seats, and ``night``: where it
        stands in a night of games), once applied."""
        if not self.log.entries:
            return None
        body = self.log.entries[0].entry.body
        return body if isinstance(body, OpenTable) else None

    @property
    def closing(self) -> bytes | None:
        """The closing digest every seat signed off, once the table is closed (what the next
        game of a night names as ``NightLink.digest``); else ``None``."""
        return self._closing if self.phase is Phase.CLOSED else None

    def member_at(self, seat: int) -> Member | None:
        """The member in ``seat``, if that seat is taken."""
        return self.members[seat] if 0 <= seat < len(self.members) else None

    def halt(self, err: RemoteProtocolError) -> None:
        """Stop here for ``err`` (a halt from the host, or ours as the host): no entry follows."""
        if self.phase not in (Phase.CLOSED, Phase.STOPPED):
            self.phase = Phase.STOPPED
            self.stop_error = err

    def waiting_on(self) -> tuple[int, str] | None:
        """The seat whose entry the table waits for now and what it owes (``"key"``,
        ``"shuffle"``, ``"shares"``, ``"coin_commit"``, ``"coin_open"``, ``"show"``,
        ``"show_ack"``, ``"move"``, ``"seal_commit"``, ``"seal_open"``, ``"secrets"``,
        ``"signoff"``); ``None`` in the lobby and once closed or stopped. For a turn with
        out-of-turn seats, the turn-holder is named."""
        phase = self.phase
        if phase is Phase.KEYS:
            return (len(self.key_shares), "key")
        if phase is Phase.AUDIT:
            return (len(self._key_secrets), "secrets")
        if phase is Phase.SIGNOFF:
            return (self._signed, "signoff")
        if phase is not Phase.GAME:
            return None
        b = self.batch
        if b is not None:
            step = b.step
            return (step.seat, step.kind) if step is not None else None
        st = self.status()
        if isinstance(st, Turn):
            return (st.seat, "move")
        if isinstance(st, Commit):
            return (st.seats[0], "seal_commit") if st.seats else None
        if isinstance(st, Open):
            return (st.seats[0], "seal_open") if st.seats else None
        return None

    def status(self) -> Status | None:
        """The game's status while the game runs outside a table batch, else ``None``."""
        if self.phase is not Phase.GAME or self.batch is not None or self.game is None:
            return None
        return self.game.status(self.state)

    def may_move(self, seat: int) -> bool:
        """True if ``seat`` may send a game move (or a sealed-move commitment) now."""
        st = self.status()
        if isinstance(st, Turn):
            return seat == st.seat or seat in st.also
        return isinstance(st, Commit) and seat in st.seats

    def legal_moves(self) -> list[Move]:
        """This peer's legal moves now (empty if it may not move)."""
        seat = self.my_seat
        if seat is None or self.game is None or not self.may_move(seat):
            return []
        return self.game.legal_moves(self.state, seat)

    def precheck(self, seat: int | None, kind: str, body: Mapping[str, object]) -> str | None:
        """Why ``seat`` (``None``: a key with no seat) may not author a ``kind`` entry now,
        told from the entry's kind and the shape of its plain ``body`` alone; ``None`` if it
        may, as far as that can tell. Cheap: the host asks it before it parses a proposal's
        curve points, so a peer cannot make it validate points for an entry not due."""
        if self.phase in (Phase.CLOSED, Phase.STOPPED):
            return f"the table is {self.phase.value}; no entry may follow"
        if kind == "join":
            return None  # the join's own checks give the reason (full, started, name taken)
        if seat is None:
            return "the author has no seat at this table"
        if self.phase is Phase.GAME and self.batch is None and self.game is not None:
            st = self.game.status(self.state)
            if _due(st, seat, kind):
                return None
            return f"out of turn: a {kind} by seat {seat} is not due"
        due = self.waiting_on()
        if due != (seat, kind):
            want = f"a {due[1]} by seat {due[0]}" if due else "no entry"
            return f"out of turn: the table waits for {want}"
        b = self.batch
        if kind == "shuffle" and b is not None and b.step is not None:
            req = b.requests[b.step.index]
            deck = body.get("deck")
            size = len(req.cards) if isinstance(req, Shuffle) else -1
            if not isinstance(deck, list) or len(deck) != size:
                return f"a shuffle must hold {size} cards"
        return None

    # ------------------------------------------------------------------ our own entries

    def entry(self, body: Body) -> SignedEntry:
        """Sign ``body`` as the next entry of this log (we are its author)."""
        if self.me is None:
            raise LocalProtocolError("a spectator cannot author entries")
        tid = self.table_id
        if tid is None:
            raise LocalProtocolError("no table yet")
        me, log = self.me.identity, self.log
        entry = Entry(tid, len(log), log.head, me.public.raw, body, log.version)
        return SignedEntry.create(me, entry)

    def duty(self) -> Body | None:
        """The entry this peer owes now (key share, shuffle, shares, coin, show, secrets,
        signoff), computed once per log position; ``None`` if it owes nothing."""
        seat, me = self.my_seat, self.me
        if seat is None or me is None:
            return None
        pos = len(self.log)
        if self._duty_cache is not None and self._duty_cache[0] == pos:
            return self._duty_cache[1]
        body = self._make_duty(seat, me, pos)
        if body is not None:
            self._duty_cache = (pos, body)
        return body

    def _make_duty(self, seat: int, me: Private, pos: int) -> Body | None:
        if self.phase is Phase.KEYS:
            if len(self.key_shares) == seat:
                return KeyShareBody(me.key.prove(self._ctx("key", pos, seat)))
            return None
        if self.phase is Phase.AUDIT:
            if len(self._key_secrets) == seat:
                return Secrets(me.key.secret_bytes(), me.seal.secret_bytes())
            return None
        if self.phase is Phase.SIGNOFF:
            if self._signed == seat and self._closing is not None:
                return SignOff(self._closing)
            return None
        if self.phase is not Phase.GAME:
            return None
        b = self.batch
        if b is None:
            st = self.status()
            return self._sealed_duty(seat, st) if st is not None else None
        return self._batch_duty(b, seat, me, pos)

    # ------------------------------------------------------------------ applying entries

    def apply(
        self, se: SignedEntry, seq: bytes = b"", *, own: bool = False, sig_checked: bool = False
    ) -> list[Event]:
        """Check and apply one signed entry; returns the events it causes.

        ``own`` skips re-verifying the signature and proofs of an entry this peer made itself;
        ``sig_checked`` says the caller has verified the signature already.
        Raises :class:`RemoteProtocolError` naming the author (by fingerprint and seat) if the
        entry is misplaced, forged, out of turn or breaks a rule; nothing is changed then.
        """
        e = se.entry
        author = self._by_key.get(e.author)
        seat = author.seat if author else None
        crash: Exception | None = None
        try:
            if self.phase in (Phase.CLOSED, Phase.STOPPED):
                raise _fail(f"the table is {self.phase.value}; no entry may follow")
            self.log.check_place(se)
            if not (own or sig_checked):
                se.verify(self.keys)
            self._events = []
            self._last_move = None
            self._contested = False
            self._dispatch(e, se, author, own)
        except RemoteProtocolError as exc:
            raise exc.blame(fingerprint(e.author), seat, e.pos) from None
        except Exception as exc:  # past its judging (``judged``): this copy may be half-changed
            crash = exc
        self.log.append(se, seq)
        if crash is None and self.phase is Phase.SIGNOFF and self._closing is None:
            self._closing = self.closing_digest(self.log.head)
        self._events.append(Applied(e.pos, seat, e.body.KIND, self._last_move, self._contested))
        if crash is None:
            try:
                self._advance()
            except Exception as exc:
                crash = exc
        if crash is not None:
            self._broken(se, seat, crash)
        return self._events

    def _broken(self, se: SignedEntry, seat: int | None, crash: Exception) -> None:
        """Applying ``se`` failed half-way (a rules engine raised while it changed the state):
        this copy cannot go on. Every copy runs the same engine on the same entry and stops
        here alike, naming the entry's author, with the entry as evidence."""
        e = se.entry
        err = RemoteProtocolError(
            f"its {e.body.KIND} entry stopped the table: {engine_failure(crash)}",
            culprit=fingerprint(e.author), seat=seat, pos=e.pos, evidence=(se.raw,),
        )  # fmt: skip
        self.phase = Phase.STOPPED
        self.stop_error = err
        self._events.append(Stopped(err))

    def _dispatch(self, e: Entry, se: SignedEntry, author: Member | None, own: bool) -> None:  # noqa: C901
        body = e.body
        if isinstance(body, OpenTable):
            return self._open(e, body)
        if e.pos == 0:
            raise _fail("position 0 must open the table")
        if isinstance(body, Join):
            return self._join(e, body)
        if author is None:
            raise _fail("the author has no seat at this table")
        seat = author.seat
        if isinstance(body, Kick):
            return self._kick(seat, body)
        if isinstance(body, Start):
            if self.phase is not Phase.LOBBY or seat != 0:
                raise _fail("only the host may start, and only in the lobby")
            if self.game is None or len(self.members) < self.game.min_seats:
                raise _fail("not enough players to start")
            return self._fix_seats(self._setup(len(self.members)))
        if isinstance(body, KeyShareBody):
            return self._key(e, seat, body, own)
        if isinstance(body, Secrets):
            return self._secrets(seat, body)
        if isinstance(body, SignOff):
            return self._signoff(seat, body)
        if self.phase is not Phase.GAME:
            raise _fail(f"a {body.KIND} entry is out of place in the {self.phase.value} phase")
        if self.batch is not None:
            return self._step(e, se, seat, body, own)
        if isinstance(body, MoveBody):
            return self._move(e, seat, body, own)
        if isinstance(body, SealedCommit):
            return self._seal_commit(e, seat, body)
        if isinstance(body, SealedOpen):
            return self._seal_open(e, se, seat, body)
        if isinstance(body, SealClose):
            return self._seal_close(e, seat, body)
        raise _fail(f"a {body.KIND} entry is out of turn: no table operation is pending")

    def _open(self, e: Entry, body: OpenTable) -> None:
        if e.pos != 0:
            raise _fail("only position 0 may open the table")
        if self.host_key is not None and e.author != self.host_key:
            raise _fail("the table was opened by another key than the expected host")
        night = body.night
        if night is not None and e.table in (night.first, night.after):
            raise _fail("a table cannot follow itself in a night")
        game = self.games.get(body.game)
        if game is None:
            raise _fail(f"unknown game {excerpt(body.game)}")
        try:
            given = read_options(game.option_specs, body.options)
            options = judged(lambda: game.validate_options(given))
        except GameError as exc:
            raise _fail(f"bad options: {exc}") from None
        if options != body.options:
            raise _fail("the options must be given complete, with every default filled in")
        if not game.min_seats <= body.seats <= game.max_seats:
            raise _fail(f"{body.game} is for {game.min_seats}..{game.max_seats} seats")
        self._check_name(body.name)
        seal = self._seal_key(body.seal)
        self.game, self.options, self.capacity = game, options, body.seats
        self._seat(e.author, body.name, seal)

    @staticmethod
    def _check_name(name: str) -> None:
        problem = name_problem(name)
        if problem is not None:
            raise _fail(problem)

    def _seal_key(self, value: bytes) -> bytes:
        try:
            return read_seal_public(value)
        except CryptoError as exc:
            raise _fail(str(exc)) from None

    def _join(self, e: Entry, body: Join) -> None:
        if e.author in self._by_key:
            raise _fail("this key already has a seat at the table")
        if len(self.members) >= self.capacity:
            raise _fail(f"the table is full ({self.capacity} of {self.capacity} seats taken)")
        if self.phase is not Phase.LOBBY:
            raise _fail("the game has started; the table takes no more players")
        if any(m.name.casefold() == body.name.casefold() for m in self.members):
            raise _fail(f"the name {body.name!r} is already taken at this table")
        self._check_name(body.name)
        like = [m.name for m in self.members if looks_alike(m.name, body.name)]
        if like:
            raise _fail(f"the name {body.name!r} looks like {like[0]!r}, already at this table")
        seal = self._seal_key(body.seal)
        state = (
            self._setup(len(self.members) + 1) if len(self.members) + 1 == self.capacity else None
        )
        self._seat(e.author, body.name, seal)
        if state is not None:
            self._fix_seats(state)

    def _kick(self, seat: int, body: Kick) -> None:
        if self.phase is not Phase.LOBBY or seat != 0:
            raise _fail("only the host may remove a player, and only before the game starts")
        if not 1 <= body.seat < len(self.members):
            raise _fail(f"there is no player in seat {body.seat} to remove")
        gone = self.members[body.seat]
        rest = [m for m in self.members if m.seat != body.seat]
        self.members = [Member(i, m.key, m.name, m.seal) for i, m in enumerate(rest)]
        self._by_key = {m.key: m for m in self.members}
        self._events.append(Removed(body.seat, gone.name, gone.fingerprint))

    def _seat(self, key: bytes, name: str, seal: bytes) -> None:
        m = Member(len(self.members), key, name, seal)
        self.members.append(m)
        self._by_key[key] = m
        self._events.append(Joined(m.seat, name, m.fingerprint))

    def _setup(self, seats: int) -> Any:
        assert self.game is not None
        game = self.game
        try:
            return judged(lambda: game.setup(seats, self.options))
        except GameError as exc:
            raise _fail(f"the game cannot start: {exc}") from None

    def _fix_seats(self, state: Any) -> None:
        self.state = state
        self.phase = Phase.KEYS
        self._events.append(SeatsFixed(tuple(m.name for m in self.members)))

    def _key(self, e: Entry, seat: int, body: KeyShareBody, own: bool) -> None:
        if self.phase is not Phase.KEYS:
            raise _fail("key shares are only published right after the seats are fixed")
        if seat != len(self.key_shares):
            raise _fail(f"out of turn: the key share of seat {len(self.key_shares)} is due")
        point = body.share.point
        if not own:
            try:
                body.share.verify(self._ctx("key", e.pos, seat))
            except CryptoError as exc:
                raise _fail(f"bad key share: {exc}") from None
        if point in self.key_shares:
            raise _fail("key share duplicates another seat's share")
        self.key_shares.append(point)
        if len(self.key_shares) == len(self.members):
            acc = self.key_shares[0]
            for p in self.key_shares[1:]:
                acc = acc + p
            self.table_key = acc
            self.phase = Phase.GAME

    # ------------------------------------------------------------------ game moves

    def _turn_check(self, seat: int, kind: str) -> Status:
        assert self.game is not None
        st = self.game.status(self.state)
        if not _due(st, seat, kind):
            raise _fail(f"out of turn: a {kind} by seat {seat} is not due ({st})")
        return st

    # ------------------------------------------------------------------ table batches

    def _advance(self) -> None:
        """Run everything that follows without a new entry: finished batches resolve, new
        batches are planned, the game's end opens the audit."""
        while self.phase is Phase.GAME:
            assert self.game is not None
            b = self.batch
            if b is not None:
                if b.step is not None:
                    self._track_phase()  # a sealed phase that led to this batch has ended
                    return
                self.batch = None
                self._resolve_batch(b)
                continue
            st = self.game.status(self.state)
            if isinstance(st, TableOps):
                self.batch = plan(st.requests, len(self.log) - 1, len(self.members), self.cards)
                continue
            if isinstance(st, GameOver):
                self.phase = Phase.AUDIT
                self._events.append(GameEnded(st.outcome))
            self._track_phase()
            return

    # ------------------------------------------------------------------ audit and close

    def _secrets(self, seat: int, body: Secrets) -> None:
        if self.phase is not Phase.AUDIT:
            raise _fail("secrets are published only after the game is over")
        if seat != len(self._key_secrets):
            raise _fail(f"out of turn: the secrets of seat {len(self._key_secrets)} are due")
        x = secret_matches(body.key, self.key_shares[seat])
        if x is None:
            raise _fail("the published key secret does not match the seat's key share")
        try:
            seal_ok = SealKey(body.seal).public == self.members[seat].seal
        except (CryptoError, ValueError):
            seal_ok = False
        if not seal_ok:
            raise _fail("the published seal secret does not match the seat's seal key")
        self._key_secrets.append(x)
        self._seal_secrets.append(body.seal)
        if len(self._key_secrets) == len(self.members):
            self._finish_audit()

    def _finish_audit(self) -> None:
        assert self.game is not None and self.table_id is not None
        self.report = audit(
            table=self.table_id,
            game=self.game,
            state=self.state,
            cards=self.cards,
            key_secrets=self._key_secrets,
            seal_secrets=self._seal_secrets,
            key_publics=self.key_shares,
            shows=self.shows,
            inputs=self.inputs,
        )
        self.phase = Phase.SIGNOFF
        self._events.append(AuditFinished(self.report))

    def closing_digest(self, head: bytes) -> bytes:
        """What every seat signs off: the log head after the audit and the verdict."""
        assert self.report is not None
        return entry_hash(pack(["lanparty/close", head, self.report.to_plain()]))

    def _signoff(self, seat: int, body: SignOff) -> None:
        if self.phase is not Phase.SIGNOFF:
            raise _fail("sign-off comes after the audit")
        if seat != self._signed:
            raise _fail(f"out of turn: the sign-off of seat {self._signed} is due")
        if self._closing is None:
            self._closing = self.closing_digest(self.log.head)
        if body.digest != self._closing:
            raise _fail("the sign-off disagrees with this peer's audit of the game")
        self._signed += 1
        if self._signed == len(self.members):
            self.phase = Phase.CLOSED
            assert self.report is not None
            self._events.append(TableClosed(self.report))

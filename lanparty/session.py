"""One player's seat at a table, behind a small interface the UI drives.

``TableSession`` is what a user interface needs from a table: the seat's view, its legal
moves, a way to submit a move, a log of what happened in words, and whether the game is over.
``LocalTable`` implements it engine-locally: a seeded ``LocalDealer`` fulfils the table's
requests, every seat has its own state copy told only what that seat may know (as a peer's
copy would be), and bots play the other seats through the same path as the human (view →
choose → check/apply). A networked session implements the same protocol later.

No prompt-toolkit and no trio here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from lanparty.games import get_game
from lanparty.games.bots import Bot
from lanparty.games.localdealer import LocalDealer, for_seat
from protocol.contract import (
    CoinResult,
    Dealt,
    Game,
    GameOver,
    IllegalMove,
    Move,
    Outcome,
    Plain,
    Result,
    Revealed,
    Seat,
    Shown,
    Shuffled,
    TableOps,
    Turn,
)

__all__ = [
    "BOT_NAMES",
    "LocalTable",
    "TableSession",
    "card_name",
    "colour_name",
]

BOT_NAMES = ("Bea", "Carl", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Juno")
"""Names given to bot seats 1, 2, … in order."""

_COLOUR_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
_RANK_NAMES = {"S": "Skip", "R": "Reverse", "+2": "Draw Two"}
_WILD_NAMES = {"W": "Wild", "W+4": "Wild Draw Four", "cone": "Cone"}


def colour_name(letter: str | None) -> str:
    """``"r"`` → ``"red"``; an unknown letter is returned as it is; ``None`` → ``"-"``."""
    if letter is None:
        return "-"
    return _COLOUR_NAMES.get(letter, letter)


def card_name(label: str) -> str:
    """A KaTO label in words: ``"r7"`` → ``"Red 7"``, ``"g+2"`` → ``"Green Draw Two"``,
    ``"W+4"`` → ``"Wild Draw Four"``. Unknown labels are returned unchanged."""
    if label in _WILD_NAMES:
        return _WILD_NAMES[label]
    colour, rank = label[:1], label[1:]
    if colour not in _COLOUR_NAMES or not rank:
        return label
    return f"{_COLOUR_NAMES[colour].capitalize()} {_RANK_NAMES.get(rank, rank)}"


def _cards(labels: Sequence[str]) -> str:
    return ", ".join(card_name(label) for label in labels)


class TableSession(Protocol):
    """One seat's window on a table: what a user interface drives.

    ``advance`` lets the rest of the table act (bots, or moves arriving from peers) and
    returns without blocking once this seat must or may act, or nothing more can happen now.
    """

    game_name: str
    seat: Seat
    names: tuple[str, ...]

    def advance(self) -> None:
        """Let the other seats act until this seat must or may act, or the game is over."""
        ...

    def view(self) -> dict[str, Plain]:
        """This seat's view of the game (``Game.view``): all it may know, nothing more."""
        ...

    def legal_moves(self) -> list[Move]:
        """Every legal move of this seat now (out-of-turn ones included); empty if none."""
        ...

    def can_decline(self) -> bool:
        """True while this seat is offered only out-of-turn moves it may let go."""
        ...

    def decline(self) -> None:
        """Let the current out-of-turn offer go: play goes on without this seat."""
        ...

    def submit(self, move: Move) -> None:
        """Check and apply ``move`` for this seat; raise ``IllegalMove`` (state unchanged)."""
        ...

    def take_log(self) -> list[str]:
        """Log lines added since the last call, oldest first."""
        ...

    def over(self) -> bool:
        """True once the game is over."""
        ...

    def outcome(self) -> Outcome:
        """Scores so far; winners once over."""
        ...


class LocalTable:
    """A ``TableSession`` played engine-locally: one human seat, bots in the others.

    ``bots[s]`` plays seat ``s`` (``None`` for the human seat). The dealer and the bots draw
    from RNGs derived from ``seed``, so the same seed and the same human moves replay the
    same game.
    """

    def __init__(
        self,
        game_name: str,
        names: Sequence[str],
        bots: Sequence[Bot | None],
        options: Mapping[str, Plain],
        seed: int,
        seat: Seat = 0,
    ) -> None:
        if len(names) != len(bots):
            raise ValueError("one name per seat is needed")
        if bots[seat] is not None:
            raise ValueError("the human seat has no bot")
        self.game_name = game_name
        self.game: Game[Any] = get_game(game_name)
        self.seat = seat
        self.names = tuple(names)
        self.bots = list(bots)
        seats = len(names)
        # Separate streams: the deal does not depend on how many choices the bots made.
        self.dealer = LocalDealer(random.Random(f"{seed}:dealer"))
        self.bot_rng = random.Random(f"{seed}:bots")
        self.copies = [self.game.setup(seats, options) for _ in range(seats)]
        self.inputs = 0  # moves and results applied so far
        self.last_mover: Seat = -1
        self._log: list[str] = []
        self._taken = 0
        # The out-of-turn window being walked: (inputs when it opened, seats left to ask).
        self._window: tuple[int, list[Seat]] | None = None
        self._narrate: Callable[[Seat | None, Move | Result, dict[str, Plain]], None] = (
            self._narrate_kato if game_name == "kato" else self._narrate_plain
        )

    # ------------------------------------------------------------------ the protocol

    def view(self) -> dict[str, Plain]:
        """The human seat's view, from its own copy."""
        return self.game.view(self.copies[self.seat], self.seat)

    def legal_moves(self) -> list[Move]:
        """The human seat's legal moves now (empty while the table is busy or over)."""
        status = self.game.status(self._state)
        if not isinstance(status, Turn):
            return []
        if status.seat != self.seat and not self._offered():
            return []
        return self.game.legal_moves(self.copies[self.seat], self.seat)

    def can_decline(self) -> bool:
        """True while the human is offered out-of-turn moves only (e.g. a KaTO call)."""
        status = self.game.status(self._state)
        return isinstance(status, Turn) and status.seat != self.seat and self._offered()

    def decline(self) -> None:
        """Pass on the out-of-turn offer; the next ``advance`` asks the others."""
        if self._window is not None and self._window[1][:1] == [self.seat]:
            self._window[1].pop(0)

    def submit(self, move: Move) -> None:
        """Check then apply the human's move; ``IllegalMove`` leaves every copy unchanged."""
        status = self.game.status(self._state)
        if isinstance(status, GameOver):
            raise IllegalMove("the game is over")
        self._play(self.seat, move)

    def take_log(self) -> list[str]:
        """Log lines since the last call."""
        new = self._log[self._taken :]
        self._taken = len(self._log)
        return new

    def over(self) -> bool:
        """True once no input is due any more."""
        self._resolve()
        return isinstance(self.game.status(self._state), GameOver)

    def outcome(self) -> Outcome:
        """Scores so far (winners once over)."""
        return self.game.outcome(self._state)

    def advance(self) -> None:
        """Run bots until the human must or may act, or the game is over.

        Out-of-turn seats are asked first, in a seeded order with the seat that moved last
        at the front (it is the quickest to react to its own play), then the turn-holder.
        """
        game = self.game
        while True:
            self._resolve()
            status = game.status(self._state)
            if not isinstance(status, Turn):
                if isinstance(status, GameOver):
                    return
                raise NotImplementedError(f"local tables do not run {type(status).__name__}")
            if status.also:
                if self._window is None or self._window[0] != self.inputs:
                    order = list(status.also)
                    self.bot_rng.shuffle(order)
                    if self.last_mover in order:
                        order.remove(self.last_mover)
                        order.insert(0, self.last_mover)
                    self._window = (self.inputs, order)
                left = self._window[1]
                moved = False
                while left:
                    s = left[0]
                    if not game.legal_moves(self.copies[s], s):
                        left.pop(0)
                        continue
                    if s == self.seat:
                        return  # the human decides (or declines)
                    left.pop(0)
                    options: list[Move | None] = [*game.legal_moves(self.copies[s], s), None]
                    move = self._bot(s).choose(game.view(self.copies[s], s), options, self.bot_rng)
                    if move is not None:
                        self._play(s, move)
                        moved = True
                        break
                if moved:
                    continue
            if status.seat == self.seat:
                return
            s = status.seat
            legal = game.legal_moves(self.copies[s], s)
            move = self._bot(s).choose(game.view(self.copies[s], s), legal, self.bot_rng)
            if move is None:
                raise RuntimeError(f"the bot of seat {s} passed on its own turn")
            self._play(s, move)

    # ------------------------------------------------------------------ internals

    @property
    def _state(self) -> Any:
        # Every copy agrees on the public part (status, turn); the human's is as good as any.
        return self.copies[self.seat]

    def _offered(self) -> bool:
        """Is the human the seat being asked in the current out-of-turn window?"""
        w = self._window
        return w is not None and w[0] == self.inputs and w[1][:1] == [self.seat]

    def _bot(self, seat: Seat) -> Bot:
        bot = self.bots[seat]
        if bot is None:
            raise RuntimeError(f"seat {seat} has no bot")
        return bot

    def _play(self, seat: Seat, move: Move) -> None:
        """Check ``move`` in every copy, then apply it in every copy (all or nothing)."""
        game = self.game
        before = self.view()
        for copy in self.copies:
            game.check(copy, seat, move)
        for copy in self.copies:
            game.apply(copy, seat, move)
        self.inputs += 1
        self.last_mover = seat
        self._narrate(seat, move, before)

    def _resolve(self) -> None:
        """Fulfil table requests until a move (or nothing) is due; each copy gets only what
        its seat may know."""
        game = self.game
        while True:
            status = game.status(self._state)
            if not isinstance(status, TableOps):
                return
            result = self.dealer.fulfil(status.requests[0])
            before = self.view()
            for s, copy in enumerate(self.copies):
                game.resolve(copy, for_seat(result, s))
            self.inputs += 1
            # Narrate from what the human's copy received, never from the dealer's result.
            self._narrate(None, for_seat(result, self.seat), before)

    # ------------------------------------------------------------------ narration

    def _who(self, seat: Seat) -> str:
        return "you" if seat == self.seat else self.names[seat]

    def _say(self, seat: Seat, you: str, other: str) -> None:
        """Log ``"You <you>"`` for the human, ``"<Name> <other>"`` for anyone else."""
        if seat == self.seat:
            self._log.append(f"You {you}")
        else:
            self._log.append(f"{self.names[seat]} {other}")

    def _narrate_plain(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain]
    ) -> None:
        if seat is not None:
            self._say(seat, f"play {item!r}", f"plays {item!r}")

    def _narrate_kato(
        self, seat: Seat | None, item: Move | Result, before: dict[str, Plain]
    ) -> None:
        """Describe one input from the human's copy: the move itself (public), the result as
        the human's copy received it, and the change in the human's public view."""
        after = self.view()
        if seat is not None:
            assert isinstance(item, tuple)
            self._narrate_move(seat, item, before, after)
        else:
            assert not isinstance(item, tuple)
            self._narrate_result(item, before, after)
        self._narrate_scores(before, after)

    def _narrate_move(
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        name = move[0]
        if name == "play":
            labels = [str(x) for x in move[2]]  # type: ignore[union-attr]
            text = _cards(labels)
            colour = move[3]
            if colour:
                text += f" and names {colour_name(str(colour))}"
            self._say(seat, f"play {text}", f"plays {text}")
            if before["direction"] != after["direction"]:
                self._log.append("Play changes direction")
            pending = after["pending"]
            if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
                victim = int(after["current"])  # type: ignore[arg-type]
                self._log.append(
                    f"{self._who(victim).capitalize()} now face{'s' * (victim != self.seat)} "
                    f"{pending['total']} cards to draw"
                )
            counts = after["counts"]
            assert isinstance(counts, list)
            if counts[seat] == 0:
                self._say(seat, "go out!", "goes out!")
            elif pending is None:
                self._narrate_skipped(seat, after)
        elif name == "draw":
            self._say(seat, "draw a card", "draws a card")
        elif name == "pass":
            self._say(seat, "keep the card and pass", "keeps the card and passes")
        elif name == "accept":
            pending = before["pending"]
            total = pending.get("total", 0) if isinstance(pending, dict) else 0
            if total:
                self._say(seat, f"accept and draw {total}", f"accepts and draws {total}")
            else:
                self._say(seat, "accept the skip", "accepts the skip")
        elif name == "challenge":
            pending = before["pending"]
            accused = int(pending["from"]) if isinstance(pending, dict) else -1  # type: ignore[arg-type]
            whose = "your" if accused == self.seat else f"{self.names[accused]}'s"
            self._say(
                seat, f"challenge {whose} Wild Draw Four", f"challenges {whose} Wild Draw Four"
            )
        elif name == "verdict":
            self._say(seat, f"announce: {move[1]}", f"announces: {move[1]}")
        elif name == "colour":
            self._say(
                seat,
                f"name {colour_name(str(move[1]))}",
                f"names {colour_name(str(move[1]))}",
            )
        elif name == "kato":
            self._say(seat, "call KaTO!", "calls KaTO!")
        elif name == "catch":
            caught = before["kato"]
            who = self._who(int(caught)) if isinstance(caught, int) else "someone"
            self._say(
                seat,
                f"catch {who} without KaTO: 2 cards",
                f"catches {who} without KaTO: 2 cards",
            )
        else:
            self._say(seat, f"play {move!r}", f"plays {move!r}")

    def _narrate_skipped(self, seat: Seat, after: dict[str, Plain]) -> None:
        """Name the seats passed over between the mover and the new turn-holder."""
        n = len(self.names)
        step = int(after["direction"])  # type: ignore[arg-type]
        current = int(after["current"])  # type: ignore[arg-type]
        s = (seat + step) % n
        for _ in range(n):
            if s == current:
                return
            self._say(s, "miss a turn", "misses a turn")
            s = (s + step) % n

    def _narrate_result(
        self, result: Result, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        setup = before["phase"] == "setup"
        if isinstance(result, Shuffled):
            if before["discard"]:
                self._log.append("The discard pile is shuffled into a new draw pile")
            else:
                self._log.append(f"Round {after['round']}: the cards are shuffled and dealt")
        elif isinstance(result, Dealt):
            if setup:
                return
            k = len(result.handles)
            if result.seat == self.seat and result.cards is not None:
                self._log.append(f"You take {_cards(result.cards)}")
            else:
                # Another seat's cards: this copy got no labels, so only the count is told.
                s = "s" * (k != 1)
                self._log.append(f"{self.names[result.seat]} takes {k} card{s}")
        elif isinstance(result, Revealed):
            if setup:
                self._log.append(f"Turned over: {_cards(result.cards)}")
                if after["phase"] != "setup":
                    current = int(after["current"])  # type: ignore[arg-type]
                    self._log.append(f"{self._who(current).capitalize()} to play")
            else:
                owner = self._owner(result.handles)
                who = self.names[owner] if owner is not None else "A hand"
                self._log.append(f"{who} held {_cards(result.cards)}")
        elif isinstance(result, Shown):
            if result.to_seat == self.seat and result.cards is not None:
                self._log.append(f"{self.names[result.from_seat]} shows you {_cards(result.cards)}")
            elif result.from_seat == self.seat:
                self._log.append(f"You show your hand to {self.names[result.to_seat]}")
            else:
                self._log.append(
                    f"{self.names[result.from_seat]} shows a hand to {self.names[result.to_seat]}"
                )
        elif isinstance(result, CoinResult):
            self._log.append(f"The coin picks {self._who(result.value)} to start")

    def _owner(self, handles: Sequence[int]) -> Seat | None:
        # Which hand the handles are in: public knowledge (handles, not labels).
        hands = getattr(self._state, "hands", None)
        if not isinstance(hands, list):
            return None
        for s, hand in enumerate(hands):
            if handles and handles[0] in hand:
                return s
        return None

    def _narrate_scores(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        rounds_before = before["round_scores"]
        rounds_after = after["round_scores"]
        assert isinstance(rounds_before, list) and isinstance(rounds_after, list)
        for r in range(len(rounds_before), len(rounds_after)):
            row = rounds_after[r]
            assert isinstance(row, list)
            best = max(range(len(row)), key=lambda s: int(row[s]))  # type: ignore[arg-type]
            self._log.append(f"Round {r + 1} won by {self._who(best)}: +{row[best]}")
        if after["winners"] and not before["winners"]:
            winners = after["winners"]
            assert isinstance(winners, list)
            names = " and ".join(self._who(int(s)) for s in winners)  # type: ignore[arg-type]
            verb = "wins" if len(winners) == 1 and winners[0] != self.seat else "win"
            self._log.append(f"Game over: {names} {verb}!")

"""Narration: one seat's log of a game in words, told only from what that seat may know.

A ``Narrator`` turns each input its seat's copy received (a move, which is public, or a table
result as that copy got it) plus the seat's view before and after into log lines. Local tables
and networked seats share it, so a game reads the same whichever way it is played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lanparty.games.views import cards as view_cards
from lanparty.games.views import num
from protocol.contract import (
    CoinResult,
    Dealt,
    Move,
    Plain,
    Result,
    Revealed,
    Seat,
    Shown,
    Shuffled,
)

__all__ = ["Narrator", "card_name", "cards", "colour_name"]

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


def cards(labels: Sequence[str]) -> str:
    """Labels in words, comma-separated."""
    return ", ".join(card_name(label) for label in labels)


def _hand(view: dict[str, Plain]) -> list[tuple[int, str]]:
    """The (handle, label) pairs of a view's hand."""
    return view_cards(view)


class Narrator:
    """Log lines for seat ``seat`` (called "you"); ``hands`` gives the public hand handles
    (or ``None``) to say whose hand a revealed card came from."""

    def __init__(
        self,
        game_name: str,
        seat: Seat,
        names: Sequence[str],
        hands: Callable[[], Any] = lambda: None,
    ) -> None:
        self.game_name = game_name
        self.seat = seat
        self.names = tuple(names)
        self._hands = hands
        self._held: list[list[int]] = []  # the hands' handles as they were before this input
        self.lines: list[str] = []

    def _who(self, seat: Seat) -> str:
        return "you" if seat == self.seat else self.names[seat]

    def _say(self, seat: Seat, you: str, other: str) -> None:
        """Log ``"You <you>"`` for the human, ``"<Name> <other>"`` for anyone else."""
        if seat == self.seat:
            self.lines.append(f"You {you}")
        else:
            self.lines.append(f"{self.names[seat]} {other}")

    def narrate(
        self,
        seat: Seat | None,
        item: Move | Result,
        before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:
        """Describe one input from the listener's copy: the move itself (public), the result
        as the listener's copy received it, and the change in the listener's public view."""
        if self.game_name != "kato":
            if seat is not None:
                self._say(seat, f"play {item!r}", f"plays {item!r}")
            return
        if seat is not None:
            assert isinstance(item, tuple)
            self._narrate_move(seat, item, before, after)
        else:
            assert not isinstance(item, tuple)
            self._narrate_result(item, before, after)
        self._narrate_scores(before, after)
        self._held = self._public_hands()

    def _public_hands(self) -> list[list[int]]:
        hands = self._hands()
        return [list(h) for h in hands] if isinstance(hands, list) else []

    def _narrate_move(
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        name = move[0]
        if name == "play":
            labels = [str(x) for x in move[2]]  # type: ignore[union-attr]
            text = cards(labels)
            colour = move[3]
            if colour:
                text += f" and names {colour_name(str(colour))}"
            self._say(seat, f"play {text}", f"plays {text}")
            if before["direction"] != after["direction"]:
                self.lines.append("Play changes direction")
            pending = after["pending"]
            if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
                victim = int(after["current"])  # type: ignore[arg-type]
                self.lines.append(
                    f"{self._who(victim).capitalize()} now face{'s' * (victim != self.seat)} "
                    f"{num(pending, 'total')} cards to draw"
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
            total = num(pending, "total") if isinstance(pending, dict) else 0
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
            self._say(seat, f"announce: {move[1]!s}", f"announces: {move[1]!s}")
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
                self.lines.append("The discard pile is shuffled into a new draw pile")
            else:
                self.lines.append(f"Round {num(after, 'round')}: the cards are shuffled and dealt")
        elif isinstance(result, Dealt):
            if setup:
                return
            k = len(result.handles)
            if result.seat == self.seat and result.cards is not None:
                self.lines.append(f"You take {cards(result.cards)}")
            else:
                # Another seat's cards: this copy got no labels, so only the count is told.
                s = "s" * (k != 1)
                self.lines.append(f"{self.names[result.seat]} takes {k} card{s}")
        elif isinstance(result, Revealed):
            if setup:
                self.lines.append(f"Turned over: {cards(result.cards)}")
                if after["phase"] != "setup":
                    current = int(after["current"])  # type: ignore[arg-type]
                    self.lines.append(f"{self._who(current).capitalize()} to play")
            else:
                owner = self._owner(result.handles)
                who = self.names[owner] if owner is not None else "A hand"
                self.lines.append(f"{who} held {cards(result.cards)}")
        elif isinstance(result, Shown):
            if result.to_seat == self.seat and result.cards is not None:
                self.lines.append(f"{self.names[result.from_seat]} shows you {cards(result.cards)}")
            elif result.from_seat == self.seat:
                self.lines.append(f"You show your hand to {self.names[result.to_seat]}")
            else:
                self.lines.append(
                    f"{self.names[result.from_seat]} shows a hand to {self.names[result.to_seat]}"
                )
        elif isinstance(result, CoinResult):
            self.lines.append(f"The coin picks {self._who(result.value)} to start")

    def _owner(self, handles: Sequence[int]) -> Seat | None:
        # Which hand the handles were in before this input: public knowledge (handles, not
        # labels). Before, because a round's last reveal also deals the next round.
        for s, hand in enumerate(self._held or self._public_hands()):
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
            self.lines.append(f"Round {r + 1} won by {self._who(best)}: +{row[best]!s}")
        if after["winners"] and not before["winners"]:
            winners = after["winners"]
            assert isinstance(winners, list)
            names = " and ".join(self._who(int(s)) for s in winners)  # type: ignore[arg-type]
            verb = "wins" if len(winners) == 1 and winners[0] != self.seat else "win"
            self.lines.append(f"Game over: {names} {verb}!")

    def changes(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """Describe table results (deals, turned cards, reshuffles) from the change in the
        listener's own view alone: what a networked seat knows, entry by entry."""
        if self.game_name != "kato" or not after:
            return
        if not before:
            self.lines.append(f"Round {num(after, 'round')}: the cards are shuffled and dealt")
            return
        self._narrate_scores(before, after)  # a round that ended is told before the next
        if after["round"] != before["round"] and after["phase"] == "setup":
            self.lines.append(f"Round {num(after, 'round')}: the cards are shuffled and dealt")
        dealing = after["phase"] == "setup"
        mine_before = dict(_hand(before))
        new = [label for h, label in _hand(after) if h not in mine_before]
        if new and not dealing:
            self.lines.append(f"You take {cards(new)}")
        counts_b, counts_a = before["counts"], after["counts"]
        assert isinstance(counts_b, list) and isinstance(counts_a, list)
        if not dealing:
            for s, (b, a) in enumerate(zip(counts_b, counts_a, strict=False)):
                if s != self.seat and int(a) > int(b):  # type: ignore[arg-type]
                    k = int(a) - int(b)  # type: ignore[arg-type]
                    self.lines.append(f"{self.names[s]} takes {k} card{'s' * (k != 1)}")
        if before["phase"] == "setup" and after["top"] != before["top"] and after["top"]:
            self.lines.append(f"Turned over: {card_name(str(after['top']))}")
        if before["phase"] == "setup" and after["phase"] != "setup":
            current = int(after["current"])  # type: ignore[arg-type]
            self.lines.append(f"{self._who(current).capitalize()} to play")
        reshuffled = int(after["discard"]) < int(before["discard"])  # type: ignore[arg-type]
        if reshuffled and after["round"] == before["round"] and not dealing:
            self.lines.append("The discard pile is shuffled into a new draw pile")

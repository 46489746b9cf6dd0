"""KaTO in words: card names, and one seat's log of a game told only from what that seat
may know (see :mod:`lanparty.narrate` for what every game's narrator does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lanparty.games.views import cards as view_cards
from lanparty.games.views import num
from lanparty.narrate import BaseNarrator
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

__all__ = ["KatoNarrator", "card_name", "cards", "colour_name"]

_COLOUR_NAMES = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
_RANK_NAMES = {"S": "Skip", "R": "Reverse", "+2": "Draw Two"}
_WILD_NAMES = {"W": "Wild", "W+4": "Wild Draw Four", "cone": "Cone"}
_MISS = ("miss the turn", "misses the turn")
_MISS_FIRST = ("miss the first turn", "misses the first turn")
_CALL = ("call KaTO!", "calls KaTO!")


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


class KatoNarrator(BaseNarrator):
    """Log lines for seat ``seat`` (called "you"); ``hands`` gives the public hand handles
    (or ``None``) to say whose hand a revealed card came from."""

    def __init__(
        self,
        seat: Seat,
        names: Sequence[str],
        hands: Callable[[], Any] = lambda: None,
    ) -> None:
        super().__init__(seat, names)
        self._hands = hands
        self._held: list[list[int]] = []  # the hands' handles as they were before this input

    def narrate(
        self,
        seat: Seat | None,
        item: Move | Result,
        before: dict[str, Plain],
        after: dict[str, Plain],
    ) -> None:
        """Describe one input from the listener's copy: the move itself (public), the result
        as the listener's copy received it, and the change in the listener's public view."""
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
            self._narrate_play(seat, move, before, after)
        elif name == "draw":
            self._act(seat, ("draw a card", "draws a card"))
        elif name == "pass":
            self._act(seat, ("keep the card", "keeps the card"), ("pass", "passes"))
        elif name == "accept":
            pending = before["pending"]
            total = num(pending, "total") if isinstance(pending, dict) else 0
            if total:
                self._act(seat, (f"draw {total}", f"draws {total}"), _MISS)
            else:
                self._act(seat, _MISS)
        elif name == "challenge":
            pending = before["pending"]
            accused = int(pending["from"]) if isinstance(pending, dict) else -1  # type: ignore[arg-type]
            aim = f"{self._whose(accused)} Wild Draw Four"
            self._act(seat, (f"challenge {aim}", f"challenges {aim}"))
        elif name == "verdict":
            self._narrate_verdict(seat, str(move[1]), before)
        elif name == "colour":
            colour = colour_name(str(move[1]))
            self._act(seat, (f"name {colour}", f"names {colour}"))
        elif name == "kato":
            self._act(seat, _CALL)
        elif name == "catch":
            caught = before["kato"]
            who = self._who(int(caught)) if isinstance(caught, int) else "someone"
            self._act(seat, (f"catch {who} without KaTO", f"catches {who} without KaTO"))
            self.lines[-1] += ": 2 cards"
        else:
            self._act(seat, (f"play {move!r}", f"plays {move!r}"))

    def _narrate_play(
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        labels = [str(x) for x in move[2]]  # type: ignore[union-attr]
        text = cards(labels)
        clauses = [(f"play {text}", f"plays {text}")]
        if move[3]:
            colour = colour_name(str(move[3]))
            clauses.append((f"name {colour}", f"names {colour}"))
        if move[4:] == ("kato",):
            clauses.append(_CALL)
        self._act(seat, *clauses)
        if before["direction"] != after["direction"]:
            self.lines.append("Play changes direction")
        pending = after["pending"]
        if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
            victim = int(after["current"])  # type: ignore[arg-type]
            face = f"{num(pending, 'total')} cards to draw"
            self._act(victim, (f"now face {face}", f"now faces {face}"))
        counts = after["counts"]
        assert isinstance(counts, list)
        if counts[seat] == 0:
            self._act(seat, ("go out!", "goes out!"))
        elif pending is None:
            self._narrate_skipped(seat, after, 2 if labels[-1].endswith("+2") else 0)

    def _narrate_verdict(self, seat: Seat, verdict: str, before: dict[str, Plain]) -> None:
        """Whose hand was shown to whom, the colour that decided, and what follows."""
        challenge = before.get("challenge")
        pending = before["pending"]
        total = num(pending, "total") if isinstance(pending, dict) else 0
        if not isinstance(challenge, dict):  # a view without the challenge: the bare verdict
            self.lines.append(f"Verdict: {verdict}")
            return
        holder = int(challenge["of"])  # type: ignore[arg-type]
        colour = colour_name(challenge.get("colour"))  # type: ignore[arg-type]
        has = "has a" if verdict == "guilty" else "has no"
        self.lines.append(
            f"Verdict: {self._whose(holder)} hand, shown to {self._who(seat)}, "
            f"{has} {colour} card: {verdict}"
        )
        if verdict == "guilty":
            self._act(holder, (f"draw the {total} cards", f"draws the {total} cards"))
            self.lines[-1] += " instead"
        else:
            self._act(seat, (f"draw {total + 2}", f"draws {total + 2}"), _MISS)

    def _narrate_skipped(self, seat: Seat, after: dict[str, Plain], draws: int = 0) -> None:
        """Name the seats passed over between the mover and the new turn-holder (the first
        of them drew ``draws`` cards: a Draw Two nobody could answer)."""
        n = len(self.names)
        step = int(after["direction"])  # type: ignore[arg-type]
        current = int(after["current"])  # type: ignore[arg-type]
        s = (seat + step) % n
        for _ in range(n):
            if s == current:
                return
            if draws:
                self._act(s, (f"draw {draws}", f"draws {draws}"), ("miss a turn", "misses a turn"))
                draws = 0
            else:
                self._act(s, ("miss a turn", "misses a turn"))
            s = (s + step) % n

    def _narrate_result(
        self, result: Result, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        setup = before["phase"] == "setup"
        if isinstance(result, Shuffled):
            if before["discard"]:
                self.lines.append("The discard pile is shuffled into a new draw pile")
            # A new round's shuffle is told with its first card, once the deal is done.
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
                self._opening(before, after)
            else:
                owner = self._owner(result.handles)
                who = self._who(owner).capitalize() if owner is not None else "A hand"
                self.lines.append(f"{who} held {cards(result.cards)}")
        elif isinstance(result, Shown):
            if result.to_seat == self.seat and result.cards is not None:
                self._shown_to_me(result.from_seat, result.cards)
            elif result.from_seat == self.seat:
                self.lines.append(f"You show your hand to {self.names[result.to_seat]}")
            else:
                self.lines.append(
                    f"{self.names[result.from_seat]} shows a hand to {self.names[result.to_seat]}"
                )
        elif isinstance(result, CoinResult):
            self.lines.append(f"The coin picks {self._who(result.value)} to start")

    def _shown_to_me(self, holder: Seat, labels: Sequence[str]) -> None:
        self.lines.append(f"{self._whose(holder).capitalize()} hand, shown to you: {cards(labels)}")

    def _opening(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """The round's turned-over card and what it does to the first player; the first card
        of a round also tells that the deal is done."""
        top = after["top"]
        if not isinstance(top, str) or top == before["top"]:
            return
        if before["top"] is None:
            self.lines.append(f"Round {num(after, 'round')}: the cards are shuffled and dealt")
        if after["phase"] == "setup":  # a Wild Draw Four never starts a round
            self.lines.append(
                f"Turned over: {card_name(top)}: it goes under the pile and the next card is "
                "turned over"
            )
            return
        self.lines.append(f"Turned over: {card_name(top)}")
        first = (num(after, "dealer") + 1) % len(self.names)
        rank = top[1:] if top[:1] in _COLOUR_NAMES else ""
        if rank == "S":
            self._act(first, _MISS_FIRST)
        elif rank == "+2":
            self._act(first, ("draw 2", "draws 2"), _MISS_FIRST)
        elif rank == "R":
            self.lines.append("Play goes the other way, so the dealer starts")
        who = self._who(num(after, "current")).capitalize()
        if after["phase"] == "name-colour":
            self.lines.append(f"{who} to name the colour, then play")
        else:
            self.lines.append(f"{who} to play")

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
        if not before or not after:
            return
        self._narrate_scores(before, after)  # a round that ended is told before the next
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
        if before["phase"] == "setup":
            self._opening(before, after)
        shown = after.get("challenge")
        if isinstance(shown, dict) and "shown" in shown:
            was = before.get("challenge")
            if not isinstance(was, dict) or "shown" not in was:
                labels = shown["shown"]
                assert isinstance(labels, list)
                self._shown_to_me(int(shown["of"]), [str(x) for x in labels])  # type: ignore[arg-type]
        reshuffled = int(after["discard"]) < int(before["discard"])  # type: ignore[arg-type]
        if reshuffled and after["round"] == before["round"] and not dealing:
            self.lines.append("The discard pile is shuffled into a new draw pile")

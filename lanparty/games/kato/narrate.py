"""KaTO in words: card names, and one seat's log of a game told only from what that seat
may know (see :mod:`lanparty.games.narration` for what every game's narrator does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from lanparty.games.narration import BaseNarrator, heading, yours
from lanparty.games.views import cards as view_cards
from lanparty.games.views import num
from lanparty.i18n import N_, _, ngettext, pgettext
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

__all__ = ["COLOUR_WORDS_EN", "KatoNarrator", "card_name", "cards", "colour_name"]

COLOUR_WORDS_EN = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
"""The colours as typed in commands (``play 3 red``): the same in every language."""
_COLOUR_NAMES = {"r": N_("red"), "y": N_("yellow"), "g": N_("green"), "b": N_("blue")}
_CARD_COLOURS = {"r": N_("Red"), "y": N_("Yellow"), "g": N_("Green"), "b": N_("Blue")}
_RANK_NAMES = {"S": N_("Skip"), "R": N_("Reverse"), "+2": N_("Draw Two")}
_WILD_NAMES = {"W": N_("Wild"), "W+4": N_("Wild Draw Four"), "cone": N_("Cone")}


def _miss() -> tuple[str, str]:
    return pgettext("you", "miss the turn"), _("misses the turn")


def _miss_first() -> tuple[str, str]:
    return pgettext("you", "miss the first turn"), _("misses the first turn")


def _call() -> tuple[str, str]:
    return pgettext("you", "call KaTO!"), _("calls KaTO!")


def _filled(pair: tuple[str, str], **values: object) -> tuple[str, str]:
    """Both forms of a clause with their placeholders filled."""
    return pair[0].format(**values), pair[1].format(**values)


def _draws(n: int) -> tuple[str, str]:
    return (
        ngettext("draw {n}", "draw {n}", n).format(n=n),
        ngettext("draws {n}", "draws {n}", n).format(n=n),
    )


def colour_name(letter: str | None) -> str:
    """``"r"`` → ``"red"``; an unknown letter is returned as it is; ``None`` → ``"-"``."""
    if letter is None:
        return "-"
    return _(_COLOUR_NAMES[letter]) if letter in _COLOUR_NAMES else letter


def card_name(label: str) -> str:
    """A KaTO label in words: ``"r7"`` → ``"Red 7"``, ``"g+2"`` → ``"Green Draw Two"``,
    ``"W+4"`` → ``"Wild Draw Four"``. Unknown labels are returned unchanged."""
    if label in _WILD_NAMES:
        return _(_WILD_NAMES[label])
    colour, rank = label[:1], label[1:]
    if colour not in _COLOUR_NAMES or not rank:
        return label
    rank_name = _(_RANK_NAMES[rank]) if rank in _RANK_NAMES else rank
    # TRANSLATORS: a coloured card, "Red 7", "Green Draw Two"; {colour} is "Red", "Green"…
    return _("{colour} {rank}").format(colour=_(_CARD_COLOURS[colour]), rank=rank_name)


def cards(labels: Sequence[str]) -> str:
    """Labels in words, comma-separated."""
    return ", ".join(card_name(label) for label in labels)


def _hand(view: dict[str, Plain]) -> list[tuple[int, str]]:
    """The (handle, label) pairs of a view's hand."""
    return view_cards(view)


class KatoNarrator(BaseNarrator):
    """Log lines for seat ``seat`` (called "you"); ``hands`` gives the public hand handles
    (or ``None``) to say whose hand a revealed card came from."""

    translated = True

    def __init__(
        self,
        seat: Seat | None,
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
            self._act(seat, (pgettext("you", "draw a card"), _("draws a card")))
        elif name == "pass":
            self._act(
                seat,
                (pgettext("you", "keep the card"), _("keeps the card")),
                (pgettext("you", "pass"), _("passes")),
            )
        elif name == "accept":
            pending = before["pending"]
            total = num(pending, "total") if isinstance(pending, dict) else 0
            if total:
                self._act(seat, _draws(total), _miss())
            else:
                self._act(seat, _miss())
        elif name == "challenge":
            pending = before["pending"]
            accused = int(pending["from"]) if isinstance(pending, dict) else -1  # type: ignore[arg-type]
            self._narrate_challenge(seat, accused)
        elif name == "verdict":
            self._narrate_verdict(seat, str(move[1]), before)
        elif name == "colour":
            self._act(seat, self._names_colour(str(move[1])))
        elif name == "kato":
            self._act(seat, _call())
        elif name == "catch":
            caught = before["kato"]
            self._narrate_catch(seat, int(caught) if isinstance(caught, int) else None)
        else:
            self._act(seat, (f"play {move!r}", f"plays {move!r}"))

    @staticmethod
    def _names_colour(letter: str) -> tuple[str, str]:
        colour = colour_name(letter)
        return (
            pgettext("you", "name {colour}").format(colour=colour),
            _("names {colour}").format(colour=colour),
        )

    def _narrate_challenge(self, seat: Seat, accused: Seat) -> None:
        """``seat`` challenges the Wild Draw Four that ``accused`` played."""
        name = self.names[accused] if 0 <= accused < len(self.names) else "?"
        if accused == self.seat:
            line = _("{name} challenges your Wild Draw Four").format(name=self.names[seat])
        elif seat == self.seat:
            line = _("You challenge {name}'s Wild Draw Four").format(name=name)
        else:
            line = _("{name} challenges {other}'s Wild Draw Four").format(
                name=self.names[seat], other=name
            )
        self.lines.append(yours(self.sentence(line), self.seat in (seat, accused)))

    def _narrate_catch(self, seat: Seat, caught: Seat | None) -> None:
        """``seat`` catches ``caught`` (``None``: unknown) with one card and no KaTO."""
        if caught is None:
            line = (
                _("You catch someone without KaTO: 2 cards") if seat == self.seat
                else _("{name} catches someone without KaTO: 2 cards")
            )  # fmt: skip
        elif caught == self.seat:
            line = _("{name} catches you without KaTO: 2 cards")
        elif seat == self.seat:
            line = _("You catch {other} without KaTO: 2 cards")
        else:
            line = _("{name} catches {other} without KaTO: 2 cards")
        other = self.names[caught] if caught is not None else ""
        line = line.format(name=self.names[seat], other=other)
        self.lines.append(yours(self.sentence(line), self.seat in (seat, caught)))

    def _narrate_play(
        self, seat: Seat, move: Move, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        labels = [str(x) for x in move[2]]  # type: ignore[union-attr]
        text = cards(labels)
        clauses = [(pgettext("you", "play {cards}").format(cards=text),
                    _("plays {cards}").format(cards=text))]  # fmt: skip
        if move[3]:
            clauses.append(self._names_colour(str(move[3])))
        if move[4:] == ("kato",):
            clauses.append(_call())
        self._act(seat, *clauses)
        if before["direction"] != after["direction"]:
            self.lines.append(_("Play changes direction"))
        pending = after["pending"]
        if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
            victim = int(after["current"])  # type: ignore[arg-type]
            total = num(pending, "total")
            self._act(victim, _filled(n=total, pair=(
                ngettext("now face {n} card to draw", "now face {n} cards to draw", total),
                ngettext("now faces {n} card to draw", "now faces {n} cards to draw", total),
            )))  # fmt: skip
        counts = after["counts"]
        assert isinstance(counts, list)
        if counts[seat] == 0:
            self._act(seat, (pgettext("you", "go out!"), _("goes out!")))
        elif pending is None:
            self._narrate_skipped(seat, after, 2 if labels[-1].endswith("+2") else 0)

    def _narrate_verdict(self, seat: Seat, verdict: str, before: dict[str, Plain]) -> None:
        """Whose hand was shown to whom, the colour that decided, and what follows."""
        challenge = before.get("challenge")
        pending = before["pending"]
        total = num(pending, "total") if isinstance(pending, dict) else 0
        if not isinstance(challenge, dict):  # a view without the challenge: the bare verdict
            self.lines.append(_("Verdict: {verdict}").format(verdict=_verdict(verdict)))
            return
        holder = int(challenge["of"])  # type: ignore[arg-type]
        colour = colour_name(challenge.get("colour"))  # type: ignore[arg-type]
        guilty = verdict == "guilty"
        if holder == self.seat:
            line = (_("Verdict: your hand, shown to {other}, has a {colour} card: {verdict}")
                    if guilty else
                    _("Verdict: your hand, shown to {other}, has no {colour} card: {verdict}"))
        elif seat == self.seat:
            line = (_("Verdict: {name}'s hand, shown to you, has a {colour} card: {verdict}")
                    if guilty else
                    _("Verdict: {name}'s hand, shown to you, has no {colour} card: {verdict}"))
        else:
            line = (_("Verdict: {name}'s hand, shown to {other}, has a {colour} card: {verdict}")
                    if guilty else
                    _("Verdict: {name}'s hand, shown to {other}, has no {colour} card: {verdict}"))
        self.lines.append(yours(line.format(
            name=self.names[holder], other=self.names[seat], colour=colour,
            verdict=_verdict(verdict),
        ), self.seat in (holder, seat)))  # fmt: skip
        if guilty:
            self._act(holder, _filled(n=total, pair=(
                ngettext("draw the {n} card instead", "draw the {n} cards instead", total),
                ngettext("draws the {n} card instead", "draws the {n} cards instead", total),
            )))  # fmt: skip
        else:
            self._act(seat, _draws(total + 2), _miss())

    def _narrate_skipped(self, seat: Seat, after: dict[str, Plain], draws: int = 0) -> None:
        """Name the seats passed over between the mover and the new turn-holder (the first
        of them drew ``draws`` cards: a Draw Two nobody could answer)."""
        n = len(self.names)
        step = int(after["direction"])  # type: ignore[arg-type]
        current = int(after["current"])  # type: ignore[arg-type]
        s = (seat + step) % n
        for _step in range(n):
            if s == current:
                return
            if draws:
                self._act(s, _draws(draws), (pgettext("you", "miss a turn"), _("misses a turn")))
                draws = 0
            else:
                self._act(s, (pgettext("you", "miss a turn"), _("misses a turn")))
            s = (s + step) % n

    def _narrate_result(
        self, result: Result, before: dict[str, Plain], after: dict[str, Plain]
    ) -> None:
        setup = before["phase"] == "setup"
        if isinstance(result, Shuffled):
            if before["discard"]:
                self.lines.append(_("The discard pile is shuffled into a new draw pile"))
            # A new round's shuffle is told with its first card, once the deal is done.
        elif isinstance(result, Dealt):
            if setup:
                return
            k = len(result.handles)
            if result.seat == self.seat and result.cards is not None:
                self.lines.append(yours(_("You take {cards}").format(cards=cards(result.cards))))
            else:
                # Another seat's cards: this copy got no labels, so only the count is told.
                self.lines.append(_takes(self.names[result.seat], k))
        elif isinstance(result, Revealed):
            if setup:
                self._opening(before, after)
            else:
                owner = self._owner(result.handles)
                held = cards(result.cards)
                if owner is None:
                    self.lines.append(_("A hand held {cards}").format(cards=held))
                elif owner == self.seat:
                    self.lines.append(yours(_("You held {cards}").format(cards=held)))
                else:
                    line = _("{name} held {cards}").format(name=self.names[owner], cards=held)
                    self.lines.append(line)
        elif isinstance(result, Shown):
            if result.to_seat == self.seat and result.cards is not None:
                self._shown_to_me(result.from_seat, result.cards)
            elif result.from_seat == self.seat:
                line = _("You show your hand to {name}").format(name=self.names[result.to_seat])
                self.lines.append(yours(line))
            else:
                line = _("{name} shows a hand to {other}").format(
                    name=self.names[result.from_seat], other=self.names[result.to_seat]
                )
                self.lines.append(line)
        elif isinstance(result, CoinResult):
            if result.value == self.seat:
                self.lines.append(yours(_("The coin picks you to start")))
            else:
                self.lines.append(
                    _("The coin picks {name} to start").format(name=self.names[result.value])
                )

    def _shown_to_me(self, holder: Seat, labels: Sequence[str]) -> None:
        if holder == self.seat:
            line = _("Your hand, shown to you: {cards}")
        else:
            line = _("{name}'s hand, shown to you: {cards}")
        line = line.format(name=self.names[holder], cards=cards(labels))
        self.lines.append(yours(self.sentence(line)))

    def _opening(self, before: dict[str, Plain], after: dict[str, Plain]) -> None:
        """The round's turned-over card and what it does to the first player; the first card
        of a round also tells that the deal is done."""
        top = after["top"]
        if not isinstance(top, str) or top == before["top"]:
            return
        if before["top"] is None:
            line = _("Round {n}: the cards are shuffled and dealt")
            self.lines.append(heading(line.format(n=num(after, "round"))))
        if after["phase"] == "setup":  # a Wild Draw Four never starts a round
            self.lines.append(_(
                "Turned over: {card}: it goes under the pile and the next card is turned over"
            ).format(card=card_name(top)))  # fmt: skip
            return
        self.lines.append(_("Turned over: {card}").format(card=card_name(top)))
        first = (num(after, "dealer") + 1) % len(self.names)
        rank = top[1:] if top[:1] in _COLOUR_NAMES else ""
        if rank == "S":
            self._act(first, _miss_first())
        elif rank == "+2":
            self._act(first, _draws(2), _miss_first())
        elif rank == "R":
            self.lines.append(_("Play goes the other way, so the dealer starts"))
        current = num(after, "current")
        naming = after["phase"] == "name-colour"
        if current == self.seat:
            line = _("Your turn: name the colour, then play") if naming else _("Your turn")
        else:
            line = _("{name} to name the colour, then play") if naming else _("{name} to play")
        self.lines.append(yours(self.sentence(line.format(name=self.names[current])),
                                current == self.seat))  # fmt: skip

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
            line = (
                _("Round {n} won by you: +{points}") if best == self.seat
                else _("Round {n} won by {name}: +{points}")
            )  # fmt: skip
            line = line.format(n=r + 1, name=self.names[best], points=row[best])
            self.lines.append(heading(line))
        if after["winners"] and not before["winners"]:
            winners = after["winners"]
            assert isinstance(winners, list)
            over = self._game_over([int(s) for s in winners])  # type: ignore[arg-type]
            self.lines.append(heading(over))

    def _game_over(self, winners: list[int]) -> str:
        """``"Game over: you win!"``, ``"Game over: Bea wins!"``, ``"Game over: you and Bea
        win!"`` (the winners in seat order)."""
        if len(winners) == 1:
            if winners[0] == self.seat:
                return _("Game over: you win!")
            return _("Game over: {name} wins!").format(name=self.names[winners[0]])
        if self.seat not in winners:
            names = _(" and ").join(self.names[s] for s in winners)
            return _("Game over: {names} win!").format(names=names)
        others = _(" and ").join(self.names[s] for s in winners if s != self.seat)
        if winners[0] == self.seat:
            return _("Game over: you and {names} win!").format(names=others)
        return _("Game over: {names} and you win!").format(names=others)

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
            self.lines.append(yours(_("You take {cards}").format(cards=cards(new))))
        counts_b, counts_a = before["counts"], after["counts"]
        assert isinstance(counts_b, list) and isinstance(counts_a, list)
        if not dealing:
            for s, (b, a) in enumerate(zip(counts_b, counts_a, strict=False)):
                if s != self.seat and int(a) > int(b):  # type: ignore[arg-type]
                    k = int(a) - int(b)  # type: ignore[arg-type]
                    self.lines.append(_takes(self.names[s], k))
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
            self.lines.append(_("The discard pile is shuffled into a new draw pile"))


def _verdict(verdict: str) -> str:
    """A challenge's verdict in words (the engine's ``"guilty"``/``"innocent"``)."""
    return {"guilty": _("guilty"), "innocent": _("innocent")}.get(verdict, verdict)


def _takes(name: str, k: int) -> str:
    """``"Bea takes 2 cards"``: another seat's new cards, told by their count."""
    return ngettext("{name} takes {n} card", "{name} takes {n} cards", k).format(name=name, n=k)

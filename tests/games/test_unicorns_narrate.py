"""Kill the Unicorns in words: each seat's log, told from its own copy's views only. A hunt
from the bid to the reveal, the seal that says a count and no value, a peek named to the
Princess alone, the scheme effects and every unicorn's fate, the market and the days."""

from __future__ import annotations

import random
import re
from typing import Any

from unicorns_rig import G, Rig

from lanparty.games.bots import bots_for
from lanparty.games.unicorns.narrate import UnicornsNarrator

NAMES = ("Ann", "Bea", "Carl", "Dora")


class Told(Rig):
    """A rig where every seat keeps its log, fed exactly as a table feeds it: each input with
    that seat's view (from its own copy) before and after."""

    def __init__(self, n: int = 4, names: tuple[str, ...] = NAMES, **kwargs: Any) -> None:
        self.narrators = [UnicornsNarrator(s, names[:n]) for s in range(n)]
        super().__init__(n, **kwargs)

    def _views(self) -> list[dict[str, Any]]:
        copies = getattr(self, "copies", [])
        return [G.view(c, s) for s, c in enumerate(copies)] if copies else []

    def feed(self, result: Any) -> None:
        before = self._views()
        super().feed(result)
        for s, (b, a) in enumerate(zip(before, self._views(), strict=True)):
            self.narrators[s].narrate(None, result, b, a)

    def _apply(self, seat: int, move: tuple[Any, ...]) -> None:
        before = self._views()
        super()._apply(seat, move)
        for s, (b, a) in enumerate(zip(before, self._views(), strict=True)):
            self.narrators[s].narrate(seat, move, b, a)

    def log_of(self, seat: int) -> list[str]:
        return self.narrators[seat].lines

    def since(self, seat: int, mark: int) -> list[str]:
        return self.narrators[seat].lines[mark:]


def four(**options: Any) -> Told:
    """Princess (Ann), Knight (Bea), Wizard (Carl), Shaman (Dora); Ann first; powers off
    unless asked for."""
    options.setdefault("powers", False)
    return Told(
        4,
        unicorns=["pink-4", "blue-2", "legendary", "yellow-1"],
        schemes={0: ["shiny", "sick"], 1: ["decoy", "stinky"], 2: ["trojan", "ambush"],
                 3: ["athletic", "chameleon"]},
        **options,
    )  # fmt: skip


def planted(**options: Any) -> Told:
    rig = four(**options)
    for seat, keep, on in ((0, "shiny", "blue-2"), (1, "decoy", "pink-4"),
                           (2, "trojan", "pink-4"), (3, "athletic", "legendary")):  # fmt: skip
        rig.plant(seat, keep, on)
    return rig


def test_the_game_opens_with_characters_starting_unicorns_row_and_your_schemes() -> None:
    rig = four()
    log = rig.log_of(1)
    assert log[:9] == [
        "Starting unicorns: Ann Pink 1 (starter), you Blue 1 (starter), Carl Green 1 "
        "(starter), Dora Yellow 1 (starter)",
        "Characters (personajes) are chosen in turn from the first player: Ann first",
        "Ann chooses the Princess (Princesa)",
        "You choose the Knight (Caballero)",
        "Carl chooses the Wizard (Mago)",
        "Dora chooses the Shaman (Chamán)",
        "Day 1 (día 1): the row is Pink 4, Blue 2, Legendary, Yellow 1",
        "Ann holds the first-player token",
        "You draw your schemes (esquemas): Decoy (Señuelo) and Stinky Unicorn (Unicornio apestoso)",
    ]
    assert not any("Shiny" in line for line in log)  # Ann's draw is hers alone
    dealt = four(character_option="random").log_of(1)  # the coin deals them all at once
    assert dealt[:2] == [
        "Characters: Ann is the Princess (Princesa); you are the Knight (Caballero); Carl is "
        "the Wizard (Mago); Dora is the Shaman (Chamán)",
        "Starting unicorns: Ann Pink 1 (starter), you Blue 1 (starter), Carl Green 1 "
        "(starter), Dora Yellow 1 (starter)",
    ]


def test_planting_names_your_own_scheme_to_you_alone() -> None:
    rig = planted()
    assert "You plant Decoy (Señuelo) face down on Pink 4 and discard Stinky Unicorn " \
           "(Unicornio apestoso)" in rig.log_of(1)  # fmt: skip
    assert "Bea plants a scheme face down on Pink 4 and discards Stinky Unicorn (Unicornio " \
           "apestoso)" in rig.log_of(0)  # fmt: skip
    for seat in (0, 2, 3):
        assert not any("Decoy" in line for line in rig.log_of(seat))


def test_one_hunt_from_the_bid_to_the_reveal() -> None:
    rig = planted()
    mark = len(rig.log_of(2)) - 1  # the last plant opened the first hunt
    rig.hunt(0, 3, 4)
    rig.join(1, 4, 3)
    rig.pass_(2)
    rig.join(3, 1, 0)
    rig.move(3, "reveal", rig.scheme(1, "decoy"))
    assert rig.since(2, mark) == [
        "Hunt (caza) for Pink 4: Ann's call to open it or pass",
        "Ann hunts Pink 4 with 2 cards",
        "Ann lays 2 cards face down (sealed)",
        "Bea joins the hunt with 2 cards",
        "Bea lays 2 cards face down (sealed)",
        "You pass",
        "Dora joins the hunt with 2 cards",
        "Dora lays 2 cards face down (sealed)",
        "Ann turns over 3 and 4: 7",
        "Bea turns over 3 and 4: 7",
        "Dora turns over 0 and 1: 1",
        "Totals: Ann 7, Bea 7, Dora 1; tied at 7: out; Dora wins the hunt",
        "Dora chooses to turn over Bea's scheme",
        "The other scheme, your scheme, is discarded unseen",
        "Turned over: Bea's scheme on Pink 4 is Decoy (Señuelo): its owner takes the unicorn "
        "if they hunted it",
        "Bea takes Pink 4 with Decoy (worth 4)",
        "Bea takes the first-player token",
        "Hunt (caza) for Blue 2: Bea's call to open it or pass",
    ]
    # Bea's own log, in the second person.
    assert "You lay 2 cards face down (sealed)" in rig.log_of(1)
    assert "You take Pink 4 with Decoy (worth 4)" in rig.log_of(1)


def test_a_sealed_hunt_is_told_by_its_count_never_its_values() -> None:
    rig = planted()
    mark = [len(rig.log_of(s)) for s in range(4)]
    rig.move(0, "hunt", 2)
    rig.seal(0, "cards", (3, 4))
    assert rig.since(0, mark[0]) == ["You hunt Pink 4 with 2 cards",
                                     "You lay 2 cards face down (sealed)"]  # fmt: skip
    for s in (1, 2, 3):
        assert rig.since(s, mark[s]) == ["Ann hunts Pink 4 with 2 cards",
                                         "Ann lays 2 cards face down (sealed)"]  # fmt: skip


def test_the_princess_alone_is_told_what_she_peeked() -> None:
    rig = planted(powers=True)
    mark = [len(rig.log_of(s)) for s in range(4)]
    rig.move(0, "peek", rig.scheme(1, "decoy"))
    assert rig.since(0, mark[0]) == [
        "You look at Bea's scheme on Pink 4 (Princess)",
        "Only you see it: Bea's scheme on Pink 4 is Decoy (Señuelo) (its owner takes the "
        "unicorn if they hunted it)",
    ]
    assert rig.since(1, mark[1]) == ["Ann looks at your scheme on Pink 4 (Princess)"]
    for s in (2, 3):
        assert rig.since(s, mark[s]) == ["Ann looks at Bea's scheme on Pink 4 (Princess)"]


def test_trojan_ambush_escape_and_the_token() -> None:
    rig = planted()
    rig.hunt(0, 4)
    rig.pass_(1, 2, 3)
    mark = len(rig.log_of(3))
    rig.move(0, "reveal", rig.scheme(2, "trojan"))  # Carl takes it and gives his only one
    assert rig.since(3, mark) == [
        "Ann chooses to turn over Carl's scheme",
        "The other scheme, Bea's scheme, is discarded unseen",
        "Turned over: Carl's scheme on Pink 4 is Trojan Unicorn: its owner takes the unicorn "
        "and gives the winner one of theirs",
        "Carl takes Pink 4 with Trojan Unicorn (worth 4)",
        "Ann gets Green 1 (starter) from Carl",
        "Carl takes the first-player token",
        "Hunt (caza) for Blue 2: Carl's call to open it or pass",
    ]
    mark = len(rig.log_of(3))
    rig.pass_(2, 3, 0, 1)  # everyone passes: the token goes round, the unicorn escapes
    assert rig.since(3, mark) == [
        "Carl passes",
        "You take the first-player token",
        "You pass",
        "Ann takes the first-player token",
        "Ann passes",
        "Bea takes the first-player token",
        "Bea passes",
        "Blue 2 escapes (se escapa)",
        "Carl takes the first-player token",
        "Hunt (caza) for Legendary: Carl's call to open it or pass",
    ]


def test_every_unicorn_is_taken_or_escapes_in_the_log_and_the_verbs_agree() -> None:
    """Whole games by bots: each seat's log tells the fate of every unicorn of every row
    exactly once, each day's end and the winner; no line names a scheme its seat may not
    know; "You" always takes the base form of the verb."""
    for seed in range(6):
        bots = bots_for("unicorns")
        rig = Told(3 + seed % 2, rng=random.Random(seed), powers=seed % 3 != 0)
        rig.play([bots["heuristic" if s % 2 else "random"]() for s in range(rig.n)],
                 random.Random(seed))  # fmt: skip
        view = G.view(rig.state, 0)
        for seat in range(rig.n):
            log = rig.log_of(seat)
            fates = [
                line for line in log
                if re.match(rf"(You|{'|'.join(NAMES)}) takes? .* \(worth -?\d+\)$", line)
                or line.endswith(" escapes (se escapa)")
            ]  # fmt: skip
            assert len(fates) == rig.n * 4 - len(view["row"])  # every unicorn of every row
            assert sum(line.startswith("Day ") and " is over" in line for line in log) == 4 or (
                view["day"] < 4
            )
            assert log[-1].startswith("Game over: ")
            for line in log:
                assert not re.match(r"You (takes|passes|hunts|joins|lays|turns|buys|sells)", line)
                assert not re.match(rf"({'|'.join(NAMES)}) (take|pass|hunt|join|lay|turn) ", line)


def test_the_scheme_not_turned_over_is_told_discarded() -> None:
    """Issue 21: when the winner turns over one of two schemes, the story says the other was
    discarded — unseen, and in an expert game face down (rules/unicorns.md: "An unrevealed
    scheme card is discarded unseen")."""
    for expert, how in ((False, "unseen"), (True, "face down")):
        rig = planted(expert=expert)
        rig.hunt(0, 4)
        rig.pass_(1, 2, 3)
        marks = [len(rig.log_of(s)) for s in range(4)]
        rig.move(0, "reveal", rig.scheme(1, "decoy"))  # Carl's Trojan lies under it too
        told = {s: rig.since(s, marks[s]) for s in range(4)}
        assert told[0][:2] == ["You choose to turn over Bea's scheme",
                               f"The other scheme, Carl's scheme, is discarded {how}"]  # fmt: skip
        assert told[2][1] == f"The other scheme, your scheme, is discarded {how}"
        assert not any("Trojan" in line for s in range(4) for line in told[s])

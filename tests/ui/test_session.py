"""LocalTable: whole games through the session interface, illegal input, what the log tells."""

from __future__ import annotations

import re

import pytest

from lanparty.games.kato.cards import LABEL
from lanparty.games.kato.narrate import card_name, colour_name
from lanparty.table.local import LocalTable, TableSession
from protocol.contract import IllegalMove, Revealed

from .helpers import Scripted, make_table, play_out

_NAMES = sorted({card_name(label) for label in LABEL}, key=len, reverse=True)
_CARD_RE = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in _NAMES) + r")\b")


def named_cards(line: str) -> set[str]:
    """Every card name mentioned in a log line."""
    return set(_CARD_RE.findall(line))


def test_local_table_is_a_table_session() -> None:
    table: TableSession = make_table(1)
    assert table.seat == 0 and table.names[0] == "Ann"


@pytest.mark.parametrize(("seed", "kind"), [(1, "heuristic"), (2, "random"), (3, "heuristic")])
def test_scripted_game_ends_with_a_winner(seed: int, kind: str) -> None:
    table = make_table(seed, bots=3, kind=kind, target=150)
    actions = play_out(table, Scripted(seed, kind))
    outcome = table.outcome()
    assert actions > 0
    assert outcome.finished and outcome.winners
    assert max(outcome.totals) >= 150
    assert all(outcome.totals[w] == max(outcome.totals) for w in outcome.winners)
    log = table.take_log()
    assert any(line.startswith("Game over: ") for line in log)
    assert any(line.startswith("Round 1 won by ") for line in log)
    assert table.legal_moves() == []


def test_same_seed_same_game() -> None:
    logs = []
    for _ in range(2):
        table = make_table(5, target=100)
        play_out(table, Scripted(5))
        logs.append(table.take_log())
    assert logs[0] == logs[1]
    other = make_table(6, target=100)
    play_out(other, Scripted(5))
    assert other.take_log() != logs[0]


def _snapshot(table: LocalTable) -> list[object]:
    return [table.game.encode_state(c) for c in table.copies]


def test_illegal_input_changes_nothing() -> None:
    table = make_table(11)
    table.advance()
    hand = table.view()["hand"]
    top = table.view()["top"]
    before = _snapshot(table)
    legal = table.legal_moves()
    bad = [
        ("play", (hand[0][0],), ("W+4" if hand[0][1] != "W+4" else "r1",), "r"),  # wrong label
        ("play", (99_999,), ("r1",), ""),  # not in hand
        ("colour", "r"),  # not the moment
        ("pass",),  # nothing drawn
        ("accept",),  # nothing to accept
        ("catch",),  # nobody to catch
        ("fly",),
    ]
    unplayable = [
        ("play", (h,), (label,), "")
        for h, label in hand
        if ("play", (h,), (label,), "") not in legal and label not in ("W", "W+4", "cone")
    ]
    for move in bad + unplayable:
        with pytest.raises(IllegalMove) as info:
            table.submit(move)
        assert info.value.reason
        assert _snapshot(table) == before
    assert table.view()["top"] == top
    assert table.legal_moves() == legal
    assert table.take_log()  # the opening was told; nothing about the refused moves
    assert table.take_log() == []


def test_log_never_names_a_hidden_card() -> None:
    """Each log line may name a card only if the human's own copy knows it when the line is
    written; checked input by input against the true hands of the other seats."""
    checked = 0
    for seed in (21, 22, 23):
        table = make_table(seed, bots=3, kind="random", target=120)
        original = table.narrator.narrate
        game = table.game

        def narrate(seat, item, before, after, table=table, original=original, game=game):
            start = len(table.narrator.lines)
            original(seat, item, before, after)
            human = table.copies[0]
            known = {card_name(LABEL[c]) for c in human.card_of.values()}
            if isinstance(item, Revealed):  # shown to everyone (a round's end may have
                known |= {card_name(label) for label in item.cards}  # reset the copy since)
            hidden = set()
            for s in range(1, len(table.copies)):
                true_hand = game.view(table.copies[s], s)["hand"]
                hidden |= {card_name(label) for _, label in true_hand} - known
            for line in table.narrator.lines[start:]:
                names = named_cards(line)
                assert names <= known, (line, names - known)
                assert not names & hidden, line
            nonlocal checked
            checked += 1

        table.narrator.narrate = narrate
        play_out(table, Scripted(seed, "random"))
    assert checked > 500


def test_leak_detector_sees_a_leak() -> None:
    """The check above would fail if the narrator read another seat's hand."""
    table = make_table(3)
    table.advance()
    hidden = {card_name(label) for _, label in table.game.view(table.copies[1], 1)["hand"]}
    mine = {card_name(label) for _, label in table.view()["hand"]}
    leak = f"Bea takes {sorted(hidden)[0]}"
    assert named_cards(leak) & hidden
    assert named_cards("You take " + ", ".join(sorted(mine))) == mine


def test_other_seats_draws_are_counted_not_named() -> None:
    table = make_table(4, bots=3, kind="random", target=60)
    play_out(table, Scripted(4, "random"))
    takes = [line for line in table.take_log() if re.match(r"(Bea|Carl|Dora) takes", line)]
    assert takes
    assert all(re.fullmatch(r"\w+ takes \d+ cards?", line) for line in takes)


def _reach_one_card(seed: int) -> LocalTable | None:
    """Play seed's game until the human is offered the KaTO call after its own play."""
    table = make_table(seed, bots=2, target=60)
    human = Scripted(seed, call_with_play=False)
    for _ in range(400):
        table.advance()
        if table.over():
            return None
        if table.can_decline():
            return table
        human.act(table)
    return None


def test_kato_call_is_offered_out_of_turn_and_bots_catch_a_decline() -> None:
    table = next(t for t in map(_reach_one_card, range(40)) if t is not None)
    view = table.view()
    assert len(view["hand"]) == 1 and view["kato"] == 0 and view["current"] != 0
    assert table.legal_moves() == [("kato",)]
    table.decline()
    assert not table.can_decline()
    table.take_log()
    table.advance()
    log = table.take_log()
    # A heuristic bot catches the forgotten call first: two cards for the human.
    assert re.match(r"(Bea|Carl) catches you without KaTO", log[0])
    assert log[1].startswith("You take ")


def test_kato_call_made_in_time_is_safe() -> None:
    table = next(t for t in map(_reach_one_card, range(40)) if t is not None)
    table.take_log()
    table.submit(("kato",))
    assert table.take_log() == ["You call KaTO!"]
    assert table.view()["kato"] is None
    table.advance()
    assert not any("catches you" in line for line in table.take_log())


def _facing_a_draw_four(seed: int) -> LocalTable | None:
    """Play seed's game until a Wild Draw Four is aimed at the human."""
    table = make_table(seed, bots=2, target=60)
    human = Scripted(seed)
    for _ in range(400):
        table.advance()
        if table.over():
            return None
        if ("challenge",) in table.legal_moves():
            return table
        human.act(table)
    return None


def test_the_challengers_verdict_is_announced_by_the_program() -> None:
    """The human challenges and types nothing more: the table reads the verdict off the shown
    hand, says whose hand it was and which colour decided, and goes on."""
    table = next(t for t in map(_facing_a_draw_four, range(40)) if t is not None)
    accuser = table.view()["pending"]["from"]
    table.take_log()
    table.submit(("challenge",))
    colour = colour_name(table.view()["challenge"]["colour"])  # in play under the Draw Four
    table.advance()
    log = table.take_log()
    name = table.names[accuser]
    assert log[0] == f"You challenge {name}'s Wild Draw Four"
    assert log[1].startswith(f"{name}'s hand, shown to you: ")
    verdict = re.fullmatch(
        rf"Verdict: {name}'s hand, shown to you, has (a|no) {colour} card: (guilty|innocent)",
        log[2],
    )
    assert verdict, log
    shown = [card_name(label) for label in log[1].split(": ", 1)[1].split(", ")]
    held = any(card.startswith(colour.capitalize()) for card in shown)
    assert (verdict[1], verdict[2]) == (("a", "guilty") if held else ("no", "innocent"))
    assert not any(m[0] == "verdict" for m in table.legal_moves())

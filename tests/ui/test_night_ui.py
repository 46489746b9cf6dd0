"""The next game at the same seat, as a person sees it: an offline night (``lanparty play
--offline``) takes ``again`` and ``next GAME`` at the end of a game through the same commands
as a networked host, in plain lines too; the help and Tab offer them; the story of the next
game begins under a rule; a networked player is asked in place whether they stay."""

from __future__ import annotations

import random

from lanparty.games.bots import bots_for
from lanparty.table.local import LocalTable
from lanparty.table.localnight import LocalNight
from lanparty.ui.control import Conduct, night_rule
from protocol import NightLink, Offered, OpenTable

from .plainsession import OPTIONS, play_plain, typed_game


def test_an_offline_night_in_plain_lines() -> None:
    # the night's second game is dealt with the next seed: its moves are known in advance
    lines = [*typed_game(7)[0], "again please", "next chess", "next kato rounds=1 hand_size=3",
             *typed_game(8)[0], "help"]  # fmt: skip
    done = play_plain(lines)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    out = done.stdout.splitlines()
    assert out.count("Final scores") == 2
    assert out.count("again, next GAME, or Enter to end the night>") >= 2
    assert "— game 2 of the night: KaTO —" in out
    assert any(line.startswith("Again, or next GAME [OPTION=VALUE ...]") for line in out)
    assert any(line.startswith("Unknown game 'chess'; known:") for line in out)
    assert any("next GAME [OPTION=VALUE …]" in line for line in out)  # the help names it


def _night() -> LocalNight:
    kind = bots_for("kato")["heuristic"]

    def make(game: str, options: dict, seats: int, number: int) -> LocalTable:  # type: ignore[type-arg]
        kinds = bots_for(game)
        bots = [None, *(kinds["heuristic"]() for _ in range(seats - 1))]
        return LocalTable(game, ["ann", "Bea", "Carl", "Dora"][:seats], bots, options, number)

    assert kind
    return LocalNight(make, "kato", dict(OPTIONS), 2)


def test_again_and_next_wait_for_the_end_and_keep_the_players_the_game_seats() -> None:
    night = _night()
    said: list[object] = []
    conduct = Conduct(night, said.append)
    assert night.next_game("again") == "the game is not over yet"
    assert night.host_offers() == []  # nothing to offer while the game runs
    me, rng = bots_for("kato")["heuristic"](), random.Random(1)
    while not conduct.step():
        legal = night.legal_moves()
        move = me.choose(night.view(), [*legal, None] if night.can_decline() else legal, rng)
        night.decline() if move is None else night.submit(move)
    assert conduct.prompt()[0] == "again, next GAME, or Enter to end the night> "
    assert ("again", "the same game again, with the same options") in night.host_offers()
    assert night.next_game("next unanimo cards=lots") != ""  # the game refuses that option
    assert night.next_game("next chess").startswith("unknown game 'chess'")
    assert night.next_game("next unikato") == "" and night.number == 2
    assert night.game_name == "unikato" and night.names == ("ann", "Bea")
    assert not night.over() and night_rule(night, "Unikato") == "— game 2 of the night: Unikato —"


class _Asked:
    """A seat a networked host offers the next game to (what the UI reads of it)."""

    names = ("hugo", "ann")
    game_name = "kato"

    def __init__(self) -> None:
        self.answers: list[bool] = []

    def over(self) -> bool:
        return True

    def offer_question(self) -> str:
        return "" if self.answers else "hugo offers the next game: unanimo. Stay? (Y/n)> "

    def answer_offer(self, stays: bool) -> None:
        self.answers.append(stays)


def test_a_player_answers_the_offer_in_place() -> None:
    for typed, stays in (("", True), ("y", True), ("n", False), ("nie", False)):
        seat = _Asked()
        conduct = Conduct(seat, lambda fragments: None)  # type: ignore[arg-type]
        assert conduct.prompt() == ("hugo offers the next game: unanimo. Stay? (Y/n)> ", "warn")
        assert conduct.typed(typed).leave is None and seat.answers == [stays]
        assert conduct.prompt()[0] == "the end: Enter leaves> "


def test_the_offer_is_told_with_its_options() -> None:
    from lanparty.table.nighttalk import offer_words

    link = NightLink(b"F" * 16, b"F" * 16, b"D" * 32, 2)
    opening = OpenTable("unanimo", {"cards": 3, "timer": 0}, 4, "hugo", bytes(32), link)
    assert offer_words(Offered(b"T" * 16, opening)) == "unanimo (cards=3, timer=0)"


class _Sitting(_Asked):
    """A spectator offered a free seat at the next game: no unless it says yes."""

    offer_sits = True
    watching = True

    def offer_question(self) -> str:
        return "" if self.answers else "hugo offers the next game: kato. 1 seat is free: take it? "


def test_a_spectator_takes_a_free_seat_only_if_it_says_yes() -> None:
    for typed, sits in (("", False), ("n", False), ("y", True), ("tak", True), ("maybe", False)):
        seat = _Sitting()
        conduct = Conduct(seat, lambda fragments: None)  # type: ignore[arg-type]
        assert conduct.prompt()[0].endswith("take it? ")
        assert conduct.typed(typed).leave is None and seat.answers == [sits]
    seat = _Sitting()  # Ctrl-C keeps watching: it does not end the program
    conduct = Conduct(seat, lambda fragments: None)  # type: ignore[arg-type]
    assert conduct.interrupt().leave is None and seat.answers == [False]


def test_the_seat_offered_to_a_spectator_is_asked_with_how_many_are_free() -> None:
    import time

    from lanparty.games import GAMES
    from lanparty.table.networked import NetSeat
    from protocol import Watcher

    seat = NetSeat(Watcher(GAMES))
    link = NightLink(b"F" * 16, b"F" * 16, b"D" * 32, 2)
    opening = OpenTable("kato", {"rounds": 1}, 4, "hugo", bytes(32), link)
    for free, said in ((1, "1 seat is free: take it? (y/N)> "),
                       (2, "2 seats are free: take one? (y/N)> ")):  # fmt: skip
        seat._offer = (Offered(b"T" * 16, opening, free), "hugo", time.monotonic() + 60)
        seat.offer_sits = True
        assert seat.offer_question() == f"hugo offers the next game: kato (rounds=1). {said}"
        assert "no answer: you keep watching" in seat.night_status() or not seat.night_open

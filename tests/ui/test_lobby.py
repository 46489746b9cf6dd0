"""The lobby's bookkeeping without a terminal: numbers that stay put, tables of one name that
stay apart, and what ``join`` answers (the tmux tests drive the same through a real pane)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from lanparty.net.discovery import TableAd
from lanparty.ui.lobbymodel import Choice, _choose, _Lobby
from protocol import PROTOCOL_VERSION

ANA = TableAd("Ana's kato", "kato", 4, 3, PROTOCOL_VERSION, "7QXM-K2PA-93TD-HB0R", "ana",
              "10.0.0.2", 4000, instance="Ana's kato")  # fmt: skip
SQUAT = replace(ANA, fingerprint="MALL-ORY0-93TD-HB0R", address="10.0.0.9",
                instance="Ana's kato-2")  # fmt: skip
OTHER = replace(ANA, name="Bo's uno", fingerprint="8QXM-K2PA-93TD-HB0R", instance="Bo's uno")


@pytest.fixture
def lobby(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> _Lobby:
    monkeypatch.setenv("LANPARTY_HOME", str(tmp_path))  # no saved seats to offer
    return _Lobby()


def _join(lobby: _Lobby, text: str) -> tuple[Choice | None, list[str]]:
    shown: list[str] = []
    choice = _choose(text, lobby, lambda line, cls="": shown.append(line))
    return choice, shown


def test_a_table_keeps_its_number_and_a_number_is_never_reused(lobby: _Lobby) -> None:
    lobby.seen(ANA)
    lobby.seen(OTHER)
    lobby.gone(ANA.instance)
    lobby.seen(SQUAT)
    assert [(n, ad.fingerprint) for n, ad in lobby.numbered()] == [
        (2, OTHER.fingerprint), (3, SQUAT.fingerprint)]  # fmt: skip
    assert _join(lobby, "join 1") == (None, ["join which table? a number from the list, or "
                                             "its name"])  # fmt: skip


def test_another_key_answering_for_a_table_makes_it_another_table(lobby: _Lobby) -> None:
    lobby.seen(ANA)
    lobby.seen(replace(ANA, free=2))
    assert lobby.lines[-1].startswith('table 1: "Ana\'s kato": kato, 2 of 4 seated')
    lobby.seen(replace(ANA, fingerprint=SQUAT.fingerprint))
    assert lobby.lines[-2] == 'table 1 "Ana\'s kato" is gone (another host key answers for it now)'
    assert lobby.lines[-1].startswith('new table 2: "Ana\'s kato"')
    assert [n for n, _ in lobby.numbered()] == [2]


def test_join_name_with_two_tables_of_that_name_asks_for_the_number(lobby: _Lobby) -> None:
    lobby.seen(ANA)
    lobby.seen(SQUAT)
    assert lobby.lines[-1] == ("2 tables are called \"Ana's kato\" (1, 2): tell them apart by "
                               "the host key")  # fmt: skip
    choice, shown = _join(lobby, "join ana’s KATO")  # a typographic apostrophe, and case
    assert choice is None
    assert shown == [
        "2 tables are called 'ana’s KATO' (1: host ana [7QXM-K2PA-93TD-HB0R] at 10.0.0.2:4000; "
        "2: host ana [MALL-ORY0-93TD-HB0R] at 10.0.0.9:4000): join N with the number of the "
        "one whose host key you know"
    ]
    choice, _ = _join(lobby, "join 2")
    assert choice is not None and choice.table == SQUAT
    lobby.gone(SQUAT.instance)
    choice, _ = _join(lobby, f'join "{ANA.name}"')  # quoted as the list shows it
    assert choice is not None and choice.table == ANA


def test_lang_switches_the_language_at_once(lobby: _Lobby) -> None:
    from lanparty import i18n

    assert _join(lobby, "lang") == (None, ["Language: en (lang LANG to change: en, pl, es)"])
    assert _join(lobby, "lang pl") == (None, ["Język: pl"])
    assert i18n.language() == "pl"
    lobby.seen(ANA)
    assert lobby.lines[-1].startswith('nowy stół 1: "Ana\'s kato": kato, zajęte 1 z 4 miejsc')
    assert _join(lobby, "dance")[1] == ["nieznane polecenie 'dance' (wpisz help albo naciśnij Tab)"]
    assert _join(lobby, "lang es_AR.UTF-8") == (None, ["Idioma: es"])
    assert _join(lobby, "help")[1][-2].strip().startswith("lang [LANG]       el idioma")
    # No catalogue: English, said in a line that is not an error.
    assert _join(lobby, "lang xx") == (None, ["no catalogue for 'xx': English it is"])
    assert i18n.language() == "en"


def test_a_playing_table_is_watched_not_joined(lobby: _Lobby, tmp_path: Path) -> None:
    import argparse

    from lanparty.commands.lobby import argv_for

    playing = replace(ANA, free=0, playing=True, spectators=16, watchers=2)
    closed = replace(OTHER, spectators=0)
    lobby.seen(playing)
    lobby.seen(closed)
    assert lobby.lines[0] == ("new table 1: \"Ana's kato\": kato, playing (4 seats), host ana "
                              "[7QXM-K2PA-93TD-HB0R] at 10.0.0.2:4000 · 2 watching")  # fmt: skip
    assert _join(lobby, "join 1") == (None, ["\"Ana's kato\" is playing: watch 1 to follow it"])
    assert _join(lobby, "watch 2") == (None, ["\"Bo's uno\" takes no spectators"])
    choice, _ = _join(lobby, "watch 1")
    assert choice is not None and choice.action == "watch" and choice.table == playing
    args = argparse.Namespace(local=True, interface=None)
    assert argv_for(choice, args, "zoe") == [
        "watch", "--connect=10.0.0.2:4000", "--host-key=7QXM-K2PA-93TD-HB0R", "--nick=zoe",
        "--local"]  # fmt: skip


def test_a_table_with_a_writing_language_shows_it(lobby: _Lobby) -> None:
    """Unanimo's rules, "The writing language": "The lobby and the top of the screen show
    it" (the host advertises it in the table's TXT record, key ``lang``)."""
    from lanparty import i18n
    from lanparty.ui.lobbymodel import describe

    words = replace(ANA, game="unanimo", lang="pl")
    assert words.txt()["lang"] == "pl" and "lang" not in ANA.txt()
    assert describe(words).endswith(" · writing language: Polish")
    assert "writing language" not in describe(ANA)
    i18n.set_language("es")
    try:
        assert describe(words).endswith(" · idioma de escritura: polaco")
    finally:
        i18n.set_language("en")


def test_name_changes_the_name_the_next_table_is_joined_with(lobby: _Lobby) -> None:
    """``name NEW``: the lobby's header, help and bottom line say the name the player goes
    by, and the next join goes with it; a name no table would take is refused, saying why."""
    import argparse

    from lanparty.commands.lobby import argv_for

    lobby.nick = "Zed"
    assert ("You join and host as Zed (name NEW to change it).", "") in lobby.greeting("lo", False)
    assert _join(lobby, "name") == (None, ["You join and host as Zed (name NEW to change it)."])
    assert _join(lobby, "name Ana B") == (None, ["From now on you join and host as Ana B."])
    assert "  name [NAME]       the name you join and host with (now: Ana B)" in _join(
        lobby, "help")[1]  # fmt: skip
    assert lobby.toolbar("lo (127.0.0.1)") == (
        "0 tables on lo (127.0.0.1) · you: Ana B · Tab · help · quit")  # fmt: skip
    assert _join(lobby, "name ʙob") == (None, [
        "not a name a table would take: the name 'ʙob' uses ʙ (U+0299), which is not a letter "
        "in common use in names"])  # fmt: skip
    assert _join(lobby, "name " + "x" * 33)[1] == [
        "not a name a table would take: a name is at most 32 characters"]
    assert lobby.nick == "Ana B"
    lobby.seen(ANA)
    choice, _ = _join(lobby, "join 1")
    assert choice is not None
    choice.nick = lobby.nick  # as the lobby's prompt hands it over
    args = argparse.Namespace(local=True, interface=None)
    assert argv_for(choice, args, choice.nick)[3] == "--nick=Ana B"


def test_a_kept_seat_whose_table_is_over_is_forgotten_saying_why(
    lobby: _Lobby, tmp_path: Path
) -> None:
    """Nobody listens at the seat's address and no table is announced there: over (the
    seat is forgotten, and the player told). Announced there, or a host that takes the
    connection: kept."""
    import socket

    import trio

    from crypto import Identity, KeyShare, SealKey
    from lanparty.store import SavedSeat, save_seat, saved_seats
    from lanparty.table.keeping import forget_saved, seat_gone

    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead = f"127.0.0.1:{closed.getsockname()[1]}"
    closed.close()  # nobody listens there now
    listening = socket.create_server(("127.0.0.1", 0))
    alive = f"127.0.0.1:{listening.getsockname()[1]}"
    secrets = (Identity(), KeyShare(), SealKey())
    seats = {where: SavedSeat.of(bytes([n]) * 16, "Bo", where, secrets)
             for n, where in enumerate((dead, alive), start=1)}  # fmt: skip
    for seat in seats.values():
        save_seat(seat)
    with listening:
        assert trio.run(seat_gone, seats[dead], lambda endpoint: False)
        assert not trio.run(seat_gone, seats[dead], lambda endpoint: endpoint == dead)
        assert not trio.run(seat_gone, seats[alive], lambda endpoint: False)
    lobby.resumable = saved_seats()
    forget_saved(seats[dead])
    lobby.forgot(seats[dead])
    assert lobby.lines[-1] == (f"the table {seats[dead].table_hex[:12]}… where you sat as Bo "
                               f"has stopped (nobody answers at {dead} any more): your seat is "
                               "forgotten")  # fmt: skip
    assert [s.endpoint for s in saved_seats()] == [alive]
    assert [s.endpoint for s in lobby.resumable] == [alive]


def test_host_and_play_take_bots_and_their_level(lobby: _Lobby) -> None:
    """``host GAME [SEATS] [BOTS] [LEVEL]`` and ``play GAME [BOTS] [LEVEL]`` stand for the
    command lines with ``--bots`` and ``--level``, which the command line's parser takes."""
    import argparse

    from lanparty.commands.lobby import argv_for
    from lanparty.commands.main import build_parser

    args = argparse.Namespace(local=True, interface=None)
    choice, _ = _join(lobby, "host kato 4 2 hard")
    assert choice is not None and (choice.seats, choice.bots, choice.level) == (4, 2, "hard")
    argv = argv_for(choice, args, "zoe")
    assert argv == ["host", "kato", "--seats=4", "--bots=2", "--level=hard", "--nick=zoe",
                    "--local"]  # fmt: skip
    parsed = build_parser().parse_args(argv)
    assert (parsed.bots, parsed.level) == (2, ("hard",))
    choice, _ = _join(lobby, "play unikato 1 Easy")
    assert choice is not None and (choice.bots, choice.level) == (1, "easy")
    assert argv_for(choice, args, "zoe") == ["play", "unikato", "--nick=zoe", "--bots=1",
                                             "--level=easy"]  # fmt: skip
    choice, _ = _join(lobby, "play kato")  # the command's defaults
    assert choice is not None and argv_for(choice, args, "zoe") == ["play", "kato", "--nick=zoe"]
    assert _join(lobby, "host kato 4 2 genius") == (
        None, ["host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]: LEVEL is one of easy, normal, "
               "hard; one for every bot, or one per bot comma-separated"])  # fmt: skip


def test_host_and_play_take_a_level_per_bot(lobby: _Lobby) -> None:
    """``LEVEL,LEVEL…`` is one level per bot in seat order: the command line's ``--level``
    list, which its parser takes; a list without BOTS seats as many bots; a list of another
    length than BOTS, or an unknown level in it, is one line saying what is accepted."""
    import argparse

    from lanparty.commands.lobby import argv_for
    from lanparty.commands.main import build_parser

    args = argparse.Namespace(local=True, interface=None)
    choice, _ = _join(lobby, "host kato 4 3 hard,Normal,random")
    assert choice is not None and (choice.seats, choice.bots) == (4, 3)
    assert choice.level == "hard,normal,easy"  # each as the command line spells it
    argv = argv_for(choice, args, "zoe")
    assert argv is not None and "--level=hard,normal,easy" in argv
    assert build_parser().parse_args(argv).level == ("hard", "normal", "easy")
    choice, _ = _join(lobby, "play kato 2 hard,easy")
    assert choice is not None and (choice.bots, choice.level) == (2, "hard,easy")
    assert argv_for(choice, args, "zoe") == ["play", "kato", "--nick=zoe", "--bots=2",
                                             "--level=hard,easy"]  # fmt: skip
    choice, _ = _join(lobby, "play unikato easy,hard")  # as many bots as levels
    assert choice is not None and (choice.bots, choice.level) == (2, "easy,hard")
    choice, _ = _join(lobby, "host kato 5 hard,easy")
    assert choice is not None and (choice.seats, choice.bots) == (5, 2)
    assert _join(lobby, "play kato 3 hard,easy") == (
        None, ["play GAME [BOTS] [LEVEL[,LEVEL...]]: 2 levels for 3 bots; give one for every "
               "bot, or one per bot"])  # fmt: skip
    assert _join(lobby, "host kato 4 2 hard,genius")[0] is None
    assert _join(lobby, "play kato 2 hard,")[0] is None


def test_completion_offers_the_levels_after_host_or_play(lobby: _Lobby) -> None:
    """Tab after ``play GAME [BOTS] `` offers the levels; after a comma, the list's next."""
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from lanparty.ui.lobbymodel import _LobbyCompleter

    def complete(text: str) -> list[str]:
        """The lines Tab would make of ``text``."""
        found = _LobbyCompleter(lobby).get_completions(Document(text), CompleteEvent(True))
        return [text[: len(text) + c.start_position] + c.text for c in found]

    assert complete("play kato 2 ") == ["play kato 2 easy", "play kato 2 normal",
                                        "play kato 2 hard"]  # fmt: skip
    assert complete("host kato 4 2 hard,e") == ["host kato 4 2 hard,easy"]
    assert complete("play kato 2 h") == ["play kato 2 hard"]
    assert complete("play kato 2") == []  # a number being typed

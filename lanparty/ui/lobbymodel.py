"""The lobby's model and commands, with no screen: the tables on the network by number
(:class:`_Lobby`), what each typed line does (:func:`_choose`), the completion of the lobby's
commands, and what the player picked (:class:`Choice`). The full-screen lobby
(``lobbyscreen.py``) and the line-by-line one (``lobby.py``) both drive it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from lanparty.friends import Friends, complaint
from lanparty.friends import load as load_friends
from lanparty.games import DEFAULT_GAME, GAMES
from lanparty.games.bots import LEVELS, levels_of
from lanparty.i18n import LANGUAGES, N_, _, known, language, ngettext, set_language
from lanparty.net.discovery import TableAd, same_name
from lanparty.night import board_line, kept_nights
from lanparty.store import SavedSeat, saved_seats
from lanparty.table.friendly import host_note
from lanparty.table.whoami import name_trouble
from lanparty.ui.nightboard import night_text
from protocol import PROTOCOL_VERSION

__all__ = ["LANGUAGE_NAMES", "Choice", "describe", "help_lines"]

HELP = N_("""Commands (Tab completes):
  join N            join table N of the list (or: join NAME, if one table is called so)
  watch N           watch table N: its board and its story, no hand (or: watch NAME)
  resume            take back your seat at a game your program left (see above)
  host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]
                    open a table of your own, e.g. host {example} 4 2 hard
                    (2 of its 4 seats for bots; LEVEL: easy, normal, hard;
                    one per bot: host {example} 4 2 hard,easy)
  play GAME [BOTS] [LEVEL[,LEVEL...]]
                    a game on this machine against bots, e.g. play {example} 1 hard
                    (or play {example} 2 hard,easy: a hard bot and an easy one)
  list              show the tables again
  night             the scoreboard of your last night of games
  name [NAME]       the name you join and host with (now: {nick})
  lang [LANG]       the language to read: {languages}
  help / quit""")


@dataclass
class Choice:
    """What the player picked: ``action`` is ``join``, ``watch``, ``host``, ``play``,
    ``resume``, ``quit``, or ``interrupt`` (Ctrl-C); ``nick``: the name they go by (``name
    NEW`` changes it)."""

    action: str
    table: TableAd | None = None
    game: str = ""
    seats: int = 4
    bots: int | None = None
    """Bots to seat (``host``: of the seats; ``play``: besides the player); ``None``: the
    command's default."""
    level: str | None = None
    """The bots' levels: one for every bot, or one per bot, comma-separated (``None``: the
    command's default, normal)."""
    extra: dict[str, Any] = field(default_factory=dict)
    nick: str = ""


class _Lobby:
    """The tables on the network, by number. A table keeps the number it was shown with
    while it is listed, and a number is never given twice: ``join 3`` is the table the
    player saw as 3, with the host key shown beside it, or none at all."""

    def __init__(self, nick: str = "") -> None:
        self.tables: dict[int, TableAd] = {}
        self._numbers: dict[str, int] = {}  # DNS-SD instance name -> number
        self._next = 1
        self.lines: list[str] = []
        self.resumable = saved_seats() + saved_seats(host=True)
        #: The name the player joins and hosts with (``name NEW`` changes it).
        self.nick = nick
        #: The friends as they were when the lobby opened (a table played since adds some).
        self.friends = load_friends()

    def announced(self, endpoint: str) -> bool:
        """True if a table is announced at ``endpoint`` (``HOST:PORT``) now."""
        return any(ad.endpoint == endpoint for ad in self.tables.values())

    def forgot(self, seat: SavedSeat) -> None:
        """The kept ``seat``'s table is over (nobody answers at its address): it is offered
        no more, and the player is told why."""
        self.resumable = [s for s in self.resumable if s != seat]
        self.lines.append(_(
            "the table {table} where you sat as {nick} has stopped (nobody answers at "
            "{endpoint} any more): your seat is forgotten").format(
                table=seat.table_hex[:12] + "…", nick=seat.nick,
                endpoint=seat.endpoint))  # fmt: skip

    def greeting(self, where: str, again: bool) -> list[tuple[str, str]]:
        """What the lobby says as it opens (styled lines): where it looks, the name the
        player goes by, and each kept seat that may still be waiting."""
        if again:
            out = [(_("Back in the lobby: looking for tables on {where}. Type help.").format(
                where=where), "class:title")]  # fmt: skip
        else:
            out = [(_("lanparty lobby"), "class:title"),
                   (_("Looking for tables on {where}; they appear here as they open. Type "
                      "help.").format(where=where), "")]  # fmt: skip
        out.append((_("You join and host as {nick} (name NEW to change it).").format(
            nick=self.nick), ""))  # fmt: skip
        damaged = complaint(self.friends)
        if damaged is not None:
            out.append((damaged, "class:warn"))
        kept = kept_nights()
        if kept:
            last = kept[-1]
            out.append((_("Your last night ({when}): {board} (type night for the board)").format(
                when=last.latest, board=board_line(last)), ""))  # fmt: skip
        for seat in self.resumable:
            if seat.host:
                line = _("The table you hosted {table} ({endpoint}) may still be waiting for "
                         "you: type resume")  # fmt: skip
            else:
                line = _("Your seat as {nick} at table {table} ({endpoint}) may still be "
                         "waiting for you: type resume")  # fmt: skip
            out.append((line.format(nick=seat.nick, table=seat.table_hex[:12],
                                    endpoint=seat.endpoint), "class:warn"))  # fmt: skip
        return out

    def toolbar(self, where: str) -> str:
        """The bottom line: how many tables, where, and who the player is."""
        return ngettext(
            "{n} table on {where} · you: {nick} · Tab · help · quit",
            "{n} tables on {where} · you: {nick} · Tab · help · quit", len(self.tables),
        ).format(n=len(self.tables), where=where, nick=self.nick)  # fmt: skip

    def seen(self, ad: TableAd) -> None:
        n = self._numbers.get(ad.instance)
        if n is not None and self.tables[n].fingerprint != ad.fingerprint:
            # Another key answers for that table now: it is not the table shown as n.
            self.lines.append(_(
                "table {n} {name} is gone (another host key answers for it now)"
            ).format(n=n, name=repr(self.tables.pop(n).name)))  # fmt: skip
            n = None
        if n is not None:
            self.tables[n] = ad
            self.lines.append(_("table {n}: {table}").format(
                n=n, table=describe(ad, self.friends)))  # fmt: skip
            return
        n, self._next = self._next, self._next + 1
        self._numbers[ad.instance] = n
        self.tables[n] = ad
        self.lines.append(_("new table {n}: {table}").format(
            n=n, table=describe(ad, self.friends)))  # fmt: skip
        namesakes = self.named(ad.name)
        if len(namesakes) > 1:
            numbers = ", ".join(str(m) for m, _ad in namesakes)
            self.lines.append(_(
                "{count} tables are called {name} ({numbers}): tell them apart by the host key"
            ).format(count=len(namesakes), name=repr(ad.name), numbers=numbers))  # fmt: skip

    def gone(self, instance: str) -> None:
        n = self._numbers.pop(instance, None)
        if n is not None and n in self.tables:
            name = repr(self.tables.pop(n).name)
            self.lines.append(_("table {n} {name} is gone (full or closed)").format(n=n, name=name))

    def numbered(self) -> list[tuple[int, TableAd]]:
        return sorted(self.tables.items())

    def named(self, name: str) -> list[tuple[int, TableAd]]:
        """The numbered tables whose name reads like ``name``."""
        return [(n, ad) for n, ad in self.numbered() if same_name(ad.name, name)]


LANGUAGE_NAMES = {"en": N_("English"), "pl": N_("Polish"), "es": N_("Spanish")}
"""The writing languages a table may advertise, by name (translated where shown)."""


def describe(ad: TableAd, friends: Friends | None = None) -> str:
    """One table in words (with its writing language, if it advertises one; and, with
    ``friends``, a friend's key marked, a friend's name under another key flagged)."""
    seated = ad.seats - ad.free
    version = ""
    if ad.proto != PROTOCOL_VERSION:
        version = "  " + _("(protocol {n}: cannot join)").format(n=ad.proto)
    if ad.playing:
        line = _("{name}: {game}, playing ({seats} seats), host {host} [{key}] at {endpoint}")
    else:
        line = _("{name}: {game}, {seated} of {seats} seated, host {host} [{key}] at {endpoint}")
    text = line.format(
        name=repr(ad.name), game=ad.game, seated=seated, seats=ad.seats, host=ad.host,
        key=ad.fingerprint, endpoint=ad.endpoint,
    )  # fmt: skip
    if ad.lang:
        said = LANGUAGE_NAMES.get(ad.lang)
        text += " · " + _("writing language: {language}").format(
            language=_(said) if said is not None else ad.lang
        )
    if ad.watchers:
        text += " · " + ngettext("{n} watching", "{n} watching", ad.watchers).format(n=ad.watchers)
    note = host_note(friends, ad.host, ad.fingerprint) if friends is not None else None
    if note is not None:
        text += " · " + note[0]
    return text + version


class _LobbyCompleter(Completer):
    def __init__(self, lobby: _Lobby) -> None:
        self.lobby = lobby

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.strip() and not complete_event.completion_requested:
            return  # an empty line: only when asked (Tab), not after Enter
        tables = self.lobby.numbered()
        options = [f"join {n}" for n, ad in tables if not ad.playing]
        options += [f"watch {n}" for n, ad in tables if ad.spectators > 0]
        options += [f"host {g}" for g in sorted(GAMES)] + [f"play {g}" for g in sorted(GAMES)]
        yield from _level_completions(text)
        options += ["list", "help", "quit", "name", "night"]
        options += ["resume"] if self.lobby.resumable else []
        options += [f"lang {lang}" for lang in LANGUAGES]
        for option in options:
            if option.startswith(text.lower()):
                yield Completion(option, start_position=-len(text))


def _level_completions(text: str) -> Iterable[Completion]:
    """After ``host GAME …`` or ``play GAME …`` and a space, the level being typed: each
    level that starts so (after a comma: the list's next one)."""
    words = text.split(" ")
    if len(words) < 3 or words[0].lower() not in _USAGE or words[1].lower() not in GAMES:
        return
    typed = words[-1]
    if typed.isdigit():
        return
    part = typed.rpartition(",")[2].lower()
    for level in LEVELS:
        if level.startswith(part) and level != part:
            yield Completion(level, start_position=-len(part), display_meta=_("bot level"))


def help_lines(lobby: _Lobby) -> list[str]:
    """The lobby's help, a line each, in the reader's language."""
    return _(HELP).format(example=DEFAULT_GAME, languages=", ".join(LANGUAGES),
                          nick=lobby.nick).splitlines()  # fmt: skip


def _choose(
    text: str, lobby: _Lobby, show: Any, page: Callable[[str], None] | None = None
) -> Choice | None:
    """The choice ``text`` makes, or None after showing help, the list or a mistake.
    ``page``: opens a page (``"help"``) over the screen; without it help is shown a line
    at a time."""
    words = text.split()
    if not words:
        return None
    head, args = words[0].lower(), words[1:]
    if head in ("quit", "exit", "q"):
        return Choice("quit")
    if head == "resume":
        return _resume(lobby, show)
    if head == "help" and page is not None:
        page("help")
    elif head == "help":
        for line in help_lines(lobby):  # one by one: show() would escape a line break
            show(line)
    elif head == "name":
        _name(text.strip()[len(words[0]) :].strip(), lobby, show)
    elif head == "lang":
        _lang(args, show)
    elif head == "night":
        _night(show)
    elif head in ("list", "ls"):
        _list(lobby, show)
    elif head in ("join", "watch"):
        return _join_or_watch(head, args, lobby, show)
    elif head in ("host", "play"):
        if not args or args[0].lower() not in GAMES:
            games = ", ".join(sorted(GAMES))
            show(_("{command} which game? one of: {games}").format(command=head, games=games),
                 "class:error")  # fmt: skip
            return None
        return _table_choice(head, args, show)
    else:
        show(_("unknown command {word} (type help, or press Tab)").format(word=repr(words[0])),
             "class:error")  # fmt: skip
    return None


#: How ``host`` and ``play`` are typed in the lobby (shown when something does not fit).
_USAGE = {
    "host": "host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]",
    "play": "play GAME [BOTS] [LEVEL[,LEVEL...]]",
}


def _table_choice(head: str, args: list[str], show: Any) -> Choice | None:
    """``host GAME [SEATS] [BOTS] [LEVEL[,LEVEL...]]`` or ``play GAME [BOTS]
    [LEVEL[,LEVEL...]]`` as a choice: one level for every bot or one per bot in seat order
    (a list without BOTS: as many bots as it names); ``None`` after showing what does not
    fit."""
    numbers = [int(a) for a in args[1:] if a.isdigit()]
    words = [a for a in args[1:] if not a.isdigit()]
    levels = levels_of(words[0]) if len(words) == 1 else ()
    most = 2 if head == "host" else 1
    if len(numbers) > most or len(words) > 1 or levels is None:
        show(_("{usage}: LEVEL is one of {levels}; one for every bot, or one per bot "
               "comma-separated").format(usage=_USAGE[head], levels=", ".join(LEVELS)),
             "class:error")  # fmt: skip
        return None
    level = ",".join(levels) if levels else None
    listed = len(levels) if len(levels) > 1 else None  # a list: one level per bot
    if head == "play":
        bots = numbers[0] if numbers else listed
    else:
        bots = numbers[1] if len(numbers) > 1 else listed
    if listed is not None and bots != listed:
        show(ngettext("{usage}: {n} level for {bots} bots; give one for every bot, or one "
                      "per bot", "{usage}: {n} levels for {bots} bots; give one for every "
                      "bot, or one per bot", listed).format(
                          usage=_USAGE[head], n=listed, bots=bots), "class:error")  # fmt: skip
        return None
    if head == "play":
        return Choice(head, game=args[0].lower(), bots=bots, level=level)
    seats = numbers[0] if numbers else 4
    return Choice(head, game=args[0].lower(), seats=seats, bots=bots, level=level)


def _list(lobby: _Lobby, show: Any) -> None:
    """``list``: every table seen, by number."""
    tables = lobby.numbered()
    for n, ad in tables:
        show(f"  {n}: {describe(ad, lobby.friends)}")
    if not tables:
        show("  " + _("no tables yet (they appear here as they open)"))


def _night(show: Any) -> None:
    """``night``: the board of the last night of games kept here, a line at a time (the
    games ``lanparty night`` has read or a table has checked to its end)."""
    kept = kept_nights()
    if not kept:
        show(_("no night kept here yet: play a game (or run lanparty night)"))
        return
    for line in night_text(kept[-1]).rstrip("\n").splitlines():
        show(line)


def _resume(lobby: _Lobby, show: Any) -> Choice | None:
    """``resume``: the one kept seat (or hosted table) taken back, or None after saying
    there is none, or several."""
    if len(lobby.resumable) == 1:
        seat = lobby.resumable[0]
        return Choice("resume", extra={"table": seat.table_hex, "host": seat.host})
    if not lobby.resumable:
        show(_("no seat to resume"), "class:error")
    else:
        ids = ", ".join(seat.table_hex[:12] for seat in lobby.resumable)
        show(_("several to resume ({ids}): lanparty join --resume TABLE_ID (or host "
               "--resume)").format(ids=ids), "class:error")  # fmt: skip
    return None


def _join_or_watch(head: str, args: list[str], lobby: _Lobby, show: Any) -> Choice | None:
    """``join N`` / ``watch N`` (or a table's name): the choice, or None after saying why
    not (no such table, several of that name, another protocol, full, playing, closed to
    spectators)."""
    wanted = " ".join(args)
    candidates = _pick(wanted, lobby)
    picked = candidates[0][1] if len(candidates) == 1 else None
    if len(candidates) > 1:
        one = _("{n}: host {host} [{key}] at {endpoint}")
        which = "; ".join(one.format(n=n, host=ad.host, key=ad.fingerprint,
                                     endpoint=ad.endpoint) for n, ad in candidates)  # fmt: skip
        show(_("{count} tables are called {name} ({which}): {command} N with the number of "
               "the one whose host key you know").format(
            count=len(candidates), name=repr(wanted), which=which, command=head),
            "class:error")  # fmt: skip
    elif picked is None:
        show(_("{command} which table? a number from the list, or its name").format(
            command=head), "class:error")  # fmt: skip
    elif picked.proto != PROTOCOL_VERSION:
        show(_("{name} speaks protocol {n}; this lanparty speaks {ours}").format(
            name=repr(picked.name), n=picked.proto, ours=PROTOCOL_VERSION),
            "class:error")  # fmt: skip
    elif head == "watch" and picked.spectators <= 0:
        show(_("{name} takes no spectators").format(name=repr(picked.name)), "class:error")
    elif head == "watch":
        return Choice("watch", table=picked, game=picked.game)
    elif picked.playing:
        show(_("{name} is playing: watch {n} to follow it").format(
            name=repr(picked.name), n=candidates[0][0]), "class:error")  # fmt: skip
    elif picked.free <= 0:
        show(_("{name} is full").format(name=repr(picked.name)), "class:error")
    else:
        return Choice("join", table=picked, game=picked.game)
    return None


def _name(new: str, lobby: _Lobby, show: Any) -> None:
    """``name``: say the name the player goes by; ``name NEW``: go by NEW from the next
    table on (refused, saying why, if no table would seat it). A name may hold spaces."""
    if not new:
        show(_("You join and host as {nick} (name NEW to change it).").format(nick=lobby.nick))
        return
    if len(new) > 1 and new[0] == new[-1] and new[0] in "'\"":  # name 'Ana B'
        new = new[1:-1].strip()
    trouble = name_trouble(new)
    if trouble is not None:
        show(_("not a name a table would take: {why}").format(why=trouble), "class:error")
        return
    lobby.nick = new
    show(_("From now on you join and host as {nick}.").format(nick=new))


def _lang(args: list[str], show: Any) -> None:
    """``lang``: say the language in use; ``lang LANG``: read in LANG from now on (English
    for one without a catalogue, said so in a line, as it is not a mistake)."""
    if args:
        chosen = set_language(args[0])
        if not known(args[0]):
            show(_("no catalogue for {lang}: English it is").format(lang=repr(args[0])))
            return
        show(_("Language: {lang}").format(lang=chosen))
    else:
        show(_("Language: {lang} (lang LANG to change: {languages})").format(
            lang=language(), languages=", ".join(LANGUAGES)))  # fmt: skip


def _pick(text: str, lobby: _Lobby) -> list[tuple[int, TableAd]]:
    """The tables ``join TEXT`` may mean: the one numbered so, or those called so."""
    if text.isdigit():
        return [(int(text), lobby.tables[int(text)])] if int(text) in lobby.tables else []
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":  # join 'Ana's kato'
        text = text[1:-1]
    return lobby.named(text)

"""The lobby in the terminal: one full-screen prompt-toolkit application, a table of the same
program (``app.py``) in its looks and keys.

```
 lanparty lobby · lo (127.0.0.1) · you: Zed ······························ 2 tables
 ─ tables ─────────────────────────────────────────────────────────────────────────
   #  table        game    seats    host                      address
   1  Ana's kato   kato    1 of 4   ana [7QXM-K2PA-93TD-HB0R] 10.0.0.2:4000
   resume: your seat as Bo at table bf14… (10.0.0.7:4000)
 ─ events ──────────────────────────────────────────────────────────────── PgUp ↑ ─
 · new table 1: 'Ana's kato': kato, 1 of 4 seated, host ana [7QXM-…] at 10.0.0.2:4000
 lobby> join 1
 2 tables on lo (127.0.0.1) · you: Zed · Tab · help · quit
```

The tables region lists the open tables, aligned, as the model (``lobby._Lobby``) knows them
now, and the kept seats ``resume`` takes back; the events pane is the table's story pane
(every line kept, PgUp/PgDn, the mouse wheel), and it is kept from one visit of the lobby to
the next; help opens over them (``overlay.py``). What a typed line does is the lobby's own
(``lobby._choose``); a choice ends the application and is handed back.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.layout import Dimension, FloatContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.utils import get_cwidth

from lanparty.friends import Friends
from lanparty.games.screens import Fragments
from lanparty.i18n import N_, _, ngettext
from lanparty.net.discovery import TableAd
from lanparty.table.friendly import host_note
from lanparty.text import printable
from protocol import PROTOCOL_VERSION

from .app import color_depth, make_style
from .layout import fit, line_count
from .lobbymodel import LANGUAGE_NAMES, Choice, _choose, _Lobby, _LobbyCompleter, help_lines
from .menu import completion_menu
from .overlay import Overlay
from .story import Story, StoryControl, paging_keys

__all__ = ["EVENTS_ROWS", "MIN_COLUMNS", "LobbyApp", "tables_region", "tables_rows"]

EVENTS_ROWS = 5
"""Rows the events pane keeps at least: its rule and 4 lines."""
CHROME = 3 + EVENTS_ROWS
"""Rows the lobby keeps for itself: the header, the input line, the status line, the events."""
MIN_COLUMNS = 40
"""Columns under which the tables region says the window is too small."""
MIN_TABLE_ROWS = 3
"""Rows the tables region needs at least: its rule, the column titles and one table."""

_EVENTS: list[Fragments] = []
"""The events pane's lines of the lobby's earlier visits (kept while the program runs)."""
_TYPED = InMemoryHistory()
"""The lines typed in the lobby (Up recalls them), kept from one visit to the next."""


def _cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells (``…`` where it was cut)."""
    if get_cwidth(text) <= width:
        return text
    out, used = "", 0
    for ch in text:
        w = get_cwidth(ch)
        if used + w > width - 1:
            break
        out, used = out + ch, used + w
    return out + "…" if width > 0 else ""


def _pad(text: str, width: int) -> str:
    return text + " " * max(width - get_cwidth(text), 0)


def _cells(n: int, ad: TableAd, friends: Friends) -> tuple[list[str], bool]:
    """One table's columns: number, name, game, seats, host and key, address, notes (every
    string a peer sent made safe for the terminal); and whether the row is a warning (its
    host uses a friend's name with another key)."""
    if ad.playing:
        seats = _("playing")
    else:
        seats = _("{seated} of {seats}").format(seated=ad.seats - ad.free, seats=ad.seats)
    notes = []
    friend = host_note(friends, ad.host, ad.fingerprint)
    if friend is not None:
        notes.append(friend[0])
    if ad.watchers:
        notes.append(ngettext("{n} watching", "{n} watching", ad.watchers).format(n=ad.watchers))
    if ad.lang:
        said = LANGUAGE_NAMES.get(ad.lang)
        notes.append(_("writing language: {language}").format(
            language=_(said) if said is not None else printable(ad.lang)))  # fmt: skip
    if ad.proto != PROTOCOL_VERSION:
        notes.append(_("(protocol {n}: cannot join)").format(n=ad.proto))
    host = f"{printable(ad.host)} [{ad.fingerprint}]"
    return [str(n), printable(ad.name), printable(ad.game), seats, host, ad.endpoint,
            " · ".join(notes)], friend is not None and friend[1]  # fmt: skip


def _titles() -> list[str]:
    return ["#", _("table"), _("game"), _("seats"), _("host"), _("address"), ""]


def tables_rows(lobby: _Lobby, width: int) -> list[Fragments]:
    """The open tables as an aligned list for ``width`` columns, a row (two where one is too
    narrow: the address and the notes under the name) a table, under the columns' titles;
    then the kept seats ``resume`` takes back. No row is wider than ``width``."""
    tables = lobby.numbered()
    rows: list[Fragments] = []
    if tables:
        marked = [_cells(n, ad, lobby.friends) for n, ad in tables]
        cells = [_titles(), *(row for row, _warn in marked)]
        warned = [False, *(warn for _row, warn in marked)]
        widths = [max(get_cwidth(row[i]) for row in cells) for i in range(7)]
        gap = 2
        start = 2  # the number's column starts here
        whole = start + sum(widths[:6]) + gap * 5 + (gap + widths[6] if widths[6] else 0)
        two = whole > width  # the address and notes go on a row of their own
        if two:
            first = start + widths[0] + gap
            room = width - first - sum(widths[2:5]) - gap * 4
            widths[1] = max(min(widths[1], room), 8)
        for i, row in enumerate(cells):
            style = "class:dim" if i == 0 else "class:warn" if warned[i] else ""
            number = " " * (widths[0] - get_cwidth(row[0])) + row[0]
            parts = [number] + [_pad(_cut(row[c], widths[c]), widths[c]) for c in (1, 2, 3)]
            if two:
                parts.append(row[4])
                line = " " * start + (" " * gap).join(parts)
                rows.append([(style, _cut(line.rstrip(), width))])
                more = "   ".join(part for part in row[5:] if part)
                if more and i:
                    indent = " " * (start + widths[0] + gap)
                    rows.append([(style or "class:dim", _cut(indent + more, width))])
            else:
                parts += [_pad(row[4], widths[4]), _pad(row[5], widths[5]), row[6]]
                line = " " * start + (" " * gap).join(parts)
                rows.append([(style, _cut(line.rstrip(), width))])
    else:
        rows.append([("class:dim", _cut("  " + _("no tables yet (they appear here as they "
                                                  "open)"), width))])  # fmt: skip
    for seat in lobby.resumable:
        if seat.host:
            said = _("resume: the table you hosted, {table} ({endpoint})")
        else:
            said = _("resume: your seat as {nick} at table {table} ({endpoint})")
        text = said.format(nick=printable(seat.nick), table=seat.table_hex[:12],
                           endpoint=seat.endpoint)  # fmt: skip
        rows.append([("class:warn", _cut("  " + text, width))])
    return rows


def _rule(title: str, hint: str, width: int) -> Fragments:
    head = "─ " + title + " "
    tail = f" {hint} ─" if hint else ""
    fill = max(width - get_cwidth(head) - get_cwidth(tail), 0)
    return [("class:rule", _cut(head + "─" * fill, width)), ("class:rule.hint", tail)]


def tables_region(lobby: _Lobby, columns: int, rows: int) -> Fragments:
    """The tables region for a terminal of ``columns`` × ``rows``: its rule and the list
    (:func:`tables_rows`) as far as it fits beside the lobby's other rows, the last row
    saying how many more there are; or, in a window too small for a table, why."""
    room = rows - CHROME
    if room < MIN_TABLE_ROWS or columns < MIN_COLUMNS:
        need = f"{MIN_COLUMNS}×{CHROME + MIN_TABLE_ROWS}"
        said = _("Make the window at least {need} to see the tables (now {now})").format(
            need=need, now=f"{columns}×{rows}")  # fmt: skip
        return [("class:warn", _cut(said, columns)), ("", "\n")]
    listed = tables_rows(lobby, columns)
    if len(listed) > room - 1:
        hidden = len(listed) - (room - 2)
        listed = listed[: room - 2]
        more = ngettext(
            "… {n} more row: make the window taller, or type list",
            "… {n} more rows: make the window taller, or type list",
            hidden,
        )
        listed.append([("class:warn", _cut("  " + more.format(n=hidden), columns))])
    out: Fragments = [*_rule(_("tables"), "", columns), ("", "\n")]
    for row in listed:
        out += [*row, ("", "\n")]
    return out


class LobbyApp:
    """The lobby on the whole terminal until the player chooses (``run``)."""

    def __init__(
        self, lobby: _Lobby, where: str, again: bool, changed: asyncio.Event, notes: list[str]
    ) -> None:
        self.lobby = lobby
        self.where = where
        self.changed = changed
        self.story = Story()
        if again:
            self.story.lines.extend(_EVENTS)  # seen already: not told to the story file again
        else:
            _EVENTS.clear()
        for text, cls in lobby.greeting(where, again):
            self.show(text, cls)
        for note in notes:
            self.show(note, "class:error")
        self.story_control = StoryControl(self.story, N_("events"))
        self.overlay = Overlay(self._focus_input)
        self.buffer = Buffer(completer=_LobbyCompleter(lobby), complete_while_typing=True,
                             multiline=False,
                             history=_TYPED, accept_handler=self._accept)  # fmt: skip
        self.input_window = Window(
            BufferControl(self.buffer), height=1, wrap_lines=False,
            get_line_prefix=lambda line, wrap: [("class:prompt", _("lobby> "))],
        )  # fmt: skip
        self.app: Application[Choice] = Application(
            layout=Layout(self._container(), focused_element=self.input_window),
            key_bindings=self._keys(), style=make_style(), full_screen=True,
            mouse_support=True, color_depth=color_depth(),
        )  # fmt: skip
        self.app.after_render += lambda _app: self.story.flush()

    # ------------------------------------------------------------------ regions

    def _size(self) -> tuple[int, int]:
        app: Application[Choice] | None = getattr(self, "app", None)
        if app is None:  # the layout is walked once as the application is made
            return 80, 24
        size = app.output.get_size()
        return size.columns, size.rows

    def tables(self) -> Fragments:
        """The tables region now."""
        return tables_region(self.lobby, *self._size())

    def _container(self) -> FloatContainer:
        root = HSplit([
            Window(FormattedTextControl(self._header), height=1),
            Window(FormattedTextControl(self.tables), wrap_lines=False,
                   height=lambda: Dimension.exact(line_count(self.tables()))),
            Window(self.story_control, height=Dimension(min=1, weight=1), wrap_lines=False),
            self.input_window,
            Window(FormattedTextControl(self._status), height=1),
        ])  # fmt: skip
        menu = completion_menu(self.buffer, lambda: self._size()[1])  # over the events
        return FloatContainer(root, floats=[menu, self.overlay.float])

    def _header(self) -> Fragments:
        left: Fragments = [("class:header.title", " " + _("lanparty lobby")),
                           ("class:header", " · " + self.where),
                           ("class:header", " · " + _("you: {nick}").format(
                               nick=printable(self.lobby.nick)))]  # fmt: skip
        count = len(self.lobby.tables)
        right: Fragments = [("class:header", ngettext(
            "{n} table", "{n} tables", count).format(n=count) + " ")]  # fmt: skip
        return [(style or "class:header", text)
                for style, text in fit(left, right, self._size()[0])]  # fmt: skip

    def _status(self) -> Fragments:
        return fit([("class:status", " " + self.lobby.toolbar(self.where))], [],
                   self._size()[0])  # fmt: skip

    # ------------------------------------------------------------------ what happens

    def show(self, text: str, cls: str = "") -> None:
        """One line in the events pane (made safe for the terminal)."""
        self.story.add([(cls, printable(text)), ("", "\n")])
        app: Application[Choice] | None = getattr(self, "app", None)
        if app is not None:
            app.invalidate()

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        if text.strip():
            self.story_control.end()  # what the line does is seen at once
        choice = _choose(text, self.lobby, self.show, self.open_page)
        if choice is not None:
            self._exit(choice)
        return False

    def open_page(self, page: str) -> None:
        """Open the lobby's help over it."""
        lines = help_lines(self.lobby)
        self.overlay.open(_("lanparty lobby") + " · " + _("help"),
                          lambda width: [("", "\n".join(lines) + "\n")])  # fmt: skip
        self.app.layout.focus(self.overlay.window)
        self.app.invalidate()

    def _focus_input(self) -> None:
        self.app.layout.focus(self.input_window)
        self.app.invalidate()

    def _exit(self, choice: Choice) -> None:
        if self.app.is_running and self.app.future is not None and not self.app.future.done():
            self.app.exit(result=choice)

    def _keys(self) -> KeyBindingsBase:
        kb = KeyBindings()
        paging = ~Condition(lambda: self.overlay.is_open)
        empty = Condition(lambda: not self.buffer.text) & paging

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            self._exit(Choice("interrupt"))

        @kb.add("c-d")
        def _eof(event: KeyPressEvent) -> None:
            self._exit(Choice("quit"))

        menu = Condition(lambda: self.buffer.complete_state is not None)

        @kb.add("escape", filter=paging & menu, eager=True)
        def _close_menu(event: KeyPressEvent) -> None:
            self.buffer.cancel_completion()  # the line as typed, the menu closed

        return merge_key_bindings(
            [kb, paging_keys(self.story_control, paging, empty, lambda: self.open_page("help"))]
        )

    # ------------------------------------------------------------------ running

    async def _follow(self) -> None:
        """The model's news (tables come and go, a seat forgotten), as lines of events."""
        while True:
            await self.changed.wait()
            self.changed.clear()
            for line in self.lobby.lines:
                self.show("· " + line)
            self.lobby.lines.clear()
            self.app.invalidate()

    async def run(self) -> Choice:
        """Show the lobby until the player chooses; what they chose."""
        follower = asyncio.get_running_loop().create_task(self._follow())
        try:
            result = await self.app.run_async()
        finally:
            follower.cancel()
            _EVENTS[:] = self.story.lines
            self.story.close()
        return result if result is not None else Choice("quit")

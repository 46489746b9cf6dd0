"""What one seat's typing hands in to the table, and the draft of its editor.

What the player typed in the editor (``GameScreen.editor``) is kept, as the draft, while the
move is asked, the player away from the editor included; whatever hands words in hands in
exactly that: Ctrl-S, a command the editor reads as handing it in (``Editor.settle``: a
command that would leave some of it out is asked about first, y/N), the closer's ``close``
(the draft goes in first and the phase is closed once it is on the table), the timer. A
draft the phase closed on before it went in is named to the player, never dropped in
silence.

No prompt-toolkit runs here: :class:`Desk` tells the player through a callback, and the app
(``app.py``) asks it what to do with each line typed.
"""

from __future__ import annotations

from collections.abc import Callable

from lanparty.games.narration import capital
from lanparty.games.screens import DraftLeftOutError, Editor, Fragments, ParseError
from lanparty.i18n import _
from lanparty.table.local import TableSession
from protocol.contract import IllegalMove, Move

from .commands import Action, parse
from .editor import Draft, draft_move, timed_move, written

__all__ = ["YES", "Desk", "current_editor", "writing"]

YES = ("y", "yes", "t", "tak", "s", "sí", "si")
"""The answers that mean yes to a y/N question (English, Polish, Spanish); anything else is
no."""


def current_editor(session: TableSession) -> Editor | None:
    """The editor the game's screen offers for the move this seat is asked for now (its
    optional ``editor`` method), or ``None``."""
    offer = getattr(session.screen, "editor", None)
    if offer is None or not session.may_move():
        return None
    view = session.view()
    editor: Editor | None = offer(view) if view else None
    return editor


def writing(session: TableSession) -> bool:
    """Is this seat still to hand in, as the table stands (the screen offers its editor for
    the view), whether or not it may type just now (its move on its way, say)?"""
    offer = getattr(session.screen, "editor", None)
    view = session.view()
    return offer is not None and bool(view) and offer(view) is not None


class Desk:
    """One seat's hand-ins at ``session``: its editor's draft, a move waiting for the
    player's yes, a close waiting for the seat's own words; ``tell`` shows the player
    a line (a fragment list ending with a newline)."""

    def __init__(self, session: TableSession, tell: Callable[[Fragments], None]) -> None:
        self.session = session
        self.tell = tell
        self.draft = Draft()
        #: A move that leaves out some of the draft: made only if the player says yes.
        self.confirming: Move | None = None
        #: The closer's close, once its own words (just handed in) are on the table.
        self.closing = False

    def _error(self, said: str) -> None:
        self.tell([("class:error", said + "\n")])

    def submit(self, move: Move) -> bool:
        """Hand ``move`` in, or tell why it is not allowed; True if it went in (what the
        editor held went with it: the draft is no more)."""
        try:
            self.session.submit(move)
        except IllegalMove as exc:
            why = self.session.screen.humanize(exc.reason)
            self._error(_("Not allowed: {why}").format(why=why))
            return False
        self.draft.clear()
        return True

    def hand_in(self, editor: Editor, text: str) -> None:
        """Ctrl-S: the move of the editor's lines ``text``, or why there is none."""
        try:
            self.submit(editor.move(text.split("\n")))
        except ParseError as exc:
            self._error(str(exc))

    def read(self, text: str) -> Action | None:
        """The action a command line asks the app for, or ``None`` when it is done here: a
        move the editor's draft turned into (or one asked about first), the closer's close
        with words in its editor, a mistake told."""
        session = self.session
        view, offered = session.view(), current_editor(session)
        try:
            action = parse(text, session.screen, view, session.can_decline())
            if offered is None:
                return action
            if action.kind == "move" and action.move is not None:
                return Action("move", offered.settle(action.move, self.draft.text.split("\n")))
            closer = getattr(session.screen, "may_close", None)
            if action.kind == "close" and written(self.draft.text) and (
                closer is None or bool(view and closer(view))
            ):  # fmt: skip
                self._close_with(offered)
                return None
        except DraftLeftOutError as exc:
            self.confirming = exc.move
            self.tell([("class:warn", f"{exc}\n")])
            return None
        except ParseError as exc:
            self._error(str(exc))
            return None
        return action

    def _close_with(self, editor: Editor) -> None:
        """The closer's close while its editor holds words: those go in, then the close."""
        try:
            move = draft_move(editor, self.draft.text)
        except ParseError as exc:
            kept = _("nothing is handed in or closed ({command} goes back to what you wrote)")
            self._error(f"{exc}; {kept.format(command=editor.command)}")
            return
        self.closing = self.submit(move)
        self.try_close()

    def try_close(self) -> None:
        """Close the phase as the closer asked, once its own words are on the table (they
        may be what allows it); not if the phase ended with them."""
        if not self.closing or writing(self.session):
            return
        self.closing = False
        closer = getattr(self.session.screen, "may_close", None)
        view = self.session.view()
        if closer is not None and not (view and closer(view)):
            return
        why = self.session.close_phase()
        if why:
            self._error(capital(why, self.session.names) + ".")

    def answer(self, text: str) -> None:
        """The player's answer to the question about :attr:`confirming`."""
        move, self.confirming = self.confirming, None
        if move is None:
            return
        if text.strip().lower() in YES:
            self.submit(move)
            return
        offered = current_editor(self.session)
        if offered is not None:
            kept = _("Nothing handed in; what you wrote is kept ({command} goes back to it).")
            self.tell([("class:dim", kept.format(command=offered.command) + "\n")])

    def timed(self, text: str, shown: bool) -> None:
        """Time is nearly up: hand in what can be of ``text`` (the editor's lines; ``shown``:
        the editor still shows them), telling what could not be."""
        offered = current_editor(self.session)
        if offered is None:
            return
        move, dropped = timed_move(offered, text)
        if move is None:
            return  # nothing can be: named when the phase closes on it
        try:
            self.session.submit(move)
        except IllegalMove:
            return
        self.draft.clear()
        self.draft.sent = shown  # what the editor shows until it gives way is no draft
        self.confirming = None
        told = _("Time is nearly up: what you wrote is handed in.")
        if dropped:
            left = _("Left out, as it cannot be handed in: {lines}")
            told += " " + left.format(lines=", ".join(dropped))
        self.tell([("class:warn", told + "\n")])

    def settle(self) -> None:
        """Before each prompt: once this seat no longer writes, forget the draft, and name
        what of it was never handed in (the phase closed on it)."""
        if current_editor(self.session) is not None or writing(self.session):
            return
        lost = written(self.draft.text)
        if lost:
            said = _("Too late: what you wrote was not handed in ({lines}).")
            self.tell([("class:warn", said.format(lines=", ".join(lost)) + "\n")])
        self.confirming = None
        self.draft.clear()

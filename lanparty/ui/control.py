"""One seat's conversation with its table, with no screen: what each typed line does, what
the command line asks, what Ctrl-C and Ctrl-D mean, and how the game ended. The full-screen
application (``app.py``) and the plain line-per-event mode (``plain.py``) both drive it; it
tells the player through ``say`` (a fragment list of whole lines) and answers with a
:class:`Reply` when the screen must do something (open a page, leave).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lanparty.games import PLUGINS, rules_for_reader
from lanparty.games.narration import capital
from lanparty.games.screens import Fragments, log_line
from lanparty.i18n import _
from lanparty.interrupt import EXIT_INTERRUPTED
from lanparty.table.local import LocalTable, TableSession
from lanparty.table.localnight import LocalNight
from lanparty.table.talk import Talk
from lanparty.text import printable

from .commands import ALIASES, HOST_COMMANDS, META_COMMANDS, Action, help_text, talk_of
from .editor import reopens
from .handing import YES, Desk, current_editor

__all__ = [
    "NO",
    "Conduct",
    "Reply",
    "countdown",
    "deadline",
    "host_offers",
    "hosting",
    "night_rule",
    "offer_question",
    "offer_sits",
    "offers_next",
    "talk_line",
    "talks",
]

NO = ("n", "no", "nie")
"""The answers that say no to a (Y/n) question, in every language we speak."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What the screen must do after a line or a key: open a page (``page``: ``"help"``,
    ``"rules"`` or ``"scores"``), or leave with the exit status ``leave``."""

    page: str = ""
    leave: int | None = None


def deadline(session: TableSession) -> float | None:
    """When (``time.monotonic()``) the timed phase now closes by itself, if the session
    knows (its optional ``deadline`` method)."""
    when: Callable[[], float | None] | None = getattr(session, "deadline", None)
    return when() if when is not None else None


def countdown(left: float) -> str:
    """A countdown in whole seconds, rounded up and never below zero: ``"1:05 left"``."""
    s = max(0, math.ceil(left))
    return _("{time} left").format(time=f"{s // 60}:{s % 60:02d}")


def hosting(session: TableSession) -> bool:
    """Is this the seat of the host of a networked table (the one who may start, approve,
    deny and kick)? (A session says so with its optional ``hosting`` attribute.)"""
    return bool(getattr(session, "hosting", False))


def offers_next(session: TableSession) -> bool:
    """May this seat choose the night's next game once this one is over (the host of a
    networked table, the player of an offline one)? (A session's optional
    ``offers_next``.)"""
    return bool(getattr(session, "offers_next", False))


def offer_question(session: TableSession) -> str:
    """The question while the next game of the night is offered to this seat ("" when none
    is: a session's optional ``offer_question()``)."""
    ask: Callable[[], str] | None = getattr(session, "offer_question", None)
    return ask() if ask is not None else ""


def offer_sits(session: TableSession) -> bool:
    """Is the question standing a spectator's (a seat is free: take it? no unless yes),
    rather than a player's (stay? yes unless no)?"""
    return bool(offer_question(session)) and bool(getattr(session, "offer_sits", False))


def night_rule(session: TableSession, title: str) -> str:
    """The rule the story of a night's next game begins with: "— game 2 of the night:
    Unanimo —" (``title``: the game's name as the reader reads it)."""
    number = int(getattr(session, "number", 1))
    return _("— game {n} of the night: {game} —").format(n=number, game=title)
def talks(session: TableSession) -> bool:
    """May this seat talk at ``session``'s table: is there someone to talk to (a networked
    one: its optional ``say``), and may it talk there (its optional ``may_talk()``: a
    spectator only where the host lets spectators talk)?"""
    may: Callable[[], bool] | None = getattr(session, "may_talk", None)
    return callable(getattr(session, "say", None)) and (may is None or may())


def talk_line(talk: Talk) -> Fragments:
    """A line of table talk as the story shows it, in its own style: ``Bea: good luck``
    (every string in it a peer's, made safe for the terminal by :class:`Talk`)."""
    style = "class:talk.mine" if talk.mine else "class:talk"
    return [(f"{style}.name", talk.who() + ": "), (style, talk.said()), ("", "\n")]


def host_offers(session: TableSession) -> list[tuple[str, str]]:
    """The host's commands that mean something now, with what each does (a session's
    optional ``host_offers()``; none for anyone but the host of a table still filling)."""
    offers: Callable[[], list[tuple[str, str]]] | None = getattr(session, "host_offers", None)
    return offers() if offers is not None else []


class Conduct:
    """A seat at ``session`` as the player talks to it; ``say`` shows them lines."""

    def __init__(self, session: TableSession, say: Callable[[Fragments], None]) -> None:
        self.session = session
        self.say = say
        self.desk = Desk(session, say)
        #: The player asked to leave and is asked whether they mean it (y/N).
        self.asking = False

    @property
    def watching(self) -> bool:
        """A spectator: it has no seat, makes no move, and leaving stops nothing (one that
        takes a free seat at a night's next game is a player from then on)."""
        return bool(getattr(self.session, "watching", False))

    # ------------------------------------------------------------------ the table moves

    def step(self) -> bool:
        """Let the table move on (bots, moves arrived), tell what happened, close a
        phase the closer asked to close; True once the game is over."""
        self.session.advance()
        self.pull()
        if self.session.over():
            return True
        self.desk.try_close()
        self.pull()
        return False

    def pull(self) -> None:
        """Tell the log lines the table has added."""
        for line in self.session.take_log():
            self.say(talk_line(line) if isinstance(line, Talk) else log_line(line))

    # ------------------------------------------------------------------ what is asked

    def prompt(self) -> tuple[str, str]:
        """The command line's prompt and its style class (``"prompt"``, ``"warn"``)."""
        s = self.session
        if s.over():
            question = offer_question(s)
            if question:
                return question, "warn"
            if offers_next(s):
                return _("again, next GAME, or Enter to end the night> "), "prompt"
            return _("the end: Enter leaves> "), "prompt"
        if self.asking:
            if isinstance(s, LocalTable | LocalNight):
                return _("leave the game? (y/N)> "), "warn"
            return _("leave the table? the game stops for everyone (y/N)> "), "warn"
        if self.desk.confirming is not None:
            return _("hand it in all the same? (y/N)> "), "warn"
        if self.watching:
            return _("watching> "), "prompt"
        if s.may_move():
            return s.screen.prompt(s.view(), s.can_decline()), "prompt"
        return _("waiting> "), "prompt"

    def clock(self) -> tuple[str, bool] | None:
        """The countdown of a timed phase and whether it is nearly out, or ``None``."""
        closes = deadline(self.session)
        if closes is None:
            return None
        left = closes - time.monotonic()
        return countdown(left), left < 10.5

    def stopped(self) -> str:
        """Why the table stopped before the game ended ("" if it did not)."""
        s = self.session
        if not s.over():
            return ""
        ended = str(getattr(s, "ended", "") or "")
        if ended and ended != "closed":
            return ended
        return "" if s.outcome().finished else _("the game did not reach its end")

    def ending(self) -> Fragments:
        """How the game ended: the final scores, or that the table stopped and why (with
        no result)."""
        why = self.stopped()
        if why:
            return [("class:warn", _("The table stopped before the end of the game.")),
                    ("", "\n"), ("", printable(why)), ("", "\n")]  # fmt: skip
        view = self.session.view()
        if not view:
            return [("", _("The game is over.")), ("", "\n")]
        return list(self.session.screen.final(view, self.session.names))

    def scores(self) -> Fragments:
        """The score sheet so far: the screen's own (its optional ``scores``), the final
        scores once the game is over, else every player's points so far."""
        s = self.session
        view = s.view()
        sheet: Callable[[Mapping[str, Any], Any], Fragments] | None = getattr(
            s.screen, "scores", None)  # fmt: skip
        if view and sheet is not None:
            return list(sheet(view, s.names))
        if view and s.over() and not self.stopped():
            return list(s.screen.final(view, s.names))
        totals = s.outcome().totals if view else ()
        if not totals:
            return [("", _("No scores yet.")), ("", "\n")]
        width = max(len(name) for name in s.names)
        out: Fragments = [("class:title", _("Scores so far")), ("", "\n")]
        for name, points in zip(s.names, totals, strict=False):
            out += [("", f"  {printable(name):<{width}}  {points:>5}"), ("", "\n")]
        return out

    def help(self, width: int = 79) -> str:
        """The commands of this table, for this seat, in ``width`` columns."""
        s = self.session
        return help_text(s.screen, host=hosting(s), night=offers_next(s), width=width,
                         talk=talks(s))  # fmt: skip

    def rules(self) -> str:
        """The rules of the game (or that the game is not known yet: a table joined before
        its opening entry came)."""
        name = self.session.game_name
        if name not in PLUGINS:
            return _("The game is not known yet: its rules come with the table's first entry.")
        return rules_for_reader(name)

    # ------------------------------------------------------------------ what the player does

    def typed(self, text: str) -> Reply:
        """One line typed on the command line."""
        s = self.session
        if s.over():  # Enter leaves; the pages still open; the night's next game
            return self._after(text)
        if self.asking:
            self.asking = False
            if text.strip().lower() in YES:
                return self._bye(0)
            self.say([("class:dim", _("Playing on.") + "\n")])
            return Reply()
        if self.desk.confirming is not None:
            self.desk.answer(text)
            return Reply()
        offered = current_editor(s)
        if offered is not None and reopens(text, offered, s.screen.aliases):
            self.desk.draft.closed = False
            return Reply()
        if self.watching and not self._spectators(text):
            self.say([("class:error", _("you are watching: a spectator makes no move") + "\n")])
            return Reply()
        action = self.desk.read(text)
        return self._do(action) if action is not None else Reply()

    def _after(self, text: str) -> Reply:
        """A line typed once the game is over: the answer to the offer of the next game,
        the host's ``again`` or ``next GAME``, a page, table talk; anything else (Enter)
        leaves."""
        s = self.session
        if offer_question(s):
            answer: Callable[[bool], None] = getattr(s, "answer_offer")  # noqa: B009
            typed = text.strip().lower()
            answer(typed in YES if offer_sits(s) else typed not in NO)
            return Reply()
        talk = talk_of(text)
        if talk is not None:  # said to the table (or told why not): it leaves nothing
            self._say(talk)
            return Reply()
        words = text.lower().split()
        head = ALIASES.get(words[0], words[0]) if words else ""
        if head in ("help", "rules", "scores"):
            return Reply(page=head)
        if head in ("again", "next") and offers_next(s):
            offer: Callable[[str], str] = getattr(s, "next_game")  # noqa: B009
            why = offer(text)
            if why:
                self.say([("class:error", capital(why, s.names) + ".\n")])
            return Reply()
        return Reply(leave=0)

    def _spectators(self, text: str) -> bool:
        """Is ``text`` something a spectator may type (the table's own commands, talk)?"""
        words = text.lower().split()
        head = ALIASES.get(words[0], words[0]) if words else ""
        return not words or head in META_COMMANDS or talk_of(text) is not None

    def _do(self, action: Action) -> Reply:
        """Carry out a typed line's ``action``."""
        s = self.session
        if action.kind == "quit":
            if self.watching:
                return self._bye(0)
            self.asking = True
            return Reply()
        if action.kind in ("help", "rules", "scores"):
            return Reply(page=action.kind)
        if action.kind in ("start", "close", *HOST_COMMANDS):
            why = (
                s.start_now() if action.kind == "start"
                else s.close_phase() if action.kind == "close"
                else s.host_command(action.kind, action.arg)
            )  # fmt: skip
            if why:
                self.say([("class:error", capital(why, s.names) + ".\n")])
        elif action.kind == "go":
            s.decline()
        elif action.kind == "say":
            self._say(action.arg)
        elif action.kind == "move" and action.move is not None:
            if not s.view():
                self.say([("class:error", _("The game has not started yet.") + "\n")])
            else:
                self.desk.submit(action.move)
        return Reply()

    def _say(self, text: str) -> None:
        """Say ``text`` to the table, or tell the player why it cannot go."""
        say: Callable[[str], str] | None = getattr(self.session, "say", None)
        why = (
            say(text)
            if say is not None
            else _("there is nobody to talk to here: talk is for tables on the network")
        )
        if why:
            self.say([("class:error", _("Not said: {reason}").format(reason=why) + "\n")])

    def interrupt(self) -> Reply:
        """Ctrl-C: asks first (y/N); a second one leaves at once (130). A spectator and a
        game that is over leave at once."""
        self.desk.confirming = None
        if offer_sits(self.session):  # a spectator asked to take a seat: it keeps watching
            answer: Callable[[bool], None] = getattr(self.session, "answer_offer")  # noqa: B009
            answer(False)
            return Reply()
        if self.asking or self.watching or self.session.over():
            return Reply(leave=EXIT_INTERRUPTED if not self.session.over() else 0)
        self.asking = True
        self.say([("class:dim", _("(Ctrl-C again leaves at once)") + "\n")])
        return Reply()

    def eof(self) -> Reply:
        """Ctrl-D: asks first (y/N); a second one leaves. A spectator and a game that is
        over leave at once."""
        self.desk.confirming = None
        if self.asking or self.watching or self.session.over():
            return self._bye(0)
        self.asking = True
        return Reply()

    def _bye(self, status: int) -> Reply:
        if not self.session.over():
            self.say([("class:dim", _("Bye.") + "\n")])
        return Reply(leave=status)

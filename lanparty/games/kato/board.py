"""KaTO's board: the top card and the colour in play, every player's row (cards held, points,
the KaTO call) in aligned columns, a challenge on show, and the seat's hand with its numbers
and what may be played; the header's part and the score sheet. Pure functions of one seat's
view (no prompt-toolkit here); :mod:`.screen` adds the commands.

The full-screen table's board (:func:`board`) is drawn whole or not at all: it tries its
layouts from the roomiest (a line for the round, the hand under its title) to the most
compact (players in two columns, the hand after its title) and raises
:class:`~lanparty.games.screens.TooSmall` when even that does not fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanparty.games.cells import cells, cut
from lanparty.games.layout import Lines, fit_first, flow, in_columns, join, table_rows, wrap
from lanparty.games.screens import Fragments, listed_name, player_name, view_seat
from lanparty.games.views import num, num_at
from lanparty.games.wording import turn_of, won_line
from lanparty.i18n import _, ngettext
from protocol.contract import Move, Plain

from .narrate import card_name, colour_name

__all__ = ["WILDS", "board", "card_style", "final_scores", "hand_lines", "hand_of", "header",
           "playable", "scores", "table"]  # fmt: skip

WILDS = frozenset({"W", "W+4", "cone"})
LEAST = 40
"""The fewest columns KaTO's board is drawn in."""
_ARROWS = {1: "↻", -1: "↺"}

_COLOUR_ORDER = {"r": 0, "y": 1, "g": 2, "b": 3}
_RANK_ORDER = {"S": 10, "R": 11, "+2": 12}


def _sort_key(card: tuple[int, str]) -> tuple[int, int, str]:
    label = card[1]
    if label in WILDS or label[:1] not in _COLOUR_ORDER:
        return (4, 0, label)
    rank = label[1:]
    return (_COLOUR_ORDER[label[0]], int(rank) if rank.isdigit() else _RANK_ORDER.get(rank, 99), "")


def hand_of(view: Mapping[str, Plain]) -> list[tuple[int, str]]:
    """The seat's hand from its view as (handle, label) pairs in the order shown (and
    numbered from 1): by colour, then by rank, wilds last."""
    hand = view.get("hand") or []
    assert isinstance(hand, list | tuple)
    out: list[tuple[int, str]] = []
    for item in hand:
        assert isinstance(item, list | tuple)
        out.append((int(item[0]), str(item[1])))  # type: ignore[arg-type]
    return sorted(out, key=_sort_key)


def card_style(label: str) -> str:
    """The style class of a card: its colour, or ``card.w`` for a wild."""
    if label in WILDS or label[:1] not in "rygb":
        return "class:card.w"
    return f"class:card.{label[0]}"


def playable(legal: Sequence[Move]) -> list[int]:
    """The handles of the cards that ``legal`` lets the seat play now."""
    return sorted({
        m[1][0] for m in legal
        if len(m) > 1 and m[0] == "play" and isinstance(m[1], tuple) and m[1]
        and isinstance(m[1][0], int)
    })  # fmt: skip


def _playing(view: Mapping[str, Plain]) -> bool:
    return view["phase"] not in ("over", "scoring", "setup")


# --------------------------------------------------------------------------- the pieces


def _round_line(view: Mapping[str, Plain]) -> Fragments:
    direction = _("clockwise") if view["direction"] == 1 else _("counter-clockwise")
    return [("class:title", _("Round {n}").format(n=num(view, "round"))),
            ("", _("  ·  play goes {direction}  ·  deck {n}").format(
                direction=direction, n=num(view, "deck")))]  # fmt: skip


def _top_items(view: Mapping[str, Plain], compact: bool) -> list[Fragments]:
    """The top card, the colour in play, what is aimed at the next player and the discard
    pile's size (compact: the direction's arrow and the deck too, for a board with no round
    line)."""
    top, colour, pending = view["top"], view["colour"], view["pending"]
    items: list[Fragments] = [[
        ("", _("Top: ")),
        (card_style(top), f" {card_name(top)} ") if isinstance(top, str)
        else ("class:dim", _("none yet")),
    ]]  # fmt: skip
    items.append([
        ("", _("   Colour in play: ").strip() + " "),
        (f"class:card.{colour}", f" {colour_name(colour)} ") if isinstance(colour, str)
        else ("class:dim", "-"),
    ])  # fmt: skip
    if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
        total = num(pending, "total")
        items.append([("class:warn", ngettext(
            "{n} card to draw", "{n} cards to draw", total).format(n=total))])  # fmt: skip
    elif isinstance(pending, dict) and pending.get("kind") == "skip":
        items.append([("class:warn", _("   a Skip is aimed").strip())])
    if compact:
        arrow = _ARROWS.get(num(view, "direction"), "")
        items.append([("class:dim", f"{arrow} " + _("deck {n}").format(n=num(view, "deck")))])
    if isinstance(view.get("discard"), int):
        items.append([("class:dim", _("discard pile {n}").format(n=num(view, "discard")))])
    return items


def player_rows(view: Mapping[str, Plain], names: Sequence[str], name_cap: int = 99,
                short: bool = False) -> Lines:  # fmt: skip
    """A line per player, in aligned columns: the turn's mark, the name (cut to ``name_cap``
    columns at most), the cards held, the points, and the KaTO call (or its lack: in a word
    when ``short``)."""
    me = view_seat(view)
    counts = view["counts"]
    assert isinstance(counts, list)
    current, kato = view["current"], view["kato"]
    held = [num_at(view, "counts", s) for s in range(len(counts))]
    points = [num_at(view, "scores", s) for s in range(len(counts))]
    held_w = max(len(str(n)) for n in held)
    points_w = max(len(str(n)) for n in points)
    rows: list[list[Fragments]] = []
    for s, count in enumerate(held):
        turn = s == current and _playing(view)
        style = "class:turn" if turn else ""
        cards = ngettext("{n} card", "{n} cards", count).format(n=f"{count:>{held_w}}")
        pts = ngettext("{n} pt", "{n} pts", points[s]).format(n=f"{points[s]:>{points_w}}")
        if count == 1 and kato != s:
            call: Fragments = [("class:kato", "KaTO")]
        elif kato == s:
            call = [("class:warn", _("no KaTO!") if short else _("one card, no KaTO yet!"))]
        else:
            call = []
        name = cut(listed_name(names, s, me), name_cap)
        rows.append([[(style, ("▶ " if turn else "  ") + name)], [(style, cards)], [("", pts)],
                     call])  # fmt: skip
    return table_rows(rows, "<<><", gap=2)


def challenge_lines(view: Mapping[str, Plain], names: Sequence[str], width: int) -> Lines:
    """The challenge on show (until play moves on): whose hand was shown to whom, the colour
    that decides, the verdict once announced, then (to the challenger) the shown cards."""
    challenge = view.get("challenge")
    if not isinstance(challenge, dict):
        return []
    me = view_seat(view)
    holder, by = num(challenge, "of"), num(challenge, "by")
    if holder == me:
        shown_to = _("Your hand, shown to {name}").format(name=names[by])
    elif by == me:
        shown_to = _("{name}'s hand, shown to you").format(name=names[holder])
    else:
        shown_to = _("{name}'s hand, shown to {other}").format(name=names[holder], other=names[by])
    colour, verdict = challenge.get("colour"), challenge.get("verdict")
    decides = _("{colour} decides").format(colour=colour_name(colour)) if isinstance(
        colour, str) else ""  # fmt: skip
    said = _(str(verdict)) if verdict in ("guilty", "innocent") else str(verdict)
    verdict_said = f"{decides}: {said}" if verdict else decides
    out = wrap([("class:title", _("Challenge: ")), ("", f"{shown_to}  "),
                ("class:warn", verdict_said)], width, 2)  # fmt: skip
    shown = challenge.get("shown")
    if isinstance(shown, list):
        out += flow([[(card_style(str(c)), f" {card_name(str(c))} "), ("", " ")] for c in shown],
                    width, "")  # fmt: skip
    return out


def _hand_items(view: Mapping[str, Plain], legal: Sequence[Move]) -> tuple[list[Fragments], str]:
    """The cards of the hand as items (``3:`` and the card in its colour; the playable ones'
    numbers bright, the drawn card underlined), and the line naming the playable ones."""
    hand = hand_of(view)
    can = set(playable(legal))
    items: list[Fragments] = []
    numbers = []
    for i, (handle, label) in enumerate(hand, 1):
        style = card_style(label) + (" class:drawn" if view.get("drawn") == handle else "")
        index = "class:index.playable" if handle in can else "class:index" if not can else (
            "class:dim")  # fmt: skip
        items.append([(index, f"{i}:"), (style, f" {card_name(label)} ")])
        if handle in can:
            numbers.append(str(i))
    if not hand:
        items.append([("class:dim", _("(no cards)"))])
    said = _("Playable: {numbers}").format(numbers=", ".join(numbers)) if numbers else ""
    return items, said


def _hand_block(view: Mapping[str, Plain], width: int, legal: Sequence[Move],
                inline: bool, indent: bool = True) -> Lines:  # fmt: skip
    """The hand: under its title (``inline`` False) or after it, its later lines under the
    first card (``indent``) or from the left edge, and what may be played."""
    if view.get("phase") == "setup" or view_seat(view) is None:
        return []
    items, said = _hand_items(view, legal)
    title = _("Your hand:")
    if not inline:
        out: Lines = [[("class:title", title)], *flow(items, width, " ")]
        return [*out, [("class:index.playable", said)]] if said else out
    under = cells(title) + 1 if indent and cells(title) + 1 <= width // 4 else 0
    if said:
        items = [*items, [("class:index.playable", said)]]
    out = flow(items, width, " ", under, cells(title) + 1)
    out[0] = [("class:title", title), ("", " "), *out[0]]
    return out


# --------------------------------------------------------------------------- the board


def board(
    view: Mapping[str, Plain], names: Sequence[str], width: int, rows: int,
    legal: Sequence[Move] = (), typed: str = "",
) -> Fragments:  # fmt: skip
    """The whole live board in at most ``rows`` lines of ``width`` columns: the top card and
    colour, the challenge on show, every player's row, the hand with what may be played.
    Raises :class:`~lanparty.games.screens.TooSmall` when even the most compact layout (the
    players in two columns) does not fit."""
    if view["phase"] == "setup":
        dealing = [[("class:title", _("Round {n}").format(n=num(view, "round"))),
                    ("class:dim", _("  ·  the cards are being shuffled and dealt…"))]]  # fmt: skip
        return fit_first(width, rows, [lambda w: join(wrap(dealing[0], w, 2))], LEAST)

    def roomy(w: int) -> Fragments:
        out = wrap(_round_line(view), w, 2) + flow(_top_items(view, False), w, "   ")
        out += challenge_lines(view, names, w) + player_rows(view, names)
        return join(out + _hand_block(view, w, legal, inline=False))

    def compact(w: int, columns: int) -> Fragments:
        out = flow(_top_items(view, True), w, "   ") + challenge_lines(view, names, w)
        if columns == 1:
            out += player_rows(view, names, max(w - 30, 8))
        else:
            cap = max(w // columns - 24, 6)
            out += in_columns(player_rows(view, names, cap, short=True), columns, 3)
        return join(out + _hand_block(view, w, legal, inline=True, indent=columns == 1))

    return fit_first(width, rows, [roomy, lambda w: compact(w, 1), lambda w: compact(w, 2)],
                     LEAST)  # fmt: skip


def header(view: Mapping[str, Plain], names: Sequence[str]) -> str:
    """``"round 2 · play goes ↺ · Bea to play"`` (or ``"your turn"``); the round's end, or
    the game's."""
    me = view_seat(view)
    said = _("round {n}").format(n=num(view, "round"))
    phase = view["phase"]
    if phase == "setup":
        return said + " · " + _("dealing")
    if phase == "over":
        return said + " · " + _("game over")
    if phase == "scoring":
        return said + " · " + _("the round is over")
    arrow = _ARROWS.get(num(view, "direction"), "")
    current = num(view, "current")
    turn = turn_of(current, me, names)
    return f"{said} · " + _("play goes {arrow}").format(arrow=arrow) + f" · {turn}"


def scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The score sheet so far: each round's points per player and the totals."""
    me = view_seat(view)
    n = len(names)
    by_round = [r for r in view.get("round_scores") or [] if isinstance(r, list)]  # type: ignore[union-attr]
    head: list[Fragments] = [[("class:title", _("Score sheet"))]]
    head += [[("class:title", _("round {n}").format(n=r))] for r in range(1, len(by_round) + 1)]
    head.append([("class:title", _("Total"))])
    rows = [head]
    for s in range(n):
        row: list[Fragments] = [[("", player_name(names, s, me))]]
        row += [[("", str(r[s]) if s < len(r) else "")] for r in by_round]
        row.append([("class:title", str(num_at(view, "scores", s)))])
        rows.append(row)
    return join(table_rows(rows, "<" + ">" * (len(by_round) + 1), gap=3))


# --------------------------------------------------------------------------- inline pieces


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The public state: round, top card, colour in play, direction, pending draw, then one
    line per player with its card count, KaTO state and score in aligned columns; the turn
    is marked (for no seat, ``view["seat"]`` None or missing, nobody is "you")."""
    width = max(width, 20)
    if view["phase"] == "setup":
        dealing = _("  ·  the cards are being shuffled and dealt…")
        return [("class:title", _("Round {n}").format(n=num(view, "round"))),
                ("class:dim", dealing + "\n")]  # fmt: skip
    out = [_round_line(view), *flow(_top_items(view, False), width, "   ")]
    out += challenge_lines(view, names, width)
    # Names give way first on a narrow terminal: the counts and scores matter more.
    out += player_rows(view, names, max(width - 30, 4))
    return join(out)


def hand_lines(view: Mapping[str, Plain], width: int = 80, legal: Sequence[Move] = ()) -> Fragments:
    """The seat's hand in colour with 1-based indexes, wrapped to ``width`` columns; the
    cards ``legal`` lets it play are marked (bright index) and listed under the hand; nothing
    for no seat."""
    return join(_hand_block(view, width, legal, inline=False))


def final_scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The final table: every player's total, the winners first, and who won; nothing for a
    game that did not end (its table stopped: there is no result)."""
    if view.get("phase") != "over":
        return []
    me = view_seat(view)
    points = view["scores"]
    winners = view["winners"]
    assert isinstance(points, list) and isinstance(winners, list)
    out: Fragments = [("class:title", _("Final scores")), ("", "\n")]
    order = sorted(range(len(points)), key=lambda s: (-int(points[s]), s))  # type: ignore[arg-type]
    rows = [[[("class:turn" if s in winners else "", ("★ " if s in winners else "  ")
               + player_name(names, s, me))], [("", str(points[s]))]] for s in order]  # fmt: skip
    out += join(table_rows(rows, "<>", gap=3))
    if winners:
        seats = [int(w) for w in winners]  # type: ignore[arg-type]
        out.append(("class:title", won_line(seats, me, names) + "\n"))
    return out

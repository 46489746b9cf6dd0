"""The KaTO table as styled text: pure functions from one seat's view to fragments.

A fragment list is ``[(style, text), ...]`` — prompt-toolkit's formatted text, built here
without importing it. Style names are classes (``class:card.r``) that ``app`` colours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lanparty.games.views import num
from lanparty.narrate import card_name, colour_name
from protocol.contract import Plain

from .commands import WILDS, hand_of

__all__ = ["Fragments", "card_style", "final_scores", "hand_lines", "log_line", "table"]

Fragments = list[tuple[str, str]]


def card_style(label: str) -> str:
    """The style class of a card: its colour, or ``card.w`` for a wild."""
    if label in WILDS or label[:1] not in "rygb":
        return "class:card.w"
    return f"class:card.{label[0]}"


def _name(names: Sequence[str], seat: int, me: int) -> str:
    return f"{names[seat]} (you)" if seat == me else names[seat]


def table(view: Mapping[str, Plain], names: Sequence[str], width: int = 80) -> Fragments:
    """The public state: round, top card, colour in play, direction, pending draw, then one
    line per player with its card count, KaTO state and score; the turn is marked."""
    me = int(view["seat"])  # type: ignore[arg-type]
    width = max(width, 20)
    out: Fragments = []
    direction = "clockwise" if view["direction"] == 1 else "counter-clockwise"
    out.append(("class:title", f"Round {num(view, 'round')}"))
    out.append(("", f"  ·  play goes {direction}  ·  deck {num(view, 'deck')}\n"))
    top = view["top"]
    out.append(("", "Top: "))
    if isinstance(top, str):
        out.append((card_style(top), f" {card_name(top)} "))
    else:
        out.append(("class:dim", "none yet"))
    colour = view["colour"]
    out.append(("", "   Colour in play: "))
    if isinstance(colour, str):
        out.append((f"class:card.{colour}", f" {colour_name(colour)} "))
    else:
        out.append(("class:dim", "-"))
    pending = view["pending"]
    if isinstance(pending, dict) and pending.get("kind") in ("draw", "wild-draw-four"):
        out.append(("class:warn", f"   {num(pending, 'total')} cards to draw"))
    elif isinstance(pending, dict) and pending.get("kind") == "skip":
        out.append(("class:warn", "   a Skip is aimed"))
    out.append(("", "\n"))
    challenge = view.get("challenge")
    if isinstance(challenge, dict):
        out += _challenge(challenge, names, me, width)
    counts = view["counts"]
    scores = view["scores"]
    assert isinstance(counts, list) and isinstance(scores, list)
    current = view["current"]
    kato = view["kato"]
    # Names give way first on a narrow terminal: the counts and scores matter more.
    name_width = min(max(len(_name(names, s, me)) for s in range(len(counts))), max(width - 24, 4))
    for s, count in enumerate(counts):
        turn = s == current and view["phase"] not in ("over", "scoring", "setup")
        line = "▶ " if turn else "  "
        cards = f"{count!s:>2} card{'s' * (count != 1)}"
        line += f"{_name(names, s, me)[:name_width]:<{name_width}}  {cards}"
        line += f"  {scores[s]!s:>4} pts"
        style = "class:turn" if turn else ""
        out.append((style, line[:width]))
        if count == 1 and kato != s:
            out.append(("class:kato", "  KaTO"[: max(0, width - len(line))]))
        elif kato == s:
            out.append(("class:warn", "  one card, no KaTO yet!"[: max(0, width - len(line))]))
        out.append(("", "\n"))
    return out


def hand_lines(view: Mapping[str, Plain], width: int = 80) -> Fragments:
    """The seat's hand in colour with 1-based indexes, wrapped to ``width`` columns."""
    hand = hand_of(view)
    out: Fragments = [("class:title", "Your hand:"), ("", "\n")]
    column = 0
    for i, (handle, label) in enumerate(hand, 1):
        text = f"{i}:"
        card = f" {card_name(label)} "
        cell = len(text) + len(card) + 1
        if column and column + cell > width:
            out.append(("", "\n"))
            column = 0
        style = card_style(label)
        if view.get("drawn") == handle:
            style += " class:drawn"
        out.append(("class:index", text))
        out.append((style, card))
        out.append(("", " "))
        column += cell
    if not hand:
        out.append(("class:dim", "(no cards)"))
    out.append(("", "\n"))
    return out


def _challenge(
    challenge: Mapping[str, Plain], names: Sequence[str], me: int, width: int
) -> Fragments:
    """The challenge on show (until play moves on): whose hand was shown to whom, the colour
    that decides, the verdict once announced, then (to the challenger) the shown cards."""
    holder, by = num(challenge, "of"), num(challenge, "by")
    whose = "Your" if holder == me else f"{names[holder]}'s"
    colour = challenge.get("colour")
    verdict = challenge.get("verdict")
    decides = f"{colour_name(colour)} decides" if isinstance(colour, str) else ""
    out: Fragments = [
        ("class:title", "Challenge: "),
        ("", f"{whose} hand, shown to {'you' if by == me else names[by]}  "),
        ("class:warn", f"{decides}: {verdict!s}" if verdict else decides),
        ("", "\n"),
    ]
    shown = challenge.get("shown")
    if isinstance(shown, list):
        out += _cards([str(label) for label in shown], width)
    return out


def _cards(labels: Sequence[str], width: int) -> Fragments:
    """Cards in colour, wrapped to ``width`` columns, ending the line."""
    out: Fragments = []
    column = 0
    for label in labels:
        card = f" {card_name(label)} "
        if column and column + len(card) + 1 > width:
            out.append(("", "\n"))
            column = 0
        out += [(card_style(label), card), ("", " ")]
        column += len(card) + 1
    out.append(("", "\n"))
    return out


def log_line(line: str) -> Fragments:
    """One log line, with the player's own actions highlighted."""
    style = "class:log.you" if line.startswith("You ") or " you" in line else "class:log"
    if line.startswith(("Round ", "Game over")):
        style = "class:log.round"
    return [(style, "· " + line), ("", "\n")]


def final_scores(view: Mapping[str, Plain], names: Sequence[str]) -> Fragments:
    """The final table: every player's total, the winners first, and who won."""
    me = int(view["seat"])  # type: ignore[arg-type]
    scores = view["scores"]
    winners = view["winners"]
    assert isinstance(scores, list) and isinstance(winners, list)
    out: Fragments = [("class:title", "Final scores"), ("", "\n")]
    order = sorted(range(len(scores)), key=lambda s: (-int(scores[s]), s))  # type: ignore[arg-type]
    for s in order:
        mark = "★ " if s in winners else "  "
        out.append(("class:turn" if s in winners else "", f"{mark}{_name(names, s, me):<16} "))
        out.append(("", f"{scores[s]!s:>5}\n"))
    if winners:
        won = " and ".join("you" if s == me else names[int(s)] for s in winners)  # type: ignore[arg-type]
        verb = "win" if me in winners or len(winners) > 1 else "wins"
        out.append(("class:title", f"{won[0].upper()}{won[1:]} {verb} the game!\n"))
    return out

"""KaTO moves: the single validator (``check``), ``apply`` and the legal-move lister.

Moves (canonical tuples):

* ``("play", handles, labels, colour)`` — one card, or with ``multi_play`` several number
  cards of one number (the first must match; the last becomes the top). ``labels`` reveal the
  cards; ``colour`` is ``"r"``/``"y"``/``"g"``/``"b"`` when the last card is wild, else ``""``.
  ``("play", handles, labels, colour, "kato")`` is the same play with the KaTO call, allowed
  when it leaves one card: nobody can catch that player.
* ``("draw",)`` — draw one card instead of playing.
* ``("pass",)`` — after drawing: keep the drawn card and end the turn.
* ``("accept",)`` — take the pending Draw Two/Four total (or the Skip) and lose the turn.
* ``("challenge",)`` — challenge the Wild Draw Four just played at you.
* ``("verdict", "guilty"|"innocent")`` — the challenger, having seen the hand, announces it.
* ``("colour", c)`` — the first player names the colour when the round starts on a wild.
* ``("kato",)`` — call KaTO (one card left); ``("catch",)`` — catch a player who did not.
"""

from __future__ import annotations

from protocol.contract import IllegalMove, Move, ShowToSeat, excerpt

from .answers import playable, stackable
from .cards import (
    CODE,
    COLOUR,
    COLOUR_INDEX,
    COLOURS,
    CONE,
    DRAW2,
    IS_WILD,
    LABEL,
    RANK,
    REVERSE,
    SKIP,
    WILD4,
)
from .flow import finish_round_if_empty, next_seat, pump
from .reasons import colour_words, facing, no_match, not_now
from .state import (
    COLOUR_CHOICE,
    DRAWN,
    P_DRAW,
    P_NONE,
    P_SKIP,
    P_W4,
    PLAY,
    T_DRAWN,
    VERDICT,
    W_BY,
    W_COLOUR,
    W_HANDLES,
    W_SEAT,
    W_VERDICT,
    W_VSTEP,
    KatoState,
)

VERDICTS = ("innocent", "guilty")
_KATO: Move = ("kato",)
_CATCH: Move = ("catch",)
_DRAW: Move = ("draw",)
_PASS: Move = ("pass",)
_ACCEPT: Move = ("accept",)
_CHALLENGE: Move = ("challenge",)


# --------------------------------------------------------------------------- the verdict


def wd4_guilty(st: KatoState, record: list[object]) -> bool | None:
    """Did the Wild Draw Four of ``record`` break its rule? ``None`` if this copy cannot tell."""
    colour = record[W_COLOUR]
    card_of = st.card_of
    guilty = False
    for h in record[W_HANDLES]:  # type: ignore[attr-defined]
        code = card_of.get(h)
        if code is None:
            return None
        if COLOUR[code] == colour:
            guilty = True
    return guilty


# --------------------------------------------------------------------------- check


def _bad_str(value: object, allowed: object) -> bool:
    return type(value) is not str or value not in allowed  # type: ignore[operator]


def check(st: KatoState, seat: int, move: Move) -> None:  # noqa: C901
    """Raise ``IllegalMove`` with the reason unless ``seat`` may make ``move`` now."""
    if st.requests:
        raise IllegalMove("wait a moment: the table is still dealing or showing cards")
    if type(move) is not tuple or not move:
        raise IllegalMove("a move is a non-empty tuple")
    if type(seat) is not int or not 0 <= seat < st.n:
        raise IllegalMove(f"there is no seat {excerpt(seat)}")
    name = move[0]
    if name == "kato":
        if len(move) != 1:
            raise IllegalMove("'kato' takes no arguments")
        if st.kato != seat:
            held = len(st.hands[seat])
            raise IllegalMove(
                "no KaTO call is due: it goes with the play that leaves you one card, or right "
                "after it before the next player acts"
                + (f"; you hold {held} cards" if held != 1 else "")
            )
        return
    if name == "catch":
        if len(move) != 1:
            raise IllegalMove("'catch' takes no arguments")
        if st.kato == seat:
            raise IllegalMove("you cannot catch yourself: call kato instead")
        if st.kato < 0:
            raise IllegalMove(
                "nobody to catch: a player is caught after a play that leaves one card without "
                "KaTO, before the next player acts"
            )
        return
    if (
        not 0 <= seat < st.n
        or seat != st.current
        or st.phase
        not in (
            PLAY,
            DRAWN,
            COLOUR_CHOICE,
            VERDICT,
        )
    ):
        raise IllegalMove(_not_your_turn(st, name))
    phase = st.phase
    if phase == COLOUR_CHOICE:
        if name != "colour" or len(move) != 2 or _bad_str(move[1], COLOUR_INDEX):
            raise IllegalMove(
                f"the round starts on a wild: first name the colour ({colour_words()})"
            )
        return
    if phase == VERDICT:
        if name != "verdict" or len(move) != 2 or _bad_str(move[1], VERDICTS):
            raise IllegalMove(
                "the challenge is judged first: the verdict comes from the shown hand"
            )
        truth = wd4_guilty(st, st.wd4[-1])
        if truth is not None and VERDICTS[truth] != move[1]:
            raise IllegalMove(f"the verdict is false: the shown hand is {VERDICTS[truth]}")
        return
    if name == "play":
        _check_play(st, seat, move)
    elif name == "colour":
        raise IllegalMove("a colour is named with the wild you play, or when a round starts on one")
    elif name == "verdict":
        raise IllegalMove("there is no challenge to judge")
    elif name not in ("draw", "pass", "accept", "challenge"):
        raise IllegalMove(f"unknown move {excerpt(name)}")
    elif len(move) != 1:
        raise IllegalMove(f"{excerpt(name)} takes no arguments")
    elif not _may(st, name):
        raise IllegalMove(not_now(st, name))


def _may(st: KatoState, name: object) -> bool:
    """May the current seat make the simple move ``name`` (draw, pass, accept, challenge)?"""
    if st.phase == DRAWN:
        return name == "pass"
    if name == "draw":
        return st.pend == P_NONE
    if name == "accept":
        return st.pend != P_NONE
    if name == "challenge":
        return st.pend == P_W4
    return False  # a pass with no card drawn


def _not_your_turn(st: KatoState, name: object) -> str:
    if st.phase == VERDICT:
        return "it is not your turn: the challenged hand is being judged"
    if name in ("kato", "catch") or st.kato < 0:
        return "it is not your turn"
    return "it is not your turn (only kato or catch may be played out of turn)"


def _check_play(st: KatoState, seat: int, move: Move) -> None:  # noqa: C901
    if len(move) not in (4, 5):
        raise IllegalMove("a play is ('play', handles, labels, colour), then 'kato' if called")
    _, handles, labels, colour = move[:4]
    if type(handles) is not tuple or type(labels) is not tuple or not handles:
        raise IllegalMove("a play names its cards as tuples of handles and labels")
    if len(handles) != len(labels):
        raise IllegalMove("one label per card played is needed")
    if len(set(handles)) != len(handles):
        raise IllegalMove("a card is named twice")
    hand = st.hands[seat]
    card_of = st.card_of
    codes = []
    for h, label in zip(handles, labels, strict=True):
        if type(h) is not int or h not in hand:
            raise IllegalMove(f"card {excerpt(h)} is not in your hand")
        code = CODE.get(label) if type(label) is str else None
        if code is None:
            raise IllegalMove(f"{excerpt(label)} is not a kato card")
        known = card_of.get(h)
        if known is not None and known != code:
            raise IllegalMove(f"card {h} is not {excerpt(label)}")
        codes.append(code)
    if len(set(handles)) != len(handles):
        raise IllegalMove("a card can be played only once")
    if st.phase == DRAWN and handles[0] != st.drawn:
        raise IllegalMove("you have drawn: only the card you drew may be played now, or pass")
    first = codes[0]
    if len(codes) > 1:
        if not st.opts.multi_play:
            raise IllegalMove("one card at a time at this table (option multi_play is off)")
        if st.pend != P_NONE:
            raise IllegalMove(f"several cards at once cannot answer it; {facing(st)}")
        if RANK[first] > 9 or any(RANK[c] != RANK[first] for c in codes):
            raise IllegalMove("several cards at once must be number cards of one number")
    if not playable(st, first):
        raise IllegalMove(no_match(st, first))
    if IS_WILD[codes[-1]]:
        if _bad_str(colour, COLOUR_INDEX):
            raise IllegalMove(f"a wild names the next colour: {colour_words()}")
    elif colour != "":
        raise IllegalMove("only a wild names a colour (use '')")
    if len(move) == 5:
        if move[4] != "kato":
            raise IllegalMove("only 'kato' may follow the cards of a play")
        left = len(hand) - len(handles)
        if left != 1:
            raise IllegalMove(
                f"KaTO is called with the play that leaves you one card; this one leaves {left}"
            )


# --------------------------------------------------------------------------- apply


def apply(st: KatoState, seat: int, move: Move) -> None:
    """Apply a checked move in place (then queue whatever the table must do next)."""
    st.step += 1
    if st.phase != VERDICT:
        st.showing = -1  # play moves on: the challenge is no longer on show
    name = move[0]
    if name == "play":
        _apply_play(st, seat, move)
    elif name == "kato":
        st.kato = -1
        return
    elif name == "catch":
        st.owed.append([st.kato, 2])
        st.kato = -1
    elif name == "draw":
        st.kato = -1
        st.owed.append([seat, 1])
        st.phase = DRAWN
        st.drawn = -1
        st.then = T_DRAWN
    elif name == "pass":
        st.drawn = -1
        st.phase = PLAY
        st.current = next_seat(st, seat)
    elif name == "accept":
        st.kato = -1
        if st.total:
            st.owed.append([seat, st.total])
            st.total = 0
        st.pend = P_NONE
        st.current = next_seat(st, seat)
    elif name == "challenge":
        st.kato = -1
        record = st.wd4[-1]
        record[W_BY] = seat
        st.showing = len(st.wd4) - 1
        st.phase = VERDICT
        st.requests.append(ShowToSeat(record[W_SEAT], seat, record[W_HANDLES]))
        return
    elif name == "verdict":
        record = st.wd4[-1]
        guilty = move[1] == "guilty"
        record[W_VERDICT] = int(guilty)
        record[W_VSTEP] = st.step - 1
        st.phase = PLAY
        st.pend = P_NONE
        if guilty:  # the bluffer draws instead; the challenger then plays a normal turn
            st.owed.append([record[W_SEAT], st.total])
        else:
            st.owed.append([seat, st.total + 2])
            st.current = next_seat(st, seat)
        st.total = 0
    else:  # colour
        st.colour = COLOUR_INDEX[move[1]]  # type: ignore[index]
        st.phase = PLAY
        return
    if not st.requests:
        pump(st)


def _apply_play(st: KatoState, seat: int, move: Move) -> None:
    handles: tuple[int, ...] = move[1]  # type: ignore[assignment]
    labels: tuple[str, ...] = move[2]  # type: ignore[assignment]
    hand = st.hands[seat]
    card_of = st.card_of
    discard = st.discard
    code = 0
    for h, label in zip(handles, labels, strict=True):
        code = CODE[label]
        hand.remove(h)
        card_of[h] = code
        discard.append(h)
    answering = st.pend
    colour_before = st.colour
    st.kato = -1  # the turn-holder has acted: any catch window closes
    st.drawn = -1
    st.phase = PLAY
    r = RANK[code]
    st.colour = COLOUR_INDEX[move[3]] if IS_WILD[code] else COLOUR[code]  # type: ignore[index]
    cone_mode = st.opts.cone_mode if r == CONE else ""
    if r == SKIP or ((r == REVERSE or cone_mode == "reverse") and st.n == 2):
        _aim_skip(st, seat)
    elif r == REVERSE or cone_mode == "reverse":
        st.direction = -st.direction
        st.pend = P_NONE
        st.current = next_seat(st, seat)
    elif r == DRAW2:
        st.total += 2
        victim = next_seat(st, seat)
        st.pend = P_DRAW
        if st.reflect or stackable(st):  # the victim may have an answer: ask it
            st.aggressor = seat
            st.current = victim
        else:
            st.owed.append([victim, st.total])
            st.total = 0
            st.pend = P_NONE
            st.current = next_seat(st, victim)
    elif r == WILD4:
        st.total += 4
        st.pend = P_W4
        st.aggressor = seat
        # What the audit needs: the colour it had to lack and the hand it was played from.
        st.wd4.append([st.step - 1, seat, colour_before, tuple(hand), -1, -1, -1])
        st.current = next_seat(st, seat)
    elif cone_mode == "reflect" and answering != P_NONE:
        back = st.aggressor  # the effect turns back on whoever played it
        if st.total:
            st.owed.append([back, st.total])
            st.total = 0
        st.skips[back] += 1
        st.pend = P_NONE
        st.current = next_seat(st, seat)
    elif cone_mode == "draw10":
        victim = next_seat(st, seat)
        st.owed.append([victim, 10])
        st.pend = P_NONE
        st.current = next_seat(st, victim)
    else:  # a number, a Wild, a cone used as a plain wild
        st.pend = P_NONE
        st.current = next_seat(st, seat)
    if not finish_round_if_empty(st, seat) and len(hand) == 1 and len(move) == 4:
        st.kato = seat  # not called with the play: the catch window opens


def _aim_skip(st: KatoState, seat: int) -> None:
    victim = next_seat(st, seat)
    if st.reflect:  # the victim may hold a cone to send it back: it must answer
        st.pend = P_SKIP
        st.aggressor = seat
        st.current = victim
    else:
        st.pend = P_NONE
        st.current = next_seat(st, victim)


# --------------------------------------------------------------------------- listing


def legal_moves(st: KatoState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now that this copy can name (it must know the cards)."""
    if st.requests:
        return []
    out: list[Move] = []
    if st.kato >= 0:
        out.append(_KATO if seat == st.kato else _CATCH)
    if seat != st.current:
        return out
    phase = st.phase
    if phase == PLAY:
        if st.pend == P_NONE:
            _list_plays(st, seat, st.hands[seat], out)
            out.append(_DRAW)
        else:
            out.append(_ACCEPT)
            if st.pend == P_W4:
                out.append(_CHALLENGE)
            _list_plays(st, seat, st.hands[seat], out)
    elif phase == DRAWN:
        out.append(_PASS)
        if st.drawn >= 0 and st.drawn in st.card_of:
            _list_plays(st, seat, [st.drawn], out)
    elif phase == COLOUR_CHOICE:
        out.extend(("colour", c) for c in COLOURS)
    elif phase == VERDICT:
        truth = wd4_guilty(st, st.wd4[-1])
        if truth is None:
            out.extend(("verdict", v) for v in VERDICTS)
        else:
            out.append(("verdict", VERDICTS[truth]))
    else:
        return []
    return out


def _list_plays(st: KatoState, seat: int, firsts: list[int], out: list[Move]) -> None:
    card_of = st.card_of
    multi = st.opts.multi_play and st.pend == P_NONE
    calls = len(st.hands[seat]) - 1  # a play of this many cards may carry the KaTO call
    for h in firsts:
        code = card_of.get(h)
        if code is None or not playable(st, code):
            continue
        label = LABEL[code]
        if IS_WILD[code]:
            for c in COLOURS:
                _add_play(out, ("play", (h,), (label,), c), calls == 1)
            continue
        _add_play(out, ("play", (h,), (label,), ""), calls == 1)
        if multi and RANK[code] <= 9:
            _list_multi(st, seat, h, code, out, calls)


def _add_play(out: list[Move], move: Move, may_call: bool) -> None:
    """List ``move``, then, if it leaves one card, the same play with the KaTO call."""
    out.append(move)
    if may_call:
        out.append((*move, "kato"))


def _list_multi(st: KatoState, seat: int, h0: int, code0: int, out: list[Move], calls: int) -> None:
    card_of = st.card_of
    r = RANK[code0]
    others = [h for h in st.hands[seat] if h != h0 and h in card_of and RANK[card_of[h]] == r]
    if not others:
        return
    # Every subset of the others, in hand order, with each choice of the last card (the new
    # top). Large sets list only the full set, to keep the listing small; check accepts all.
    subsets: list[list[int]] = []
    if len(others) <= 5:
        for mask in range(1, 1 << len(others)):
            subsets.append([others[i] for i in range(len(others)) if mask >> i & 1])
    else:
        subsets.append(others)
    for sub in subsets:
        for last in sub:
            seq = (h0, *(x for x in sub if x != last), last)
            move = ("play", seq, tuple(LABEL[card_of[x]] for x in seq), "")
            _add_play(out, move, len(seq) == calls)

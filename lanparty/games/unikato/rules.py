"""Unikato moves: the single validator (``check``), ``apply`` and the legal-move lister.

Moves (canonical tuples; a tile leaving a hand always carries its label, which the mover
reveals to everyone):

* ``("place", handle, label, x, y)`` — lay a tile of your hand on cell (x, y). The first
  tile of a placing action may touch any tile; each next one must touch the one just laid.
* ``("done",)`` — end the placing action; at the start of a bonus action: decline it.
* ``("exchange", handle, label, take)`` — put a tile of your hand on the display and take
  ``take``: the handle of a tile that was already on the display, or ``"bag"``.
* ``("draw", source)`` — the end-of-turn draw: a display handle, or ``"bag"``.
* ``("pass",)`` — neither placing nor exchanging is possible (display and bag are empty).
"""

from __future__ import annotations

from protocol.contract import Deal, IllegalMove, Move, excerpt

from .board import SIDES, Cell, row_major, touches
from .flow import BAG, end_action, end_round, end_turn, give_up, learn, next_turn, pump, take_in
from .state import (
    ACT,
    CHAIN,
    DRAW,
    HAND,
    OVER,
    T_END_ACTION,
    T_NEXT_TURN,
    UnikatoState,
)
from .tiles import CODE, LABEL

_DONE: Move = ("done",)
_PASS: Move = ("pass",)


def _int(value: object) -> bool:
    return type(value) is int


# --------------------------------------------------------------------------- check


def check(st: UnikatoState, seat: int, move: Move) -> None:
    """Raise ``IllegalMove`` with the reason unless ``seat`` may make ``move`` now."""
    if st.requests:
        raise IllegalMove("the table is busy with a deal or reveal; wait for it")
    if type(move) is not tuple or not move:
        raise IllegalMove("a move is a non-empty tuple")
    if not _int(seat) or not 0 <= seat < st.n:
        raise IllegalMove(f"there is no seat {excerpt(seat)}")
    if st.phase == OVER:
        raise IllegalMove("the game is over")
    if seat != st.current:
        raise IllegalMove(f"it is not seat {seat}'s turn: seat {st.current} is playing")
    name = move[0]
    if name == "place":
        _check_place(st, seat, move)
    elif name == "exchange":
        _check_exchange(st, seat, move)
    elif name == "draw":
        _check_draw(st, move)
    elif name == "done":
        _check_done(st, move)
    elif name == "pass":
        _check_pass(st, seat, move)
    else:
        raise IllegalMove(f"unknown move {excerpt(name)}")


def _tile(st: UnikatoState, seat: int, handle: object, label: object) -> int:
    """The code of a hand tile the move names, after checking it is the mover's."""
    if not _int(handle) or handle not in st.hands[seat]:
        raise IllegalMove(f"tile {excerpt(handle)} is not in your hand")
    code = CODE.get(label) if type(label) is str else None
    if code is None:
        raise IllegalMove(f"{excerpt(label)} is not a unikato tile")
    known = st.card_of.get(handle)
    if known is not None and known != code:
        raise IllegalMove(f"tile {handle} is not {label}")
    other = st.handle_of.get(code)
    if other is not None and other != handle:
        raise IllegalMove(f"{label} is not in your hand: there is one of each tile")
    return code


def _not_in_draw(st: UnikatoState) -> None:
    if st.phase == DRAW:
        raise IllegalMove(
            f"your actions are over: draw a tile (you hold fewer than {HAND}), "
            "from the display or the bag"
        )


def _check_place(st: UnikatoState, seat: int, move: Move) -> None:
    if len(move) != 5:
        raise IllegalMove("a placement is ('place', handle, label, x, y)")
    _, handle, label, x, y = move
    _not_in_draw(st)
    code = _tile(st, seat, handle, label)
    if not _int(x) or not _int(y):
        raise IllegalMove(f"a cell is two whole numbers, not {excerpt((x, y))}")
    cell: Cell = (x, y)  # type: ignore[assignment]
    if st.phase == CHAIN:
        last = st.chain[-1]
        if cell not in st.board.at and not touches(cell, last):
            raise IllegalMove(
                f"each next tile must touch the tile you just placed at {last[0]}, {last[1]}"
            )
    reason = st.board.misfit(cell, code)
    if reason is not None:
        raise IllegalMove(reason)


def _check_exchange(st: UnikatoState, seat: int, move: Move) -> None:
    if len(move) != 4:
        raise IllegalMove("an exchange is ('exchange', handle, label, take)")
    _, handle, label, take = move
    _not_in_draw(st)
    if st.phase == CHAIN:
        raise IllegalMove("you are placing tiles: say 'done' to end that action first")
    _tile(st, seat, handle, label)
    if take == "bag" and type(take) is str:
        if not st.bag:
            raise IllegalMove("the bag is empty: take a tile from the display")
    elif _int(take) and take == handle:
        raise IllegalMove("you may not take back the tile you just put on the display")
    elif not _int(take) or take not in st.display:
        raise IllegalMove(f"tile {excerpt(take)} is not on the display (or take 'bag')")


def _check_draw(st: UnikatoState, move: Move) -> None:
    if len(move) != 2:
        raise IllegalMove("a draw is ('draw', source): a display tile or 'bag'")
    if st.phase != DRAW:
        raise IllegalMove(f"you draw only at the end of your turn, holding fewer than {HAND} tiles")
    source = move[1]
    if source == "bag" and type(source) is str:
        if not st.bag:
            raise IllegalMove("the bag is empty: draw from the display")
    elif not _int(source) or source not in st.display:
        raise IllegalMove(f"tile {excerpt(source)} is not on the display (or draw 'bag')")


def _check_done(st: UnikatoState, move: Move) -> None:
    if len(move) != 1:
        raise IllegalMove("'done' takes no arguments")
    _not_in_draw(st)
    if st.phase == ACT and st.acts == 0:
        raise IllegalMove("you have not acted yet: place a tile, exchange one, or pass")


def _check_pass(st: UnikatoState, seat: int, move: Move) -> None:
    if len(move) != 1:
        raise IllegalMove("'pass' takes no arguments")
    _not_in_draw(st)
    if st.phase != ACT or st.acts:
        raise IllegalMove("only a turn's first action may be a pass ('done' ends this one)")
    if st.display or st.bag:
        raise IllegalMove("you can exchange a tile, so you may not pass")
    # A copy that knows a tile of this hand (the player's own; everyone for a tile taken from
    # the display) refuses at once; what it cannot see, the audit judges.
    placeable = st.board.placeable()
    for h in st.hands[seat]:
        code = st.card_of.get(h)
        if code is not None and code in placeable:
            x, y = placeable[code]
            raise IllegalMove(f"you can place {LABEL[code]} at {x}, {y}: you may not pass")


# --------------------------------------------------------------------------- apply


def apply(st: UnikatoState, seat: int, move: Move) -> None:
    """Apply a checked move in place (then queue whatever the table must do next)."""
    st.step += 1
    name = move[0]
    if name == "place":
        _apply_place(st, seat, move)
    elif name == "exchange":
        handle: int = move[1]  # type: ignore[assignment]
        take = move[3]
        give_up(st, seat, handle)
        learn(st, handle, CODE[move[2]])  # type: ignore[index]
        st.display.append(handle)
        if take == "bag":
            st.requests.append(Deal(BAG, seat, (st.bag.pop(),)))
            st.then = T_END_ACTION
        else:
            st.display.remove(take)  # type: ignore[arg-type]
            take_in(st, seat, [take])  # type: ignore[list-item]
            st.open.add(take)  # type: ignore[arg-type]
            end_action(st)
    elif name == "draw":
        source = move[1]
        if source == "bag":
            st.requests.append(Deal(BAG, seat, (st.bag.pop(),)))
            st.then = T_NEXT_TURN
        else:
            st.display.remove(source)  # type: ignore[arg-type]
            take_in(st, seat, [source])  # type: ignore[list-item]
            st.open.add(source)  # type: ignore[arg-type]
            next_turn(st)
    elif name == "done":
        if st.phase == ACT:  # the bonus action is declined
            end_turn(st)
        else:
            end_action(st)
    else:  # pass
        placeable = st.board.placeable()
        fits = tuple((code, x, y) for code, (x, y) in sorted(placeable.items()))
        st.passes.append((st.step - 1, seat, tuple(st.hands[seat]), fits))
        next_turn(st)
    if not st.requests:
        pump(st)


def _apply_place(st: UnikatoState, seat: int, move: Move) -> None:
    handle: int = move[1]  # type: ignore[assignment]
    code = CODE[str(move[2])]
    x: int = move[3]  # type: ignore[assignment]
    y: int = move[4]  # type: ignore[assignment]
    give_up(st, seat, handle)
    learn(st, handle, code)
    cell = (x, y)
    touching = st.board.add(cell, code)
    st.placed.append((x, y, handle))
    st.chain.append(cell)
    st.placed_turn += 1
    st.phase = CHAIN
    if touching >= 2 and st.acts == 0:
        st.bonus = True
    if not st.hands[seat]:
        end_round(st, seat)


# --------------------------------------------------------------------------- listing


def legal_moves(st: UnikatoState, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now that this copy can name (it must know the tiles):
    placements (hand order, then cells top row first), exchanges, then done or pass."""
    if st.requests or st.phase not in (ACT, CHAIN, DRAW) or seat != st.current:
        return []
    out: list[Move] = []
    if st.phase == DRAW:
        out.extend(("draw", h) for h in st.display)
        if st.bag:
            out.append(("draw", "bag"))
        return out
    card_of = st.card_of
    known = [(h, card_of[h]) for h in st.hands[seat] if h in card_of]
    board = st.board
    if st.phase == CHAIN:
        lx, ly = st.chain[-1]
        cells = sorted(
            ((lx + dx, ly + dy) for dx, dy, _ in SIDES if (lx + dx, ly + dy) in board.fits),
            key=row_major,
        )
    else:
        cells = board.open_cells()
    fits = board.fits
    masks = [(cell, fits[cell]) for cell in cells]
    for h, code in known:
        label = LABEL[code]
        for (x, y), mask in masks:
            if mask >> code & 1:
                out.append(("place", h, label, x, y))
    if st.phase == CHAIN:
        out.append(_DONE)
        return out
    placements = len(out)
    for h, code in known:
        label = LABEL[code]
        for d in st.display:
            out.append(("exchange", h, label, d))
        if st.bag:
            out.append(("exchange", h, label, "bag"))
    if st.acts:
        out.append(_DONE)
    elif not st.display and not st.bag and not placements:
        out.append(_PASS)
    return out


__all__ = ["apply", "check", "legal_moves"]

"""What every game checks of a table result: that it answers the oldest pending request.

A game's ``resolve`` asks :func:`answered` first and then folds the result in by its kind,
knowing it is the answer it waited for (the same deck, seat and handles; a coin in range).
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.contract import (
    BadResult,
    CoinResult,
    Deal,
    Dealt,
    JointCoin,
    Request,
    Result,
    Revealed,
    RevealToAll,
    Shown,
    ShowToSeat,
    Shuffle,
    Shuffled,
    excerpt,
)

__all__ = ["answered"]


def _answers(req: Request, result: Result) -> bool:
    if isinstance(result, Shuffled):
        return isinstance(req, Shuffle) and (result.deck, result.handles) == (
            req.deck,
            req.handles,
        )
    if isinstance(result, Dealt):
        return isinstance(req, Deal) and (result.seat, result.handles) == (req.seat, req.handles)
    if isinstance(result, Revealed):
        return isinstance(req, RevealToAll) and result.handles == req.handles
    if isinstance(result, Shown):
        return isinstance(req, ShowToSeat) and (
            result.from_seat,
            result.to_seat,
            result.handles,
        ) == (req.from_seat, req.to_seat, req.handles)
    if isinstance(result, CoinResult):
        return (
            isinstance(req, JointCoin)
            and type(result.value) is int
            and 0 <= result.value < req.n
        )
    return False


def answered(game: str, requests: Sequence[Request], result: Result) -> Request:
    """The oldest of ``requests``, which ``result`` answers. Raises ``BadResult`` if none is
    pending, if ``result`` is of a kind ``game`` never asks for, or if it is not that
    request's answer (the state is then unchanged)."""
    if not isinstance(result, Shuffled | Dealt | Revealed | Shown | CoinResult):
        raise BadResult(f"{game} never asks for {type(result).__name__}")
    if not requests:
        raise BadResult("no table request is pending")
    req = requests[0]
    if not _answers(req, result):
        raise BadResult(f"expected the answer to {req}, got {excerpt(result)}")
    return req

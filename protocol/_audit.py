"""The end-of-game audit: with every seat's deck secrets published, unmask every card and
re-check what play could not (rules that depended on hidden cards, boxes shown to one)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from crypto import CryptoError, KeyShare, L, Point, SealKey, open_shown_cards

from ._deck import Cards
from ._events import AuditReport, Finding
from ._log import context
from .contract import Game, GameError


@dataclass(frozen=True, slots=True)
class ShowRecord:
    """A show-to-one as logged: the box's entry position, holder, recipient and cards."""

    pos: int
    holder: int
    recipient: int
    handles: tuple[int, ...]
    box: bytes


def reveal_all(cards: Cards, secrets: Sequence[int]) -> dict[int, str]:
    """Every handle's label, unmasked with the sum of all key secrets.

    Raises ``ProofError`` if a handle does not unmask to a card of its deck (impossible after
    verified shuffles and secrets that match their key shares).
    """
    x = sum(secrets) % L
    return {h: cards.label(h, ct.b - ct.a * x) for h, ct in sorted(cards.ct.items())}


def audit(
    *,
    table: bytes,
    game: Game[Any],
    state: Any,
    cards: Cards,
    key_secrets: Sequence[int],
    seal_secrets: Sequence[bytes],
    key_publics: Sequence[Point],
    shows: Sequence[ShowRecord],
    inputs: Sequence[int],
) -> AuditReport:
    """Re-check a finished game with every secret known; returns every finding.

    ``inputs[i]`` is the log position of the game's i-th input, so each rule the game's own
    ``audit`` names is reported with its seat and log position.
    """
    findings: list[Finding] = []
    labels = reveal_all(cards, key_secrets)
    for h, label in cards.public.items():
        if labels.get(h) != label:
            findings.append(Finding(-1, -1, "public-card", f"card {h} was revealed wrongly"))
    for show in shows:
        cts = [cards.ct[h] for h in show.handles]
        ctx = context(table, "show", show.pos, show.holder)
        try:
            open_shown_cards(
                SealKey(seal_secrets[show.recipient]), show.box, cts, key_publics[show.holder], ctx
            )
        except CryptoError as exc:
            findings.append(Finding(show.pos, show.holder, "show-box", str(exc)))
    try:
        violations = game.audit(state, labels)
    except GameError as exc:
        findings.append(Finding(-1, -1, "game-audit", f"the game could not audit: {exc}"))
        violations = []
    for v in violations:
        pos = inputs[v.step] if 0 <= v.step < len(inputs) else -1
        findings.append(Finding(pos, v.seat, v.rule, v.detail))
    return AuditReport(tuple(findings))


def secret_matches(secret: bytes, public: Point) -> int | None:
    """The scalar in ``secret`` if it is canonical and its public key is ``public``."""
    x = int.from_bytes(secret, "little")
    if x >= L or KeyShare(x).public != public:
        return None
    return x

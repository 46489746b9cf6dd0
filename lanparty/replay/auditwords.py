"""An audit's verdict told: for a person in the reader's language (:func:`verdict_text`,
:func:`status_words`) and for scripts as one JSON-ready object, in English whatever the
language (:func:`verdict_json`). The verdict itself: :mod:`lanparty.replay.audit`."""

from __future__ import annotations

import json
from typing import Any

from lanparty.games import PLUGINS
from lanparty.i18n import _, catalogue, language, ngettext, pgettext
from lanparty.replay.audit import Verdict
from protocol import Finding
from protocol.contract import Plain

__all__ = ["status_words", "verdict_json", "verdict_text"]


def status_words(status: str) -> str:
    """A verdict's status (``Verdict.status``, as ``--json`` gives it) in the reader's words."""
    words = {"passed": pgettext("verdict", "passed"), "failed": pgettext("verdict", "failed"),
             "incomplete": pgettext("verdict", "incomplete")}  # fmt: skip
    return words.get(status, status)


def verdict_json(v: Verdict) -> dict[str, Any]:
    """The verdict as one JSON-ready object (``--json``)."""
    out = v.outcome
    return {
        "file": v.path,
        "game": v.game,
        "options": v.options,
        "seats": v.seats,
        "names": v.names,
        "keys": v.keys,
        "entries": v.entries,
        "kinds": v.kinds,
        "complete": v.complete,
        "stage": v.stage(),
        "game_over": bool(out and out.finished),
        "scores": list(out.totals) if out else [],
        "rounds": [list(r) for r in out.rounds] if out else [],
        "winners": [v.name(w) or w for w in out.winners] if out else [],
        "findings": [_finding_json(v, f) for f in v.findings],
        "audit_ok": v.passed,
        "verdict": v.status,
        "stopped": None if v.complete or v.error else v.stopped(),
        "waiting_for": _waiting_json(v),
        "error": v.error or None,
        "error_pos": v.error_pos,
        "table": v.table_id.hex() if v.table_id is not None else None,
        "night": _night_json(v),
        "closing": v.closing.hex() if v.closing is not None else None,
    }


def _night_json(v: Verdict) -> dict[str, Any] | None:
    """The table's night link, its ids and digest in hex (``None``: it starts a night)."""
    n = v.night
    if n is None:
        return None
    return {"first": n.first.hex(), "after": n.after.hex(), "digest": n.digest.hex(),
            "number": n.number}  # fmt: skip


def _waiting_json(v: Verdict) -> dict[str, Any] | None:
    if v.complete or v.error or v.waiting is None:
        return None
    seat, owed = v.waiting
    # ``withheld``: a protocol entry, kept back by that seat or by the host (who relays it).
    return {"seat": seat, "name": v.name(seat), "owed": owed, "withheld": v.withheld}


def _finding_json(v: Verdict, f: Finding) -> dict[str, Any]:
    return {"pos": f.pos, "seat": f.seat, "name": v.name(f.seat), "rule": f.rule,
            "detail": f.detail}  # fmt: skip


def _finding_line(v: Verdict, f: Finding) -> str:
    """One rule broken that nobody challenged, in the reader's words (the rule's tag in words
    where the game's screen has them, outside English; the detail is the game's)."""
    name = v.name(f.seat)
    who = _("seat {seat} ({name})").format(seat=f.seat, name=name) if name else _("no seat")
    where = (_("log position {pos}").format(pos=f.pos) if f.pos >= 0
             else _("no log position"))  # fmt: skip
    return f"  - {_rule(v.game, f.rule)}: {who}, {where}: {f.detail}"


def _rule(game: str, rule: str) -> str:
    """A broken rule's tag, in words outside English (the tag itself in English: scripts
    and the docs quote it)."""
    if language() == "en" or game not in PLUGINS:
        return rule
    said = PLUGINS[game].screen().humanize(rule)
    return rule if said == rule else f"{said} ({rule})"


def _option(value: Plain) -> str:
    """An option value as ``--option`` takes it (``rounds=1``, ``stacking=true``)."""
    return value if isinstance(value, str) else json.dumps(value, default=bytes.hex)


def verdict_text(v: Verdict) -> str:
    """The verdict for a human in the reader's language, several lines ending in ``audit
    passed`` or ``incomplete: stopped at entry N, waiting for …; everything up to there
    verified``; each line a label, in one column, then what it says."""
    opts = ", ".join(f"{k}={_option(val)}" for k, val in sorted(v.options.items()))
    seats = ", ".join(
        f"{i}: {n} [{k}]" for i, (n, k) in enumerate(zip(v.names, v.keys, strict=True))
    )
    t = catalogue()
    rows = [
        (pgettext("audit", "transcript"), v.path),
        (pgettext("audit", "game"), f"{v.game} ({opts})" if opts else v.game),
        (pgettext("audit", "seats"), _("{count} of {seats}: {names}").format(
            count=len(v.names), seats=v.seats, names=seats)),
        (pgettext("audit", "entries"), str(v.entries)),
        (pgettext("audit", "complete"), (_("yes: {stage}") if v.complete else _("no: {stage}"))
         .format(stage=v.stage(t))),
    ]  # fmt: skip
    out = v.outcome
    outcome = pgettext("audit", "outcome")
    if out is not None and out.finished:
        scores = ", ".join(f"{v.name(s)} {total}" for s, total in enumerate(out.totals))
        winners = ", ".join(v.name(w) or str(w) for w in out.winners)
        rows.append((outcome, _("winner: {winners}; scores: {scores}").format(
            winners=winners, scores=scores)))  # fmt: skip
    elif out is not None:
        rows.append((outcome, _("none: the game did not end")))
    broken = pgettext("audit", "rules broken")
    if v.findings:
        n = len(v.findings)
        rows.append((broken, ngettext("{n}, that nobody challenged:",
                                      "{n}, that nobody challenged:", n).format(n=n)))
    elif v.complete or v.kinds.get("secrets", 0) >= len(v.names):
        rows.append((broken, _("none")))
    else:  # the secrets that open every hidden card were never published
        rows.append((broken, _("none seen; the rules that depend on hidden cards could not be "
                               "checked (the game stopped before its audit)")))
    if v.withheld:  # a protocol entry never came: its seat, or the host, kept it back
        seat, _owed = v.waiting or (-1, "")
        rows.append((pgettext("audit", "why"), _("either {who} or the host withheld it: the "
                     "host relays every entry, and its halt is not a signed entry, so the log "
                     "cannot tell which").format(who=v.who(seat, t))))  # fmt: skip
    elif not v.complete:
        rows.append((pgettext("audit", "why"), _("not in the log: the host's halt is not a "
                     "signed entry (the players were told who left, vanished or stalled)")))
    width = max(len(label) for label, _said in rows)
    lines = [f"{label:<{width}} {said}" for label, said in rows]
    if v.findings:  # listed under their row
        at = next(i for i, (label, _said) in enumerate(rows) if label == broken) + 1
        lines[at:at] = [_finding_line(v, f) for f in v.findings]
    if v.complete:
        lines.append(_("audit passed"))
    else:
        lines.append(_("incomplete: {stopped}; everything up to there verified").format(
            stopped=v.stopped(t)))  # fmt: skip
    return "\n".join(lines)
